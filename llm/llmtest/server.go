// Package llmtest is a fake OpenAI-compatible API for tests and benchmarks:
// an httptest.Server that speaks the wire format of /v1/chat/completions
// (plain and streamed as Server-Sent Events) and /v1/embeddings, answers
// with scripted replies or recorded OpenAI bodies from testdata, and records
// every request. It depends on go-openai's request types only, so any
// package's tests can import it.
package llmtest

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

//go:embed testdata/*.json testdata/*.sse
var fixtures embed.FS

// maxBody bounds a request body the fake reads.
const maxBody = 8 << 20

// DefaultEmbeddingDim is the length of generated embedding vectors unless
// SetEmbeddingDim or the request's dimensions says otherwise.
const DefaultEmbeddingDim = 8

// waitLimit bounds how long WaitRequests blocks before failing the test.
const waitLimit = 30 * time.Second

// Server is a running fake OpenAI API. It is safe for concurrent requests
// and concurrent use of its methods.
type Server struct {
	tb        testing.TB
	srv       *httptest.Server
	done      chan struct{}
	closeOnce sync.Once

	mu          sync.Mutex
	queue       []Reply
	embedQueue  []Reply
	modelsQueue []Reply
	responder   func(openai.ChatCompletionRequest) Reply
	apiKey      string
	dim         int
	requests    []openai.ChatCompletionRequest
	cacheKeys   []string
	embedInputs [][]string
	seq         int
	changed     chan struct{}
}

// New starts a fake API that is closed when the test ends. With nothing
// enqueued it answers every chat request with the text "ok" and every
// embeddings request with hash-derived vectors.
func New(tb testing.TB) *Server {
	tb.Helper()
	s := &Server{tb: tb, done: make(chan struct{}), dim: DefaultEmbeddingDim, changed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", s.handleChat)
	mux.HandleFunc("/v1/embeddings", s.handleEmbeddings)
	mux.HandleFunc("/v1/models", s.handleModels)
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusNotFound, errorBody("Invalid URL", "invalid_request_error", ""))
	})
	s.srv = httptest.NewServer(mux)
	tb.Cleanup(s.Close)
	return s
}

// URL is the base URL to configure a client with; it ends in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close stops the server; pending delayed replies end at once. Tests use it
// to simulate an API that went away; it is also called at cleanup.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// Enqueue adds chat replies, served first in, first out; when the queue is
// empty the responder answers. Call it from the test goroutine: a reply that
// cannot be served (an unknown fixture) fails the test here.
func (s *Server) Enqueue(replies ...Reply) {
	s.tb.Helper()
	for _, r := range replies {
		s.check(r)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// EnqueueEmbeddings adds replies for /v1/embeddings (Status, Fixture or SSE),
// served first in, first out before the generated vectors.
func (s *Server) EnqueueEmbeddings(replies ...Reply) {
	s.tb.Helper()
	for _, r := range replies {
		s.check(r)
		if r.kind == kindText || r.kind == kindToolCalls {
			s.tb.Fatalf("llmtest: EnqueueEmbeddings takes Status, Fixture or SSE replies, not chat answers")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embedQueue = append(s.embedQueue, replies...)
}

// EnqueueModels adds replies for GET /v1/models (Status or Fixture), served
// first in, first out before the built-in model list.
func (s *Server) EnqueueModels(replies ...Reply) {
	s.tb.Helper()
	for _, r := range replies {
		s.check(r)
		if r.kind != kindStatus && r.kind != kindFixture {
			s.tb.Fatalf("llmtest: EnqueueModels takes Status or Fixture replies")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modelsQueue = append(s.modelsQueue, replies...)
}

// SetResponder sets what answers chat requests once the queue is empty; nil
// restores the default, which answers the text "ok". The function may run
// on several goroutines at once.
func (s *Server) SetResponder(fn func(req openai.ChatCompletionRequest) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.responder = fn
}

// SetAPIKey makes the fake demand "Authorization: Bearer key" and answer 401
// (the recorded err_401.json) otherwise; empty accepts anything.
func (s *Server) SetAPIKey(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.apiKey = key
}

// SetEmbeddingDim sets the length of generated embedding vectors.
func (s *Server) SetEmbeddingDim(n int) {
	s.tb.Helper()
	if n < 1 {
		s.tb.Fatalf("llmtest: embedding dimension %d must be positive", n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dim = n
}

// Requests returns every chat request received so far, decoded, in arrival order.
func (s *Server) Requests() []openai.ChatCompletionRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// CacheKeys returns the prompt_cache_key of every chat request received so
// far, in order ("" for a request without one).
func (s *Server) CacheKeys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.cacheKeys...)
}

// RequestCount is the number of chat requests received so far.
func (s *Server) RequestCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// Pending is the number of queued replies no request has taken yet. A
// chat request takes its reply as it is recorded: once RequestCount (or
// WaitRequests) counts it, its reply is no longer pending.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// EmbeddingRequests returns the inputs of every embeddings request received
// so far, one slice per request, in arrival order.
func (s *Server) EmbeddingRequests() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([][]string, len(s.embedInputs))
	for i, in := range s.embedInputs {
		out[i] = slices.Clone(in)
	}
	return out
}

// WaitRequests blocks until at least n chat requests have arrived, so a test
// can act (cancel, close) while a request is in flight. It fails the test
// if they do not arrive within a generous limit; call it from the test goroutine.
func (s *Server) WaitRequests(n int) {
	s.tb.Helper()
	limit := time.NewTimer(waitLimit)
	defer limit.Stop()
	for {
		s.mu.Lock()
		got, ch := len(s.requests), s.changed
		s.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-ch:
		case <-limit.C:
			s.tb.Fatalf("llmtest: waited for %d chat requests, got %d", n, got)
			return
		}
	}
}

func (s *Server) check(r Reply) {
	s.tb.Helper()
	switch r.kind {
	case kindText, kindToolCalls, kindStatus, kindSSE:
	case kindFixture:
		if _, err := fixtures.ReadFile("testdata/" + r.fixture); err != nil {
			s.tb.Fatalf("llmtest: unknown fixture %q", r.fixture)
		}
	default:
		s.tb.Fatalf("llmtest: empty Reply; build one with Text, ToolCalls, Status, Fixture or SSE")
	}
}

func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	key := s.apiKey
	s.mu.Unlock()
	if key == "" || r.Header.Get("Authorization") == "Bearer "+key {
		return true
	}
	body, _ := fixtures.ReadFile("testdata/err_401.json")
	writeJSON(w, http.StatusUnauthorized, body)
	return false
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusMethodNotAllowed, errorBody("Method not allowed", "invalid_request_error", ""))
		return
	}
	if !s.authorized(w, r) {
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return
	}
	var req openai.ChatCompletionRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody("We could not parse the JSON body of your request.", "invalid_request_error", ""))
		return
	}

	// go-openai's request type has no prompt_cache_key: read it apart.
	var extra struct {
		PromptCacheKey string `json:"prompt_cache_key"`
	}
	_ = json.Unmarshal(raw, &extra)

	// A valid request takes its queued reply in the same critical section
	// that records it: once WaitRequests sees the request, its reply is
	// its own, whatever request comes next.
	invalid := validateChat(req)
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.cacheKeys = append(s.cacheKeys, extra.PromptCacheKey)
	s.seq++
	id := "chatcmpl-llmtest" + strconv.Itoa(s.seq)
	var queued *Reply
	if invalid == "" && len(s.queue) > 0 {
		r := s.queue[0]
		queued, s.queue = &r, s.queue[1:]
	}
	fn := s.responder
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()

	if invalid != "" {
		writeJSON(w, http.StatusBadRequest, errorBody(invalid, "invalid_request_error", ""))
		return
	}
	reply := Text("ok")
	switch {
	case queued != nil:
		reply = *queued
	case fn != nil:
		reply = fn(req)
	}
	s.serve(w, r, reply, id, req)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request, reply Reply, id string, req openai.ChatCompletionRequest) {
	if !s.wait(r, reply.delay) || !s.held(r, reply.hold) {
		return
	}
	for k, vs := range reply.header {
		w.Header()[k] = vs
	}
	switch reply.kind {
	case kindStatus:
		w.Header().Set("Content-Type", reply.contentType)
		writeBody(w, reply.status, reply.body, reply.cut)
	case kindFixture:
		body, _ := fixtures.ReadFile("testdata/" + reply.fixture)
		if strings.HasSuffix(reply.fixture, ".sse") {
			if reply.cut {
				body = cutBeforeFinish(body)
			}
			s.writeSSE(w, [][]byte{body})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		writeBody(w, fixtureStatus(reply.fixture), body, reply.cut)
	case kindSSE:
		s.writeSSE(w, [][]byte{reply.body})
	case kindText, kindToolCalls:
		if req.Stream {
			s.writeSSE(w, reply.streamEvents(id, req))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		writeBody(w, http.StatusOK, reply.completionBody(id, req), reply.cut)
	}
}

// held waits until release is closed (nil: no wait) unless the client
// leaves or the server closes first.
func (s *Server) held(r *http.Request, release <-chan struct{}) bool {
	if release == nil {
		return true
	}
	select {
	case <-release:
		return true
	case <-r.Context().Done():
		return false
	case <-s.done:
		return false
	}
}

// wait sleeps d unless the client leaves or the server closes first.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-s.done:
		return false
	}
}

func (s *Server) writeSSE(w http.ResponseWriter, events [][]byte) {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	for _, e := range events {
		if _, err := w.Write(e); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

// writeBody writes a complete body, or only its first half with the full
// Content-Length when cut, so the client sees the connection drop mid-body.
func writeBody(w http.ResponseWriter, status int, body []byte, cut bool) {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if cut {
		body = body[:len(body)/2]
	}
	_, _ = w.Write(body)
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	writeBody(w, status, body, false)
}

// cutBeforeFinish keeps the events of a recorded stream up to the first one
// that carries a finish_reason.
func cutBeforeFinish(body []byte) []byte {
	i := bytes.Index(body, []byte(`"finish_reason":"`))
	if i < 0 {
		return body
	}
	start := bytes.LastIndex(body[:i], []byte("data:"))
	return body[:start]
}

// validateChat applies the checks the real API makes before answering, so a
// client bug shows up as the same 400 it would get in production; it returns
// OpenAI's message or "".
func validateChat(req openai.ChatCompletionRequest) string {
	if req.Model == "" {
		return "you must provide a model parameter"
	}
	if len(req.Messages) == 0 {
		return "[] is too short - 'messages'"
	}
	pending := map[string]bool{}
	for i, m := range req.Messages {
		if m.Role != openai.ChatMessageRoleTool && len(pending) > 0 {
			return unansweredCalls(pending)
		}
		switch m.Role {
		case openai.ChatMessageRoleSystem, openai.ChatMessageRoleUser, openai.ChatMessageRoleDeveloper:
		case openai.ChatMessageRoleAssistant:
			for j, tc := range m.ToolCalls {
				if tc.ID == "" || tc.Function.Name == "" || tc.Type != openai.ToolTypeFunction {
					return fmt.Sprintf("Invalid 'messages[%d].tool_calls[%d]': id, type \"function\" and function.name are required.", i, j)
				}
				pending[tc.ID] = true
			}
		case openai.ChatMessageRoleTool:
			if !pending[m.ToolCallID] {
				// The real API's wording, spelling included.
				return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'." //nolint:misspell // verbatim API text
			}
			delete(pending, m.ToolCallID)
		default:
			return fmt.Sprintf("Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.", m.Role)
		}
	}
	if len(pending) > 0 {
		return unansweredCalls(pending)
	}
	for i, t := range req.Tools {
		if t.Type != openai.ToolTypeFunction || t.Function == nil || !validToolName(t.Function.Name) {
			return fmt.Sprintf("Invalid 'tools[%d].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", i)
		}
		if t.Function.Parameters != nil {
			if _, ok := t.Function.Parameters.(map[string]any); !ok {
				return fmt.Sprintf("Invalid schema for function '%s': schema must be a JSON Schema of 'type: \"object\"'.", t.Function.Name)
			}
		}
	}
	return ""
}

func unansweredCalls(pending map[string]bool) string {
	ids := make([]string, 0, len(pending))
	for id := range pending {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: " + strings.Join(ids, ", ")
}

func validToolName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, c := range name {
		ok := c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		if !ok {
			return false
		}
	}
	return true
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		writeJSON(w, http.StatusMethodNotAllowed, errorBody("Method not allowed", "invalid_request_error", ""))
		return
	}
	if !s.authorized(w, r) {
		return
	}
	s.mu.Lock()
	var reply *Reply
	if len(s.modelsQueue) > 0 {
		reply = &s.modelsQueue[0]
		s.modelsQueue = s.modelsQueue[1:]
	}
	s.mu.Unlock()
	if reply != nil {
		s.serve(w, r, *reply, "", openai.ChatCompletionRequest{})
		return
	}
	writeJSON(w, http.StatusOK, []byte(`{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1721172741,"owned_by":"system"},{"id":"text-embedding-3-small","object":"model","created":1705948997,"owned_by":"system"}]}`))
}
