package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/internal/openapitest"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/llm/llmtest"
)

// redisSrv is the package's redis-server and redisCluster its 3-master
// Redis Cluster; backends holds both, for tests that run on each. Tests
// that share them use fresh sessions; tests whose assertions read global
// counters (stats, per-IP limits) or that stop Redis start their own with
// redistest.Start or redistest.EachFresh.
var (
	redisSrv     *redistest.Server
	redisCluster *redistest.Cluster
	backends     []redistest.Backend
)

func TestMain(m *testing.M) {
	if job := os.Getenv(loadGenEnv); job != "" {
		// A benchmark's load generator (see loadgen_test.go), not a test run.
		os.Exit(runLoadGen(job, os.Stdin, os.Stdout))
	}
	redistest.MainBackends(m, func(s *redistest.Server, c *redistest.Cluster) {
		redisSrv, redisCluster = s, c
		backends = []redistest.Backend{s, c}
	})
}

const (
	testAdminToken    = "admin-token-for-tests"
	testWebhookSecret = "webhook-secret-for-tests"
	// clientTimeout bounds every request a test makes: an answer later than
	// this is a hang.
	clientTimeout = 20 * time.Second
)

// appSetup says how to build an app for a test.
type appSetup struct {
	// redis is the server or cluster the app uses (default: the package's
	// single server).
	redis redistest.Backend
	// llm, when set, is the OpenAI-compatible API the app talks to.
	llm *llmtest.Server
	// env overrides or adds variables; an empty value unsets one.
	env map[string]string
	// options adjust the wiring (tracing into memory, ...).
	options []appOption
	// logger receives the app's logs (default: warnings to the test log).
	// Fuzz targets pass a discarding one: a fuzz function may not log
	// through its *testing.F.
	logger *slog.Logger
}

// testEnv is the environment of a test app: real Redis, SQLite under tb's
// temp dir, the repository's content, both secrets, and generous rate
// limits (every test client shares the loopback IP).
func testEnv(tb testing.TB, s appSetup) map[string]string {
	tb.Helper()
	var rs redistest.Backend = redisSrv
	if s.redis != nil {
		rs = s.redis
	}
	env := map[string]string{
		"REDIS_URL":               rs.URL(),
		"GCS_DB_PATH":             filepath.Join(tb.TempDir(), "gcs.db"),
		"CONTENT_DIR":             filepath.Join("..", "..", "content"),
		"ADMIN_TOKEN":             testAdminToken,
		"WEBHOOK_SECRET":          testWebhookSecret,
		"CHAT_RATE_PER_MINUTE":    "100000",
		"SESSION_RATE_PER_MINUTE": "100000",
		"LLM_TIMEOUT":             "10s",
		"SHUTDOWN_TIMEOUT":        "15s",
		// Wide enough for eventClock's timestamps, which step a second per event.
		"WEBHOOK_TOLERANCE": "3h",
	}
	if s.llm != nil {
		env["OPENAI_BASE_URL"] = s.llm.URL()
		env["OPENAI_API_KEY"] = "sk-test"
	}
	maps.Copy(env, s.env)
	// A tools file or rules of the tests' own extend the sample game: build
	// it first, as a studio's files refuse a missing database.
	if _, own := s.env["GCS_DB_PATH"]; !own && (env["TOOLS_FILE"] != "" || env["SCREEN_RULES"] != "") {
		if _, err := buildSample(context.Background(), env["GCS_DB_PATH"], slog.New(slog.DiscardHandler)); err != nil {
			tb.Fatalf("build the sample game: %v", err)
		}
	}
	return env
}

// startApp wires a whole server as `gameassist serve` does and closes it
// when tb ends.
func startApp(tb testing.TB, s appSetup) *app {
	tb.Helper()
	env := testEnv(tb, s)
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		tb.Fatalf("config: %v", err)
	}
	logger := s.logger
	if logger == nil {
		logger = testLogger(tb)
	}
	a, err := newApp(context.Background(), cfg, logger, s.options...)
	if err != nil {
		tb.Fatalf("newApp: %v", err)
	}
	tb.Cleanup(a.close)
	return a
}

// testLogger sends warnings and errors of the app to the test log, and
// drops them once the test is over (background goroutines may still log).
func testLogger(tb testing.TB) *slog.Logger {
	w := &testLogWriter{tb: tb}
	tb.Cleanup(w.stop)
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type testLogWriter struct {
	mu   sync.Mutex
	tb   testing.TB
	done bool
}

func (w *testLogWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.tb.Log(strings.TrimSpace(string(p)))
	}
	return len(p), nil
}

func (w *testLogWriter) stop() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
}

// fixture is a running app behind an httptest server, with a client that
// validates every exchange against the OpenAPI document.
type fixture struct {
	app  *app
	ts   *httptest.Server
	v    *openapitest.Validator
	http *http.Client
}

func newFixture(tb testing.TB, s appSetup) *fixture {
	tb.Helper()
	a := startApp(tb, s)
	ts := httptest.NewServer(a.handler)
	tb.Cleanup(ts.Close)
	return &fixture{app: a, ts: ts, v: openapitest.Load(tb), http: &http.Client{Timeout: clientTimeout}}
}

// request is one HTTP call of a test.
type request struct {
	method string
	path   string
	// token is sent as a bearer token when not empty.
	token string
	// body is sent raw; json, when set, is marshalled instead.
	body []byte
	json any
	// header adds request headers (Content-Type defaults to JSON when a
	// body is sent).
	header map[string]string
	// invalid marks a request that breaks the contract on purpose: only
	// the response is validated.
	invalid bool
	// chunked sends the body without a Content-Length.
	chunked bool
	// undocumented marks a route or method the document does not have:
	// nothing can be validated.
	undocumented bool
}

func (r request) payload(tb testing.TB) []byte {
	tb.Helper()
	if r.json == nil {
		return r.body
	}
	b, err := json.Marshal(r.json)
	if err != nil {
		tb.Fatalf("marshal request: %v", err)
	}
	return b
}

// do sends r and validates the exchange against the OpenAPI document; it
// fails tb when the server does not answer within clientTimeout.
func (f *fixture) do(tb testing.TB, r request) (*http.Response, []byte) {
	tb.Helper()
	resp, body, err := f.send(context.Background(), tb, r)
	if err != nil {
		tb.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	return resp, body
}

// send is do returning transport errors instead of failing tb, for tests
// that expect some (shutdown) or run on other goroutines.
func (f *fixture) send(ctx context.Context, tb testing.TB, r request) (*http.Response, []byte, error) {
	return sendTo(ctx, tb, f.http, f.v, f.ts.URL, r)
}

func sendTo(ctx context.Context, tb testing.TB, cl *http.Client, v *openapitest.Validator, base string, r request) (*http.Response, []byte, error) {
	payload := r.payload(tb)
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
		if r.chunked {
			// A reader of unknown length: the client streams it chunked.
			body = struct{ io.Reader }{body}
		}
	}
	req, err := http.NewRequestWithContext(ctx, r.method, base+r.path, body)
	if err != nil {
		return nil, nil, err
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	for k, val := range r.header {
		req.Header.Set(k, val)
	}
	resp, err := cl.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	respBody, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp, respBody, fmt.Errorf("read body: %w", err)
	}
	switch {
	case r.undocumented:
		err = nil
	case r.invalid:
		err = v.ValidateResponse(req, resp, respBody)
	default:
		err = v.Validate(req, payload, resp, respBody)
	}
	if err != nil {
		return resp, respBody, err
	}
	return resp, respBody, nil
}

// expect fails tb unless resp has status want.
func expect(tb testing.TB, resp *http.Response, body []byte, want int) {
	tb.Helper()
	if resp.StatusCode != want {
		tb.Fatalf("%s %s: status %d, want %d: %.500s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, want, body)
	}
}

// errorBody is the contract's error answer.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// expectError fails tb unless resp has status want and a JSON error body
// with a code and a message; it returns the code.
func expectError(tb testing.TB, resp *http.Response, body []byte, want int) string {
	tb.Helper()
	expect(tb, resp, body, want)
	var e errorBody
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		tb.Fatalf("status %d: body is not an error object: %.300s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		tb.Fatalf("error content type %q", ct)
	}
	return e.Error.Code
}

func decode[T any](tb testing.TB, body []byte) T {
	tb.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		tb.Fatalf("decode %T: %v: %.300s", v, err, body)
	}
	return v
}

type session struct {
	ID    string `json:"session_id"`
	Token string `json:"session_token"`
}

// newSession opens a session through the API.
func (f *fixture) newSession(tb testing.TB) session {
	tb.Helper()
	resp, body := f.do(tb, request{method: http.MethodPost, path: "/v1/sessions", json: map[string]string{"locale": "en"}})
	expect(tb, resp, body, http.StatusCreated)
	return decode[session](tb, body)
}

type outcome struct {
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	Source     string          `json:"source"`
	Status     string          `json:"status"`
	DurationMS float64         `json:"duration_ms"`
	Reason     string          `json:"reason"`
	// DisplayName is the tool's name for players.
	DisplayName string `json:"display_name"`
}

type chatReply struct {
	SessionID string    `json:"session_id"`
	Exchange  int       `json:"exchange"`
	Reply     string    `json:"reply"`
	ToolCalls []outcome `json:"tool_calls"`
	Usage     struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Degraded bool `json:"degraded"`
}

func chatBody(s session, msg string) map[string]any {
	return map[string]any{"session_id": s.ID, "message": msg}
}

// chat runs one turn and expects 200.
func (f *fixture) chat(tb testing.TB, s session, msg string) chatReply {
	tb.Helper()
	resp, body := f.do(tb, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: chatBody(s, msg)})
	expect(tb, resp, body, http.StatusOK)
	return decode[chatReply](tb, body)
}

type sessionView struct {
	Session struct {
		ID       string `json:"id"`
		Locale   string `json:"locale"`
		Exchange int    `json:"exchange"`
		Screen   *struct {
			Name      string `json:"name"`
			Injection string `json:"injection"`
		} `json:"screen"`
	} `json:"session"`
	History []struct {
		Role     string   `json:"role"`
		Content  string   `json:"content"`
		Exchange int      `json:"exchange"`
		Tools    []string `json:"tools"`
	} `json:"history"`
}

// adminSession reads a session through the admin API.
func (f *fixture) adminSession(tb testing.TB, id string) sessionView {
	tb.Helper()
	resp, body := f.do(tb, request{method: http.MethodGet, path: "/admin/sessions/" + id, token: testAdminToken})
	expect(tb, resp, body, http.StatusOK)
	return decode[sessionView](tb, body)
}

type screenReply struct {
	Screen          string    `json:"screen"`
	Matched         bool      `json:"matched"`
	Tools           []outcome `json:"tools"`
	PromptInjection *string   `json:"prompt_injection"`
}

// eventSeconds numbers the webhook events of the test binary: each is
// signed a second after the previous one, starting an hour ago, so the same
// body sent twice carries two signatures and later events are newer.
var eventSeconds atomic.Int64

func eventTime() time.Time {
	return time.Now().Add(-time.Hour).Truncate(time.Second).Add(time.Duration(eventSeconds.Add(1)) * time.Second)
}

// signedEvent is a webhook request carrying a valid, fresh signature of body.
func signedEvent(body []byte) request {
	return request{
		method: http.MethodPost, path: "/v1/screens/events", body: body,
		header: map[string]string{"X-Signature": api.Sign(testWebhookSecret, body, eventTime())},
	}
}

func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	name string
	data string
}

// parseSSE splits an event-stream body into events.
func parseSSE(tb testing.TB, body []byte) []sseEvent {
	tb.Helper()
	var (
		out  []sseEvent
		cur  sseEvent
		data []string
	)
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" || len(data) > 0 {
				cur.data = strings.Join(data, "\n")
				out = append(out, cur)
			}
			cur, data = sseEvent{}, nil
		case strings.HasPrefix(line, "event:"):
			cur.name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read SSE: %v", err)
	}
	if cur.name != "" || len(data) > 0 {
		cur.data = strings.Join(data, "\n")
		out = append(out, cur)
	}
	return out
}

// afterFlush writes the stats the app has queued (every turn queues its
// records before it answers), then checks cond once: no polling.
func (f *fixture) afterFlush(tb testing.TB, what string, cond func() (bool, string)) {
	tb.Helper()
	if f.app.observer == nil {
		tb.Fatal("the app has no stats observer")
	}
	f.app.observer.flush(context.Background())
	if ok, state := cond(); !ok {
		tb.Fatalf("%s: %s", what, state)
	}
}
