package chat

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/sampletools"
	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// executions counts the tool calls that really ran, by tool.
type executions struct {
	mu sync.Mutex
	n  map[string]int
}

func (x *executions) ToolCalls(_ context.Context, _ string, outs []tool.Outcome) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, o := range outs {
		if o.Source == tool.SourceExecuted || o.Source == tool.SourceProactive {
			x.n[o.Name]++
		}
	}
}
func (x *executions) LLMCall(context.Context, llm.Usage, time.Duration, error) {}
func (x *executions) Turn(context.Context, Reply, time.Duration)               {}

func (x *executions) count(name string) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.n[name]
}

// TestOfflineAnswersFromTheScreen plays the sample game with no LLM: the
// screen rules fetch the boss's counters when the player opens the boss
// battle, and "who counters this boss?" is answered from that result (source
// cache, the tool not run again), in the session's language.
func TestOfflineAnswersFromTheScreen(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	exec, rules, game := sampletools.Build(t, "../content")
	store, err := memory.New(redisSrv.Client(t), memory.Options{Prefix: redisSrv.Prefix(t)})
	if err != nil {
		t.Fatal(err)
	}
	obs := &executions{n: map[string]int{}}
	svc, err := NewService(Deps{
		Store: store, Executor: exec, Screens: rules, Observer: obs, Logger: log,
		Fallback: newOfflineFallback(t, exec, offline.Options{Names: game, Logger: log}),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	screen := &screens.Screen{Name: "BossBattlePresenter", Data: []byte(`{"BossConfigId": 5001, "Phase": 1, "Team": [1001, 1002]}`)}
	tests := []struct {
		name, locale, msg string
		want              []string
	}{
		{"english", "en", "who counters this boss?", []string{"Fire Knight", "Rakaix"}},
		{"french", "fr", "qui contre ce boss ?", []string{"Chevalier de Feu", "Rakaix", "Les meilleurs contres"}},
		{"german", "de", "wer kontert diesen Boss?", []string{"Feuerritter", "Rakaix", "Die besten Konter"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, _, err := svc.CreateSession(ctx, "p", tc.locale)
			if err != nil {
				t.Fatal(err)
			}
			before := obs.count("gcs_find_counters_for_boss")
			r, err := svc.Turn(ctx, TurnRequest{SessionID: id, Message: tc.msg, Screen: screen}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var fromCache bool
			for _, o := range r.ToolCalls {
				if o.Name == "gcs_find_counters_for_boss" && o.Source == tool.SourceCache {
					fromCache = true
				}
			}
			if !fromCache {
				t.Errorf("counters not served from the cache: %s", sources(r.ToolCalls))
			}
			if n := obs.count("gcs_find_counters_for_boss") - before; n != 1 {
				t.Errorf("counters ran %d times, want once (by the screen rules)", n)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.Reply, w) {
					t.Errorf("reply lacks %q:\n%s", w, r.Reply)
				}
			}
			// The next turn, on the same screen, still has the result.
			r2, err := svc.Turn(ctx, TurnRequest{SessionID: id, Message: tc.msg}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := sources(r2.ToolCalls); got != "cache" {
				t.Errorf("second turn sources = %s, want cache", got)
			}
		})
	}
}
