package offline_test

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
)

// TestDungeonFactLeads: on a dungeon's screen, a question about what it
// drops, its boss or its stages leads with that fact (en, fr, de); its
// cost still leads with the cost.
func TestDungeonFactLeads(t *testing.T) {
	w := newSampleWorld(t)
	sc := screenOf(t, "DungeonSelectPresenter", map[string]any{"DungeonConfigId": 7001, "Stage": 10})
	for _, tc := range []struct{ locale, msg, lead string }{
		{"en", "what drops here?", "**Fire Knight's Castle** drops **Keen Edge**, **Bloodfang** and **Frenzy**."},
		{"en", "who is the boss here?", "The boss of **Fire Knight's Castle** is **Fire Knight**."},
		{"en", "how many stages are there?", "**Fire Knight's Castle** has 21 stages."},
		{"en", "how much energy does it cost?", "**Fire Knight's Castle** costs 16 energy per run."},
		{"fr", "quel est le butin ici ?", "**Château du Chevalier de Feu** donne : "},
		{"fr", "combien de niveaux y a-t-il ?", "**Château du Chevalier de Feu** compte 21 niveaux."},
		{"de", "wer ist der Boss hier?", "Der Boss von **Burg des Feuerritters** ist **Feuerritter**."},
		{"de", "was droppt hier?", "**Burg des Feuerritters** lässt fallen: "},
	} {
		if a := w.ask(t, tc.locale, sc, tc.msg); !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%s %q (intent %s):\n%s\nwant it to start %q", tc.locale, tc.msg, a.Plan.Intent, a.Text, tc.lead)
		}
	}
}

// TestMoreWaysToAskWhoToBring: with a roster, these ask who to bring
// against the screen's boss (a dungeon's, here).
func TestMoreWaysToAskWhoToBring(t *testing.T) {
	w := newSampleWorld(t)
	sc := screenOf(t, "DungeonSelectPresenter", map[string]any{"DungeonConfigId": 7001, "Stage": 10})
	for _, msg := range []string{"what should I bring?", "who should I put in my team?", "which champions should I bring?", "who should I add to my team?"} {
		conv := &conversation{player: demoState(t)}
		if a := w.askIn(t, conv, "en", sc, msg); a.Plan.Intent != offline.IntentBring || !strings.Contains(a.Text, "Fire Knight") {
			t.Errorf("%q: intent %s:\n%s", msg, a.Plan.Intent, a.Text)
		}
	}
}

// TestSetPieces: "how many pieces do I need?" on a set's screen gives the
// set's details; named, the named set's.
func TestSetPieces(t *testing.T) {
	w := newSampleWorld(t)
	sc := screenOf(t, "GearInventoryPresenter", map[string]any{"GearSetConfigId": 8001, "Champion": map[string]any{"ConfigId": 1001}})
	for _, tc := range []struct {
		sc        bool
		msg, lead string
	}{
		{true, "how many pieces do I need?", "**Swiftwind** is a 2-piece gear set"},
		{true, "what's the set bonus?", "**Swiftwind** is a 2-piece gear set"},
		{false, "what bonus does Warlord give?", "**Warlord** is a 2-piece gear set"},
	} {
		s := sc
		if !tc.sc {
			s = nil
		}
		if a := w.ask(t, "en", s, tc.msg); !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%q (intent %s):\n%s", tc.msg, a.Plan.Intent, a.Text)
		}
	}
}
