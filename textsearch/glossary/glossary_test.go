package glossary

import (
	"strings"
	"testing"
)

func mustParse(t *testing.T, data string) *Glossary {
	t.Helper()
	g, err := Parse("glossary.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestExpand(t *testing.T) {
	g := mustParse(t, `{
		"fr": {"jauge de tour": "turn meter", "tour": "turn", "énergie": "energy", "obtenir": "get", "plus": "more", "boss": "boss"},
		"de": {"Zugleiste": "turn meter", "Energie": "energy"}
	}`)
	tests := []struct{ name, in, want string }{
		{"phrase and elision", "comment obtenir plus d'énergie ?", "comment obtenir plus d'énergie ?\nget; more; energy"},
		{"longest phrase first", "la jauge de tour", "la jauge de tour\nturn meter"},
		{"shorter phrase alone", "un tour de plus", "un tour de plus\nturn; more"},
		{"case-insensitive, each term once", "ZUGLEISTE und Zugleiste, Energie", "ZUGLEISTE und Zugleiste, Energie\nturn meter; energy"},
		{"whole words only", "tourner énergiquement", "tourner énergiquement"},
		{"same word in both languages adds nothing", "boss phases", "boss phases"},
		{"nothing to add", "how do I get more energy?", "how do I get more energy?"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := g.Expand(tt.in); got != tt.want {
				t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	var none *Glossary
	if none.Expand("énergie") != "énergie" || none.Len() != 0 {
		t.Error("a nil glossary expands")
	}
	if g.Len() != 7 {
		t.Errorf("Len = %d, want 7 (the identity entry left out)", g.Len())
	}
}

// TestParseRefuses: a glossary file is outside input; each error names the
// file, the locale and the phrase.
func TestParseRefuses(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"not JSON", `{"fr": `, "glossary.json: not a JSON object"},
		{"not an object of objects", `{"fr": ["énergie"]}`, "glossary.json: not a JSON object"},
		{"two values", `{} {}`, "more than one JSON value"},
		{"bad locale", `{"FR-fr": {"a": "b"}}`, `locale "FR-fr"`},
		{"no word", `{"fr": {"?!": "turn"}}`, `glossary.json: fr: "?!": phrase has no word`},
		{"empty terms", `{"fr": {"tour": "  "}}`, `fr: "tour": empty terms`},
		{"long phrase", `{"de": {"` + strings.Repeat("a", 61) + `": "x"}}`, "phrase over 60 characters"},
		{"many words", `{"de": {"a b c d e f g": "x"}}`, "phrase over 6 words"},
		{"long terms", `{"de": {"a": "` + strings.Repeat("x", 101) + `"}}`, "terms over 100 characters"},
		{"control character", `{"de": {"a": "x\u0007"}}`, "control character"},
		{"too big", `{"de": {"a": "` + strings.Repeat("x", MaxBytes) + `"}}`, "over the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Parse("glossary.json", []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) || g != nil {
				t.Fatalf("Parse = %v, %v; want an error containing %q", g, err, tt.want)
			}
		})
	}
}

// FuzzExpand: any query keeps its text first and adds bounded terms.
func FuzzExpand(f *testing.F) {
	g, err := Parse("glossary.json", []byte(`{"fr": {"jauge de tour": "turn meter", "énergie": "energy"}}`))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"la jauge de tour", "d'énergie", "", "\xff\xfe", strings.Repeat("énergie ", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		out := g.Expand(q)
		if !strings.HasPrefix(out, q) || len(out) > len(q)+maxAdded*(MaxTermRunes*4+2)+1 {
			t.Fatalf("Expand(%q) = %q", q, out)
		}
	})
}

func TestContainsAndCovers(t *testing.T) {
	g := mustParse(t, `{"fr": {"jauge de tour": "turn meter"}, "de": {"Zugleiste": "turn meter", "Energie": "energy"}}`)
	for _, tt := range []struct {
		text             string
		contains, covers bool
	}{
		{"comment fonctionne la jauge de tour ?", true, false},
		{"Zugleiste", true, true},
		{"Energie Zugleiste", true, true},
		{"jauge de tour", true, true},
		{"jauge", false, false},
		{"Schattendrache", false, false},
		{"", false, false},
	} {
		if got := g.Contains(tt.text); got != tt.contains {
			t.Errorf("Contains(%q) = %v", tt.text, got)
		}
		if got := g.Covers(tt.text); got != tt.covers {
			t.Errorf("Covers(%q) = %v", tt.text, got)
		}
	}
	var none *Glossary
	if none.Contains("Zugleiste") || none.Covers("Zugleiste") {
		t.Error("a nil glossary matches")
	}
}
