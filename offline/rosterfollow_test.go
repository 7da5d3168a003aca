package offline_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/data"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/player"
)

// comparedNames returns the champions a's comparison call compared (nil:
// none was made).
func comparedNames(t *testing.T, a offline.Answer) []string {
	t.Helper()
	args := calledArgs(a, "gcs_compare_characters")
	if len(args) == 0 {
		return nil
	}
	var in struct {
		Names []string `json:"names"`
	}
	if err := json.Unmarshal([]byte(args[0]), &in); err != nil {
		t.Fatal(err)
	}
	return in.Names
}

// listedNames returns the champions a list answer shows as its bullets,
// in order (a bullet's first bold name).
func listedNames(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "- **")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, "**")
		out = append(out, name)
	}
	return out
}

func demoState(t *testing.T) *player.State {
	t.Helper()
	st, err := player.Parse(data.DemoPlayerID, "v1", time.Unix(1_800_000_000, 0), data.DemoPlayer())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestFollowUpOnRosterAnswers: "which one is tankier?" after "who should
// I bring here?" or "what am I missing?" compares the champions that
// answer listed (the owned ones, or the missing ones, with a player
// state), and "what gear for her?" after "who should I level next?" is
// about the champion it named, in en, fr and de.
func TestFollowUpOnRosterAnswers(t *testing.T) {
	w := newSampleWorld(t)
	boss := screenOf(t, "BossBattlePresenter", map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1084, 1001, 1002, 1046}})
	for _, tc := range []struct{ locale, first, then string }{
		{"en", "who should I bring here?", "which one is tankier?"},
		{"en", "what am I missing for this boss?", "which one is the fastest?"},
		{"fr", "qui dois-je amener ici ?", "lequel est le plus résistant ?"},
		{"de", "wen soll ich hier mitnehmen?", "welcher ist schneller?"},
	} {
		for _, demo := range []bool{false, true} {
			conv := &conversation{}
			if demo {
				conv.player = demoState(t)
			}
			conv.screenAt = conv.tick()
			a := w.askIn(t, conv, tc.locale, boss, tc.first)
			listed := listedNames(a.Text)
			if len(listed) < 2 {
				t.Fatalf("%s %q (state %v): listed %v, want two or more:\n%s", tc.locale, tc.first, demo, listed, a.Text)
			}
			b := w.askIn(t, conv, tc.locale, boss, tc.then)
			if got := comparedNames(t, b); !slices.Equal(got, listed) {
				t.Errorf("%s %q then %q (state %v): compared %v, want the listed %v (intent %s):\n%s",
					tc.locale, tc.first, tc.then, demo, got, listed, b.Plan.Intent, b.Text)
			}
		}
	}
	// With the demo player's state, the best counter not owned (Rakaix)
	// closes the bring answer but is not one of the listed ones.
	conv := &conversation{player: demoState(t)}
	conv.screenAt = conv.tick()
	a := w.askIn(t, conv, "en", boss, "who should I bring here?")
	if !strings.Contains(a.Text, "Best counter you don't own: **Rakaix**") || slices.Contains(listedNames(a.Text), "Rakaix") {
		t.Fatalf("bring answer:\n%s", a.Text)
	}
	b := w.askIn(t, conv, "en", boss, "which one is tankier?")
	if slices.Contains(comparedNames(t, b), "Rakaix") {
		t.Errorf("compared the counter not owned: %v", comparedNames(t, b))
	}

	for _, tc := range []struct {
		demo bool
		want string
	}{{false, "Rakaix"}, {true, "Kaelith"}} {
		conv := &conversation{}
		if tc.demo {
			conv.player = demoState(t)
		}
		conv.screenAt = conv.tick()
		a := w.askIn(t, conv, "en", boss, "who should I level next?")
		if !strings.Contains(a.Text, "**"+tc.want+"**") {
			t.Fatalf("level next (state %v):\n%s", tc.demo, a.Text)
		}
		b := w.askIn(t, conv, "en", boss, "what gear for her?")
		if got := calledArgs(b, "gcs_recommend_gear"); !containsStr(got, `{"champion_name":"`+tc.want+`"}`) {
			t.Errorf("gear after level next (state %v): %v, want %s (intent %s)", tc.demo, got, tc.want, b.Plan.Intent)
		}
	}
}

// TestFollowUpFirstFew: "compare the first two" and "which of the top 3
// is faster?" take the first few of the listed champions; "the first two
// stages" counts no subject.
func TestFollowUpFirstFew(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct {
		locale, first, then string
		n                   int
	}{
		{"en", "best counters for the Fire Knight?", "compare the first two", 2},
		{"en", "best counters for the Fire Knight?", "which of the top 3 is faster?", 3},
		{"fr", "qui contre le Chevalier de Feu ?", "compare les deux premiers", 2},
		{"de", "wer kontert den Feuerritter?", "vergleiche die ersten drei", 3},
	} {
		conv := &conversation{}
		a := w.askIn(t, conv, tc.locale, nil, tc.first)
		listed := listedNames(a.Text)
		if len(listed) < tc.n {
			t.Fatalf("%s: listed %v:\n%s", tc.locale, listed, a.Text)
		}
		b := w.askIn(t, conv, tc.locale, nil, tc.then)
		if got := comparedNames(t, b); !slices.Equal(got, listed[:tc.n]) {
			t.Errorf("%s %q: compared %v, want %v (intent %s):\n%s", tc.locale, tc.then, got, listed[:tc.n], b.Plan.Intent, b.Text)
		}
	}
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "best counters for the Fire Knight?")
	b := w.askIn(t, conv, "en", nil, "what are the first two stages of Fire Knight's Castle?")
	if b.Plan.Intent == offline.IntentCompare || len(comparedNames(t, b)) > 0 {
		t.Errorf("\"the first two stages\" compared champions: %v", comparedNames(t, b))
	}
}
