package offline_test

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
)

// TestBossPhases: a question about a boss's phases or mechanics answers
// from its details: the phase asked (by number, ordinal, or the screen's
// current one), else every phase; French and German answers carry no
// English description.
func TestBossPhases(t *testing.T) {
	w := newSampleWorld(t)
	battle := screenOf(t, "BossBattlePresenter", map[string]any{"BossConfigId": 5001, "Phase": 2})
	for _, tc := range []struct {
		locale, msg string
		onScreen    bool
		lead        string
		forbid      string
	}{
		{"en", "what should I watch out for in this phase?", true, "Phase 2 of **Fire Knight** is **Inferno Rising**, from 60% HP.", ""},
		{"en", "what happens in phase 3?", true, "Phase 3 of **Fire Knight** is **Molten Last Stand**", ""},
		{"en", "what about the last phase?", true, "Phase 3 of **Fire Knight**", ""},
		{"en", "what does the first phase of the Fire Knight do?", false, "Phase 1 of **Fire Knight** is **Blazing Vanguard**", ""},
		{"en", "how many phases does the Fire Knight have?", false, "**Fire Knight** fights in 3 phases:", ""},
		{"en", "phase 7?", true, "**Fire Knight** has 3 phases, so there is no phase 7:", ""},
		{"en", "what are its mechanics?", true, "**Fire Knight**'s mechanics:", ""},
		{"fr", "que se passe-t-il dans la deuxième phase ?", true, "La phase 2 de **Chevalier de Feu** est **Inferno Rising**", "The knight"},
		{"de", "welche Phasen hat der Feuerritter?", false, "**Feuerritter** kämpft in 3 Phasen:", "The knight"},
	} {
		sc := battle
		if !tc.onScreen {
			sc = nil
		}
		a := w.ask(t, tc.locale, sc, tc.msg)
		if a.Plan.Intent != offline.IntentPhases || !strings.HasPrefix(a.Text, tc.lead) || tc.forbid != "" && strings.Contains(a.Text, tc.forbid) {
			t.Errorf("%s %q: intent %s:\n%s\nwant it to start %q", tc.locale, tc.msg, a.Plan.Intent, a.Text, tc.lead)
		}
	}
	// Who is good in a phase is a counters question.
	if a := w.ask(t, "en", battle, "which champions are good in phase 2?"); a.Plan.Intent == offline.IntentPhases {
		t.Errorf("\"which champions are good in phase 2?\" read as a phases question:\n%s", a.Text)
	}
}
