package api_test

import (
	"context"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/metrics"
	"github.com/gameassist/gameassist/ratelimit"
	"github.com/gameassist/gameassist/tool"
)

// sessionChat is fakeChat that also creates sessions.
type sessionChat struct{ fakeChat }

func (sessionChat) CreateSession(context.Context, string, string) (string, string, error) {
	return testSession, "some-session-token", nil
}

// keyedLimiter allows limit requests per key and records the keys asked.
type keyedLimiter struct {
	mu   sync.Mutex
	seen map[string]int
	keys []string
}

func (l *keyedLimiter) Allow(_ context.Context, key string, limit int, _ time.Duration) (ratelimit.Decision, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[string]int{}
	}
	l.seen[key]++
	l.keys = append(l.keys, key)
	if l.seen[key] > limit {
		return ratelimit.Decision{Allowed: false, RetryAfter: 30 * time.Second}, nil
	}
	return ratelimit.Decision{Allowed: true}, nil
}

// newEdgeServer serves the router over chat with opts and limiter.
func newEdgeServer(t *testing.T, chat api.ChatService, limiter api.Limiter, opts api.Options) *httptest.Server {
	t.Helper()
	ex, err := tool.NewExecutor(tool.NewRegistry(), tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	preg := prometheus.NewRegistry()
	m, err := metrics.New(preg)
	if err != nil {
		t.Fatal(err)
	}
	deps := api.Deps{Executor: ex, Chat: chat, Metrics: m, Gatherer: preg, Logger: slog.New(slog.DiscardHandler)}
	if limiter != nil {
		deps.Limiter = limiter
	}
	srv, err := api.New(deps, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func send(t *testing.T, method, url string, header map[string]string, body string) (*http.Response, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
		header = maps.Clone(header)
		if header == nil {
			header = map[string]string{}
		}
		if header["Content-Type"] == "" {
			header["Content-Type"] = "application/json"
		}
	}
	return sendReader(t, method, url, header, r)
}

// sendReader sends body as it is: a reader of unknown length goes chunked.
func sendReader(t *testing.T, method, url string, header map[string]string, body io.Reader) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// TestCORS: allowed origins get CORS headers; other origins get none (the
// browser refuses the answer) but still the contract's statuses and bodies.
func TestCORS(t *testing.T) {
	const allowed = "https://game.example"
	ts := newEdgeServer(t, sessionChat{}, nil, api.Options{AllowedOrigins: []string{allowed, "https://admin.example"}})
	preflight := func(origin string) (*http.Response, string) {
		return send(t, http.MethodOptions, ts.URL+"/v1/chat", map[string]string{
			"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type",
		}, "")
	}
	create := func(origin string) (*http.Response, string) {
		h := map[string]string{}
		if origin != "" {
			h["Origin"] = origin
		}
		return send(t, http.MethodPost, ts.URL+"/v1/sessions", h, `{}`)
	}
	tests := []struct {
		name       string
		do         func() (*http.Response, string)
		want       int
		wantOrigin string
	}{
		{"preflight from an allowed origin", func() (*http.Response, string) { return preflight(allowed) }, http.StatusNoContent, allowed},
		{"request from an allowed origin", func() (*http.Response, string) { return create(allowed) }, http.StatusCreated, allowed},
		{"preflight from another origin", func() (*http.Response, string) { return preflight("https://evil.example") }, http.StatusMethodNotAllowed, ""},
		{"request from another origin", func() (*http.Response, string) { return create("https://evil.example") }, http.StatusCreated, ""},
		{"request without origin", func() (*http.Response, string) { return create("") }, http.StatusCreated, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := tt.do()
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.want, body)
			}
			if tt.want >= 400 && !strings.Contains(body, `"code"`) {
				t.Fatalf("error without a code: %s", body)
			}
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != tt.wantOrigin {
				t.Fatalf("Access-Control-Allow-Origin %q, want %q", got, tt.wantOrigin)
			}
		})
	}
}

// TestTrustedProxy: behind a configured load balancer, X-Forwarded-For names
// the player, so each player has their own session-creation budget; from
// any other peer it is ignored and the peer's address counts.
func TestTrustedProxy(t *testing.T) {
	for _, tc := range []struct {
		name    string
		proxies []string
		// want are the statuses of creating from .1, .2, then .1 again.
		want [3]int
	}{
		{"trusted", []string{"127.0.0.1"}, [3]int{http.StatusCreated, http.StatusCreated, http.StatusTooManyRequests}},
		{"trusted by CIDR", []string{"127.0.0.0/8"}, [3]int{http.StatusCreated, http.StatusCreated, http.StatusTooManyRequests}},
		{"not trusted", nil, [3]int{http.StatusCreated, http.StatusTooManyRequests, http.StatusTooManyRequests}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := &keyedLimiter{}
			ts := newEdgeServer(t, sessionChat{}, lim, api.Options{TrustedProxies: tc.proxies, SessionRatePerMinute: 1})
			for i, ip := range []string{"203.0.113.1", "203.0.113.2", "203.0.113.1"} {
				resp, body := send(t, http.MethodPost, ts.URL+"/v1/sessions", map[string]string{"X-Forwarded-For": ip}, `{}`)
				if resp.StatusCode != tc.want[i] {
					t.Fatalf("create %d from %s: status %d, want %d: %s", i+1, ip, resp.StatusCode, tc.want[i], body)
				}
				if resp.StatusCode == http.StatusTooManyRequests && !strings.Contains(body, `"rate_limited"`) {
					t.Fatalf("429 without rate_limited: %s", body)
				}
			}
		})
	}
}
