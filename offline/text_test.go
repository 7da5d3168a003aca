package offline

import (
	"strings"
	"testing"
)

func TestCutSentences(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		max, sent int
		want      string
	}{
		{"fits", "One. Two.", 100, 3, "One. Two."},
		{"sentence cap", "One. Two. Three.", 100, 2, "One. Two. …"},
		{"rune cap", "First sentence here. Second one is long.", 25, 3, "First sentence here. …"},
		{"one long sentence cut at a word", "attacks one enemy and places a debuff for each debuff on the target", 30, 2, "attacks one enemy and places …"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := cutSentences(tc.in, tc.max, tc.sent)
			if got != tc.want {
				t.Errorf("cutSentences = %q, want %q", got, tc.want)
			}
			if strings.Contains(got, "deb…") {
				t.Errorf("cut mid-word: %q", got)
			}
		})
	}
}

func TestPlainBlocksDropsMarkupOutsideTheSubset(t *testing.T) {
	md := "# Title\n\nSome **bold** text with a [link](http://x) and `code`.\n\n| a | b |\n|---|---|\n\n- item one\n* item two\n<b>html</b>"
	got := strings.Join(plainBlocks(md), "\n")
	want := "Some **bold** text with a link and code.\nitem one\nitem two\nhtml"
	if got != want {
		t.Errorf("plainBlocks =\n%s\nwant\n%s", got, want)
	}
}

func TestUpperFirstStartsTheLeadWithACapital(t *testing.T) {
	tests := []struct{ in, want string }{
		{"champions (ATK), best first: **Tekaek**.", "Champions (ATK), best first: **Tekaek**."},
		{"**kaelith** is strong.", "**Kaelith** is strong."},
		{"élan vital", "Élan vital"},
		{"Already upper.", "Already upper."},
		{"1,507 ATK", "1,507 ATK"},
		{"", ""},
		{"**", "**"},
	}
	for _, tt := range tests {
		if got := upperFirst(tt.in); got != tt.want {
			t.Errorf("upperFirst(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := (reply{lead: "champions (SPD), best first: **Vorenyn** (110)."}).String(); !strings.HasPrefix(got, "Champions (SPD)") {
		t.Errorf("reply lead = %q, want it to start with a capital", got)
	}
}

func TestTokensDropFrenchElisions(t *testing.T) {
	tests := []struct{ in, want string }{
		{"comment obtenir plus d'énergie ?", "comment obtenir plus energie"},
		{"qu’est-ce que l'affinité", "est ce que affinite"},
		{"Fire Knight's Castle", "fire knight castle"},
		{"don't stop", "dont stop"},
	}
	for _, tt := range tests {
		if got := strings.Join(tokens(tt.in), " "); got != tt.want {
			t.Errorf("tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
