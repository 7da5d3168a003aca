package offline_test

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
)

// TestFollowUpItAndANamedChampion: "is it good for Kaelith?" after a gear
// set is about that set and Kaelith; "it" with nothing but champions to
// refer to, and "her" with a named champion, stay as they were.
func TestFollowUpItAndANamedChampion(t *testing.T) {
	w := newSampleWorld(t)
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "what does the Warlord set do?")
	a := w.askIn(t, conv, "en", nil, "is it good for Kaelith?")
	if a.Plan.Intent != offline.IntentSetVerdict || !strings.HasPrefix(a.Text, "Yes, **Warlord** suits **Kaelith**") {
		t.Errorf("set then \"is it good for Kaelith?\": intent %s:\n%s", a.Plan.Intent, a.Text)
	}
	conv = &conversation{}
	w.askIn(t, conv, "en", nil, "what does the Warlord set do?")
	a = w.askIn(t, conv, "en", nil, "Kaelith and her skills?")
	if got := calledArgs(a, "gcs_get_champion_skills"); !containsStr(got, `{"champion_name":"Kaelith"}`) {
		t.Errorf("\"Kaelith and her skills?\": %v (intent %s)", got, a.Plan.Intent)
	}
	conv = &conversation{}
	w.askIn(t, conv, "en", nil, "tell me about Rakaix")
	a = w.askIn(t, conv, "en", nil, "is it good for Kaelith?")
	if strings.Contains(a.Text, "Rakaix") {
		t.Errorf("\"it\" after a champion took the champion:\n%s", a.Text)
	}
}

// TestFollowUpAnotherSuperlative: "and the tankiest?" after "who is the
// fastest champion?" is a search of its own, sorted by HP; after a
// comparison it is no search, and "and the best gear?" keeps its subject.
func TestFollowUpAnotherSuperlative(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct{ locale, first, then string }{
		{"en", "who is the fastest champion?", "and the tankiest?"},
		{"fr", "quel est le champion le plus rapide ?", "et le plus de pv ?"},
		{"de", "wer ist der schnellste Champion?", "und die meisten Lebenspunkte?"},
	} {
		conv := &conversation{}
		w.askIn(t, conv, tc.locale, nil, tc.first)
		a := w.askIn(t, conv, tc.locale, nil, tc.then)
		if got := calledArgs(a, "gcs_find_champions"); len(got) != 1 || !strings.Contains(got[0], `"sort_by":"hp"`) {
			t.Errorf("%s %q then %q: searches %v (intent %s):\n%s", tc.locale, tc.first, tc.then, got, a.Plan.Intent, a.Text)
		}
	}
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "compare Kaelith, Rakaix and Vorenyn")
	if a := w.askIn(t, conv, "en", nil, "and the fastest?"); len(calledArgs(a, "gcs_find_champions")) > 0 {
		t.Errorf("after a comparison, \"and the fastest?\" searched every champion:\n%s", a.Text)
	}
	conv = &conversation{}
	w.askIn(t, conv, "en", nil, "tell me about Kaelith")
	if a := w.askIn(t, conv, "en", nil, "and the best gear?"); !containsStr(calledArgs(a, "gcs_recommend_gear"), `{"champion_name":"Kaelith"}`) {
		t.Errorf("\"and the best gear?\" lost its champion: %v", calledArgs(a, "gcs_recommend_gear"))
	}
}

// TestVerdictOnTheScreensChampion: "is this champion any good?" on a
// champion's screen, whose rule read the champion by config id, judges
// that champion (en, fr, de), as when the message names it.
func TestVerdictOnTheScreensChampion(t *testing.T) {
	w := newSampleWorld(t)
	champ := screenOf(t, "ChampionFeatureModelsPresenter", map[string]any{"ChampionConfigId": 1003, "Level": 50, "Stars": 5})
	for _, tc := range []struct{ locale, say, lead string }{
		{"en", "is this champion any good?", "**Sediek** is a good pick against **Frost Wyrm**"},
		{"en", "is Sediek good?", "**Sediek** is a good pick against **Frost Wyrm**"},
		{"fr", "ce champion est-il bon ?", "**Sediek** est un bon choix contre **Wyrm de Givre**"},
		{"de", "ist dieser Champion gut?", "**Sediek** ist eine gute Wahl gegen **Frostwurm**"},
	} {
		conv := &conversation{}
		conv.screenAt = conv.tick()
		a := w.askIn(t, conv, tc.locale, champ, tc.say)
		if a.Plan.Intent != offline.IntentVerdict || !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%s %q: intent %s:\n%s", tc.locale, tc.say, a.Plan.Intent, a.Text)
		}
	}
}
