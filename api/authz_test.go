package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/feedback"
	"github.com/gameassist/gameassist/internal/openapitest"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/metrics"
	"github.com/gameassist/gameassist/rollout"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/stats"
	"github.com/gameassist/gameassist/tool"
)

// authzWorld stands behind every route of the matrix: sessions with their
// tokens, history, screens and cache, player states, webhook claims and
// ratings, all in memory. calls counts every service call other than
// Authorize, so a refused request that reached a service shows.
type authzWorld struct {
	fakeChat
	calls atomic.Int64

	mu       sync.Mutex
	n        int
	sessions map[string]*authzSession
	claims   map[string]memory.Use
	players  map[string]memory.PlayerState
}

type authzSession struct {
	meta    memory.Meta
	token   string
	history []memory.Message
	screens int
	cache   []memory.CacheEntry
}

func newAuthzWorld() *authzWorld {
	return &authzWorld{sessions: map[string]*authzSession{}, claims: map[string]memory.Use{}, players: map[string]memory.PlayerState{}}
}

func (w *authzWorld) CreateSession(_ context.Context, playerID, locale string) (string, string, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n++
	id := fmt.Sprintf("0b9a4c8e-3f0e-4d55-9a3e-%012d", w.n)
	tok := fmt.Sprintf("session-token-%d", w.n)
	w.sessions[id] = &authzSession{meta: memory.Meta{ID: id, PlayerID: playerID, Locale: locale, CreatedAt: time.Unix(1_800_000_000, 0).UTC()}, token: tok}
	return id, tok, nil
}

// Authorize is chat.Service's rule: no token is unauthorized, an id that
// is not exactly a session's is not found, another token is forbidden.
func (w *authzWorld) Authorize(_ context.Context, id, token string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if token == "" {
		return chat.ErrUnauthorized
	}
	s, ok := w.sessions[id]
	if !ok {
		return fmt.Errorf("authorize: %w", memory.ErrNotFound)
	}
	if token != s.token {
		return chat.ErrForbidden
	}
	return nil
}

func (w *authzWorld) session(id string) (*authzSession, error) {
	s, ok := w.sessions[id]
	if !ok {
		return nil, fmt.Errorf("session %q: %w", id, memory.ErrNotFound)
	}
	return s, nil
}

func (w *authzWorld) Turn(_ context.Context, req chat.TurnRequest, _ func(chat.Event)) (chat.Reply, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	s, err := w.session(req.SessionID)
	if err != nil {
		return chat.Reply{}, err
	}
	s.meta.Exchange++
	s.history = append(s.history,
		memory.Message{Role: "user", Content: req.Message, Exchange: s.meta.Exchange, At: s.meta.CreatedAt},
		memory.Message{Role: "assistant", Content: "Kaelith.", Exchange: s.meta.Exchange, At: s.meta.CreatedAt})
	s.cache = append(s.cache, memory.CacheEntry{Key: fmt.Sprintf("%032x", s.meta.Exchange), Tool: "gcs_echo",
		Parameters: json.RawMessage(`{}`), Result: json.RawMessage(`{"status":"success"}`), CachedAt: s.meta.Exchange, Duration: 3})
	return chat.Reply{SessionID: req.SessionID, Exchange: s.meta.Exchange, Reply: "Kaelith.", ToolCalls: []tool.Outcome{}}, nil
}

func (w *authzWorld) ScreenEventAt(_ context.Context, id string, sc screens.Screen, _ memory.ScreenEvent) (chat.ScreenReply, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	s, err := w.session(id)
	if err != nil {
		return chat.ScreenReply{}, err
	}
	s.screens++
	return chat.ScreenReply{Screen: sc.Name, Applied: true, Tools: []tool.Outcome{}}, nil
}

func (w *authzWorld) Session(_ context.Context, id string) (memory.Meta, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	s, err := w.session(id)
	if err != nil {
		return memory.Meta{}, err
	}
	return s.meta, nil
}

func (w *authzWorld) History(_ context.Context, id string) ([]memory.Message, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	s, err := w.session(id)
	if err != nil {
		return nil, err
	}
	return slices.Clone(s.history), nil
}

func (w *authzWorld) Cache(_ context.Context, id string) ([]memory.CacheEntry, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	s, err := w.session(id)
	if err != nil {
		return nil, err
	}
	return slices.Clone(s.cache), nil
}

func (w *authzWorld) DeleteCache(_ context.Context, id, key string) error {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	s, err := w.session(id)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(s.cache, func(e memory.CacheEntry) bool { return e.Key == key })
	if i < 0 {
		return fmt.Errorf("entry %q: %w", key, memory.ErrNotFound)
	}
	s.cache = slices.Delete(s.cache, i, i+1)
	return nil
}

func (w *authzWorld) ClearCache(_ context.Context, id string) (int, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	s, err := w.session(id)
	if err != nil {
		return 0, err
	}
	n := len(s.cache)
	s.cache = nil
	return n, nil
}

func (w *authzWorld) Recent(context.Context, memory.RecentQuery) (memory.RecentPage, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	var p memory.RecentPage
	for _, s := range w.sessions {
		p.Sessions = append(p.Sessions, memory.RecentSession{Meta: s.meta, LastActive: s.meta.CreatedAt})
	}
	return p, nil
}

func (w *authzWorld) Claim(_ context.Context, key string, _ time.Duration) (memory.Use, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if use, ok := w.claims[key]; ok {
		return use, nil
	}
	w.claims[key] = memory.UseInFlight
	return memory.UseFirst, nil
}

func (w *authzWorld) Settle(_ context.Context, key string) error {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.claims[key] = memory.UseDone
	return nil
}

func (w *authzWorld) Forget(_ context.Context, key string) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.claims, key)
}

func (w *authzWorld) PutPlayerState(_ context.Context, playerID string, state []byte, at time.Time, _ time.Duration) (memory.PlayerState, bool, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if old, ok := w.players[playerID]; ok && old.UpdatedAt.After(at) {
		return old, false, nil
	}
	ps := memory.PlayerState{PlayerID: playerID, UpdatedAt: at, Version: fmt.Sprintf("%016x", len(state)), State: slices.Clone(state)}
	w.players[playerID] = ps
	return ps, true, nil
}

func (w *authzWorld) PlayerState(_ context.Context, playerID string) (memory.PlayerState, error) {
	w.calls.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	ps, ok := w.players[playerID]
	if !ok {
		return memory.PlayerState{}, fmt.Errorf("player %q: %w", playerID, memory.ErrNotFound)
	}
	return ps, nil
}

func (w *authzWorld) Reload(context.Context) error { w.calls.Add(1); return nil }
func (w *authzWorld) Rules() []string              { return []string{"MainMenuPresenter"} }

func (w *authzWorld) Snapshot(context.Context) (stats.Report, error) {
	w.calls.Add(1)
	return stats.Report{Tools: []stats.ToolStats{}, Categories: []stats.ToolStats{}, TopTools: []stats.TopTool{}}, nil
}

func (w *authzWorld) ReloadTools(context.Context) (string, []string, error) {
	w.calls.Add(1)
	return "tools.yaml", []string{"gcs_echo"}, nil
}

func (w *authzWorld) ReloadAll(context.Context) (api.Reloaded, error) {
	w.calls.Add(1)
	return api.Reloaded{Screens: []string{"MainMenuPresenter"}}, nil
}

// ServeHTTP stands for the MCP server (stateless: POST only).
func (w *authzWorld) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w.calls.Add(1)
	if r.Method != http.MethodPost {
		rw.Header().Set("Allow", http.MethodPost)
		rw.Header().Set("Content-Type", "text/plain")
		rw.WriteHeader(http.StatusMethodNotAllowed)
		_, _ = io.WriteString(rw, "method not allowed")
		return
	}
	rw.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(rw, `{"jsonrpc":"2.0","id":1,"result":{}}`)
}

// countedFeedback and countedRollouts count calls into the fakes of the
// feedback and rollout tests.
type countedFeedback struct {
	*fakeFeedback
	calls *atomic.Int64
}

func (f countedFeedback) Rate(ctx context.Context, r feedback.Rating) (feedback.Record, bool, error) {
	f.calls.Add(1)
	return f.fakeFeedback.Rate(ctx, r)
}

func (f countedFeedback) List(ctx context.Context, q feedback.Query) (feedback.Page, error) {
	f.calls.Add(1)
	return f.fakeFeedback.List(ctx, q)
}

func (f countedFeedback) Get(ctx context.Context, id string) (feedback.Record, error) {
	f.calls.Add(1)
	return f.fakeFeedback.Get(ctx, id)
}

func (f countedFeedback) Stats(ctx context.Context) (feedback.Stats, error) {
	f.calls.Add(1)
	st, err := f.fakeFeedback.Stats(ctx)
	st.Tools, st.ToolVersions, st.Screens = []feedback.Rate{}, []feedback.Rate{}, []feedback.Rate{}
	return st, err
}

type countedRollouts struct {
	*memRollouts
	calls *atomic.Int64
}

func (r countedRollouts) Set(ctx context.Context, name string, w rollout.Weights) (string, error) {
	r.calls.Add(1)
	return r.memRollouts.Set(ctx, name, w)
}

func (r countedRollouts) Clear(ctx context.Context, name string) (string, error) {
	r.calls.Add(1)
	return r.memRollouts.Clear(ctx, name)
}

// countedTool is gcs_echo counting its calls.
type countedTool struct {
	echoTool
	calls *atomic.Int64
}

func (c countedTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	c.calls.Add(1)
	return c.echoTool.Call(ctx, args)
}

// credential is what a request presents.
type credential string

const (
	credNone    credential = "no token"
	credWrong   credential = "wrong token"
	credOther   credential = "other session's token"
	credSession credential = "session token"
	credMCP     credential = "mcp token"
	credAdmin   credential = "admin token"
)

// credentials lists every credential of the matrix; the admin token comes
// last, so a route that consumes something (a cache entry) still has it
// for the one credential that opens the route.
func credentials() []credential {
	return []credential{credNone, credWrong, credOther, credSession, credMCP, credAdmin}
}

// every is a route's expectation when the bearer token plays no part.
func every(status int) map[credential]int {
	m := map[credential]int{}
	for _, c := range credentials() {
		m[c] = status
	}
	return m
}

// only is a route's expectation when one credential opens it (with
// status ok) and every other gets refused.
func only(opener credential, ok int, refused map[credential]int) map[credential]int {
	m := map[credential]int{}
	for _, c := range credentials() {
		m[c] = refused[c]
	}
	m[opener] = ok
	return m
}

// playerRefusal is how a player route answers what is not the session's
// own token: none is unauthorized, any other token is answered as for an
// unknown session.
var playerRefusal = map[credential]int{credNone: 401, credWrong: 404, credOther: 404, credMCP: 404, credAdmin: 404}

// feedbackRefusal: the feedback route answers 403 for any token that does
// not open the session, so a rating cannot probe which sessions exist.
var feedbackRefusal = map[credential]int{credNone: 401, credWrong: 403, credOther: 403, credMCP: 403, credAdmin: 403}

// adminRefusal: any bearer token but the admin one fails authentication.
var adminRefusal = map[credential]int{credNone: 401, credWrong: 401, credOther: 401, credSession: 401, credMCP: 401}

// mcpRefusal: only the MCP token opens /mcp; the admin token does not.
var mcpRefusal = map[credential]int{credNone: 401, credWrong: 401, credOther: 401, credSession: 401, credAdmin: 401}

const (
	authzAdmin = "admin-token"
	authzMCP   = "mcp-token"
)

type authzServer struct {
	url   string
	world *authzWorld
	fb    *fakeFeedback
	v     *openapitest.Validator
	now   time.Time
	gin   *gin.Engine
}

func newAuthzServer(t *testing.T) *authzServer {
	t.Helper()
	return newAuthzServerWith(t, api.Options{AdminToken: authzAdmin, MCPToken: authzMCP, WebhookSecret: webhookSecret})
}

// newAuthzServerWith is newAuthzServer with the given secrets.
func newAuthzServerWith(t *testing.T, opts api.Options) *authzServer {
	t.Helper()
	w := newAuthzWorld()
	reg := tool.NewRegistry()
	if err := reg.Register(countedTool{calls: &w.calls}, versionTool{1}, versionTool{2}); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	preg := prometheus.NewRegistry()
	m, err := metrics.New(preg)
	if err != nil {
		t.Fatal(err)
	}
	fb := &fakeFeedback{answered: 5, rated: map[string]feedback.Record{}}
	now := time.Unix(1_800_000_000, 0)
	opts.Now = func() time.Time { return now }
	srv, err := api.New(api.Deps{
		Executor: ex, Chat: w, Replay: w, Sessions: w, Rules: w, Tools: w, Reloader: w,
		Rollouts: countedRollouts{memRollouts: &memRollouts{reg: reg, w: map[string]rollout.Weights{}}, calls: &w.calls},
		Stats:    w, Metrics: m, Gatherer: preg, Players: w, Feedback: countedFeedback{fakeFeedback: fb, calls: &w.calls}, MCP: w,
		Logger: slog.New(slog.DiscardHandler),
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	engine, ok := srv.Handler().(*gin.Engine)
	if !ok {
		t.Fatalf("handler is %T, not a gin engine", srv.Handler())
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return &authzServer{url: ts.URL, world: w, fb: fb, v: openapitest.Load(t), now: now, gin: engine}
}

// authzRequest is one request of the matrix.
type authzRequest struct {
	method, path string
	body         []byte
	token        string
	// signature, when set, is sent as X-Signature.
	signature string
	// invalid marks a request the document does not allow (a malformed
	// id): only the answer is checked against it.
	invalid bool
}

// do sends r and checks the exchange against the OpenAPI document.
func (s *authzServer) do(t *testing.T, r authzRequest) (int, []byte) {
	t.Helper()
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(context.Background(), r.method, s.url+r.path, body)
	if err != nil {
		t.Fatal(err)
	}
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	if r.signature != "" {
		req.Header.Set("X-Signature", r.signature)
	}
	// Redirects are answers of the matrix, not followed.
	cl := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	check := req.Clone(context.Background())
	if resp.StatusCode < 400 && !r.invalid {
		s.v.Check(t, check, r.body, resp, got)
	} else {
		s.v.CheckResponse(t, check, resp, got)
	}
	if resp.StatusCode >= 400 && resp.StatusCode != http.StatusMethodNotAllowed {
		var e struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(got, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
			t.Fatalf("%d without a JSON error: %s", resp.StatusCode, got)
		}
		if resp.StatusCode == http.StatusUnauthorized && strings.HasPrefix(r.path, "/admin/") && resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("401 without WWW-Authenticate: %s", got)
		}
	}
	return resp.StatusCode, got
}

// authzRoute is one route of the matrix and what each credential gets.
type authzRoute struct {
	op   openapitest.Operation
	path string
	body []byte
	// sign sends a valid webhook signature of a body made by sign(i) for
	// the i-th credential (a fresh delivery each time).
	sign func(i int) []byte
	want map[credential]int
}

// ginPath spells a gin route in the document's spelling.
var ginParam = regexp.MustCompile(`:([a-z_]+)`)

// undocumented are the router's routes the OpenAPI document leaves out on
// purpose: the static pages and the favicon.
var undocumented = []string{"GET /favicon.ico", "HEAD /favicon.ico", "GET /web", "GET /web/*filepath", "HEAD /web/*filepath"}

// TestAuthorizationMatrix sends every documented operation with every
// credential, one table row per pair; the route list is the OpenAPI
// document's, so a route without a row fails the test. A refused request
// reaches no service (nothing is read or changed), and refused requests
// leave the sessions as they were.
func TestAuthorizationMatrix(t *testing.T) {
	s := newAuthzServer(t)
	ctx := context.Background()
	ownID, ownToken, _ := s.world.CreateSession(ctx, "alice", "en")
	otherID, otherToken, _ := s.world.CreateSession(ctx, "bob", "en")
	// A first turn fills own's cache so the entry delete has something to drop.
	if _, err := s.world.Turn(ctx, chat.TurnRequest{SessionID: ownID, Message: "Tell me about Kaelith"}, nil); err != nil {
		t.Fatal(err)
	}
	rated, _, err := s.fb.Rate(ctx, feedback.Rating{SessionID: ownID, Exchange: 1, Rating: "up"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.world.PutPlayerState(ctx, "alice", []byte(`{"level":7}`), s.now.Add(-time.Hour), time.Hour); err != nil {
		t.Fatal(err)
	}
	cacheKey := s.world.sessions[ownID].cache[0].Key

	tokens := map[credential]string{
		credNone: "", credWrong: "not-the-right-token", credOther: otherToken,
		credSession: ownToken, credMCP: authzMCP, credAdmin: authzAdmin,
	}
	js := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	op := func(method, path string) openapitest.Operation {
		return openapitest.Operation{Method: method, Path: path}
	}
	event := func(i int) []byte {
		return js(map[string]any{"session_id": ownID, "screen": map[string]any{"name": "MainMenuPresenter", "data": map[string]any{"PlayerLevel": i}}})
	}
	playerState := func(i int) []byte { return js(map[string]any{"level": 7 + i}) }
	sess := "/admin/sessions/" + ownID

	routes := []authzRoute{
		{op: op("GET", "/"), path: "/", want: every(http.StatusFound)},
		{op: op("GET", "/healthz"), path: "/healthz", want: every(http.StatusOK)},
		{op: op("GET", "/readyz"), path: "/readyz", want: every(http.StatusOK)},
		{op: op("GET", "/metrics"), path: "/metrics", want: every(http.StatusOK)},
		{op: op("GET", "/openapi.json"), path: "/openapi.json", want: every(http.StatusOK)},
		{op: op("POST", "/v1/sessions"), path: "/v1/sessions", body: []byte(`{}`), want: every(http.StatusCreated)},
		{op: op("POST", "/v1/chat"), path: "/v1/chat", body: js(map[string]any{"session_id": ownID, "message": "Tell me about Kaelith"}),
			want: only(credSession, http.StatusOK, playerRefusal)},
		{op: op("POST", "/v1/feedback"), path: "/v1/feedback", body: js(map[string]any{"session_id": ownID, "exchange": 2, "rating": "down"}),
			want: only(credSession, http.StatusCreated, feedbackRefusal)},
		// The webhooks want a signature, never a bearer token.
		{op: op("POST", "/v1/screens/events"), path: "/v1/screens/events", body: event(0), want: every(http.StatusUnauthorized)},
		{op: op("POST", "/v1/screens/events"), path: "/v1/screens/events", sign: event, want: every(http.StatusOK)},
		{op: op("PUT", "/v1/players/{player_id}/state"), path: "/v1/players/alice/state", body: playerState(0), want: every(http.StatusUnauthorized)},
		{op: op("PUT", "/v1/players/{player_id}/state"), path: "/v1/players/alice/state", sign: playerState, want: every(http.StatusOK)},
		{op: op("GET", "/admin/sessions"), path: "/admin/sessions", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("GET", "/admin/sessions/{id}"), path: sess, want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("GET", "/admin/sessions/{id}/cache"), path: sess + "/cache", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("DELETE", "/admin/sessions/{id}/cache/{key}"), path: sess + "/cache/" + cacheKey, want: only(credAdmin, http.StatusNoContent, adminRefusal)},
		{op: op("DELETE", "/admin/sessions/{id}/cache"), path: sess + "/cache", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("GET", "/admin/tools"), path: "/admin/tools", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("POST", "/admin/tools/execute"), path: "/admin/tools/execute",
			body: js(map[string]any{"tool_calls": []map[string]any{{"name": "gcs_echo", "arguments": map[string]any{"name": "Kaelith"}}}}),
			want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("POST", "/admin/tools/reload"), path: "/admin/tools/reload", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("PUT", "/admin/tools/{name}/rollout"), path: "/admin/tools/gcs_cards/rollout", body: []byte(`{"weights":{"1":80,"2":20}}`),
			want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("DELETE", "/admin/tools/{name}/rollout"), path: "/admin/tools/gcs_cards/rollout", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("GET", "/admin/stats"), path: "/admin/stats", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("POST", "/admin/screens/reload"), path: "/admin/screens/reload", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("POST", "/admin/reload"), path: "/admin/reload", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("GET", "/admin/players/{player_id}/state"), path: "/admin/players/alice/state", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("GET", "/admin/feedback"), path: "/admin/feedback", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("GET", "/admin/feedback/{id}/scenario"), path: "/admin/feedback/" + rated.ID + "/scenario", want: only(credAdmin, http.StatusOK, adminRefusal)},
		{op: op("POST", "/mcp"), path: "/mcp", body: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), want: only(credMCP, http.StatusOK, mcpRefusal)},
		{op: op("GET", "/mcp"), path: "/mcp", want: only(credMCP, http.StatusMethodNotAllowed, mcpRefusal)},
		{op: op("DELETE", "/mcp"), path: "/mcp", want: only(credMCP, http.StatusMethodNotAllowed, mcpRefusal)},
	}

	t.Run("every documented operation has rows", func(t *testing.T) {
		covered := map[openapitest.Operation]bool{}
		for _, r := range routes {
			covered[r.op] = true
		}
		ops := s.v.Operations()
		for _, o := range ops {
			if !covered[o] {
				t.Errorf("%s has no row in the matrix", o)
			}
		}
		for o := range covered {
			if !slices.Contains(ops, o) {
				t.Errorf("matrix row %s is not in the OpenAPI document", o)
			}
		}
		// And the router serves nothing the document (or the list of
		// static pages) does not name.
		for _, r := range s.gin.Routes() {
			name := r.Method + " " + r.Path
			doc := openapitest.Operation{Method: r.Method, Path: ginParam.ReplaceAllString(r.Path, "{$1}")}
			if !slices.Contains(ops, doc) && !slices.Contains(undocumented, name) {
				t.Errorf("router serves %s, which neither the document nor the static pages name", name)
			}
		}
	})

	okChats, okEvents := 0, 0
	for _, r := range routes {
		name := r.op.String()
		if r.sign != nil {
			name += " signed"
		}
		for i, c := range credentials() {
			t.Run(name+"/"+string(c), func(t *testing.T) {
				req := authzRequest{method: r.op.Method, path: r.path, body: r.body, token: tokens[c]}
				if r.sign != nil {
					req.body = r.sign(i + 1)
					req.signature = api.Sign(webhookSecret, req.body, s.now.Add(-time.Duration(i)*time.Second))
				}
				before := s.world.calls.Load()
				code, body := s.do(t, req)
				if code != r.want[c] {
					t.Fatalf("status %d, want %d: %s", code, r.want[c], body)
				}
				// 401, 403 and 404 are refusals; GET and DELETE /mcp's 405
				// is the MCP server's own answer once the token opened it.
				if code == http.StatusUnauthorized || code == http.StatusForbidden || code == http.StatusNotFound {
					if n := s.world.calls.Load() - before; n != 0 {
						t.Fatalf("refused with %d but made %d service calls", code, n)
					}
					if bytes.Contains(body, []byte(ownToken)) || bytes.Contains(body, []byte(otherToken)) {
						t.Fatalf("answer carries a session token: %s", body)
					}
					return
				}
				switch r.path {
				case "/v1/chat":
					okChats++
				case "/v1/screens/events":
					okEvents++
				}
			})
		}
	}

	t.Run("refused requests changed nothing", func(t *testing.T) {
		s.world.mu.Lock()
		defer s.world.mu.Unlock()
		own, other := s.world.sessions[ownID], s.world.sessions[otherID]
		if okChats != 1 || own.meta.Exchange != 1+okChats || len(own.history) != 2*(1+okChats) {
			t.Fatalf("own session: exchange %d, %d history messages after %d accepted turns", own.meta.Exchange, len(own.history), okChats)
		}
		if own.screens != okEvents || okEvents != len(credentials()) {
			t.Fatalf("own session: %d screen events applied, %d accepted", own.screens, okEvents)
		}
		if other.meta.Exchange != 0 || len(other.history) != 0 || other.screens != 0 {
			t.Fatalf("other session touched: %+v", other)
		}
		if got := len(s.fb.rated); got != 2 {
			t.Fatalf("%d ratings, want the seeded one and the session's own", got)
		}
	})

	t.Run("unknown and malformed session ids", func(t *testing.T) {
		unknown := "00000000-0000-4000-8000-000000000000"
		ids := []struct{ name, id string }{
			{"unknown uuid", unknown},
			{"not a uuid", "session-1"},
			{"uppercase of a real id", strings.ToUpper(ownID)},
			{"real id with suffix", ownID + "0"},
			{"real id with brace", ownID + "}"},
			{"wildcard", "*"},
			{"hash tag", "{" + ownID + "}"},
		}
		notFound := func(t *testing.T, r authzRequest, want int) {
			t.Helper()
			r.invalid = true
			before := s.world.calls.Load()
			code, body := s.do(t, r)
			if code != want {
				t.Fatalf("status %d, want %d: %s", code, want, body)
			}
			if bytes.Contains(body, []byte(ownID)) && !strings.Contains(r.path, url.PathEscape(ownID)) && !bytes.Contains(r.body, []byte(ownID)) {
				t.Fatalf("answer names the real session: %s", body)
			}
			if r.method == http.MethodPost && r.path != "/v1/screens/events" {
				// A refused player request reached no service.
				if n := s.world.calls.Load() - before; n != 0 {
					t.Fatalf("refused but made %d service calls", n)
				}
			}
		}
		for _, tt := range ids {
			t.Run(tt.name+"/chat", func(t *testing.T) {
				notFound(t, authzRequest{method: http.MethodPost, path: "/v1/chat", token: ownToken,
					body: js(map[string]any{"session_id": tt.id, "message": "hi"})}, http.StatusNotFound)
			})
			t.Run(tt.name+"/feedback", func(t *testing.T) {
				notFound(t, authzRequest{method: http.MethodPost, path: "/v1/feedback", token: ownToken,
					body: js(map[string]any{"session_id": tt.id, "exchange": 1, "rating": "up"})}, http.StatusForbidden)
			})
			for _, suffix := range []string{"", "/cache"} {
				t.Run(tt.name+"/admin"+suffix, func(t *testing.T) {
					path := "/admin/sessions/" + url.PathEscape(tt.id) + suffix
					code, body := s.do(t, authzRequest{method: http.MethodGet, path: path, token: authzAdmin, invalid: true})
					if code != http.StatusNotFound {
						t.Fatalf("status %d: %s", code, body)
					}
					if bytes.Contains(body, []byte(ownID)) {
						t.Fatalf("answer leaks the real session: %s", body)
					}
				})
			}
			t.Run(tt.name+"/webhook", func(t *testing.T) {
				body := js(map[string]any{"session_id": tt.id, "screen": map[string]any{"name": "MainMenuPresenter", "data": map[string]any{"PlayerLevel": 1}}})
				notFound(t, authzRequest{method: http.MethodPost, path: "/v1/screens/events", body: body,
					signature: api.Sign(webhookSecret, body, s.now)}, http.StatusNotFound)
				// Nothing was applied, so the same delivery meets the same answer.
				notFound(t, authzRequest{method: http.MethodPost, path: "/v1/screens/events", body: body,
					signature: api.Sign(webhookSecret, body, s.now)}, http.StatusNotFound)
			})
		}
		t.Run("delete entry of an unknown session", func(t *testing.T) {
			notFound(t, authzRequest{method: http.MethodDelete, path: "/admin/sessions/" + unknown + "/cache/" + cacheKey, token: authzAdmin}, http.StatusNotFound)
		})
		t.Run("clear cache of an unknown session", func(t *testing.T) {
			notFound(t, authzRequest{method: http.MethodDelete, path: "/admin/sessions/" + unknown + "/cache", token: authzAdmin}, http.StatusNotFound)
		})
		t.Run("state of an unknown player", func(t *testing.T) {
			notFound(t, authzRequest{method: http.MethodGet, path: "/admin/players/carol/state", token: authzAdmin}, http.StatusNotFound)
		})
		t.Run("scenario of an unknown rating", func(t *testing.T) {
			notFound(t, authzRequest{method: http.MethodGet, path: "/admin/feedback/999-0/scenario", token: authzAdmin}, http.StatusNotFound)
		})
		s.world.mu.Lock()
		defer s.world.mu.Unlock()
		if own := s.world.sessions[ownID]; own.meta.Exchange != 1+okChats || own.screens != okEvents {
			t.Fatalf("own session changed by requests for other ids: %+v", own)
		}
	})
}

// TestDisabledSecretsRefuseEverything runs the edge without an admin
// token, an MCP token or a webhook secret: every documented admin and MCP
// operation answers 403 (admin_disabled, mcp_disabled) whatever is
// presented, both webhooks answer 403 webhook_disabled signed or not, and
// none reaches a service; players are unaffected.
func TestDisabledSecretsRefuseEverything(t *testing.T) {
	s := newAuthzServerWith(t, api.Options{})
	ctx := context.Background()
	id, token, _ := s.world.CreateSession(ctx, "alice", "en")
	concrete := strings.NewReplacer("{id}", id, "{key}", fmt.Sprintf("%032x", 1), "{name}", "gcs_cards", "{player_id}", "alice")
	tokens := map[string]string{"no token": "", "a former admin token": authzAdmin, "a former MCP token": authzMCP, "session token": token, "blank token": " "}
	sig := api.Sign(webhookSecret, []byte(`{}`), s.now)
	n := 0
	for _, o := range s.v.Operations() {
		var code string
		switch {
		case strings.HasPrefix(o.Path, "/admin/"):
			code = "admin_disabled"
		case o.Path == "/mcp":
			code = "mcp_disabled"
		case o.Path == "/v1/screens/events" || o.Path == "/v1/players/{player_id}/state":
			code = "webhook_disabled"
		default:
			continue
		}
		n++
		for name, tok := range tokens {
			t.Run(o.String()+"/"+name, func(t *testing.T) {
				r := authzRequest{method: o.Method, path: concrete.Replace(o.Path), token: tok}
				if o.Method == http.MethodPost || o.Method == http.MethodPut {
					r.body = []byte(`{}`)
				}
				if code == "webhook_disabled" && name == "no token" {
					r.signature = sig // signed by the secret once in use
				}
				before := s.world.calls.Load()
				status, body := s.do(t, r)
				if status != http.StatusForbidden || !strings.Contains(string(body), `"code":"`+code+`"`) {
					t.Fatalf("%d %s, want 403 %s", status, body, code)
				}
				if c := s.world.calls.Load() - before; c != 0 {
					t.Fatalf("refused but made %d service calls", c)
				}
			})
		}
	}
	if n != 21 { // 16 admin, 3 MCP, 2 webhook operations
		t.Errorf("%d operations refused, want 21", n)
	}
	code, body := s.do(t, authzRequest{method: http.MethodPost, path: "/v1/chat", token: token,
		body: []byte(fmt.Sprintf(`{"session_id":%q,"message":"hi"}`, id))})
	if code != http.StatusOK {
		t.Fatalf("chat with every secret unset: %d %s", code, body)
	}
}
