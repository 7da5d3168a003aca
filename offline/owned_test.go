package offline_test

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
)

// TestOwnedRosterQuestions: questions about what the player owns are
// answered from the roster: "do I have any good counters for this boss?"
// and "who from my roster beats …?" as "who should I bring", "which
// legendary champions do I have?" among the owned ones, "do I own
// Kaelith?" from the roster (en, fr, de), or saying the roster is not
// known.
func TestOwnedRosterQuestions(t *testing.T) {
	w := newSampleWorld(t)
	wyrm := screenOf(t, "BossBattlePresenter", map[string]any{"BossConfigId": 5002, "Phase": 1, "Team": []int{1084, 1001, 1002, 1046}})
	ask := func(state bool, locale, say string) offline.Answer {
		conv := &conversation{}
		if state {
			conv.player = demoState(t)
		}
		conv.screenAt = conv.tick()
		return w.askIn(t, conv, locale, wyrm, say)
	}
	for _, say := range []string{"do I have any good counters for this boss?", "who from my roster beats the Spider Queen?"} {
		a := ask(true, "en", say)
		if got := calledArgs(a, "gcs_find_counters_for_boss"); a.Plan.Intent != offline.IntentBring || len(got) != 1 || !strings.Contains(got[0], `"owned_only":true`) {
			t.Errorf("%q: intent %s, calls %v:\n%s", say, a.Plan.Intent, got, a.Text)
		}
	}

	a := ask(true, "en", "which legendary champions do I have?")
	if got := calledArgs(a, "gcs_find_champions"); len(got) != 1 || !strings.Contains(got[0], `"owned_only":true`) || !strings.HasPrefix(a.Text, "Your Legendary champions") {
		t.Errorf("owned search: %v:\n%s", got, a.Text)
	}
	if got := calledArgs(ask(false, "en", "which legendary champions do I have?"), "gcs_find_champions"); len(got) != 1 || strings.Contains(got[0], "owned_only") {
		t.Errorf("without a state, the search asked for owned champions: %v", got)
	}

	for _, tc := range []struct {
		state             bool
		locale, say, lead string
	}{
		{true, "en", "do I own Kaelith?", "Yes: **Kaelith** (level 58, 6★) is in your roster."},
		{true, "en", "do I have Rakaix?", "No: **Rakaix** is not in your roster."},
		{false, "en", "do I own Kaelith?", "I can't see your roster here"},
		{true, "fr", "ai-je Kaelith ?", "Oui : **Kaelith**"},
		{true, "de", "habe ich Kaelith?", "Ja: **Kaelith**"},
	} {
		a := ask(tc.state, tc.locale, tc.say)
		if a.Plan.Intent != offline.IntentOwned || !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%s %q (state %v): intent %s:\n%s", tc.locale, tc.say, tc.state, a.Plan.Intent, a.Text)
		}
	}
	if a := ask(true, "en", "do I have to level Kaelith?"); a.Plan.Intent == offline.IntentOwned {
		t.Errorf("an obligation read as owning:\n%s", a.Text)
	}
}

// TestRosterAndTeamPhrasings: other ways players ask who to bring and
// whether the team will do, and "who is more durable?" after a
// comparison.
func TestRosterAndTeamPhrasings(t *testing.T) {
	w := newSampleWorld(t)
	knight := screenOf(t, "BossBattlePresenter", map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1084, 1001, 1002, 1046}})
	for _, tc := range []struct {
		locale, say string
		want        offline.Intent
	}{
		{"en", "who do I take into this fight?", offline.IntentBring},
		{"en", "which champions should I use here?", offline.IntentBring},
		{"en", "best picks from my collection?", offline.IntentBring},
		{"fr", "qui choisir pour ce combat ?", offline.IntentBring},
		{"de", "wen soll ich nehmen?", offline.IntentBring},
		{"en", "is this team strong enough?", offline.IntentMatchup},
		{"fr", "cette équipe est-elle assez forte ?", offline.IntentMatchup},
	} {
		conv := &conversation{player: demoState(t)}
		conv.screenAt = conv.tick()
		a := w.askIn(t, conv, tc.locale, knight, tc.say)
		if a.Plan.Intent != tc.want {
			t.Errorf("%s %q: intent %s, want %s:\n%s", tc.locale, tc.say, a.Plan.Intent, tc.want, a.Text)
		}
		if tc.want == offline.IntentMatchup && !strings.Contains(a.Text, "4") {
			t.Errorf("%s %q: the team of four is not judged:\n%s", tc.locale, tc.say, a.Text)
		}
	}
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "compare Kaelith and Rakaix")
	if a := w.askIn(t, conv, "en", nil, "who is more durable?"); !strings.HasPrefix(a.Text, "**Rakaix** is tankier") {
		t.Errorf("\"who is more durable?\": intent %s:\n%s", a.Plan.Intent, a.Text)
	}
}

// TestSwapAndAPairAcrossExchanges: "who should I swap out?" on a boss
// screen judges the team and names the swap (en, fr, de); "which one is
// tankier?" after two exchanges about one champion each compares them.
func TestSwapAndAPairAcrossExchanges(t *testing.T) {
	w := newSampleWorld(t)
	knight := screenOf(t, "BossBattlePresenter", map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1084, 1001, 1002, 1046}})
	for _, tc := range []struct{ locale, say string }{
		{"en", "who should I swap out?"},
		{"fr", "qui dois-je remplacer ?"},
		{"de", "wen soll ich austauschen?"},
	} {
		conv := &conversation{player: demoState(t)}
		conv.screenAt = conv.tick()
		a := w.askIn(t, conv, tc.locale, knight, tc.say)
		if a.Plan.Intent != offline.IntentTeamCheck {
			t.Errorf("%s %q: intent %s:\n%s", tc.locale, tc.say, a.Plan.Intent, a.Text)
		}
		if tc.locale == "en" && !strings.Contains(a.Text, "Best swap") {
			t.Errorf("%q names no swap:\n%s", tc.say, a.Text)
		}
	}
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "tell me about Rakaix")
	w.askIn(t, conv, "en", nil, "and Kaelith?")
	a := w.askIn(t, conv, "en", nil, "which one is tankier?")
	if got := comparedNames(t, a); len(got) != 2 || !strings.HasPrefix(a.Text, "**Rakaix** is tankier") {
		t.Errorf("a pair across two exchanges: compared %v:\n%s", got, a.Text)
	}
}

// TestMyChampionsAsAWhole: with a roster, questions about the player's
// champions as a whole search the owned ones: the best, a count, a stat
// (also right after a list, and for "and the tankiest?" after it).
func TestMyChampionsAsAWhole(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct {
		before     []string
		msg, args  string
		lead       string
		wantIntent offline.Intent
	}{
		{nil, "who is my strongest champion?", `"owned_only":true`, "Your champions, best first:", offline.IntentFind},
		{nil, "how many champions do I have?", `"owned_only":true`, "You have 30 champions; the best:", offline.IntentFind},
		{nil, "combien de champions ai-je ?", `"owned_only":true`, "", offline.IntentFind},
		{[]string{"how many legendary champions do I have?"}, "what's my fastest champion?", `"sort_by":"spd"`, "Your champions (SPD)", offline.IntentFind},
		{[]string{"what's my fastest champion?"}, "and the tankiest?", `"owned_only":true`, "Your champions (HP)", offline.IntentFind},
	} {
		conv := &conversation{player: demoState(t)}
		locale := "en"
		if strings.HasPrefix(tc.msg, "combien") {
			locale = "fr"
		}
		for _, b := range tc.before {
			w.askIn(t, conv, locale, nil, b)
		}
		a := w.askIn(t, conv, locale, nil, tc.msg)
		got := calledArgs(a, "gcs_find_champions")
		if a.Plan.Intent != tc.wantIntent || len(got) != 1 || !strings.Contains(got[0], tc.args) || !strings.Contains(got[0], `"owned_only":true`) || !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%v then %q: intent %s, searches %v:\n%s", tc.before, tc.msg, a.Plan.Intent, got, a.Text)
		}
	}
	// Without a roster, "and the tankiest?" searches every champion.
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "who is the fastest champion?")
	if got := calledArgs(w.askIn(t, conv, "en", nil, "and the tankiest?"), "gcs_find_champions"); len(got) != 1 || strings.Contains(got[0], "owned_only") {
		t.Errorf("\"and the tankiest?\" after a search of every champion: %v", got)
	}
}

// TestDoIAlreadyHaveHer: on a shop screen, after a verdict, "do I already
// have her?" answers from the roster.
func TestDoIAlreadyHaveHer(t *testing.T) {
	w := newSampleWorld(t)
	shop := screenOf(t, "MarketPresenter", map[string]any{"Offer": map[string]any{"ChampionConfigId": 1002, "Price": 500}})
	conv := &conversation{player: demoState(t)}
	w.askIn(t, conv, "en", shop, "is she any good?")
	if a := w.askIn(t, conv, "en", shop, "do I already have her?"); a.Plan.Intent != offline.IntentOwned || !strings.HasPrefix(a.Text, "Yes: **Vonoelle**") {
		t.Errorf("\"do I already have her?\": intent %s:\n%s", a.Plan.Intent, a.Text)
	}
}
