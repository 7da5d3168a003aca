package offline_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/eval/scenario"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// loadScenarios reads every scenario of dir/*.yaml with the eval command's
// parser.
func loadScenarios(tb testing.TB, dir string) []scenario.Scenario {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no scenarios in %s: %v", dir, err)
	}
	p, err := scenario.NewParser()
	if err != nil {
		tb.Fatal(err)
	}
	var out []scenario.Scenario
	for _, f := range files {
		scs, err := p.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, scs...)
	}
	return out
}

// TestEvalSet answers every question of eval/offline over the real sample
// game and requires at least 90% of them right: the expected tools called
// (from the cache when the screen rules fetched them) and every fact in the
// answer, no forbidden text.
func TestEvalSet(t *testing.T) {
	w := newSampleWorld(t)
	scs := loadScenarios(t, "../eval/offline")
	if len(scs) < 200 {
		t.Fatalf("%d scenarios, want at least 200", len(scs))
	}
	locales := map[string]int{}
	withScreen, passed, total := 0, 0, 0
	// Conversations (scenarios of several questions) are held to their
	// own threshold too: their follow-ups lean on the steps before.
	convPassed, convTotal := 0, 0
	var fails []string
	for _, s := range scs {
		locales[s.Locale]++
		var sc *screens.Screen
		conv := &conversation{}
		for _, st := range s.Steps {
			if st.Screen != nil {
				raw, err := json.Marshal(st.Screen.Data)
				if err != nil {
					t.Fatal(err)
				}
				sc = &screens.Screen{Name: st.Screen.Name, Data: raw}
				conv.screenAt = conv.tick()
				withScreen++
				continue
			}
			if st.Say == "" || st.Expect == nil {
				t.Fatalf("%s: a step with neither screen nor say+expect", s.Name)
			}
			total++
			isConv := says(s) > 1
			if isConv {
				convTotal++
			}
			a := w.askIn(t, conv, s.Locale, sc, st.Say)
			var reasons []string
			called := map[string]bool{}
			for _, o := range a.Outcomes {
				called[o.Name] = true
				if sc != nil && o.Source == tool.SourceExecuted && screenRan(w, t, sc, o) {
					reasons = append(reasons, o.Name+" ran again instead of coming from the cache")
				}
			}
			for _, tn := range st.Expect.Tools {
				if !called[tn.Name] {
					reasons = append(reasons, "tool "+tn.Name+" not called")
				}
			}
			for _, f := range st.Expect.Facts {
				if !f.Match(a.Text) {
					reasons = append(reasons, "missing "+f.String())
				}
			}
			for _, f := range st.Expect.Forbid {
				if f.Match(a.Text) {
					reasons = append(reasons, "forbidden "+f.String())
				}
			}
			if len(reasons) == 0 {
				passed++
				if isConv {
					convPassed++
				}
			} else {
				fails = append(fails, fmt.Sprintf("%s [%s] %q (%s): %s\n%s", s.Name, s.Locale, st.Say, a.Plan.Intent, strings.Join(reasons, "; "), a.Text))
			}
		}
	}
	for _, l := range []string{"en", "fr", "de"} {
		if locales[l] == 0 {
			t.Errorf("no %s scenarios", l)
		}
	}
	if withScreen == 0 {
		t.Error("no scenario with a screen")
	}
	rate := float64(passed) / float64(total)
	sort.Strings(fails)
	for _, f := range fails {
		t.Log(f)
	}
	t.Logf("offline eval: %d/%d right (%.1f%%), %d with a screen", passed, total, 100*rate, withScreen)
	if rate < 0.9 {
		t.Errorf("offline eval: %.1f%% right, want at least 90%%", 100*rate)
	}
	if convTotal < 40 {
		t.Errorf("%d conversation steps, want at least 40", convTotal)
	}
	convRate := float64(convPassed) / float64(max(convTotal, 1))
	t.Logf("offline eval conversations: %d/%d right (%.1f%%)", convPassed, convTotal, 100*convRate)
	if convRate < 0.9 {
		t.Errorf("offline eval conversations: %.1f%% right, want at least 90%%", 100*convRate)
	}
}

// says counts the questions of a scenario.
func says(s scenario.Scenario) int {
	n := 0
	for _, st := range s.Steps {
		if st.Say != "" {
			n++
		}
	}
	return n
}

// screenRan reports whether the screen's rules already ran o's call.
func screenRan(w *sampleWorld, tb testing.TB, sc *screens.Screen, o tool.Outcome) bool {
	tb.Helper()
	plan, err := w.rules.Plan(tb.Context(), *sc, "en")
	if err != nil {
		tb.Fatal(err)
	}
	for _, pc := range plan.Calls {
		if pc.Skipped == "" && pc.Name == o.Name && string(pc.Arguments) == string(o.Arguments) {
			return true
		}
	}
	return false
}
