// Package glossary maps a game's words in other languages to the words of
// its documents, so a French or German question finds the English passage:
// a query is searched with the document-language terms of the phrases it
// contains added to it. A studio ships one glossary per game (glossary.json
// at the root of its content directory); its phrases are the game's terms
// ("jauge de tour" → "turn meter"), not a dictionary.
package glossary

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FileName is the glossary's name at the root of a content directory.
const FileName = "glossary.json"

// Limits of a glossary file: it is read from disk and must not make every
// query slow or memory heavy.
const (
	MaxBytes       = 1 << 20
	MaxEntries     = 5000
	MaxPhraseRunes = 60
	MaxTermRunes   = 100
	maxPhraseWords = 6
	maxAdded       = 24 // terms added to one query at most
)

// Glossary holds phrases of other languages and the document-language terms
// each stands for. The zero value and nil expand nothing. It is read-only
// after Parse, so safe for concurrent use.
type Glossary struct {
	byFirst map[string][]entry // by the phrase's first word, longest first
	n       int
}

// entry is one phrase, as words, and its terms.
type entry struct {
	words []string
	terms string
}

// Parse reads a glossary: a JSON object of locale codes, each an object of
// phrase → terms, e.g. {"fr": {"jauge de tour": "turn meter"}}. Errors name
// the file (name), the locale and the phrase.
func Parse(name string, data []byte) (*Glossary, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%s: %d bytes, over the limit of %d", name, len(data), MaxBytes)
	}
	var raw map[string]map[string]string
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object of locales, each an object of phrase to terms: %w", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: more than one JSON value", name)
	}
	g := &Glossary{byFirst: map[string][]entry{}}
	locales := make([]string, 0, len(raw))
	for loc := range raw {
		locales = append(locales, loc)
	}
	slices.Sort(locales)
	for _, loc := range locales {
		if !validLocale(loc) {
			return nil, fmt.Errorf("%s: locale %q: want a code of 2 to 8 letters, such as fr or de", name, loc)
		}
		phrases := make([]string, 0, len(raw[loc]))
		for p := range raw[loc] {
			phrases = append(phrases, p)
		}
		slices.Sort(phrases)
		for _, p := range phrases {
			if err := g.add(p, raw[loc][p]); err != nil {
				return nil, fmt.Errorf("%s: %s: %q: %w", name, loc, p, err)
			}
		}
	}
	for k := range g.byFirst {
		slices.SortStableFunc(g.byFirst[k], func(a, b entry) int { return len(b.words) - len(a.words) })
	}
	return g, nil
}

func (g *Glossary) add(phrase, terms string) error {
	if g.n >= MaxEntries {
		return fmt.Errorf("more than %d phrases", MaxEntries)
	}
	if utf8.RuneCountInString(phrase) > MaxPhraseRunes {
		return fmt.Errorf("phrase over %d characters", MaxPhraseRunes)
	}
	words := Words(phrase)
	switch {
	case len(words) == 0:
		return errors.New("phrase has no word")
	case len(words) > maxPhraseWords:
		return fmt.Errorf("phrase over %d words", maxPhraseWords)
	}
	terms = strings.Join(strings.Fields(terms), " ")
	switch {
	case terms == "":
		return errors.New("empty terms")
	case utf8.RuneCountInString(terms) > MaxTermRunes:
		return fmt.Errorf("terms over %d characters", MaxTermRunes)
	case strings.ContainsFunc(terms, unicode.IsControl):
		return errors.New("terms hold a control character")
	}
	if slices.Equal(Words(terms), words) {
		return nil // the same words in both languages: nothing to add
	}
	g.byFirst[words[0]] = append(g.byFirst[words[0]], entry{words: words, terms: terms})
	g.n++
	return nil
}

func validLocale(s string) bool {
	if len(s) < 2 || len(s) > 8 {
		return false
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// Len is the number of phrases.
func (g *Glossary) Len() int {
	if g == nil {
		return 0
	}
	return g.n
}

// Expand returns text followed by the terms of the glossary phrases it
// contains (whole words, case-insensitive, longest phrase first; each term
// once), or text unchanged when it contains none.
func (g *Glossary) Expand(text string) string {
	added := g.terms(text, maxAdded)
	if len(added) == 0 {
		return text
	}
	return text + "\n" + strings.Join(added, "; ")
}

// Contains reports whether text contains a phrase of the glossary: it
// speaks of the game in one of the glossary's languages.
func (g *Glossary) Contains(text string) bool { return len(g.terms(text, 1)) > 0 }

// Covers reports whether every word of text is part of a glossary phrase
// (and text has a word): text is one of the game's terms, not a name.
func (g *Glossary) Covers(text string) bool {
	if g == nil || g.n == 0 {
		return false
	}
	words := Words(text)
	for i := 0; i < len(words); {
		n := 0
		for _, e := range g.byFirst[words[i]] {
			if len(e.words) <= len(words)-i && slices.Equal(e.words, words[i:i+len(e.words)]) {
				n = len(e.words)
				break
			}
		}
		if n == 0 {
			return false
		}
		i += n
	}
	return len(words) > 0
}

// terms returns the terms of the phrases text contains, at most max.
func (g *Glossary) terms(text string, max int) []string {
	if g == nil || g.n == 0 {
		return nil
	}
	words := Words(text)
	var added []string
	for i := 0; i < len(words) && len(added) < max; {
		n := 1
		for _, e := range g.byFirst[words[i]] {
			if len(e.words) <= len(words)-i && slices.Equal(e.words, words[i:i+len(e.words)]) {
				if !slices.Contains(added, e.terms) {
					added = append(added, e.terms)
				}
				n = len(e.words)
				break
			}
		}
		i += n
	}
	return added
}

// Words splits text into lower-case words of letters and digits; an
// apostrophe ends a word, so French elisions ("d'énergie") give the word.
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
