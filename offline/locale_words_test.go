package offline_test

import (
	"regexp"
	"strings"
	"testing"
)

// englishInReply finds words of English sentences; bold names and
// bracketed effect labels (the game's own words) are taken out first.
var (
	englishInReply = regexp.MustCompile(`(?i)\b(the|of|and|is|are|enemy|enemies|allies|turns?|chance of|placing|places|attacks|heals|grants|against|best|counters)\b`)
	namesAndLabels = regexp.MustCompile(`\*\*[^*]+\*\*|\[[^\]]*\]`)
	snakeCase      = regexp.MustCompile(`\b[a-z]+_[a-z_]+\b`)
)

// TestFrenchAndGermanSkillsAndCounters: French and German answers about
// champions' skills and a boss's counters carry no English sentence and no
// internal identifier.
func TestFrenchAndGermanSkillsAndCounters(t *testing.T) {
	w := newSampleWorld(t)
	qs := []struct{ l, s string }{
		{"fr", "quelles sont les compétences de Kaelith ?"},
		{"fr", "quelles sont les compétences de Tekaek ?"},
		{"fr", "quelles sont les compétences de Xaek ?"},
		{"fr", "qui contre le Chevalier de Feu ?"},
		{"fr", "Kaelith est-elle bonne contre le Chevalier de Feu ?"},
		{"de", "Welche Fähigkeiten hat Kaelith?"},
		{"de", "Welche Fähigkeiten hat Liande?"},
		{"de", "Welche Fähigkeiten hat Sediek?"},
		{"de", "Wer kontert den Feuerritter?"},
		{"de", "Ist Kaelith gut gegen den Feuerritter?"},
	}
	for _, q := range qs {
		a := w.askIn(t, &conversation{}, q.l, nil, q.s)
		plain := namesAndLabels.ReplaceAllString(a.Text, "")
		if m := englishInReply.FindString(plain); m != "" {
			t.Errorf("%s %q: English %q in\n%s", q.l, q.s, m, a.Text)
		}
		if m := snakeCase.FindString(a.Text); m != "" {
			t.Errorf("%s %q: identifier %q in\n%s", q.l, q.s, m, a.Text)
		}
		if len(strings.TrimSpace(a.Text)) < 20 {
			t.Errorf("%s %q: no answer: %q", q.l, q.s, a.Text)
		}
	}
}
