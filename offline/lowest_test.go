package offline_test

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
)

// TestSuperlativeFromBelow: "the slowest", "the least HP" and their fr/de
// forms search the stat lowest first; "at least" is a minimum and the
// usual superlatives stay highest first; a superlative naming a rarity or
// role after a list is a search of its own, not a choice among the list.
func TestSuperlativeFromBelow(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct {
		locale, say, sort string
		lowest            bool
	}{
		{"en", "who is the slowest champion?", "spd", true},
		{"en", "who has the lowest HP?", "hp", true},
		{"en", "which champion has the least defense?", "def", true},
		{"en", "who is the squishiest champion?", "hp", true},
		{"fr", "quel est le champion le plus lent ?", "spd", true},
		{"fr", "qui a le moins de PV ?", "hp", true},
		{"de", "wer ist der langsamste Champion?", "spd", true},
		{"de", "wer hat die niedrigste Verteidigung?", "def", true},
		{"en", "who is the fastest champion?", "spd", false},
		{"en", "who is the fastest champion with at least 1500 ATK?", "spd", false},
	} {
		a := w.ask(t, tc.locale, nil, tc.say)
		got := calledArgs(a, "gcs_find_champions")
		if len(got) != 1 || !strings.Contains(got[0], `"sort_by":"`+tc.sort+`"`) || strings.Contains(got[0], `"lowest_first":true`) != tc.lowest {
			t.Errorf("%s %q: gcs_find_champions called with %v (intent %s), want sort_by %s, lowest first %v:\n%s",
				tc.locale, tc.say, got, a.Plan.Intent, tc.sort, tc.lowest, a.Text)
		}
	}

	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "who is the fastest Epic?")
	a := w.askIn(t, conv, "en", nil, "slowest Legendary Support?")
	if got := calledArgs(a, "gcs_find_champions"); a.Plan.Intent != offline.IntentFind || len(got) != 1 ||
		!strings.Contains(got[0], `"rarity":"Legendary"`) || !strings.Contains(got[0], `"lowest_first":true`) {
		t.Errorf("\"slowest Legendary Support?\" after a list: intent %s, searches %v:\n%s", a.Plan.Intent, got, a.Text)
	}
	if !strings.Contains(a.Text, "lowest first") {
		t.Errorf("the answer does not say the order:\n%s", a.Text)
	}
}

// TestMinimumStats: "at least 1500 ATK", "plus de 110 de vitesse",
// "mindestens 20000 LP" set the search's minimums (sorted by that stat
// unless the question names another), and the answer says them.
func TestMinimumStats(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct {
		locale, say string
		args        []string
		says        string
	}{
		{"en", "which champions have at least 1500 ATK?", []string{`"min_atk":1500`, `"sort_by":"atk"`}, "ATK ≥ 1,500"},
		{"en", "Force champions with over 1500 ATK", []string{`"min_atk":1500`, `"affinity":"Force"`}, "ATK ≥ 1,500"},
		{"en", "who is the fastest champion with at least 1500 ATK?", []string{`"min_atk":1500`, `"sort_by":"spd"`}, "ATK ≥ 1,500"},
		{"fr", "quels champions ont plus de 110 de vitesse ?", []string{`"min_spd":110`}, "SPD ≥ 110"},
		{"de", "welche Champions haben mindestens 20000 LP?", []string{`"min_hp":20000`}, "HP ≥ 20.000"},
	} {
		a := w.ask(t, tc.locale, nil, tc.say)
		got := calledArgs(a, "gcs_find_champions")
		ok := len(got) == 1 && strings.Contains(a.Text, tc.says)
		for _, arg := range tc.args {
			ok = ok && strings.Contains(got[0], arg)
		}
		if !ok {
			t.Errorf("%s %q: gcs_find_champions called with %v (intent %s), want %v:\n%s", tc.locale, tc.say, got, a.Plan.Intent, tc.args, a.Text)
		}
	}
	if got := calledArgs(w.ask(t, "en", nil, "who is the fastest champion?"), "gcs_find_champions"); len(got) != 1 || strings.Contains(got[0], "min_") {
		t.Errorf("no minimum asked, some set: %v", got)
	}
}
