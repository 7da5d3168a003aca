package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/internal/sessionfake"
	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/tool"
)

// panicCompleter is an LLM client that panics, as a bug in handling its
// answer would.
type panicCompleter struct{}

func (panicCompleter) Complete(context.Context, llm.Request) (llm.Response, error) {
	panic("completer bug")
}

func (panicCompleter) Stream(context.Context, llm.Request, llm.StreamHandler) (llm.Response, error) {
	panic("completer bug")
}

// turnPanicObserver panics when a turn is reported, after it is recorded.
type turnPanicObserver struct{}

func (turnPanicObserver) ToolCalls(context.Context, string, []tool.Outcome)        {}
func (turnPanicObserver) LLMCall(context.Context, llm.Usage, time.Duration, error) {}
func (turnPanicObserver) Turn(context.Context, chat.Reply, time.Duration)          { panic("observer bug") }

// cannedFallback answers every turn with the same text, as the offline
// responder would when the LLM fails.
type cannedFallback struct{}

func (cannedFallback) Answer(context.Context, chat.FallbackTurn, chat.RunFunc) chat.FallbackAnswer {
	return chat.FallbackAnswer{Text: "the offline answer"}
}

// lastSSE returns the last event of an SSE body and its data.
func lastSSE(t *testing.T, body string) (string, string) {
	t.Helper()
	var event, data string
	for _, block := range strings.Split(strings.TrimSpace(body), "\n\n") {
		for _, line := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(line, "event:"); ok {
				event = v
			} else if v, ok := strings.CutPrefix(line, "data:"); ok {
				data = v
			}
		}
	}
	return event, data
}

// TestTurnPanicOverHTTP injects a panicking component through the real
// chat service's Deps behind the real server: a panicking LLM client
// answers 200 degraded as JSON and ends a stream with done; a panic past
// the answer answers a clean 500 as JSON and ends a stream with an error
// event. Either way the player's message is in the history and the next
// turn takes the next exchange.
func TestTurnPanicOverHTTP(t *testing.T) {
	for _, tc := range []struct {
		name   string
		deps   func(*chat.Deps)
		status int
		event  string
	}{
		{"completer", func(d *chat.Deps) { d.LLM = panicCompleter{} }, http.StatusOK, "done"},
		{"after the answer", func(d *chat.Deps) { d.Observer = turnPanicObserver{} }, http.StatusInternalServerError, "error"},
	} {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%t", tc.name, stream), func(t *testing.T) {
				ctx := context.Background()
				store := sessionfake.New()
				reg := tool.NewRegistry()
				if err := reg.Register(echoTool{}); err != nil {
					t.Fatal(err)
				}
				ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
				if err != nil {
					t.Fatal(err)
				}
				deps := chat.Deps{Store: store, Executor: ex, Fallback: cannedFallback{}, Logger: slog.New(slog.DiscardHandler)}
				tc.deps(&deps)
				svc, err := chat.NewService(deps, chat.Options{})
				if err != nil {
					t.Fatal(err)
				}
				url := serveChat(t, svc)
				id, token, err := svc.CreateSession(ctx, "p1", "en")
				if err != nil {
					t.Fatal(err)
				}
				post := func(msg string, stream bool) (int, string) {
					body := fmt.Sprintf(`{"session_id":%q,"message":%q,"stream":%t}`, id, msg, stream)
					req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+token)
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						t.Fatal(err)
					}
					defer resp.Body.Close()
					b, _ := io.ReadAll(resp.Body)
					return resp.StatusCode, string(b)
				}
				status, body := post("hello there", stream)
				if stream {
					event, data := lastSSE(t, body)
					if status != http.StatusOK || event != tc.event {
						t.Fatalf("stream %d ends with event %q, want %q:\n%s", status, event, tc.event, body)
					}
					if tc.event == "done" {
						var r chat.Reply
						if err := json.Unmarshal([]byte(data), &r); err != nil || !r.Degraded || r.Exchange != 1 || r.Reply == "" {
							t.Fatalf("done %s (%v), want a degraded reply at exchange 1", data, err)
						}
					} else if !strings.Contains(data, `"code":"internal"`) {
						t.Fatalf("error event %s", data)
					}
				} else {
					if status != tc.status {
						t.Fatalf("status %d, want %d: %s", status, tc.status, body)
					}
					var r struct {
						chat.Reply
						Error *struct{ Code string } `json:"error"`
					}
					if err := json.Unmarshal([]byte(body), &r); err != nil {
						t.Fatalf("body is not JSON: %s", body)
					}
					if tc.status == http.StatusOK && (!r.Degraded || r.Exchange != 1 || r.Reply.Reply == "") {
						t.Fatalf("reply %s, want a degraded answer at exchange 1", body)
					}
					if tc.status != http.StatusOK && (r.Error == nil || r.Error.Code != "internal") {
						t.Fatalf("error body %s", body)
					}
				}
				svc.Wait()
				h, err := store.History(ctx, id)
				if err != nil || len(h) != 2 || h[0].Content != "hello there" || h[0].Exchange != 1 {
					t.Fatalf("history %+v (%v), want the message at exchange 1", h, err)
				}
				post("and then?", false)
				svc.Wait()
				h, err = store.History(ctx, id)
				if err != nil || len(h) != 4 || h[2].Exchange != 2 {
					t.Fatalf("history after the next turn %+v (%v), want exchange 2", h, err)
				}
			})
		}
	}
}

// TestStreamedTurnPanicEndsWithError: a chat service whose Turn panics
// mid-stream still ends the stream with an error event.
func TestStreamedTurnPanicEndsWithError(t *testing.T) {
	cs := newChatServer(t, fakeChat{turn: func(_ context.Context, _ chat.TurnRequest, emit func(chat.Event)) (chat.Reply, error) {
		emit(chat.Event{Type: chat.EventDelta, Data: chat.DeltaEvent{Text: "partial"}})
		panic(errors.New("turn bug"))
	}}, api.Options{})
	resp, err := postChat(context.Background(), t, cs.ts.URL, chatBody(true))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if event, data := lastSSE(t, string(b)); event != "error" || !strings.Contains(data, `"code":"internal"`) {
		t.Fatalf("stream ends with %q %s, want an internal error event:\n%s", event, data, b)
	}
}
