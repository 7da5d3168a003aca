package terms

import (
	"slices"
	"strings"
	"testing"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{name: "stop words and stems", in: "What are Kaelith's abilities?", want: []string{"kaelith", "ability"}},
		{name: "camel case", in: "ChampionFeatureModelsPresenter", want: []string{"championfeaturemodelspresenter", "champion", "feature", "model", "presenter"}},
		{name: "verbs", in: "attacking stunned heals", want: []string{"attack", "stun", "heal"}},
		{name: "unicode", in: "Élise défend", want: []string{"élise", "défend"}},
		{name: "empty", in: "  ?! ", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Terms(tt.in); !slices.Equal(got, tt.want) {
				t.Fatalf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	if got := Normalize("  Gorath, the-Devourer! "); got != "gorath the devourer" {
		t.Fatalf("got %q", got)
	}
}

func TestLongTokenCapped(t *testing.T) {
	w := Words(strings.Repeat("é", 100))
	if len(w) != 1 || len(w[0]) > maxTokenBytes {
		t.Fatalf("got %d tokens, first %d bytes", len(w), len(w[0]))
	}
}

func FuzzTerms(f *testing.F) {
	f.Add("Kaelith's Moonshot ChampionFeatureModelsPresenter")
	f.Add("\xff\xfeabc")
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range Terms(s) {
			if w == "" || len(w) > maxTokenBytes+1 {
				t.Fatalf("bad term %q", w)
			}
		}
	})
}
