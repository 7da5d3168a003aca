package offline_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/tool"
)

// throughCache is r as the session cache gives it back: the envelope stored
// as JSON and read again, its data raw JSON and no typed value (as chat's
// runner decodes it).
func throughCache(tb testing.TB, r tool.Result) tool.Result {
	tb.Helper()
	raw, err := json.Marshal(r)
	if err != nil {
		tb.Fatal(err)
	}
	var stored struct {
		tool.Result
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &stored); err != nil {
		tb.Fatal(err)
	}
	out := stored.Result
	out.Data = stored.Data
	if out.Value != nil {
		tb.Fatal("a cached result kept its typed value")
	}
	return out
}

// TestAnswersFromCachedResults asks a question of every kind twice: with the
// tools' typed results as the executor returns them, and with the same
// results back from the session cache (JSON only). The responder reads both
// as the tools' types, so the two answers are the same, and each holds what
// the question is about.
func TestAnswersFromCachedResults(t *testing.T) {
	w := newSampleWorld(t)
	tests := []struct {
		name, msg string
		locale    string
		want      []string
	}{
		{name: "champion details", msg: "tell me about Kaelith", want: []string{"Kaelith", "Stats: HP"}},
		{name: "boss details", msg: "tell me about the Fire Knight", want: []string{"Fire Knight", "HP"}},
		{name: "faction details", msg: "tell me about the Emberguard", want: []string{"Emberguard"}},
		{name: "dungeon cost", msg: "how much energy does Fire Knight's Castle cost?", want: []string{"Fire Knight's Castle", "energy"}},
		{name: "gear set farm", msg: "where can I farm the Swiftwind set?", want: []string{"Swiftwind"}},
		{name: "counters", msg: "who counters the Fire Knight?", want: []string{"Fire Knight"}},
		{name: "compare", msg: "compare Kaelith and Vorenyn", want: []string{"Kaelith", "Vorenyn", "SPD"}},
		{name: "skills", msg: "what are Kaelith's skills?", want: []string{"Kaelith"}},
		{name: "gear for a champion", msg: "what gear should Kaelith wear?", want: []string{"Kaelith"}},
		{name: "gear for a role", msg: "what's the best gear set for a support champion?", want: []string{"**"}},
		{name: "find sorted", msg: "which void supports are the fastest?", want: []string{"SPD"}},
		{name: "effect", msg: "which champions can stun?", want: []string{"Stun"}},
		{name: "lore", msg: "Kaelith's story", want: []string{"Kaelith"}},
		{name: "how to beat", msg: "how do I beat the spider queen", want: []string{"Spider Queen"}},
		{name: "knowledge", msg: "how does affinity work?", want: []string{"Magic"}},
		{name: "french details", msg: "parle-moi de Kaelith", locale: "fr", want: []string{"**Kaelith** est", "Chevalier de Feu"}},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := offline.Request{Message: tc.msg, Locale: tc.locale}
			run := func(cached bool) offline.RunFunc {
				return func(ctx context.Context, calls []tool.Call) []tool.Outcome {
					outs := make([]tool.Outcome, len(calls))
					for i, c := range calls {
						res := w.exec.Execute(ctx, c)
						src := tool.SourceExecuted
						if cached {
							res, src = throughCache(t, res), tool.SourceCache
						}
						outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Source: src, Status: res.Status, Result: res}
					}
					return outs
				}
			}
			fresh := w.resp.Answer(ctx, req, run(false))
			cached := w.resp.Answer(ctx, req, run(true))
			if len(fresh.Outcomes) == 0 {
				t.Fatalf("no tool ran for %q (intent %s)", tc.msg, fresh.Plan.Intent)
			}
			if fresh.Text != cached.Text {
				t.Fatalf("answer from cached results differs:\nfresh:\n%s\ncached:\n%s", fresh.Text, cached.Text)
			}
			for _, want := range tc.want {
				if !strings.Contains(fresh.Text, want) {
					t.Errorf("answer lacks %q:\n%s", want, fresh.Text)
				}
			}
		})
	}
}
