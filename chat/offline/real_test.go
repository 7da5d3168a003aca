package offline_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/chat/offline"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/tool"
	toolscache "github.com/gameassist/gameassist/tools_cache"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

// TestRealTools answers over the real cache and GCS tools and the test
// game's SQLite database, so the answers follow the tools' real data shapes.
func TestRealTools(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	db := gcsdbtest.Open(t, gcsdbtest.Game())
	snap, err := toolscache.NewSnapshot(ctx, db, log)
	if err != nil {
		t.Fatal(err)
	}
	gcs, err := toolsgcs.New(db, log)
	if err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := reg.Register(append(snap.Tools(), gcs...)...); err != nil {
		t.Fatal(err)
	}
	exec, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := offline.New(exec, offline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := func(ctx context.Context, calls []tool.Call) []tool.Outcome {
		outs := make([]tool.Outcome, len(calls))
		for i, c := range calls {
			res := exec.Execute(ctx, c)
			outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Source: tool.SourceExecuted, Status: res.Status, Result: res}
		}
		return outs
	}
	tests := []struct {
		name   string
		msg    string
		intent offline.Intent
		want   []string
	}{
		{"champion typo", "tell me about Kaelth", offline.IntentDetails, []string{"Kaelith", "Legendary", "Force", "Sunguard", "HP 15000", "Dawn Strike"}},
		{"accented name typed plain", "eloise stats", offline.IntentDetails, []string{"Éloïse", "Defense"}},
		{"faction", "what about the sunguard", offline.IntentDetails, []string{"Sunguard", "Aurelia"}},
		{"compare", "Kaelith vs Mirelle", offline.IntentCompare, []string{"Kaelith", "Mirelle", "Higher stat"}},
		{"counters", "who counters the drowned kng", offline.IntentCounters, []string{"Drowned King", "Kaelith"}},
		{"matchup", "is Kaelith good against the Drowned King?", offline.IntentMatchup, []string{"Yes", "Kaelith", "Drowned King"}},
		{"boss", "Drowned King", offline.IntentDetails, []string{"Drowned King", "Tide"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := r.Answer(ctx, offline.Request{Message: tc.msg}, run)
			if a.Plan.Intent != tc.intent {
				t.Errorf("intent = %s, want %s", a.Plan.Intent, tc.intent)
			}
			for _, o := range a.Outcomes {
				if o.Status != tool.StatusSuccess {
					t.Errorf("%s %s: %s", o.Name, o.Arguments, o.Result.ForLLM())
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(a.Text, w) {
					t.Errorf("answer lacks %q:\n%s", w, a.Text)
				}
			}
		})
	}
}
