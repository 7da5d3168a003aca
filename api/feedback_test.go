package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/feedback"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// tokenChat authorizes session id with the token "tok-"+id only.
type tokenChat struct{ fakeChat }

func (tokenChat) Authorize(_ context.Context, id, token string) error {
	switch {
	case token == "":
		return chat.ErrUnauthorized
	case id == "s9":
		return memory.ErrNotFound
	case token == "tok-"+id:
		return nil
	}
	return chat.ErrForbidden
}

// fakeFeedback keeps ratings in a map; sessions have exchanges 1..answered.
type fakeFeedback struct {
	mu       sync.Mutex
	answered int
	rated    map[string]feedback.Record
	queries  []feedback.Query
}

func (f *fakeFeedback) Rate(_ context.Context, r feedback.Rating) (feedback.Record, bool, error) {
	if err := r.Validate(); err != nil {
		return feedback.Record{}, false, err
	}
	if r.Exchange > f.answered {
		return feedback.Record{}, false, fmt.Errorf("rate: %w", feedback.ErrNoExchange)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	key := fmt.Sprintf("%s#%d", r.SessionID, r.Exchange)
	_, replaced := f.rated[key]
	rec := feedback.Record{ID: fmt.Sprintf("%d-0", len(f.rated)+1), SessionID: r.SessionID, Exchange: r.Exchange, Rating: r.Rating, Comment: r.Comment,
		Message: "who counters this boss?", Reply: "Aria.", Locale: "en", Tools: []memory.ExchangeTool{}, Window: []feedback.WindowMessage{}}
	f.rated[key] = rec
	return rec, replaced, nil
}

func (f *fakeFeedback) List(_ context.Context, q feedback.Query) (feedback.Page, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q)
	p := feedback.Page{Records: []feedback.Record{}}
	for _, r := range f.rated {
		p.Records = append(p.Records, r)
	}
	return p, nil
}

func (f *fakeFeedback) Get(_ context.Context, id string) (feedback.Record, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.rated {
		if r.ID == id {
			return r, nil
		}
	}
	return feedback.Record{}, fmt.Errorf("get: %w", feedback.ErrNotFound)
}

func (f *fakeFeedback) Stats(context.Context) (feedback.Stats, error) { return feedback.Stats{}, nil }

func newFeedbackServer(t *testing.T, fb api.FeedbackService, limiter api.Limiter, now time.Time) *httptest.Server {
	t.Helper()
	ex, err := tool.NewExecutor(tool.NewRegistry(), tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Deps{Executor: ex, Chat: tokenChat{}, Feedback: fb, Limiter: limiter, Logger: slog.New(slog.DiscardHandler)},
		api.Options{AdminToken: "adm", ChatRatePerMinute: 30, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func TestFeedbackRoute(t *testing.T) {
	fb := &fakeFeedback{answered: 2, rated: map[string]feedback.Record{}}
	ts := newFeedbackServer(t, fb, nil, time.Now())
	post := func(token, body string) (int, string) {
		t.Helper()
		resp, b := do(t, http.MethodPost, ts.URL+"/v1/feedback", token, strings.NewReader(body))
		var e struct{ Error struct{ Code string } }
		_ = json.Unmarshal(b, &e)
		return resp.StatusCode, e.Error.Code
	}
	if code, _ := post("tok-s1", `{"session_id":"s1","exchange":2,"rating":"down","comment":"wrong boss"}`); code != http.StatusCreated {
		t.Fatalf("first rating = %d, want 201", code)
	}
	if code, _ := post("tok-s1", `{"session_id":"s1","exchange":2,"rating":"up"}`); code != http.StatusOK {
		t.Fatalf("second rating of the exchange = %d, want 200", code)
	}
	tests := []struct {
		name, token, body string
		want              int
		code              string
	}{
		{"no token", "", `{"session_id":"s1","exchange":1,"rating":"up"}`, 401, "unauthorized"},
		{"another session's token", "tok-s2", `{"session_id":"s1","exchange":1,"rating":"up"}`, 403, "forbidden"},
		{"unknown session", "tok-s1", `{"session_id":"s9","exchange":1,"rating":"up"}`, 403, "forbidden"},
		{"exchange the session does not have", "tok-s1", `{"session_id":"s1","exchange":3,"rating":"up"}`, 404, "no_such_exchange"},
		{"malformed", "tok-s1", `{"session_id":"s1",`, 400, "bad_json"},
		{"unknown field", "tok-s1", `{"session_id":"s1","exchange":1,"rating":"up","stars":5}`, 400, "bad_json"},
		{"exchange as a string", "tok-s1", `{"session_id":"s1","exchange":"1","rating":"up"}`, 400, "bad_json"},
		{"exchange not whole", "tok-s1", `{"session_id":"s1","exchange":1.5,"rating":"up"}`, 400, "bad_json"},
		{"exchange missing", "tok-s1", `{"session_id":"s1","rating":"up"}`, 400, "bad_request"},
		{"exchange zero", "tok-s1", `{"session_id":"s1","exchange":0,"rating":"up"}`, 400, "bad_request"},
		{"rating other", "tok-s1", `{"session_id":"s1","exchange":1,"rating":"meh"}`, 400, "bad_request"},
		{"rating missing", "tok-s1", `{"session_id":"s1","exchange":1}`, 400, "bad_request"},
		{"session missing", "tok-s1", `{"exchange":1,"rating":"up"}`, 400, "bad_request"},
		{"comment too long", "tok-s1", `{"session_id":"s1","exchange":1,"rating":"down","comment":"` + strings.Repeat("é", 1001) + `"}`, 400, "bad_request"},
		{"trailing data", "tok-s1", `{"session_id":"s1","exchange":1,"rating":"up"} {}`, 400, "bad_json"},
		{"not an object", "tok-s1", `["up"]`, 400, "bad_json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, ec := post(tt.token, tt.body); code != tt.want || ec != tt.code {
				t.Errorf("status %d %q, want %d %q", code, ec, tt.want, tt.code)
			}
		})
	}
	if len(fb.rated) != 1 {
		t.Errorf("refused ratings changed the records: %d", len(fb.rated))
	}
	// 1000 characters exactly is accepted.
	if code, _ := post("tok-s1", `{"session_id":"s1","exchange":1,"rating":"down","comment":"`+strings.Repeat("é", 1000)+`"}`); code != http.StatusCreated {
		t.Errorf("1000-character comment = %d", code)
	}
}

func TestFeedbackIsRateLimitedPerSession(t *testing.T) {
	fb := &fakeFeedback{answered: 1, rated: map[string]feedback.Record{}}
	lim := &countingLimiter{n: 1, keys: make(chan string, 4)}
	ts := newFeedbackServer(t, fb, lim, time.Now())
	body := `{"session_id":"s1","exchange":1,"rating":"up"}`
	if resp, b := do(t, http.MethodPost, ts.URL+"/v1/feedback", "tok-s1", strings.NewReader(body)); resp.StatusCode != http.StatusCreated {
		t.Fatalf("first = %d %s", resp.StatusCode, b)
	}
	resp, _ := do(t, http.MethodPost, ts.URL+"/v1/feedback", "tok-s1", strings.NewReader(body))
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("second = %d, Retry-After %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if k := <-lim.keys; k != "feedback:session:s1" {
		t.Errorf("limited key %q", k)
	}
}

func TestAdminFeedbackRoutes(t *testing.T) {
	now := time.Date(2026, 5, 6, 12, 0, 0, 0, time.UTC)
	fb := &fakeFeedback{answered: 1, rated: map[string]feedback.Record{}}
	ts := newFeedbackServer(t, fb, nil, now)
	rec, _, _ := fb.Rate(context.Background(), feedback.Rating{SessionID: "s1", Exchange: 1, Rating: "down", Comment: "</script>"})

	resp, b := do(t, http.MethodGet, ts.URL+"/admin/feedback?rating=down&since=24h&tool=gcs_x&screen=Boss&limit=10&cursor=5-0", "adm", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("list = %d %s", resp.StatusCode, b)
	}
	want := feedback.Query{Rating: "down", Since: now.Add(-24 * time.Hour), Tool: "gcs_x", Screen: "Boss", Limit: 10, Cursor: "5-0"}
	if got := fb.queries[len(fb.queries)-1]; got != want {
		t.Errorf("query = %+v, want %+v", got, want)
	}
	if _, _ = do(t, http.MethodGet, ts.URL+"/admin/feedback?since=2026-05-01T00:00:00Z", "adm", nil); !fb.queries[len(fb.queries)-1].Since.Equal(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("since as a time = %v", fb.queries[len(fb.queries)-1].Since)
	}
	for _, q := range []string{"limit=0", "limit=201", "limit=x", "since=yesterday", "since=-1h", "tool=" + strings.Repeat("a", 201)} {
		if resp, _ := do(t, http.MethodGet, ts.URL+"/admin/feedback?"+q, "adm", nil); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s = %d, want 400", q, resp.StatusCode)
		}
	}
	if resp, _ := do(t, http.MethodGet, ts.URL+"/admin/feedback", "", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no admin token = %d", resp.StatusCode)
	}

	resp, b = do(t, http.MethodGet, ts.URL+"/admin/feedback/"+rec.ID+"/scenario", "adm", nil)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/yaml") ||
		resp.Header.Get("Content-Disposition") != `attachment; filename="feedback-`+rec.ID+`.yaml"` {
		t.Fatalf("scenario = %d %v", resp.StatusCode, resp.Header)
	}
	if !strings.Contains(string(b), "say: who counters this boss?") {
		t.Errorf("scenario body:\n%s", b)
	}
	if resp, _ := do(t, http.MethodGet, ts.URL+"/admin/feedback/9-9/scenario", "adm", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown record = %d, want 404", resp.StatusCode)
	}
}

func TestFeedbackUnavailableWithoutService(t *testing.T) {
	ts := newTestServer(t, "adm")
	for _, r := range []struct{ method, path, token string }{
		{http.MethodPost, "/v1/feedback", "t"}, {http.MethodGet, "/admin/feedback", "adm"}, {http.MethodGet, "/admin/feedback/1-0/scenario", "adm"},
	} {
		var body *strings.Reader
		if r.method == http.MethodPost {
			body = strings.NewReader(`{"session_id":"s","exchange":1,"rating":"up"}`)
		}
		var resp *http.Response
		if body != nil {
			resp, _ = do(t, r.method, ts.URL+r.path, r.token, body)
		} else {
			resp, _ = do(t, r.method, ts.URL+r.path, r.token, nil)
		}
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("%s %s = %d, want 503", r.method, r.path, resp.StatusCode)
		}
	}
}
