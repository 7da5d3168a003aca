package offline

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/gameassist/gameassist/gcsdb"
)

// Kind is the kind of a game entity the responder recognises in messages:
// the game read model's kinds.
type Kind = gcsdb.Kind

// The entity kinds the responder has intents for (the read model's kinds,
// masteries aside).
const (
	KindChampion = gcsdb.KindChampion
	KindBoss     = gcsdb.KindBoss
	KindFaction  = gcsdb.KindFaction
	KindDungeon  = gcsdb.KindDungeon
	KindGearSet  = gcsdb.KindGearSet
)

// Entity is a named game entity found in a message.
type Entity struct {
	Kind Kind   `json:"kind"`
	ID   string `json:"id"`
	Name string `json:"name"`
	// Names are the entity's display names by locale, when they differ
	// from Name.
	Names map[string]string `json:"names,omitempty"`
}

// Display is the entity's name in locale, Name when it has none there.
func (e Entity) Display(locale string) string {
	if n := e.Names[locale]; n != "" {
		return n
	}
	return e.Name
}

// tokens lowercases s, drops accents and splits it into words; a
// possessive 's is dropped and apostrophes inside words are removed, so
// "Ka'zul's" is "kazul" and "Éloïse" is "eloise".
func tokens(s string) []string {
	fields := strings.FieldsFunc(foldAccents(strings.ToLower(s)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
	out := fields[:0]
	for _, f := range fields {
		f = dropElision(f)
		f = strings.TrimSuffix(strings.TrimSuffix(f, "'s"), "’s")
		f = apostrophes.Replace(f)
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// apostrophes removes apostrophes inside words (built once: a Replacer
// builds its lookup table on first use).
var apostrophes = strings.NewReplacer("'", "", "’", "")

// elisions are French elided words that an apostrophe joins to the next
// one ("d'énergie", "l'affinité", "qu'est").
var elisions = []string{"jusqu", "lorsqu", "puisqu", "qu", "l", "d", "j", "n", "s", "c", "m", "t"}

// dropElision drops a leading French elision, so "d'energie" is the word
// "energie".
func dropElision(f string) string {
	for _, e := range elisions {
		for _, ap := range []string{"'", "’"} {
			if rest, ok := strings.CutPrefix(f, e+ap); ok && rest != "" {
				return rest
			}
		}
	}
	return f
}

// foldAccents removes combining marks after canonical decomposition, so
// players who type without accents still match accented names.
func foldAccents(s string) string {
	d := norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
