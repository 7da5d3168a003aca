package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// panicLLM is a Completer that panics on every call, as a bug in the
// LLM's answer handling would.
type panicLLM struct{}

func (panicLLM) Complete(context.Context, llm.Request) (llm.Response, error) {
	panic("completer bug")
}

func (panicLLM) Stream(_ context.Context, _ llm.Request, onText llm.StreamHandler) (llm.Response, error) {
	onText("partial ")
	panic("completer bug")
}

// panicExec is an Executor that panics for one tool, past the recovery of
// tool.Executor (a custom Executor may have none).
type panicExec struct {
	Executor
	tool string
}

func (p panicExec) Execute(ctx context.Context, c tool.Call) tool.Result {
	if c.Name == p.tool {
		panic("executor bug")
	}
	return p.Executor.Execute(ctx, c)
}

// panicFallback is a Fallback that panics.
type panicFallback struct{}

func (panicFallback) Answer(context.Context, FallbackTurn, RunFunc) FallbackAnswer {
	panic("fallback bug")
}

// panicTooler is the screen engine whose rule tools, read while the prompt
// is assembled, panic.
type panicTooler struct{ *screens.Engine }

func (panicTooler) Tools(string) []string { panic("screen tools bug") }

// panicObserver panics when a turn is reported, after it was recorded.
type panicObserver struct{ nopObserver }

func (panicObserver) Turn(context.Context, Reply, time.Duration) { panic("observer bug") }

// TestTurnSurvivesPanics injects a panicking component through Deps in
// each part of a turn: the turn ends as a degraded answer (or, past the
// answer, a clean error), the player's message is in the history at its
// exchange, the reply encodes, a stream ends with the answer's text, and
// the next turn takes the next exchange.
func TestTurnSurvivesPanics(t *testing.T) {
	kaelith := llmtest.ToolCalls(llmtest.Call{ID: "k", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Kaelith"}`})
	for _, tc := range []struct {
		name   string
		deps   func(*Deps)
		script []llmtest.Reply
		screen bool
		// want is the reply's text (contains), degraded whether it is.
		want     string
		degraded bool
		// failed: the turn fails with ErrInternal after recording.
		failed bool
	}{
		{name: "completer", deps: func(d *Deps) { d.LLM = panicLLM{} }, want: "Kaelith", degraded: true},
		{name: "tool execution", deps: func(d *Deps) {
			d.Executor = panicExec{Executor: d.Executor, tool: "gcs_get_champion_details"}
		}, script: []llmtest.Reply{kaelith, llmtest.Text("no details")}, want: "no details"},
		{name: "prompt assembly", deps: func(d *Deps) {
			d.Screens = panicTooler{newEngine(t, d.Executor.Registry())}
		}, screen: true, want: "Kaelith", degraded: true},
		{name: "fallback too", deps: func(d *Deps) { d.LLM, d.Fallback = panicLLM{}, panicFallback{} }, want: panicAnswer, degraded: true},
		{name: "after the answer", deps: func(d *Deps) { d.Observer = panicObserver{} },
			script: []llmtest.Reply{llmtest.Text("fine")}, failed: true},
	} {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%t", tc.name, stream), func(t *testing.T) {
				e := newEnv(t, envConfig{deps: tc.deps})
				id, _ := e.session(t)
				e.fake.Enqueue(tc.script...)
				var events []Event
				var emit func(Event)
				if stream {
					emit = func(ev Event) { events = append(events, ev) }
				}
				req := TurnRequest{SessionID: id, Message: "tell me about Kaelith"}
				if tc.screen {
					req.Screen = &screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId":1001}`)}
				}
				r, err := e.svc.Turn(context.Background(), req, emit)
				e.svc.Wait()
				if tc.failed {
					if !errors.Is(err, ErrInternal) {
						t.Fatalf("err = %v, want ErrInternal", err)
					}
				} else {
					if err != nil {
						t.Fatalf("turn failed: %v", err)
					}
					if !strings.Contains(r.Reply, tc.want) || r.Degraded != tc.degraded || r.Exchange != 1 {
						t.Fatalf("reply %q degraded %v exchange %d; want %q degraded %v exchange 1", r.Reply, r.Degraded, r.Exchange, tc.want, tc.degraded)
					}
					if _, err := json.Marshal(r); err != nil {
						t.Fatalf("reply does not encode: %v", err)
					}
					if stream {
						var text strings.Builder
						for _, ev := range events {
							if d, ok := ev.Data.(DeltaEvent); ok {
								text.WriteString(d.Text)
							}
						}
						if len(events) == 0 || events[len(events)-1].Type != EventDelta || !strings.HasSuffix(text.String(), r.Reply) {
							t.Fatalf("stream ends with %+v, want the answer's text", events)
						}
					}
				}
				h := e.history(t, id)
				if len(h) != 2 || h[0].Content != req.Message || h[0].Exchange != 1 || h[1].Exchange != 1 || h[1].Content == "" {
					t.Fatalf("history %+v, want the player's message and an answer at exchange 1", h)
				}
				if !tc.failed && h[1].Content != r.Reply {
					t.Fatalf("stored answer %q, reply %q", h[1].Content, r.Reply)
				}
				// The next turn takes exchange 2: none was skipped.
				e.fake.Enqueue(llmtest.Text("again"))
				next, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "and now?"}, nil)
				if tc.failed && errors.Is(err, ErrInternal) {
					err = nil
				}
				if err != nil || (next.Exchange != 2 && !tc.failed) {
					t.Fatalf("next turn: exchange %d, %v", next.Exchange, err)
				}
				e.svc.Wait()
				if h := e.history(t, id); len(h) != 4 || h[2].Exchange != 2 {
					t.Fatalf("history after the next turn: %d messages, %+v", len(h), h)
				}
			})
		}
	}
}

// TestBudgetSpentByManyCalls is the reported crash: one LLM round of 17
// calls (8 long results, 8 short counter lookups, 1 over the per-round
// cap) spends the context budget, after which the short results still to
// fit were cut past their end. The turn answers, with the message recorded.
func TestBudgetSpentByManyCalls(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%t", stream), func(t *testing.T) {
			e := newEnv(t, envConfig{opts: Options{MaxContextTokens: 700}})
			id, _ := e.session(t)
			var calls []llmtest.Call
			for i := range 8 {
				// Long results first (the fake lore tool echoes its query),
				// spending the budget.
				calls = append(calls, llmtest.Call{ID: fmt.Sprint("l", i), Name: "db_get_lore_details", Arguments: fmt.Sprintf(`{"query":"lore %d %s"}`, i, strings.Repeat("Fire Knight ", 40))})
			}
			for i := range 8 {
				// Then short ones, once nothing is left.
				calls = append(calls, llmtest.Call{ID: fmt.Sprint("b", i), Name: "gcs_find_counters_for_boss", Arguments: fmt.Sprintf(`{"boss_name":"Boss %d"}`, i)})
			}
			calls = append(calls, llmtest.Call{ID: "over", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Kaelith"}`})
			e.fake.Enqueue(llmtest.ToolCalls(calls...), llmtest.Text("Kaelith counters them all."))
			var emit func(Event)
			if stream {
				emit = func(Event) {}
			}
			r, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "who counters the bosses?"}, emit)
			if err != nil {
				t.Fatal(err)
			}
			e.svc.Wait()
			if r.Reply != "Kaelith counters them all." || r.Degraded || len(r.ToolCalls) != 16 {
				t.Fatalf("reply %q degraded %v, %d tool calls", r.Reply, r.Degraded, len(r.ToolCalls))
			}
			tm := toolMessages(e.fake.Requests()[1])
			cut := 0
			for _, m := range tm {
				if strings.Contains(m, "[cut to fit the context budget") {
					cut++
				}
			}
			if len(tm) != 16 || cut == 0 {
				t.Fatalf("%d tool messages, %d cut: the budget was not spent", len(tm), cut)
			}
			if h := e.history(t, id); len(h) != 2 || h[0].Exchange != 1 {
				t.Fatalf("history %+v", h)
			}
		})
	}
}

// TestSummaryPanicFallsBack: the background summary of a session whose
// LLM client panics is written by the extractive summarizer instead; the
// process (and the test binary) survives the panic on that goroutine.
func TestSummaryPanicFallsBack(t *testing.T) {
	e := newEnv(t, envConfig{opts: Options{MaxContextTokens: 1200}, deps: func(d *Deps) { d.LLM = panicLLM{} }})
	id, _ := e.session(t)
	for i := range 8 {
		r := e.turn(t, id, fmt.Sprintf("tell me about Kaelith, question %d %s", i, strings.Repeat("words ", 30)))
		if !r.Degraded {
			t.Fatalf("turn %d not degraded", i)
		}
	}
	m, err := e.store.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if m.Summary == nil || !strings.Contains(m.Summary.Text, "Player: tell me about Kaelith, question 0") {
		t.Fatalf("summary %+v, want the extractive one", m.Summary)
	}
}
