package main

import (
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/gamedata"
)

// sampleWords names the sample game's effect identifiers ("decrease_def")
// for the model, in the session's locale, as the game shows them to
// players ("Decrease DEF", "Baisse de DEF").
type sampleWords struct{}

// Words is the sample game's effect names in locale.
func (sampleWords) Words(locale string) chat.Words {
	return func(id string) (string, bool) {
		if _, ok := gamedata.EffectByKey(id); !ok {
			return "", false
		}
		return gamedata.EffectLabel(id, locale), true
	}
}
