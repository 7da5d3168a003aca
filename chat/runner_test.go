package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gameassist/gameassist/tool"
)

func newTestRunner(t *testing.T, box *toolbox, v DataVersioner) *Runner {
	t.Helper()
	r, err := NewRunner(box.exec, v, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunnerDuplicates(t *testing.T) {
	ctx := context.Background()
	champ := `{"champion_name":"Kaelith"}`
	tests := []struct {
		name    string
		batches [][]tool.Call
		want    []string // sources per batch
		runs    int
	}{
		{
			"same call twice in one batch",
			[][]tool.Call{{call("gcs_get_champion_details", champ), call("gcs_get_champion_details", champ)}},
			[]string{"executed,duplicate"},
			1,
		},
		{
			"key order and spacing do not matter",
			[][]tool.Call{{call("gcs_get_champion_details", champ), call("gcs_get_champion_details", `{ "champion_name" : "Kaelith" }`)}},
			[]string{"executed,duplicate"},
			1,
		},
		{
			"alias is the same tool",
			[][]tool.Call{{call("gcs_get_champion_details", champ)}, {call("champion_details", champ)}},
			[]string{"executed", "duplicate"},
			1,
		},
		{
			"across iterations",
			[][]tool.Call{{call("gcs_get_champion_details", champ)}, {call("gcs_get_champion_details", champ), call("gcs_get_champion_details", `{"champion_name":"Sylva"}`)}},
			[]string{"executed", "duplicate,executed"},
			2,
		},
		{
			"different arguments run",
			[][]tool.Call{{call("gcs_get_champion_details", champ), call("gcs_get_champion_details", `{"champion_name":"Sylva"}`)}},
			[]string{"executed,executed"},
			2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			box := newToolbox(t)
			sc := newTestRunner(t, box, nil).Scope(ctx, "s1", 1, nil, false)
			for i, b := range tc.batches {
				outs := sc.Run(ctx, b)
				if got := sources(outs); got != tc.want[i] {
					t.Errorf("batch %d sources = %s, want %s", i, got, tc.want[i])
				}
				for _, o := range outs {
					if o.Status != tool.StatusSuccess || o.Result.Data == nil {
						t.Errorf("outcome %s %s: status %s data %v", o.Name, o.Source, o.Status, o.Result.Data)
					}
					// Rendered once for the tool message and the metrics.
					if o.View == "" || o.View != o.Result.ForLLM() {
						t.Errorf("outcome %s %s: view %q, want the result's LLM view %q", o.Name, o.Source, o.View, o.Result.ForLLM())
					}
				}
			}
			if got := box.get("gcs_get_champion_details").count(); got != tc.runs {
				t.Errorf("executions = %d, want %d", got, tc.runs)
			}
		})
	}
}

func TestRunnerCacheLifetime(t *testing.T) {
	ctx := context.Background()
	box := newToolbox(t)
	r := newTestRunner(t, box, nil)
	c := call("gcs_get_champion_details", `{"champion_name":"Kaelith"}`) // duration 3
	sc := r.Scope(ctx, "s1", 1, nil, false)
	sc.Run(ctx, []tool.Call{c})
	puts := sc.Puts()
	if len(puts) != 1 || puts[0].CachedAt != 1 || puts[0].Duration != 3 || puts[0].Tool != "gcs_get_champion_details" {
		t.Fatalf("puts = %+v", puts)
	}
	tests := []struct {
		exchange int
		want     tool.Source
	}{{2, tool.SourceCache}, {3, tool.SourceCache}, {4, tool.SourceCache}, {5, tool.SourceExecuted}}
	for _, tc := range tests {
		sc := r.Scope(ctx, "s1", tc.exchange, puts, false)
		outs := sc.Run(ctx, []tool.Call{c})
		if outs[0].Source != tc.want {
			t.Errorf("exchange %d: source %s, want %s", tc.exchange, outs[0].Source, tc.want)
		}
		if tc.want == tool.SourceCache {
			if len(sc.Hits()) != 1 || len(sc.Puts()) != 0 {
				t.Errorf("exchange %d: hits %v puts %d", tc.exchange, sc.Hits(), len(sc.Puts()))
			}
			if !strings.Contains(outs[0].Result.ForLLM(), "Kaelith") {
				t.Errorf("cached result lost its data: %s", outs[0].Result.ForLLM())
			}
		}
	}
	if got := box.get("gcs_get_champion_details").count(); got != 2 {
		t.Errorf("executions = %d, want 2", got)
	}
}

func TestRunnerNotCached(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		call   tool.Call
		status tool.Status
		guide  string
	}{
		{"duration zero", call("gcs_get_boss_details", `{"boss_name":"Fire Knight"}`), tool.StatusSuccess, ""},
		{"error result", call("gcs_broken", `{}`), tool.StatusError, "Do not retry"},
		{"not found", call("gcs_get_champion_details", `{"champion_name":"Nobody"}`), tool.StatusError, "cache_get_champions_list"},
		{"unknown tool", call("gcs_get_champion_detail", `{"champion_name":"Kaelith"}`), tool.StatusError, "gcs_get_champion_details"},
		{"malformed arguments", call("gcs_get_champion_details", `{"champion_name": "Kael`), tool.StatusError, "Call gcs_get_champion_details again"},
		{"schema violation", call("gcs_get_champion_details", `{"name":"Kaelith"}`), tool.StatusError, "Call gcs_get_champion_details again"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			box := newToolbox(t)
			sc := newTestRunner(t, box, nil).Scope(ctx, "s1", 1, nil, false)
			outs := sc.Run(ctx, []tool.Call{tc.call, tc.call})
			if got := sources(outs); got != "executed,duplicate" {
				t.Errorf("sources = %s", got)
			}
			if outs[0].Status != tc.status || outs[1].Status != tc.status {
				t.Errorf("status = %s/%s, want %s", outs[0].Status, outs[1].Status, tc.status)
			}
			if !strings.Contains(outs[0].Result.ForLLM(), tc.guide) {
				t.Errorf("envelope lacks %q: %s", tc.guide, outs[0].Result.ForLLM())
			}
			if len(sc.Puts()) != 0 {
				t.Errorf("cached: %+v", sc.Puts())
			}
			if _, err := json.Marshal(outs); err != nil {
				t.Errorf("outcomes do not encode: %v", err)
			}
		})
	}
}

func TestRunnerDataVersion(t *testing.T) {
	ctx := context.Background()
	box := newToolbox(t)
	v := &versions{v: "v1"}
	r := newTestRunner(t, box, v)
	c := call("gcs_get_champion_details", `{"champion_name":"Kaelith"}`)
	sc := r.Scope(ctx, "s1", 1, nil, false)
	sc.Run(ctx, []tool.Call{c})
	puts := sc.Puts()
	if len(puts) != 1 || puts[0].DataVersion != "v1" {
		t.Fatalf("puts = %+v", puts)
	}
	tests := []struct {
		name    string
		version string
		err     error
		want    tool.Source
		puts    int
	}{
		{"same version", "v1", nil, tool.SourceCache, 0},
		{"new data", "v2", nil, tool.SourceExecuted, 1},
		{"version unknown", "", errors.New("db down"), tool.SourceExecuted, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v.set(tc.version, tc.err)
			sc := r.Scope(ctx, "s1", 2, puts, false)
			outs := sc.Run(ctx, []tool.Call{c})
			if outs[0].Source != tc.want || len(sc.Puts()) != tc.puts {
				t.Errorf("source %s puts %d, want %s %d", outs[0].Source, len(sc.Puts()), tc.want, tc.puts)
			}
			if len(sc.Cached()) != 1-tc.puts-boolInt(tc.err != nil) {
				t.Errorf("cached section has %d entries", len(sc.Cached()))
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestRunnerProactive(t *testing.T) {
	ctx := context.Background()
	box := newToolbox(t)
	r := newTestRunner(t, box, nil)
	sc := r.Scope(ctx, "s1", 4, nil, true)
	outs := sc.Run(ctx, []tool.Call{
		call("gcs_get_boss_details", `{"boss_name":"Fire Knight"}`),     // duration 0
		call("gcs_get_champion_details", `{"champion_name":"Kaelith"}`), // duration 3
		call("gcs_broken", `{}`),
	})
	if got := sources(outs); got != "proactive,proactive,proactive" {
		t.Errorf("sources = %s", got)
	}
	puts := sc.Puts()
	if len(puts) != 2 || puts[0].Duration != 1 || puts[1].Duration != 3 || puts[0].CachedAt != 4 {
		t.Fatalf("puts = %+v", puts)
	}
	// The next turn (exchange 5) is served from the cache.
	next := r.Scope(ctx, "s1", 5, puts, false)
	if got := sources(next.Run(ctx, []tool.Call{call("gcs_get_boss_details", `{"boss_name":"Fire Knight"}`)})); got != "cache" {
		t.Errorf("next turn source = %s", got)
	}
}

// TestRunnerConcurrentCalls runs two calls that each wait for the other
// to start; run one after the other, the first would give up after 10 s
// (of the bubble's clock: no real time).
func TestRunnerConcurrentCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		box := newToolbox(t)
		// Each call waits for the other to start: run one after the other,
		// they would never finish.
		var started sync.WaitGroup
		started.Add(2)
		both := make(chan struct{})
		go func() { started.Wait(); close(both) }()
		gate := func(ctx context.Context, a map[string]any) (tool.Result, error) {
			started.Done()
			select {
			case <-both:
			case <-time.After(10 * time.Second):
				return tool.Failure("alone", "the other call never started", ""), nil
			}
			return tool.Success("ok", a), nil
		}
		box.get("gcs_get_boss_details").fn = gate
		box.get("db_get_lore_details").fn = gate
		sc := newTestRunner(t, box, nil).Scope(ctx, "s1", 1, nil, false)
		outs := sc.Run(ctx, []tool.Call{call("db_get_lore_details", `{"query":"x"}`), call("gcs_get_boss_details", `{"boss_name":"y"}`)})
		for i, o := range outs {
			if o.Status != tool.StatusSuccess {
				t.Errorf("call %d: %s", i, o.Result.ForLLM())
			}
		}
		if outs[0].Name != "db_get_lore_details" || outs[1].Name != "gcs_get_boss_details" {
			t.Errorf("outcomes out of call order: %s, %s", outs[0].Name, outs[1].Name)
		}
	})
}

func TestRunnerSharedFlight(t *testing.T) {
	// In a bubble, synctest.Wait returns once every caller is blocked: the
	// first inside the tool, the others joined to its flight. No sleeps.
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		box := newToolbox(t)
		release := blockBoss(box)
		r := newTestRunner(t, box, nil)
		const sessions = 8
		var wg sync.WaitGroup
		outs := make([][]tool.Outcome, sessions)
		for i := range sessions {
			wg.Go(func() {
				sc := r.Scope(ctx, "s"+string(rune('a'+i)), 1, nil, false)
				outs[i] = sc.Run(ctx, []tool.Call{call("gcs_get_boss_details", `{"boss_name":"Fire Knight"}`)})
			})
		}
		synctest.Wait()
		close(release)
		wg.Wait()
		if got := box.get("gcs_get_boss_details").count(); got != 1 {
			t.Errorf("executions = %d, want 1", got)
		}
		for i, o := range outs {
			if o[0].Status != tool.StatusSuccess || o[0].Source != tool.SourceExecuted {
				t.Errorf("session %d: %s %s", i, o[0].Source, o[0].Status)
			}
		}
	})
}

func TestRunnerCancelled(t *testing.T) {
	box := newToolbox(t)
	box.get("gcs_get_boss_details").fn = func(ctx context.Context, _ map[string]any) (tool.Result, error) {
		<-ctx.Done()
		return tool.Result{}, ctx.Err()
	}
	ctx, cancel := context.WithCancel(context.Background())
	sc := newTestRunner(t, box, nil).Scope(ctx, "s1", 1, nil, false)
	done := make(chan []tool.Outcome)
	go func() { done <- sc.Run(ctx, []tool.Call{call("gcs_get_boss_details", `{"boss_name":"x"}`)}) }()
	cancel()
	outs := <-done
	if outs[0].Status != tool.StatusError || len(sc.Puts()) != 0 {
		t.Errorf("cancelled call: %s puts %d", outs[0].Result.ForLLM(), len(sc.Puts()))
	}
}

func TestNewRunnerRefusesNil(t *testing.T) {
	if _, err := NewRunner(nil, nil, nil, nil); err == nil {
		t.Error("NewRunner(nil) succeeded")
	}
}

// TestRunnerFlightCallersLeave: a call shared between sessions survives
// either caller going away. When the one running it leaves, the execution
// ends cancelled and the one still waiting runs the tool itself; one that
// leaves while waiting gets a cancelled result at once, and the running
// call goes on. No sleeps: synctest.Wait returns once every caller blocks.
func TestRunnerFlightCallersLeave(t *testing.T) {
	args := `{"boss_name":"Fire Knight"}`
	t.Run("the running caller leaves", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			box := newToolbox(t)
			var runs atomic.Int64
			box.get("gcs_get_boss_details").fn = func(ctx context.Context, a map[string]any) (tool.Result, error) {
				if runs.Add(1) == 1 {
					<-ctx.Done()
					return tool.Result{}, ctx.Err()
				}
				return tool.Success("ok", a), nil
			}
			r := newTestRunner(t, box, nil)
			ctxA, cancelA := context.WithCancel(context.Background())
			var a, b []tool.Outcome
			var wg sync.WaitGroup
			wg.Go(func() {
				a = r.Scope(ctxA, "sa", 1, nil, false).Run(ctxA, []tool.Call{call("gcs_get_boss_details", args)})
			})
			synctest.Wait()
			wg.Go(func() {
				ctx := context.Background()
				b = r.Scope(ctx, "sb", 1, nil, false).Run(ctx, []tool.Call{call("gcs_get_boss_details", args)})
			})
			synctest.Wait()
			if runs.Load() != 1 {
				t.Fatalf("runs before the leave = %d, want one shared", runs.Load())
			}
			cancelA()
			wg.Wait()
			if a[0].Status != tool.StatusError || !errors.Is(a[0].Result.Cause, context.Canceled) {
				t.Errorf("leaving caller: %s", a[0].Result.ForLLM())
			}
			if b[0].Status != tool.StatusSuccess || runs.Load() != 2 {
				t.Errorf("staying caller: %s after %d runs", b[0].Result.ForLLM(), runs.Load())
			}
		})
	})
	t.Run("a waiting caller leaves", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			box := newToolbox(t)
			release := blockBoss(box)
			r := newTestRunner(t, box, nil)
			var a []tool.Outcome
			var wg sync.WaitGroup
			wg.Go(func() {
				ctx := context.Background()
				a = r.Scope(ctx, "sa", 1, nil, false).Run(ctx, []tool.Call{call("gcs_get_boss_details", args)})
			})
			synctest.Wait()
			ctxB, cancelB := context.WithCancel(context.Background())
			done := make(chan []tool.Outcome)
			go func() {
				done <- r.Scope(ctxB, "sb", 1, nil, false).Run(ctxB, []tool.Call{call("gcs_get_boss_details", args)})
			}()
			synctest.Wait()
			cancelB()
			if b := <-done; b[0].Status != tool.StatusError || !errors.Is(b[0].Result.Cause, context.Canceled) {
				t.Errorf("waiting caller that left: %s", b[0].Result.ForLLM())
			}
			close(release)
			wg.Wait()
			if a[0].Status != tool.StatusSuccess || box.get("gcs_get_boss_details").count() != 1 {
				t.Errorf("running caller: %s after %d runs", a[0].Result.ForLLM(), box.get("gcs_get_boss_details").count())
			}
		})
	})
}

// blockBoss makes box's gcs_get_boss_details wait for the returned channel
// to close, then succeed.
func blockBoss(box *toolbox) chan struct{} {
	release := make(chan struct{})
	box.get("gcs_get_boss_details").fn = func(_ context.Context, a map[string]any) (tool.Result, error) {
		<-release
		return tool.Success("ok", a), nil
	}
	return release
}
