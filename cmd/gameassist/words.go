package main

import (
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/gamedata"
)

// sampleWords names the sample game's words for the model, in the
// session's locale, as the game shows them to players: its effect
// identifiers ("decrease_def" is "Decrease DEF", "Baisse de DÉF") and its
// fixed words (the affinity "Magic" is "Magie" in French). The names are
// looked up once, at start-up: a turn looks up every short string of its
// tool results.
type sampleWords struct {
	byLocale map[string]map[string]string
}

// newSampleWords reads the sample game's names in each of its locales.
func newSampleWords() sampleWords {
	words := append(append(gamedata.Affinities(), gamedata.Roles()...), gamedata.Rarities()...)
	w := sampleWords{byLocale: map[string]map[string]string{}}
	for _, loc := range gamedata.Locales() {
		names := map[string]string{}
		for _, e := range gamedata.Effects() {
			names[e.Key] = gamedata.EffectLabel(e.Key, loc)
		}
		for _, word := range words {
			if n, ok := gamedata.WordLabel(word, loc); ok {
				names[word] = n
			}
		}
		w.byLocale[loc] = names
	}
	return w
}

// Words is the sample game's names in locale (English's for a locale the
// game does not have).
func (w sampleWords) Words(locale string) chat.Words {
	names, ok := w.byLocale[locale]
	if !ok {
		names = w.byLocale["en"]
	}
	return func(word string) (string, bool) {
		n, ok := names[word]
		return n, ok
	}
}
