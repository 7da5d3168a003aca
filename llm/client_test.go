package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/tool"
)

// waits records the backoff waits instead of sleeping them.
type waits struct {
	mu sync.Mutex
	ds []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.ds = append(w.ds, d)
	w.mu.Unlock()
	return ctx.Err()
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.ds...)
}

// newTestClient builds a client against the fake whose backoff waits are
// recorded, not slept.
func newTestClient(t testing.TB, s *llmtest.Server, mod func(*Options)) (*Client, *waits) {
	t.Helper()
	opts := Options{
		BaseURL: s.URL(), APIKey: "sk-test-secret-key", Model: "gpt-4o-mini",
		EmbeddingsModel: "text-embedding-3-small", MaxAttempts: 3,
	}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	w := &waits{}
	c.sleep = w.sleep
	return c, w
}

func ask(text string) Request {
	return Request{Messages: []Message{{Role: RoleSystem, Content: "You help players."}, {Role: RoleUser, Content: text}}}
}

func asLLMError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *llm.Error", err, err)
	}
	return e
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{name: "defaults", opts: Options{Model: "m"}},
		{name: "base url", opts: Options{Model: "m", BaseURL: "http://localhost:8080/v1/"}},
		{name: "no model", opts: Options{}, wantErr: "model"},
		{name: "relative url", opts: Options{Model: "m", BaseURL: "localhost/v1"}, wantErr: "base URL"},
		{name: "ftp url", opts: Options{Model: "m", BaseURL: "ftp://host/v1"}, wantErr: "base URL"},
		{name: "negative timeout", opts: Options{Model: "m", Timeout: -time.Second}, wantErr: "timeout"},
		{name: "negative attempts", opts: Options{Model: "m", MaxAttempts: -1}, wantErr: "attempts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Model() != "m" || c.timeout != DefaultTimeout || c.maxAttempts != DefaultMaxAttempts ||
				c.baseBackoff != DefaultBaseBackoff || c.maxBackoff != DefaultMaxBackoff {
				t.Errorf("defaults not applied: %+v", c)
			}
		})
	}
}

func TestComplete(t *testing.T) {
	tests := []struct {
		name      string
		reply     llmtest.Reply
		want      Response
		wantCalls int
	}{
		{
			name:  "text",
			reply: llmtest.Text("Aria is weak to frost.").WithUsage(12, 5),
			want:  Response{Content: "Aria is weak to frost.", FinishReason: "stop", Usage: Usage{12, 5}, Attempts: 1},
		},
		{
			name:  "parallel tool calls fixture",
			reply: llmtest.Fixture("chat_tool_calls.json"),
			want: Response{
				ToolCalls: []ToolCall{
					{ID: "call_fdNz3vOBKYgOIpMdWotB9MjY", Name: "GetWeatherArgs", Arguments: `{"city": "Edinburgh", "country": "GB", "units": "c"}`},
					{ID: "call_h1DWI1POMJLb0KwIyQHWXD4p", Name: "get_stock_price", Arguments: `{"ticker": "AAPL", "exchange": "NASDAQ"}`},
				},
				FinishReason: "tool_calls", Usage: Usage{149, 60}, Attempts: 1,
			},
		},
		{
			name: "empty arguments become an object",
			reply: llmtest.ToolCalls(llmtest.Call{ID: "c1", Name: "cache_get_bosses_list"}).
				WithText("Checking.").WithUsage(1, 1),
			want: Response{
				Content:      "Checking.",
				ToolCalls:    []ToolCall{{ID: "c1", Name: "cache_get_bosses_list", Arguments: "{}"}},
				FinishReason: "tool_calls", Usage: Usage{1, 1}, Attempts: 1,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(tt.reply)
			c, _ := newTestClient(t, s, nil)
			got, err := c.Complete(context.Background(), ask("hi"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestCompleteSendsToolsAndHistory(t *testing.T) {
	s := llmtest.New(t)
	c, _ := newTestClient(t, s, nil)
	specs := []tool.Spec{
		{
			Name: "gcs_get_champion_details", Description: "Details of one champion.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"champion_name":{"type":"string"}},"required":["champion_name"]}`),
		},
		{Name: "cache_get_bosses_list", Description: "All bosses."},
	}
	req := Request{
		Messages: []Message{
			{Role: RoleSystem, Content: "You help players."},
			{Role: RoleUser, Content: "Tell me about Aria and the bosses"},
			{Role: RoleAssistant, ToolCalls: []ToolCall{
				{ID: "call_1", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Aria"}`},
				{ID: "call_2", Name: "cache_get_bosses_list", Arguments: ""},
			}},
			{Role: RoleTool, ToolCallID: "call_1", Content: `{"status":"success"}`},
			{Role: RoleTool, ToolCallID: "call_2", Content: `{"status":"success"}`},
		},
		Tools: specs,
	}
	resp, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "ok" {
		t.Errorf("content = %q", resp.Content)
	}
	got := s.Requests()
	if len(got) != 1 {
		t.Fatalf("%d requests", len(got))
	}
	r := got[0]
	if r.Model != "gpt-4o-mini" || r.Stream {
		t.Errorf("model %q stream %v", r.Model, r.Stream)
	}
	if len(r.Tools) != 2 {
		t.Fatalf("%d tools sent", len(r.Tools))
	}
	for i, spec := range specs {
		tl := r.Tools[i]
		if tl.Type != openai.ToolTypeFunction || tl.Function.Name != spec.Name || tl.Function.Description != spec.Description {
			t.Errorf("tool %d = %+v", i, tl.Function)
		}
		wantParams := string(spec.Parameters)
		if wantParams == "" {
			wantParams = emptyObjectSchema
		}
		sent, _ := json.Marshal(tl.Function.Parameters)
		if !jsonEqual(t, sent, []byte(wantParams)) {
			t.Errorf("tool %d parameters = %s, want %s", i, sent, wantParams)
		}
	}
	if len(r.Messages) != 5 {
		t.Fatalf("%d messages", len(r.Messages))
	}
	asst := r.Messages[2]
	if len(asst.ToolCalls) != 2 || asst.ToolCalls[0].ID != "call_1" || asst.ToolCalls[1].Function.Arguments != "{}" ||
		asst.ToolCalls[0].Type != openai.ToolTypeFunction {
		t.Errorf("assistant message = %+v", asst)
	}
	if r.Messages[3].ToolCallID != "call_1" || r.Messages[4].ToolCallID != "call_2" || r.Messages[4].Role != RoleTool {
		t.Errorf("tool messages = %+v", r.Messages[3:])
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

func TestCompleteRefusesBadRequests(t *testing.T) {
	tests := []struct {
		name string
		req  Request
	}{
		{name: "no messages", req: Request{}},
		{name: "unknown role", req: Request{Messages: []Message{{Role: "wizard", Content: "x"}}}},
		{name: "tool without id", req: Request{Messages: []Message{{Role: RoleTool, Content: "x"}}}},
		{name: "call without name", req: Request{Messages: []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "a"}}}}}},
		{name: "invalid schema", req: Request{Messages: []Message{{Role: RoleUser, Content: "x"}}, Tools: []tool.Spec{{Name: "t", Parameters: json.RawMessage(`{`)}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			c, _ := newTestClient(t, s, nil)
			_, err := c.Complete(context.Background(), tt.req)
			e := asLLMError(t, err)
			if e.Code != CodeInvalidRequest || e.Retryable {
				t.Errorf("err = %+v", e)
			}
			if s.RequestCount() != 0 {
				t.Errorf("a refused request reached the API")
			}
		})
	}
}

func TestRetries(t *testing.T) {
	insufficientQuota := []byte(`{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`)
	tests := []struct {
		name          string
		replies       []llmtest.Reply
		wantErr       bool
		wantStatus    int
		wantCode      string
		wantRetryable bool
		wantAttempts  int
		wantWaits     []time.Duration // nil: any jittered waits, checked against the cap
	}{
		{name: "500 then success", replies: []llmtest.Reply{llmtest.Fixture("err_500.json"), llmtest.Text("fine")}, wantAttempts: 2},
		{name: "503 then success", replies: []llmtest.Reply{llmtest.Status(503, nil), llmtest.Text("fine")}, wantAttempts: 2},
		{name: "html 502 then success", replies: []llmtest.Reply{llmtest.Status(502, []byte("<html><body>Bad Gateway</body></html>")), llmtest.Text("fine")}, wantAttempts: 2},
		{name: "cut body then success", replies: []llmtest.Reply{llmtest.Text("half").Cut(), llmtest.Text("fine")}, wantAttempts: 2},
		{
			name:         "429 retry-after seconds honoured",
			replies:      []llmtest.Reply{llmtest.Status(429, nil).WithHeader("Retry-After", "2"), llmtest.Text("fine")},
			wantAttempts: 2, wantWaits: []time.Duration{2 * time.Second},
		},
		{
			name:         "429 retry-after-ms preferred",
			replies:      []llmtest.Reply{llmtest.Status(429, nil).WithRetryAfter(1500 * time.Millisecond), llmtest.Text("fine")},
			wantAttempts: 2, wantWaits: []time.Duration{1500 * time.Millisecond},
		},
		{
			name:    "three 500s",
			replies: []llmtest.Reply{llmtest.Fixture("err_500_responses_api.json"), llmtest.Status(500, nil), llmtest.Fixture("err_500.json")},
			wantErr: true, wantStatus: 500, wantRetryable: true, wantAttempts: 3,
		},
		{name: "401 not retried", replies: []llmtest.Reply{llmtest.Fixture("err_401.json")}, wantErr: true, wantStatus: 401, wantCode: "invalid_api_key", wantAttempts: 1},
		{name: "403 not retried", replies: []llmtest.Reply{llmtest.Status(403, nil)}, wantErr: true, wantStatus: 403, wantAttempts: 1},
		{name: "404 not retried", replies: []llmtest.Reply{llmtest.Status(404, nil)}, wantErr: true, wantStatus: 404, wantCode: "not_found", wantAttempts: 1},
		{name: "context length not retried", replies: []llmtest.Reply{llmtest.Fixture("err_context_length.json")}, wantErr: true, wantStatus: 400, wantCode: "context_length_exceeded", wantAttempts: 1},
		{name: "429 too large not retried", replies: []llmtest.Reply{llmtest.Fixture("err_429.json")}, wantErr: true, wantStatus: 429, wantCode: "rate_limit_exceeded", wantAttempts: 1},
		{name: "429 quota not retried", replies: []llmtest.Reply{llmtest.Status(429, insufficientQuota)}, wantErr: true, wantStatus: 429, wantCode: "insufficient_quota", wantAttempts: 1},
		{
			name:    "retry-after too long",
			replies: []llmtest.Reply{llmtest.Status(429, nil).WithRetryAfter(10 * time.Minute)},
			wantErr: true, wantStatus: 429, wantCode: CodeRetryAfterTooLong, wantRetryable: true, wantAttempts: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(tt.replies...)
			c, w := newTestClient(t, s, nil)
			resp, err := c.Complete(context.Background(), ask("hi"))
			if s.RequestCount() != tt.wantAttempts {
				t.Errorf("server saw %d requests, want %d", s.RequestCount(), tt.wantAttempts)
			}
			if !tt.wantErr {
				if err != nil {
					t.Fatal(err)
				}
				if resp.Content != "fine" || resp.Attempts != tt.wantAttempts {
					t.Errorf("resp = %+v", resp)
				}
			} else {
				e := asLLMError(t, err)
				if e.Status != tt.wantStatus || e.Retryable != tt.wantRetryable || e.Attempts != tt.wantAttempts || e.Op != opChat {
					t.Errorf("err = %+v", e)
				}
				if tt.wantCode != "" && e.Code != tt.wantCode {
					t.Errorf("code = %q, want %q", e.Code, tt.wantCode)
				}
			}
			got := w.all()
			if len(got) != tt.wantAttempts-1 {
				t.Errorf("%d waits for %d attempts", len(got), tt.wantAttempts)
			}
			if tt.wantWaits != nil && !reflect.DeepEqual(got, tt.wantWaits) {
				t.Errorf("waits = %v, want %v", got, tt.wantWaits)
			}
			for _, d := range got {
				if d < 0 || d > retryAfterFactor*c.maxBackoff {
					t.Errorf("wait %v out of range", d)
				}
			}
		})
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.Status(503, nil).WithHeader("Retry-After", time.Now().Add(3*time.Second).UTC().Format(http.TimeFormat)), llmtest.Text("fine"))
	c, w := newTestClient(t, s, nil)
	if _, err := c.Complete(context.Background(), ask("hi")); err != nil {
		t.Fatal(err)
	}
	got := w.all()
	if len(got) != 1 || got[0] <= 0 || got[0] > 3*time.Second {
		t.Errorf("waits = %v, want one of at most 3s", got)
	}
}

func TestTimeoutRetriedThenFails(t *testing.T) {
	s := llmtest.New(t)
	slow := llmtest.Text("too late").Delay(time.Hour)
	s.Enqueue(slow, slow, slow)
	c, w := newTestClient(t, s, func(o *Options) { o.Timeout = 100 * time.Millisecond })
	_, err := c.Complete(context.Background(), ask("hi"))
	e := asLLMError(t, err)
	if e.Code != CodeTimeout || !e.Retryable || e.Attempts != 3 || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %+v", e)
	}
	if len(w.all()) != 2 {
		t.Errorf("waits = %v", w.all())
	}
}

func TestTimeoutThenSuccess(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.Text("too late").Delay(time.Hour), llmtest.Text("fine"))
	c, _ := newTestClient(t, s, func(o *Options) { o.Timeout = 100 * time.Millisecond })
	resp, err := c.Complete(context.Background(), ask("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "fine" || resp.Attempts != 2 {
		t.Errorf("resp = %+v", resp)
	}
}

func TestCancelStopsAtOnce(t *testing.T) {
	t.Run("in flight", func(t *testing.T) {
		s := llmtest.New(t)
		s.Enqueue(llmtest.Text("never").Delay(time.Hour))
		c, _ := newTestClient(t, s, nil)
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := c.Stream(ctx, ask("hi"), nil)
			errc <- err
		}()
		s.WaitRequests(1)
		cancel()
		err := <-errc
		e := asLLMError(t, err)
		if !errors.Is(err, context.Canceled) || e.Code != CodeCanceled || e.Retryable || e.Attempts != 1 {
			t.Errorf("err = %+v", e)
		}
		if s.RequestCount() != 1 {
			t.Errorf("%d requests after cancel", s.RequestCount())
		}
	})
	t.Run("during backoff", func(t *testing.T) {
		s := llmtest.New(t)
		s.Enqueue(llmtest.Status(500, nil), llmtest.Text("never asked"))
		c, _ := newTestClient(t, s, nil)
		ctx, cancel := context.WithCancel(context.Background())
		c.sleep = func(ctx context.Context, _ time.Duration) error {
			cancel()
			<-ctx.Done()
			return ctx.Err()
		}
		_, err := c.Complete(ctx, ask("hi"))
		if !errors.Is(err, context.Canceled) || s.RequestCount() != 1 {
			t.Errorf("err = %v after %d requests", err, s.RequestCount())
		}
	})
	t.Run("already canceled", func(t *testing.T) {
		s := llmtest.New(t)
		c, _ := newTestClient(t, s, nil)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := c.Complete(ctx, ask("hi"))
		if !errors.Is(err, context.Canceled) || s.RequestCount() != 0 {
			t.Errorf("err = %v after %d requests", err, s.RequestCount())
		}
	})
}

func TestDeadlineTooCloseForRetry(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.Status(429, nil).WithRetryAfter(15*time.Second), llmtest.Text("never asked"))
	c, w := newTestClient(t, s, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.Complete(ctx, ask("hi"))
	e := asLLMError(t, err)
	if e.Status != 429 || e.Attempts != 1 || len(w.all()) != 0 {
		t.Errorf("err = %+v, waits %v", e, w.all())
	}
}

func TestConnectionErrorRetried(t *testing.T) {
	s := llmtest.New(t)
	c, w := newTestClient(t, s, nil)
	s.Close()
	_, err := c.Complete(context.Background(), ask("hi"))
	e := asLLMError(t, err)
	if e.Code != CodeConnection || !e.Retryable || e.Attempts != 3 || len(w.all()) != 2 {
		t.Errorf("err = %+v", e)
	}
}

func TestAPIKeyNeverLeaks(t *testing.T) {
	const key = "invalid-key" // the recorded 401 body echoes it
	s := llmtest.New(t)
	s.Enqueue(llmtest.Status(503, []byte("<html>proxy saw Bearer invalid-key</html>")), llmtest.Fixture("err_401.json"))
	var logs bytes.Buffer
	c, _ := newTestClient(t, s, func(o *Options) {
		o.APIKey = key
		o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	_, err := c.Complete(context.Background(), ask("hi"))
	e := asLLMError(t, err)
	if e.Status != 401 || e.Attempts != 2 {
		t.Fatalf("err = %+v", e)
	}
	if strings.Contains(err.Error(), key) || strings.Contains(e.Message, key) {
		t.Errorf("error leaks the key: %v", err)
	}
	if !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("error was not redacted: %v", err)
	}
	if logs.Len() == 0 || strings.Contains(logs.String(), key) {
		t.Errorf("logs (%d bytes) leak the key or are missing: %s", logs.Len(), logs.String())
	}
}

// status is a reply with code and an OpenAI-style error body.
func status(code int) *llmtest.Reply {
	r := llmtest.Status(code, nil)
	return &r
}

func TestPing(t *testing.T) {
	tests := []struct {
		name    string
		path    string
		key     string
		models  *llmtest.Reply
		wantErr bool
	}{
		{name: "models listed", path: ""},
		{name: "404 counts as reachable", path: "/elsewhere"},
		{name: "401 is an error", key: "other-key", wantErr: true},
		{name: "403 is an error", models: status(http.StatusForbidden), wantErr: true},
		{name: "405 counts as reachable", models: status(http.StatusMethodNotAllowed)},
		{name: "501 counts as reachable", models: status(http.StatusNotImplemented)},
		{name: "500 counts as reachable", models: status(http.StatusInternalServerError)},
		{name: "429 counts as reachable", models: status(http.StatusTooManyRequests)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.SetAPIKey(tt.key)
			if tt.models != nil {
				s.EnqueueModels(*tt.models)
			}
			c, err := New(Options{BaseURL: s.URL() + tt.path, APIKey: "sk-test-secret-key", Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			err = c.Ping(context.Background())
			if (err != nil) != tt.wantErr {
				t.Errorf("err = %v, want error %v", err, tt.wantErr)
			}
		})
	}
}

// TestOwnTransport: with no HTTP client given, requests leave in one
// write however long the session (the buffer holds a long request) and
// concurrent turns keep their connections (the default keeps two idle
// per host and dials, with TLS, for the others).
func TestOwnTransport(t *testing.T) {
	tr := newTransport()
	if tr.WriteBufferSize < 32<<10 {
		t.Errorf("write buffer %d B: a long session's request leaves in several writes", tr.WriteBufferSize)
	}
	if tr.MaxIdleConnsPerHost < 64 || tr.MaxIdleConns != 0 && tr.MaxIdleConns < tr.MaxIdleConnsPerHost {
		t.Errorf("idle connections kept: %d per host, %d in all", tr.MaxIdleConnsPerHost, tr.MaxIdleConns)
	}
	if tr.Proxy == nil || tr.TLSHandshakeTimeout == 0 {
		t.Error("the default transport's proxy and timeouts were not kept")
	}
}
