package llmtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm/llmtest"
)

func client(s *llmtest.Server) *openai.Client {
	cfg := openai.DefaultConfig("test-key")
	cfg.BaseURL = s.URL()
	return openai.NewClientWithConfig(cfg)
}

func userRequest(text string) openai.ChatCompletionRequest {
	return openai.ChatCompletionRequest{
		Model:    "gpt-4o-mini",
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: text}},
	}
}

type streamed struct {
	content  string
	pieces   int
	finish   string
	usage    *openai.Usage
	calls    map[int]*openai.ToolCall
	firstIDs map[int]int // deltas per index that carried an id
	deltas   map[int]int
	endErr   error
}

// readStream drains a go-openai stream the way a careful client would.
func readStream(t *testing.T, s *llmtest.Server, req openai.ChatCompletionRequest) streamed {
	t.Helper()
	stream, err := client(s).CreateChatCompletionStream(context.Background(), req)
	if err != nil {
		t.Fatalf("open stream: %v", err)
	}
	defer stream.Close()
	out := streamed{calls: map[int]*openai.ToolCall{}, firstIDs: map[int]int{}, deltas: map[int]int{}}
	for {
		chunk, err := stream.Recv()
		if err != nil {
			out.endErr = err
			return out
		}
		if chunk.Usage != nil {
			if len(chunk.Choices) != 0 {
				t.Errorf("usage chunk has %d choices, want 0", len(chunk.Choices))
			}
			out.usage = chunk.Usage
		}
		for _, ch := range chunk.Choices {
			if ch.Delta.Content != "" {
				out.content += ch.Delta.Content
				out.pieces++
			}
			for _, tc := range ch.Delta.ToolCalls {
				if tc.Index == nil {
					t.Fatalf("tool-call delta without index")
				}
				i := *tc.Index
				out.deltas[i]++
				if tc.ID != "" {
					out.firstIDs[i]++
				}
				c, ok := out.calls[i]
				if !ok {
					c = &openai.ToolCall{ID: tc.ID, Function: openai.FunctionCall{Name: tc.Function.Name}}
					out.calls[i] = c
				}
				c.Function.Arguments += tc.Function.Arguments
			}
			if ch.FinishReason != "" {
				out.finish = string(ch.FinishReason)
			}
		}
	}
}

func TestTextReply(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.Text("Hello there, brave champion"))
	resp, err := client(s).CreateChatCompletion(context.Background(), userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; got != "Hello there, brave champion" {
		t.Errorf("content = %q", got)
	}
	if resp.Choices[0].FinishReason != openai.FinishReasonStop {
		t.Errorf("finish = %q", resp.Choices[0].FinishReason)
	}
	want := llmtest.PromptTokens(userRequest("hi"))
	if resp.Usage.PromptTokens != want || resp.Usage.CompletionTokens != llmtest.Tokens("Hello there, brave champion") {
		t.Errorf("usage = %+v, want prompt %d", resp.Usage, want)
	}
	// The default responder takes over once the queue is empty.
	resp, err = client(s).CreateChatCompletion(context.Background(), userRequest("again"))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; got != "ok" {
		t.Errorf("default content = %q, want ok", got)
	}
	if s.RequestCount() != 2 || s.Requests()[1].Messages[0].Content != "again" {
		t.Errorf("recorded %d requests: %+v", s.RequestCount(), s.Requests())
	}
}

// TestRecordedRequestOwnsItsReply: a request WaitRequests has seen has
// taken its queued reply, so a client that gives up on it does not leave
// the reply to the next request.
func TestRecordedRequestOwnsItsReply(t *testing.T) {
	s := llmtest.New(t)
	release := make(chan struct{})
	defer close(release)
	s.Enqueue(llmtest.Text("too late").Until(release))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := client(s).CreateChatCompletion(ctx, userRequest("going away"))
		done <- err
	}()
	s.WaitRequests(1)
	if n := s.Pending(); n != 0 {
		t.Fatalf("%d replies still queued after the request was recorded", n)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	resp, err := client(s).CreateChatCompletion(context.Background(), userRequest("back again"))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; got != "ok" {
		t.Errorf("the next request got %q, want the default ok", got)
	}
}

func TestResponder(t *testing.T) {
	s := llmtest.New(t)
	s.SetResponder(func(req openai.ChatCompletionRequest) llmtest.Reply {
		return llmtest.Text("echo: " + req.Messages[len(req.Messages)-1].Content)
	})
	resp, err := client(s).CreateChatCompletion(context.Background(), userRequest("ping"))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; got != "echo: ping" {
		t.Errorf("content = %q", got)
	}
}

func TestStreamedReplies(t *testing.T) {
	calls := []llmtest.Call{
		{ID: "call_a", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Aria Élan"}`},
		{ID: "call_b", Name: "cache_get_bosses_list", Arguments: `{}`},
	}
	tests := []struct {
		name       string
		reply      llmtest.Reply
		wantText   string
		wantFinish string
		wantCalls  []llmtest.Call
		cut        bool
	}{
		{name: "text", reply: llmtest.Text("The boss is weak to fire."), wantText: "The boss is weak to fire.", wantFinish: "stop"},
		{name: "tool calls", reply: llmtest.ToolCalls(calls...), wantFinish: "tool_calls", wantCalls: calls},
		{name: "text then tool calls", reply: llmtest.ToolCalls(calls[0]).WithText("Let me check."), wantText: "Let me check.", wantFinish: "tool_calls", wantCalls: calls[:1]},
		{name: "length", reply: llmtest.Text("cut short").WithFinishReason("length"), wantText: "cut short", wantFinish: "length"},
		{name: "cut text", reply: llmtest.Text("half an answer").Cut(), wantText: "half an answer", cut: true},
		{name: "cut tool calls", reply: llmtest.ToolCalls(calls...).Cut(), wantCalls: calls, cut: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(tt.reply)
			req := userRequest("question")
			req.Stream = true
			req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
			got := readStream(t, s, req)
			if !errors.Is(got.endErr, io.EOF) {
				t.Fatalf("stream ended with %v, want io.EOF", got.endErr)
			}
			if got.content != tt.wantText {
				t.Errorf("content = %q, want %q", got.content, tt.wantText)
			}
			if strings.Count(tt.wantText, " ") > 0 && got.pieces < 2 {
				t.Errorf("text came in %d pieces, want several", got.pieces)
			}
			if got.finish != tt.wantFinish {
				t.Errorf("finish = %q, want %q", got.finish, tt.wantFinish)
			}
			if tt.cut != (got.usage == nil) {
				t.Errorf("usage = %v with cut %v", got.usage, tt.cut)
			}
			if len(got.calls) != len(tt.wantCalls) {
				t.Fatalf("got %d calls, want %d", len(got.calls), len(tt.wantCalls))
			}
			for i, want := range tt.wantCalls {
				c := got.calls[i]
				if c.ID != want.ID || c.Function.Name != want.Name || c.Function.Arguments != want.Arguments {
					t.Errorf("call %d = %+v, want %+v", i, c, want)
				}
				if got.firstIDs[i] != 1 {
					t.Errorf("call %d: id in %d deltas, want exactly 1", i, got.firstIDs[i])
				}
				if len(want.Arguments) > 6 && got.deltas[i] < 3 {
					t.Errorf("call %d: arguments in %d deltas, want several", i, got.deltas[i])
				}
			}
		})
	}
}

func TestFixtures(t *testing.T) {
	tests := []struct {
		name       string
		fixture    string
		wantStatus int
		wantCode   string
	}{
		{name: "401", fixture: "err_401.json", wantStatus: 401, wantCode: "invalid_api_key"},
		{name: "429 too large", fixture: "err_429.json", wantStatus: 429, wantCode: "rate_limit_exceeded"},
		{name: "500 null code", fixture: "err_500.json", wantStatus: 500},
		{name: "500 responses api", fixture: "err_500_responses_api.json", wantStatus: 500, wantCode: "server_error"},
		{name: "context length", fixture: "err_context_length.json", wantStatus: 400, wantCode: "context_length_exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(llmtest.Fixture(tt.fixture))
			_, err := client(s).CreateChatCompletion(context.Background(), userRequest("x"))
			var apiErr *openai.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want *openai.APIError", err)
			}
			if apiErr.HTTPStatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d", apiErr.HTTPStatusCode, tt.wantStatus)
			}
			code, _ := apiErr.Code.(string)
			if code != tt.wantCode {
				t.Errorf("code = %v, want %q", apiErr.Code, tt.wantCode)
			}
		})
	}

	t.Run("bytes served exactly", func(t *testing.T) {
		s := llmtest.New(t)
		s.Enqueue(llmtest.Fixture("err_401.json"))
		resp, err := http.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"x"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 401 || len(body) != 261 || !bytes.HasSuffix(body, []byte("}\n")) {
			t.Errorf("status %d, %d bytes: %q", resp.StatusCode, len(body), body)
		}
	})

	t.Run("tool calls", func(t *testing.T) {
		s := llmtest.New(t)
		s.Enqueue(llmtest.Fixture("chat_tool_calls.json"))
		resp, err := client(s).CreateChatCompletion(context.Background(), userRequest("x"))
		if err != nil {
			t.Fatal(err)
		}
		calls := resp.Choices[0].Message.ToolCalls
		if len(calls) != 2 || calls[0].Function.Name != "GetWeatherArgs" || calls[1].Function.Name != "get_stock_price" {
			t.Errorf("calls = %+v", calls)
		}
	})

	streams := []struct {
		name, fixture, wantFinish string
		cut                       bool
		wantCalls                 int
	}{
		{name: "text stream", fixture: "stream_text.sse", wantFinish: "stop"},
		{name: "tool stream", fixture: "stream_tool_calls.sse", wantFinish: "tool_calls", wantCalls: 2},
		{name: "cut tool stream", fixture: "stream_tool_calls.sse", cut: true, wantCalls: 2},
	}
	for _, tt := range streams {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			r := llmtest.Fixture(tt.fixture)
			if tt.cut {
				r = r.Cut()
			}
			s.Enqueue(r)
			req := userRequest("x")
			req.Stream = true
			got := readStream(t, s, req)
			if !errors.Is(got.endErr, io.EOF) || got.finish != tt.wantFinish || len(got.calls) != tt.wantCalls {
				t.Errorf("end %v, finish %q, %d calls", got.endErr, got.finish, len(got.calls))
			}
		})
	}
}

func TestUnknownFixtureFails(t *testing.T) {
	ft := &fakeTB{TB: t}
	llmtest.New(ft).Enqueue(llmtest.Fixture("nope.json"))
	if !ft.failed {
		t.Error("Enqueue of an unknown fixture did not fail the test")
	}
}

// fakeTB records Fatalf instead of stopping the test.
type fakeTB struct {
	testing.TB
	mu     sync.Mutex
	failed bool
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Fatalf(string, ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failed = true
}

func TestValidation(t *testing.T) {
	toolMsg := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, Content: "{}", ToolCallID: "call_1"}
	asst := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{{
		ID: "call_1", Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: "f", Arguments: "{}"},
	}}}
	user := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: "hi"}
	tests := []struct {
		name     string
		msgs     []openai.ChatCompletionMessage
		tools    []openai.Tool
		wantFail string
	}{
		{name: "answered call", msgs: []openai.ChatCompletionMessage{user, asst, toolMsg}},
		{name: "orphan tool message", msgs: []openai.ChatCompletionMessage{user, toolMsg}, wantFail: "must be a response"},
		{name: "unanswered call", msgs: []openai.ChatCompletionMessage{user, asst, user}, wantFail: "call_1"},
		{name: "unanswered at end", msgs: []openai.ChatCompletionMessage{user, asst}, wantFail: "did not have response"},
		{name: "bad role", msgs: []openai.ChatCompletionMessage{{Role: "wizard", Content: "x"}}, wantFail: "Invalid value"},
		{name: "bad tool name", msgs: []openai.ChatCompletionMessage{user}, tools: []openai.Tool{{
			Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: "has space"},
		}}, wantFail: "function.name"},
		{name: "non-object schema", msgs: []openai.ChatCompletionMessage{user}, tools: []openai.Tool{{
			Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: "f", Parameters: json.RawMessage(`[1]`)},
		}}, wantFail: "schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			_, err := client(s).CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
				Model: "m", Messages: tt.msgs, Tools: tt.tools,
			})
			if tt.wantFail == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var apiErr *openai.APIError
			if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 400 || !strings.Contains(apiErr.Message, tt.wantFail) {
				t.Errorf("err = %v, want 400 mentioning %q", err, tt.wantFail)
			}
			if s.RequestCount() != 1 {
				t.Errorf("recorded %d requests, want 1", s.RequestCount())
			}
		})
	}
}

func TestAPIKey(t *testing.T) {
	s := llmtest.New(t)
	s.SetAPIKey("right-key")
	cfg := openai.DefaultConfig("wrong-key")
	cfg.BaseURL = s.URL()
	_, err := openai.NewClientWithConfig(cfg).CreateChatCompletion(context.Background(), userRequest("x"))
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 401 {
		t.Fatalf("err = %v, want 401", err)
	}
	cfg = openai.DefaultConfig("right-key")
	cfg.BaseURL = s.URL()
	if _, err := openai.NewClientWithConfig(cfg).CreateChatCompletion(context.Background(), userRequest("x")); err != nil {
		t.Fatalf("right key: %v", err)
	}
}

func TestStatusAndHeaders(t *testing.T) {
	tests := []struct {
		name       string
		reply      llmtest.Reply
		wantStatus int
		wantHeader map[string]string
	}{
		{
			name: "default 429 body", reply: llmtest.Status(429, nil).WithRetryAfter(1500 * time.Millisecond), wantStatus: 429,
			wantHeader: map[string]string{"Retry-After": "2", "Retry-After-Ms": "1500"},
		},
		{name: "default 503 body", reply: llmtest.Status(503, nil), wantStatus: 503},
		{name: "html body", reply: llmtest.Status(502, []byte("<html>bad gateway</html>")), wantStatus: 502},
		{
			name: "date header", reply: llmtest.Status(429, nil).WithHeader("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"), wantStatus: 429,
			wantHeader: map[string]string{"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(tt.reply)
			resp, err := http.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"x"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			for k, v := range tt.wantHeader {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			if strings.HasPrefix(tt.name, "default") {
				var env struct {
					Error struct{ Message, Type string } `json:"error"`
				}
				if err := json.Unmarshal(body, &env); err != nil || env.Error.Message == "" {
					t.Errorf("body %q is not an error envelope: %v", body, err)
				}
			}
		})
	}
}

func TestDelayEndsWhenClientLeaves(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.Text("late").Delay(time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := client(s).CreateChatCompletion(ctx, userRequest("x"))
		errc <- err
	}()
	s.WaitRequests(1)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestUntilHoldsOneReply holds one request's answer until the test
// releases it, while another request is answered at once, and ends the
// hold when its client leaves.
func TestUntilHoldsOneReply(t *testing.T) {
	s := llmtest.New(t)
	release := make(chan struct{})
	s.SetResponder(func(req openai.ChatCompletionRequest) llmtest.Reply {
		if req.Messages[0].Content == "held" {
			return llmtest.Text("released").Until(release)
		}
		return llmtest.Text("at once")
	})
	got := make(chan string, 1)
	go func() {
		resp, err := client(s).CreateChatCompletion(context.Background(), userRequest("held"))
		if err != nil {
			got <- err.Error()
			return
		}
		got <- resp.Choices[0].Message.Content
	}()
	s.WaitRequests(1)
	resp, err := client(s).CreateChatCompletion(context.Background(), userRequest("other"))
	if err != nil || resp.Choices[0].Message.Content != "at once" {
		t.Fatalf("the other request: %v, %v", resp, err)
	}
	select {
	case r := <-got:
		t.Fatalf("the held request was answered before its release: %s", r)
	default:
	}
	close(release)
	if r := <-got; r != "released" {
		t.Fatalf("held request: %s", r)
	}

	hold := make(chan struct{})
	defer close(hold)
	s.SetResponder(func(openai.ChatCompletionRequest) llmtest.Reply { return llmtest.Text("never").Until(hold) })
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := client(s).CreateChatCompletion(ctx, userRequest("x"))
		errc <- err
	}()
	s.WaitRequests(3)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestCutPlainBody(t *testing.T) {
	s := llmtest.New(t)
	s.Enqueue(llmtest.Text("a complete answer that will be cut").Cut())
	_, err := client(s).CreateChatCompletion(context.Background(), userRequest("x"))
	if err == nil {
		t.Fatal("a cut body decoded without error")
	}
}

func TestEmbeddings(t *testing.T) {
	s := llmtest.New(t)
	inputs := []string{"Aria", "Borin", "Aria"}
	resp, err := client(s).CreateEmbeddings(context.Background(), openai.EmbeddingRequestStrings{Input: inputs, Model: "text-embedding-3-small"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Data) != 3 {
		t.Fatalf("%d vectors", len(resp.Data))
	}
	for i, d := range resp.Data {
		want := llmtest.Vector(inputs[i], llmtest.DefaultEmbeddingDim)
		if d.Index != i || len(d.Embedding) != llmtest.DefaultEmbeddingDim {
			t.Errorf("vector %d: index %d, dim %d", i, d.Index, len(d.Embedding))
		}
		for j := range want {
			if d.Embedding[j] != want[j] {
				t.Errorf("vector %d differs from Vector at %d", i, j)
				break
			}
		}
	}
	var norm float64
	for _, v := range resp.Data[0].Embedding {
		norm += float64(v) * float64(v)
	}
	if math.Abs(norm-1) > 1e-5 {
		t.Errorf("norm² = %v, want 1", norm)
	}
	if llmtest.Vector("Aria", 8)[0] == llmtest.Vector("Borin", 8)[0] {
		t.Error("different inputs gave the same first component")
	}

	s.SetEmbeddingDim(32)
	s.EnqueueEmbeddings(llmtest.Fixture("embeddings.json"), llmtest.Status(500, nil))
	resp, err = client(s).CreateEmbeddings(context.Background(), openai.EmbeddingRequestStrings{Input: []string{"Ruby"}, Model: "m"})
	if err != nil || len(resp.Data) != 1 || len(resp.Data[0].Embedding) != 1536 {
		t.Fatalf("fixture: err %v, %d vectors", err, len(resp.Data))
	}
	if _, err := client(s).CreateEmbeddings(context.Background(), openai.EmbeddingRequestStrings{Input: []string{"x"}, Model: "m"}); err == nil {
		t.Error("queued 500 was not served")
	}
	resp, err = client(s).CreateEmbeddings(context.Background(), openai.EmbeddingRequestStrings{Input: []string{"x"}, Model: "m"})
	if err != nil || len(resp.Data[0].Embedding) != 32 {
		t.Fatalf("dim 32: err %v", err)
	}
	if _, err := client(s).CreateEmbeddings(context.Background(), openai.EmbeddingRequestStrings{Input: []string{""}, Model: "m"}); err == nil {
		t.Error("empty input accepted")
	}
	if got := s.EmbeddingRequests(); len(got) != 5 || got[0][2] != "Aria" {
		t.Errorf("recorded %v", got)
	}
}

func TestConcurrentRequests(t *testing.T) {
	s := llmtest.New(t)
	c := client(s)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			req := userRequest("x")
			req.Stream = true
			stream, err := c.CreateChatCompletionStream(context.Background(), req)
			if err != nil {
				errs <- err
				return
			}
			defer stream.Close()
			for {
				if _, err := stream.Recv(); err != nil {
					if !errors.Is(err, io.EOF) {
						errs <- err
					}
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if s.RequestCount() != 16 {
		t.Errorf("recorded %d requests, want 16", s.RequestCount())
	}
}

func TestModelsAndUnknownPath(t *testing.T) {
	s := llmtest.New(t)
	models, err := client(s).ListModels(context.Background())
	if err != nil || len(models.Models) == 0 {
		t.Fatalf("models: %v %v", models, err)
	}
	resp, err := http.Get(s.URL() + "/nothing")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("status = %d, want 404", resp.StatusCode)
	}
}
