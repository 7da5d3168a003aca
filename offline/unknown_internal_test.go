package offline

import (
	"slices"
	"testing"

	"github.com/gameassist/gameassist/gcsdb/resolve"
)

// Proper names are capitalised runs not at a sentence start (or quoted),
// with the small words names hold, without the kind nouns around them and
// without runs of the game's vocabulary.
func TestProperNames(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		want      []string
	}{
		{"possessive", "what do I get for clearing Dragon's Lair?", []string{"Dragon's Lair"}},
		{"one letter I is no name", "can I win?", nil},
		{"sentence start alone", "Zorblax is strong?", nil},
		{"sentence start with a following capital", "Shadow Hydra is weak to what?", []string{"Shadow Hydra"}},
		{"french connector and elision", "que rapporte l'Antre du Dragon ?", []string{"Antre du Dragon"}},
		{"german kind noun trimmed", "Was bringt das Verlies Drachenhort?", []string{"Drachenhort"}},
		{"vocabulary only", "How does Decrease DEF work?", nil},
		{"a name after a sentence end", "Hi. Tell me about Kaelith.", []string{"Kaelith"}},
		{"quoted at the start", `"zorblax" who is it`, []string{"zorblax"}},
		{"german quotes", "wer ist „Zorblax“?", []string{"Zorblax", "Zorblax"}},
		{"trailing connector dropped", "who beats Frost of?", []string{"Frost"}},
		{"kind noun after the name kept", "is Kaelith good for Clan Boss?", []string{"Kaelith", "Clan Boss"}},
		{"all capitals: only quotes", `WHO IS "ZORBLAX" OR DRAGON'S LAIR?`, []string{"ZORBLAX"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, s := range properNames(tc.msg, messageWords(tc.msg)) {
				got = append(got, s.text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("properNames(%q) = %q, want %q", tc.msg, got, tc.want)
			}
		})
	}
}

func TestEchoName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Dragon's Lair", "Dragon's Lair"},
		{"Zor\u202eblax\u200b", "Zorblax"},
		{"a\x00b\tc\nd", "a b c d"},
		{"**bold** `code` <b>[x]</b> _y_", "bold code bx/b y"},
		{"“quoted” «name»", "quoted name"},
		{"St. Mary? Yes! Ok…", "St Mary Yes Ok"},
	} {
		if got := echoName(tc.in); got != tc.want {
			t.Errorf("echoName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNearFold(t *testing.T) {
	for _, tc := range []struct {
		q, f string
		want bool
	}{
		{"shadow hydra", "shadow twins", true},         // a shared word
		{"schattendrachen", "schattenzwillinge", true}, // the same start of a compound
		{"frostpeek clans", "frostpeak clans", true},   // a letter apart
		{"dragons lair", "bone throne", false},
		{"zorblax", "zerenos", false},
		{"the lair", "the throne", false}, // a connector is no shared word
	} {
		if got := nearFold(tc.q, tc.f); got != tc.want {
			t.Errorf("nearFold(%q, %q) = %v, want %v", tc.q, tc.f, got, tc.want)
		}
	}
}

// With no names to compare with (a studio's own game), no name is unknown.
func TestUnknownNameNeedsNames(t *testing.T) {
	for _, e := range []entities{{}, {idx: resolve.New(nil)}} {
		if u, _, ok := e.unknownName("how do I beat the Shadow Hydra?"); ok {
			t.Errorf("unknown name %+v with %d names", u, lenOf(e))
		}
	}
}

func lenOf(e entities) int {
	if e.idx == nil {
		return 0
	}
	return e.idx.Len()
}
