package main

import (
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/gamedata"
)

// sampleWords names the sample game's words for the model, in the
// session's locale, as the game shows them to players: its effect
// identifiers ("decrease_def" is "Decrease DEF", "Baisse de DÉF") and its
// fixed words (the affinity "Magic" is "Magie" in French).
type sampleWords struct{}

// Words is the sample game's names in locale.
func (sampleWords) Words(locale string) chat.Words {
	return func(w string) (string, bool) {
		if _, ok := gamedata.EffectByKey(w); ok {
			return gamedata.EffectLabel(w, locale), true
		}
		return gamedata.WordLabel(w, locale)
	}
}
