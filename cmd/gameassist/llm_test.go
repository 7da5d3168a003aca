package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/llm/llmtest"
)

// TestLLMTurns drives turns through the OpenAI-compatible fake: a tool
// round then text, the same streamed both ways, and an LLM that fails. It
// has its own Redis: it reads global stats.
func TestLLMTurns(t *testing.T) {
	fake := llmtest.New(t)
	f := newFixture(t, appSetup{llm: fake, redis: redistest.Start(t)})
	const answer = "Kaelith is a strong counter to the Fire Knight: her Decrease DEF helps a lot."
	enqueueToolRound := func() {
		fake.Enqueue(
			llmtest.ToolCalls(llmtest.Call{ID: "call_1", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Kaelith"}`}),
			llmtest.Text(answer),
		)
	}

	t.Run("tool call then text", func(t *testing.T) {
		s := f.newSession(t)
		before := fake.RequestCount()
		enqueueToolRound()
		r := f.chat(t, s, "is Kaelith good against the Fire Knight?")
		if r.Reply != answer || r.Degraded || r.Exchange != 1 {
			t.Fatalf("reply %+v", r)
		}
		if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "gcs_get_champion_details" ||
			r.ToolCalls[0].Source != "executed" || r.ToolCalls[0].Status != "success" {
			t.Fatalf("tool calls %+v", r.ToolCalls)
		}
		if r.Usage.PromptTokens <= 0 || r.Usage.CompletionTokens <= 0 {
			t.Fatalf("usage %+v", r.Usage)
		}
		reqs := fake.Requests()[before:]
		if len(reqs) != 2 {
			t.Fatalf("%d LLM requests, want 2", len(reqs))
		}
		last := reqs[1].Messages[len(reqs[1].Messages)-1]
		if last.Role != "tool" || last.ToolCallID != "call_1" || !strings.Contains(last.Content, "Kaelith") {
			t.Fatalf("second LLM request does not end with the tool result: %+v", last)
		}
		for _, tl := range reqs[0].Tools {
			if strings.HasPrefix(tl.Function.Name, "sql_") {
				t.Errorf("SQL tool %s offered to the LLM", tl.Function.Name)
			}
		}
	})

	streams := []struct {
		name   string
		body   func(s session) map[string]any
		header map[string]string
	}{
		{name: "stream true", body: func(s session) map[string]any {
			b := chatBody(s, "is Kaelith good against the Fire Knight?")
			b["stream"] = true
			return b
		}},
		{name: "accept event-stream", body: func(s session) map[string]any {
			return chatBody(s, "is Kaelith good against the Fire Knight?")
		}, header: map[string]string{"Accept": "text/event-stream"}},
	}
	for _, tt := range streams {
		t.Run(tt.name, func(t *testing.T) {
			s := f.newSession(t)
			enqueueToolRound()
			req := request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: tt.body(s), header: tt.header}
			resp, body := f.do(t, req)
			expect(t, resp, body, http.StatusOK)
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
				t.Fatalf("content type %q", ct)
			}
			events := parseSSE(t, body)
			names := make([]string, len(events))
			for i, e := range events {
				names[i] = e.name
			}
			// tool_call, tool_result, delta..., done
			if len(names) < 4 || names[0] != "tool_call" || names[1] != "tool_result" || names[len(names)-1] != "done" {
				t.Fatalf("event order %v", names)
			}
			var text strings.Builder
			for _, e := range events[2 : len(events)-1] {
				if e.name != "delta" {
					t.Fatalf("event order %v", names)
				}
				var d struct {
					Text *string `json:"text"`
				}
				if err := json.Unmarshal([]byte(e.data), &d); err != nil || d.Text == nil {
					t.Fatalf("delta data %q", e.data)
				}
				text.WriteString(*d.Text)
			}
			var call struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			if err := json.Unmarshal([]byte(events[0].data), &call); err != nil || call.Name != "gcs_get_champion_details" {
				t.Fatalf("tool_call data %q", events[0].data)
			}
			res := decode[outcome](t, []byte(events[1].data))
			if res.Name != "gcs_get_champion_details" || res.Source != "executed" || res.Status != "success" {
				t.Fatalf("tool_result data %q", events[1].data)
			}

			done := []byte(events[len(events)-1].data)
			// done carries the chat reply: validate it as the JSON answer.
			jsonResp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}}
			httpReq, err := http.NewRequest(http.MethodPost, f.ts.URL+"/v1/chat", nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.v.ValidateResponse(httpReq, jsonResp, done); err != nil {
				t.Fatalf("done is not a chat reply: %v", err)
			}
			r := decode[chatReply](t, done)
			if r.Reply != answer || strings.TrimSpace(text.String()) != answer || r.SessionID != s.ID || r.Exchange != 1 {
				t.Fatalf("done %s; deltas %q", done, text.String())
			}
			if len(r.ToolCalls) != 1 || r.ToolCalls[0].Source != "executed" || r.Usage.CompletionTokens <= 0 {
				t.Fatalf("done %s", done)
			}
			v := f.adminSession(t, s.ID)
			if len(v.History) != 2 || v.History[1].Content != answer {
				t.Fatalf("history after a streamed turn: %+v", v.History)
			}
		})
	}

	t.Run("LLM failing answers degraded", func(t *testing.T) {
		s := f.newSession(t)
		before := fake.RequestCount()
		fake.Enqueue(llmtest.Status(500, nil), llmtest.Status(500, nil), llmtest.Status(500, nil))
		r := f.chat(t, s, "is Kaelith good against the Fire Knight?")
		if !r.Degraded {
			t.Fatalf("not degraded: %+v", r)
		}
		if !strings.Contains(r.Reply, "Kaelith") || len(r.ToolCalls) == 0 {
			t.Fatalf("no offline answer: %+v", r)
		}
		if n := fake.RequestCount() - before; n != 3 {
			t.Fatalf("%d LLM attempts, want 3", n)
		}
		// The next turn uses the LLM again.
		r = f.chat(t, s, "thanks")
		if r.Degraded || r.Reply != "ok" || r.Exchange != 2 {
			t.Fatalf("turn after recovery: %+v", r)
		}
	})

	t.Run("LLM failing mid-stream answers degraded", func(t *testing.T) {
		s := f.newSession(t)
		fake.Enqueue(llmtest.Status(500, nil), llmtest.Status(500, nil), llmtest.Status(500, nil))
		b := chatBody(s, "is Kaelith good against the Fire Knight?")
		b["stream"] = true
		resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: b})
		expect(t, resp, body, http.StatusOK)
		events := parseSSE(t, body)
		if len(events) == 0 || events[len(events)-1].name != "done" {
			t.Fatalf("events %+v", events)
		}
		r := decode[chatReply](t, []byte(events[len(events)-1].data))
		if !r.Degraded || !strings.Contains(r.Reply, "Kaelith") {
			t.Fatalf("done %+v", r)
		}
		if !slices.ContainsFunc(events, func(e sseEvent) bool { return e.name == "delta" }) {
			t.Fatalf("no delta events in a degraded stream: %+v", events)
		}
	})

	t.Run("client gone mid-stream records nothing", func(t *testing.T) {
		s := f.newSession(t)
		const leaving = "is Kaelith good against the Fire Knight? (leaving)"
		// Only the leaving turn's request is held, until the test ends or
		// its client goes; every other request is answered at once, so
		// nothing of the abandoned turn can answer a later one.
		release := make(chan struct{})
		defer close(release)
		asked := make(chan struct{})
		var askedOnce sync.Once
		fake.SetResponder(func(req openai.ChatCompletionRequest) llmtest.Reply {
			last := req.Messages[len(req.Messages)-1]
			switch {
			case last.Role == openai.ChatMessageRoleUser && strings.Contains(last.Content, leaving):
				askedOnce.Do(func() { close(asked) })
				return llmtest.Text("nobody reads this").Until(release)
			case last.Role == openai.ChatMessageRoleUser && strings.Contains(last.Content, "hello?"):
				return llmtest.Text("here again")
			}
			return llmtest.Text("ok")
		})
		defer fake.SetResponder(nil)
		// The leaving turn goes through a server of its own whose handler
		// says when it returned: when the turn has ended.
		finished := make(chan struct{})
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer close(finished)
			f.app.handler.ServeHTTP(w, r)
		}))
		defer ts.Close()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			b := chatBody(s, leaving)
			b["stream"] = true
			_, _, err := sendTo(ctx, t, f.http, f.v, ts.URL, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: b})
			done <- err
		}()
		<-asked // the turn waits on the LLM
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled request: %v", err)
		}
		<-finished
		// The turn is abandoned: its lock is released and nothing of it is
		// kept; its exchange number is used up.
		r := f.chat(t, s, "hello?")
		if r.Reply != "here again" || r.Exchange != 2 {
			t.Fatalf("turn after an abandoned one: %+v", r)
		}
		v := f.adminSession(t, s.ID)
		if len(v.History) != 2 || v.History[0].Content != "hello?" {
			t.Fatalf("history holds the abandoned turn: %+v", v.History)
		}
	})

	t.Run("stats count degraded turns", func(t *testing.T) {
		f.afterFlush(t, "LLM stats", func() (bool, string) {
			resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/stats", token: testAdminToken})
			expect(t, resp, body, http.StatusOK)
			rep := decode[struct {
				LLM struct {
					Calls        int64 `json:"calls"`
					Errors       int64 `json:"errors"`
					Degraded     int64 `json:"degraded"`
					PromptTokens int64 `json:"prompt_tokens"`
				} `json:"llm"`
			}](t, body)
			l := rep.LLM
			// Two turns degraded. The abandoned stream's call was cancelled
			// by the player leaving: not an LLM error, not counted.
			return l.Degraded == 2 && l.Errors == 2 && l.Calls > l.Errors && l.PromptTokens > 0, string(body)
		})
	})

	t.Run("LLM gone", func(t *testing.T) {
		defer func() {
			if t.Failed() {
				t.Log("the fake LLM is closed: later subtests cannot use it")
			}
		}()
		fake.Close()
		resp, body := f.do(t, request{method: http.MethodGet, path: "/readyz"})
		expect(t, resp, body, http.StatusOK)
		ready := decode[struct {
			Checks map[string]struct {
				Status   string `json:"status"`
				Required bool   `json:"required"`
			} `json:"checks"`
		}](t, body)
		if c := ready.Checks["llm"]; c.Status != "unavailable" || c.Required {
			t.Fatalf("readyz with the LLM gone: %s", body)
		}
		r := f.chat(t, f.newSession(t), "is Kaelith good against the Fire Knight?")
		if !r.Degraded || !strings.Contains(r.Reply, "Kaelith") {
			t.Fatalf("turn with the LLM gone: %+v", r)
		}
	})

	t.Run("metrics count LLM calls", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/metrics"})
		expect(t, resp, body, http.StatusOK)
		for _, want := range []string{
			`gameassist_llm_calls_total{status="ok"}`, `gameassist_llm_calls_total{status="error"}`,
			`gameassist_chat_turns_total{mode="llm"}`, `gameassist_chat_turns_total{mode="degraded"}`,
		} {
			if !bytes.Contains(body, []byte(want)) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})
}

// TestHungLLMDegraded runs the server with LLM_TIMEOUT=2s against an LLM
// that accepts every request and never answers: the player gets a degraded
// 200 from the offline responder, streamed or not, and the history has it.
func TestHungLLMDegraded(t *testing.T) {
	t.Parallel() // its own app (and LLM fake); asserts nothing shared
	fake := llmtest.New(t)
	fake.SetResponder(func(openai.ChatCompletionRequest) llmtest.Reply { return llmtest.Text("never").Delay(time.Hour) })
	f := newFixture(t, appSetup{llm: fake, env: map[string]string{"LLM_TIMEOUT": "2s"}})
	for _, stream := range []bool{false, true} {
		s := f.newSession(t)
		body := chatBody(s, "tell me about Kaelith")
		body["stream"] = stream
		resp, raw := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: body})
		expect(t, resp, raw, http.StatusOK)
		reply := raw
		if stream {
			i := bytes.LastIndex(raw, []byte("event:done\ndata:"))
			if i < 0 {
				t.Fatalf("stream without done: %s", raw)
			}
			reply = bytes.TrimSpace(raw[i+len("event:done\ndata:"):])
		}
		r := decode[chatReply](t, reply)
		if !r.Degraded || !strings.Contains(r.Reply, "Kaelith") {
			t.Fatalf("stream=%t: reply %+v, want a degraded offline answer", stream, r)
		}
		if h := f.adminSession(t, s.ID).History; len(h) != 2 {
			t.Fatalf("stream=%t: history %+v", stream, h)
		}
	}
}
