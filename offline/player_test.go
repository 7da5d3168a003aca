package offline_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/data"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/tool"
)

// askAs answers msg on the Fire Knight's battle screen (team given), for
// the demo player when demo is set, else for a session without a state.
func askAs(t *testing.T, w *sampleWorld, demo bool, team, msg string) offline.Answer {
	t.Helper()
	return askIn(t, w, "en", demo, team, msg)
}

// askIn is askAs in a session of locale.
func askIn(t *testing.T, w *sampleWorld, locale string, demo bool, team, msg string) offline.Answer {
	t.Helper()
	ctx := context.Background()
	if demo {
		st, err := player.Parse(data.DemoPlayerID, "v1", time.Unix(1_800_000_000, 0), data.DemoPlayer())
		if err != nil {
			t.Fatal(err)
		}
		ctx = tool.WithPlayer(ctx, st)
	}
	req := offline.Request{Message: msg, Locale: locale, Screen: "BossBattlePresenter",
		ScreenData: json.RawMessage(`{"BossConfigId": 5001, "Phase": 1, "Team": ` + team + `}`)}
	run := func(ctx context.Context, calls []tool.Call) []tool.Outcome {
		outs := make([]tool.Outcome, len(calls))
		for i, c := range calls {
			res := w.exec.Execute(ctx, c)
			outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Source: tool.SourceExecuted, Status: res.Status, Result: res}
		}
		return outs
	}
	a := w.resp.Answer(ctx, req, run)
	t.Logf("%q (state %v):\n%s", msg, demo, a.Text)
	return a
}

func wantAll(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("answer lacks %q:\n%s", w, text)
		}
	}
}

// The demo player owns Vorenyn (level 60, 6★), Kaelith, Belmiara, Etheyn
// and Uloek among the Fire Knight's counters, but not Rakaix, its best.
func TestOfflineAnswersFromTheRoster(t *testing.T) {
	w := newSampleWorld(t)

	a := askAs(t, w, true, `[1084, 1001, 1002, 1046]`, "who should I bring here?")
	if a.Plan.Intent != offline.IntentBring {
		t.Fatalf("intent %s", a.Plan.Intent)
	}
	wantAll(t, a.Text, "From your roster", "**Vorenyn** (level 60, 6★)", "**Kaelith** (level 58, 6★)", "Best counter you don't own: **Rakaix**")
	if strings.Index(a.Text, "Vorenyn") > strings.Index(a.Text, "Rakaix") {
		t.Errorf("the counter not owned comes before the owned ones:\n%s", a.Text)
	}
	if strings.Contains(a.Text, "don't know your roster") {
		t.Errorf("a state-backed answer says it has none:\n%s", a.Text)
	}

	// Without a state: general, and said once.
	g := askAs(t, w, false, `[1084, 1001, 1002, 1046]`, "who should I bring here?")
	wantAll(t, g.Text, "best counters to **Fire Knight** overall", "**Rakaix**")
	if n := strings.Count(g.Text, "don't know your roster"); n != 1 {
		t.Errorf("the answer without a state says so %d times:\n%s", n, g.Text)
	}

	// Is my team good enough: each member judged, a swap from the roster.
	tc := askAs(t, w, true, `[1084, 1001, 1002, 1046]`, "is my team good enough?")
	if tc.Plan.Intent != offline.IntentTeamCheck {
		t.Fatalf("intent %s", tc.Plan.Intent)
	}
	wantAll(t, tc.Text, "Partly: against **Fire Knight**", "**Vorenyn** (level 60, 6★): #2", "not in the top")
	if strings.Contains(tc.Text, "don't know your roster") {
		t.Errorf("a state-backed team check says it has no roster:\n%s", tc.Text)
	}
	if !strings.Contains(tc.Text, "Best swap from your roster: **Belmiara** (level 56, 5★) in for") {
		t.Errorf("the swap is not the best owned counter outside the team:\n%s", tc.Text)
	}

	// What am I missing: the best counters not owned.
	m := askAs(t, w, true, `[1084]`, "what am I missing for this boss?")
	wantAll(t, m.Text, "**Rakaix**: strong against Fire Knight", "You already have: Vorenyn, Kaelith")

	// Who should I level next: the best owned counter below the top level.
	l := askAs(t, w, true, `[1084]`, "who should I level next?")
	wantAll(t, l.Text, "Level **Kaelith** (level 58, 6★) next")
}

// TestRosterAnswersInFrenchAndGerman: the roster answers speak the
// session's language, with the boss's localized name and the levels in
// its words, and no English sentence.
func TestRosterAnswersInFrenchAndGerman(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct {
		locale, msg string
		want        []string
	}{
		{"fr", "qui dois-je amener ici ?", []string{"Dans votre collection", "**Chevalier de Feu**", "**Vorenyn** (niveau 60, 6★)", "Meilleur contre que vous n'avez pas : **Rakaix**"}},
		{"fr", "mon équipe est-elle suffisante ?", []string{"En partie", "(niveau 60, 6★)", "Meilleur échange dans votre collection"}},
		{"de", "wen soll ich hier mitnehmen?", []string{"Aus deiner Sammlung", "**Feuerritter**", "(Stufe 60, 6★)"}},
	} {
		a := askIn(t, w, tc.locale, true, `[1084, 1001, 1002, 1046]`, tc.msg)
		wantAll(t, a.Text, tc.want...)
		for _, en := range []string{"From your roster", "level ", "Best ", "strong against", "you don't"} {
			if strings.Contains(a.Text, en) {
				t.Errorf("%s answer carries English %q:\n%s", tc.locale, en, a.Text)
			}
		}
	}
}
