package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// hang is an LLM reply that never comes: the fake accepts the request and
// answers only after the client left.
func hang(openai.ChatCompletionRequest) llmtest.Reply {
	return llmtest.Text("too late").Delay(time.Hour)
}

// hungLLM is an LLM that never answers, as llm.Client sees a server that
// accepts requests and never replies: each call makes attempts of attempt
// each (the client's per-attempt timeout) and then fails, unless ctx ends
// first. Its waits are timers, so in a synctest bubble they take no real
// time.
type hungLLM struct {
	attempt  time.Duration
	attempts int
	calls    atomic.Int64
}

func (h *hungLLM) Complete(ctx context.Context, _ llm.Request) (llm.Response, error) {
	return h.wait(ctx)
}

func (h *hungLLM) Stream(ctx context.Context, _ llm.Request, _ llm.StreamHandler) (llm.Response, error) {
	return h.wait(ctx)
}

func (h *hungLLM) wait(ctx context.Context) (llm.Response, error) {
	h.calls.Add(1)
	for range h.attempts {
		t := time.NewTimer(h.attempt)
		select {
		case <-ctx.Done():
			t.Stop()
			return llm.Response{}, ctx.Err()
		case <-t.C:
		}
	}
	return llm.Response{}, errors.New("hungLLM: every attempt timed out")
}

// TestHungLLMAnswersOffline gives the turn less time than the LLM client's
// retries would take (three attempts of 2 s against the turn's 4 s): the
// loop stops when the fallback reserve (2 s) begins and the turn answers
// offline, 2 s after it started.
func TestHungLLMAnswersOffline(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%t", stream), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				hung := &hungLLM{attempt: 2 * time.Second, attempts: 3}
				e := newEnv(t, envConfig{llm: hung, opts: Options{FallbackReserve: 2 * time.Second}})
				id, _ := e.session(t)
				start := time.Now()
				ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
				defer cancel()
				var emit func(Event)
				if stream {
					emit = func(Event) {}
				}
				r, err := e.svc.Turn(ctx, TurnRequest{SessionID: id, Message: "tell me about Kaelith"}, emit)
				if err != nil {
					t.Fatalf("turn failed instead of answering offline: %v", err)
				}
				if took := time.Since(start); took != 2*time.Second {
					t.Errorf("the turn took %s, want the 2 s before the reserve", took)
				}
				if !r.Degraded || !strings.Contains(r.Reply, "Kaelith") || hung.calls.Load() != 1 {
					t.Fatalf("reply = %+v after %d LLM calls, want a degraded offline answer after 1", r, hung.calls.Load())
				}
				if h := e.history(t, id); len(h) != 2 || h[1].Content != r.Reply {
					t.Fatalf("history = %+v", h)
				}
			})
		})
	}
}

// TestLLMBudgetBoundsTheLoop bounds the loop by Options.LLMBudget when the
// caller has no deadline at all.
func TestLLMBudgetBoundsTheLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, envConfig{llm: &hungLLM{attempt: time.Hour, attempts: 3}, opts: Options{LLMBudget: 300 * time.Millisecond}})
		id, _ := e.session(t)
		start := time.Now()
		r := e.turn(t, id, "tell me about Kaelith")
		if !r.Degraded || !strings.Contains(r.Reply, "Kaelith") {
			t.Fatalf("reply = %+v, want a degraded offline answer", r)
		}
		if took := time.Since(start); took != 300*time.Millisecond {
			t.Errorf("the turn took %s, want the 300 ms budget", took)
		}
	})
}

// TestToolFlood answers one LLM answer of 400 tool calls: only
// MaxToolCallsPerRound run; only those go back to the model, the last
// result carrying one note that the rest were dropped; the reply and the
// stream report only those.
func TestToolFlood(t *testing.T) {
	const calls, limit = 400, 16
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%t", stream), func(t *testing.T) {
			e := newEnv(t, envConfig{})
			id, _ := e.session(t)
			flood := make([]llmtest.Call, calls)
			for i := range flood {
				flood[i] = llmtest.Call{ID: fmt.Sprint("c", i), Name: "db_get_lore_details", Arguments: fmt.Sprintf(`{"query":"q%d %s"}`, i, strings.Repeat("x", 200))}
			}
			e.fake.Enqueue(llmtest.ToolCalls(flood...), llmtest.Text("done"))
			var emit func(Event)
			var events []Event
			if stream {
				emit = func(ev Event) { events = append(events, ev) }
			}
			r, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "flood"}, emit)
			if err != nil {
				t.Fatal(err)
			}
			if n := e.box.get("db_get_lore_details").count(); n != limit {
				t.Fatalf("%d executions, want %d", n, limit)
			}
			if len(r.ToolCalls) != limit {
				t.Fatalf("reply reports %d tool calls, want %d", len(r.ToolCalls), limit)
			}
			for i, o := range r.ToolCalls {
				if o.Source != tool.SourceExecuted || o.Status != tool.StatusSuccess {
					t.Fatalf("call %d: source %s status %s", i, o.Source, o.Status)
				}
			}
			n := map[EventType]int{}
			for _, ev := range events {
				n[ev.Type]++
			}
			if stream && (n[EventToolCall] != limit || n[EventToolResult] != limit) {
				t.Fatalf("streamed %d tool_call and %d tool_result events, want %d each", n[EventToolCall], n[EventToolResult], limit)
			}
			next := e.fake.Requests()[1]
			var asked []openai.ToolCall
			for _, m := range next.Messages {
				asked = append(asked, m.ToolCalls...)
			}
			if len(asked) != limit {
				t.Fatalf("the next request carries %d tool calls, want %d", len(asked), limit)
			}
			tm := toolMessages(next)
			if len(tm) != limit {
				t.Fatalf("%d tool messages, want %d", len(tm), limit)
			}
			note := fmt.Sprintf("%d more tool calls of your answer were not run: at most %d", calls-limit, limit)
			for i, m := range tm {
				if strings.Contains(m, "were not run") != (i == limit-1) {
					t.Fatalf("tool message %d: the note belongs to the last result only: %s", i, m)
				}
			}
			if !strings.Contains(tm[limit-1], note) {
				t.Fatalf("last tool message %q does not carry the note %q", tm[limit-1], note)
			}
			// The calls not run are not echoed back with their arguments:
			// only the calls that ran appear, once in the assistant
			// message and once in their (echoing) results.
			body, _ := json.Marshal(next.Messages)
			if got := strings.Count(string(body), strings.Repeat("x", 200)); got != 2*limit {
				t.Fatalf("the next request carries the arguments %d times, want %d", got, 2*limit)
			}
		})
	}
}

// TestOversizedArgumentNotCounted: an LLM tool call with a 400,000-byte
// argument its schema caps at 300 characters is refused by the schema
// before anything counts it: it is not sent back to the model, and the
// tool's error result names the field.
func TestOversizedArgumentNotCounted(t *testing.T) {
	e := newEnv(t, envConfig{})
	id, _ := e.session(t)
	big := strings.Repeat("x", 400_000)
	e.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "big", Name: SearchConversationName, Arguments: `{"query":"` + big + `"}`}), llmtest.Text("done"))
	r := e.turn(t, id, "hello")
	if r.Reply != "done" || len(r.ToolCalls) != 1 || r.ToolCalls[0].Status != tool.StatusError {
		t.Fatalf("reply %+v", r)
	}
	next := e.fake.Requests()[1]
	body, _ := json.Marshal(next.Messages)
	if strings.Contains(string(body), strings.Repeat("x", 1000)) {
		t.Fatalf("the oversized argument went back to the model (%d bytes of request)", len(body))
	}
	tm := toolMessages(next)
	if len(tm) != 1 || !strings.Contains(tm[0], "query must be 1-300 characters") {
		t.Fatalf("tool messages %q, want the error naming query", tm)
	}
}

// blockingExec is an Executor whose calls block until release closes and
// that records how many ran at once.
type blockingExec struct {
	reg      *tool.Registry
	release  chan struct{}
	mu       sync.Mutex
	inflight int
	peak     int
}

func (b *blockingExec) Registry() *tool.Registry { return b.reg }

func (b *blockingExec) Execute(ctx context.Context, _ tool.Call) tool.Result {
	b.mu.Lock()
	b.inflight++
	b.peak = max(b.peak, b.inflight)
	b.mu.Unlock()
	select {
	case <-b.release:
	case <-ctx.Done():
	}
	b.mu.Lock()
	b.inflight--
	b.mu.Unlock()
	return tool.Success("ok", nil)
}

func (b *blockingExec) running() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.inflight
}

// TestRoundConcurrencyBounded runs a batch of 12 distinct calls with a
// bound of 4: once every goroutine is blocked, exactly 4 are running.
func TestRoundConcurrencyBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		box := newToolbox(t)
		ex := &blockingExec{reg: box.reg, release: make(chan struct{})}
		r, err := NewRunner(ex, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.SetConcurrency(4)
		batch := make([]tool.Call, 12)
		for i := range batch {
			batch[i] = call("db_get_lore_details", fmt.Sprintf(`{"query":"q%d"}`, i))
		}
		done := make(chan []tool.Outcome)
		go func() { done <- r.Scope(context.Background(), "s", 1, nil, false).Run(context.Background(), batch) }()
		synctest.Wait()
		if n := ex.running(); n != 4 {
			t.Fatalf("%d calls running at once, want 4", n)
		}
		close(ex.release)
		outs := <-done
		if len(outs) != len(batch) || ex.peak != 4 {
			t.Fatalf("%d outcomes, peak %d", len(outs), ex.peak)
		}
	})
}

// TestOlderScreenEventNotApplied delivers screen events out of order: an
// event older than the current screen changes nothing.
func TestOlderScreenEventNotApplied(t *testing.T) {
	e := newEnv(t, envConfig{screens: true})
	ctx := context.Background()
	id, _ := e.session(t)
	t0 := time.Unix(1_700_000_000, 0)
	champ := screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId":1001}`)}
	other := screens.Screen{Name: "BossBattlePresenter", Data: json.RawMessage(`{"BossConfigId":5001}`)}
	steps := []struct {
		name    string
		sc      screens.Screen
		at      time.Time
		applied bool
		stored  string
	}{
		{"first", champ, t0.Add(10 * time.Second), true, champ.Name},
		{"older other screen", other, t0.Add(5 * time.Second), false, champ.Name},
		{"same screen later", champ, t0.Add(20 * time.Second), true, champ.Name},
		{"older than the repeat", other, t0.Add(15 * time.Second), false, champ.Name},
		{"newer other screen", other, t0.Add(30 * time.Second), true, other.Name},
		{"same second", champ, t0.Add(30 * time.Second), true, champ.Name},
	}
	for _, st := range steps {
		rep, err := e.svc.ScreenEventAt(ctx, id, st.sc, memory.ScreenEvent{At: st.at})
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if rep.Applied != st.applied {
			t.Fatalf("%s: applied %v, want %v", st.name, rep.Applied, st.applied)
		}
		if !rep.Applied && len(rep.Tools) != 0 {
			t.Fatalf("%s: a stale event ran tools: %+v", st.name, rep.Tools)
		}
		m, err := e.store.Session(ctx, id)
		if err != nil || m.Screen == nil || m.Screen.Name != st.stored {
			t.Fatalf("%s: stored screen %+v (%v), want %s", st.name, m.Screen, err, st.stored)
		}
	}
}

// TestAbandonedTurnLeavesNoScreen abandons a turn that carried a new
// screen: neither the screen nor its proactive results are stored.
func TestAbandonedTurnLeavesNoScreen(t *testing.T) {
	e := newEnv(t, envConfig{screens: true})
	id, _ := e.session(t)
	e.fake.SetResponder(hang)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	sc := &screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId":1001}`)}
	go func() {
		_, err := e.svc.Turn(ctx, TurnRequest{SessionID: id, Message: "what is this?", Screen: sc}, nil)
		done <- err
	}()
	e.fake.WaitRequests(1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	m, err := e.store.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if m.Screen != nil {
		t.Errorf("abandoned turn stored its screen: %+v", m.Screen)
	}
	if c, err := e.store.Cache(context.Background(), id); err != nil || len(c) != 0 {
		t.Errorf("abandoned turn stored cache entries: %d (%v)", len(c), err)
	}
	// A finished turn with the same screen stores both.
	var asked atomic.Bool
	e.fake.SetResponder(func(openai.ChatCompletionRequest) llmtest.Reply { asked.Store(true); return llmtest.Text("ok") })
	if _, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "again", Screen: sc}, nil); err != nil {
		t.Fatal(err)
	}
	m, _ = e.store.Session(context.Background(), id)
	c, _ := e.store.Cache(context.Background(), id)
	if !asked.Load() || m.Screen == nil || m.Screen.Hash != sc.Hash() || len(c) == 0 {
		t.Errorf("finished turn: screen %+v, %d cache entries", m.Screen, len(c))
	}
}

// TestHiddenSQLToolNotCallable: without Options.OfferSQLTools the LLM can
// neither see nor call the SQL tools, even when told their names (by a
// player's message, say), directly or through use_tool.
func TestHiddenSQLToolNotCallable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  Options
		call  llmtest.Call
		offer bool
	}{
		{"direct", Options{}, llmtest.Call{ID: "s", Name: "sql_query", Arguments: `{"sql":"select 1"}`}, false},
		{"through use_tool", Options{ToolSelection: toolselect.ModeDeferred},
			llmtest.Call{ID: "s", Name: toolselect.UseToolName, Arguments: `{"name":"sql_query","arguments":{"sql":"select 1"}}`}, false},
		{"offered", Options{OfferSQLTools: true}, llmtest.Call{ID: "s", Name: "sql_query", Arguments: `{"sql":"select 1"}`}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envConfig{opts: tc.opts})
			id, _ := e.session(t)
			e.fake.Enqueue(llmtest.ToolCalls(tc.call), llmtest.Text("ok"))
			r := e.turn(t, id, "call sql_query with select 1")
			ran := e.box.get("sql_query").count()
			if len(r.ToolCalls) != 1 || (ran == 1) != tc.offer || (r.ToolCalls[0].Status == tool.StatusSuccess) != tc.offer {
				t.Fatalf("offered %v: ran %d times, calls %+v", tc.offer, ran, r.ToolCalls)
			}
			if !tc.offer && !strings.Contains(r.ToolCalls[0].Result.Message, "Unknown tool") {
				t.Errorf("refusal %q", r.ToolCalls[0].Result.Message)
			}
		})
	}
}
