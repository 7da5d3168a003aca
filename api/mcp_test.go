package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/internal/openapitest"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/ratelimit"
	"github.com/gameassist/gameassist/tool"
)

// countingLimiter allows the first n requests of a key, then refuses.
type countingLimiter struct {
	n    int64
	seen atomic.Int64
	keys chan string
}

func (l *countingLimiter) Allow(_ context.Context, key string, _ int, _ time.Duration) (ratelimit.Decision, error) {
	l.keys <- key
	if l.seen.Add(1) > l.n {
		return ratelimit.Decision{Allowed: false, RetryAfter: 30 * time.Second}, nil
	}
	return ratelimit.Decision{Allowed: true}, nil
}

// mcpHandler stands for the MCP server: it records that it ran and whether
// its request carries a deadline.
type mcpHandler struct {
	calls       atomic.Int64
	hadDeadline atomic.Bool
}

func (h *mcpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.calls.Add(1)
	_, ok := r.Context().Deadline()
	h.hadDeadline.Store(ok)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
}

func newMCPServer(t *testing.T, token string, handler http.Handler, limiter api.Limiter, rate int) *httptest.Server {
	t.Helper()
	reg := tool.NewRegistry()
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	deps := api.Deps{Executor: ex, Logger: slog.New(slog.DiscardHandler), Limiter: limiter}
	if handler != nil {
		deps.MCP = handler
	}
	srv, err := api.New(deps, api.Options{MCPToken: token, MCPRatePerMinute: rate})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func TestMCPRouteAuth(t *testing.T) {
	const token = "mcp-secret"
	tests := []struct {
		name       string
		configured string
		sent       string
		nilHandler bool
		want       int
		reached    bool
	}{
		{name: "closed when unset", configured: "", sent: "anything", want: http.StatusForbidden},
		{name: "no token", configured: token, sent: "", want: http.StatusUnauthorized},
		{name: "wrong token", configured: token, sent: "mcp-secreT", want: http.StatusUnauthorized},
		{name: "longer token", configured: token, sent: token + token, want: http.StatusUnauthorized},
		{name: "right token", configured: token, sent: token, want: http.StatusOK, reached: true},
		{name: "no MCP server wired", configured: token, sent: token, nilHandler: true, want: http.StatusServiceUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &mcpHandler{}
			var handler http.Handler = h
			if tt.nilHandler {
				handler = nil
			}
			ts := newMCPServer(t, tt.configured, handler, nil, 0)
			resp, body := do(t, http.MethodPost, ts.URL+"/mcp", tt.sent, strings.NewReader(`{}`))
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.want, body)
			}
			if reached := h.calls.Load() > 0; reached != tt.reached {
				t.Fatalf("handler reached = %v, want %v", reached, tt.reached)
			}
			if tt.reached && !h.hadDeadline.Load() {
				t.Error("the MCP request carries no deadline")
			}
			if resp.StatusCode == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate = %q", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
}

// TestMCPRouteRateLimitBeforeAuth: the per-IP limit counts every request,
// so token guessing is limited too.
func TestMCPRouteRateLimitBeforeAuth(t *testing.T) {
	lim := &countingLimiter{n: 1, keys: make(chan string, 4)}
	h := &mcpHandler{}
	ts := newMCPServer(t, "mcp-secret", h, lim, 10)
	resp, _ := do(t, http.MethodPost, ts.URL+"/mcp", "guess", strings.NewReader(`{}`))
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("first: status %d", resp.StatusCode)
	}
	resp, _ = do(t, http.MethodPost, ts.URL+"/mcp", "mcp-secret", strings.NewReader(`{}`))
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "30" {
		t.Fatalf("second: status %d Retry-After %q, want 429 and 30", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if h.calls.Load() != 0 {
		t.Fatal("a limited request reached the MCP server")
	}
	for range 2 {
		if key := <-lim.keys; key != "mcp:ip:127.0.0.1" {
			t.Errorf("limit key %q, want per client IP", key)
		}
	}
}

// bodyHandler stands for the MCP server and records the bodies it gets.
type bodyHandler struct {
	bodies chan string
}

func (h *bodyHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	h.bodies <- string(b)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`[]`))
}

func batchOf(n int, method string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"name":"gcs_x","arguments":{}}}`, i+1, method)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// TestMCPBatches: a JSON-RPC batch over the limit is refused with a
// JSON-RPC error before the MCP server sees it; within the limit every
// tools/call in it counts against the per-IP limit (a real Redis limiter),
// and the MCP server gets the body unchanged.
func TestMCPBatches(t *testing.T) {
	rdb := redistest.Start(t)
	lim, err := ratelimit.New(rdb.Client(t), rdb.Prefix(t))
	if err != nil {
		t.Fatal(err)
	}
	h := &bodyHandler{bodies: make(chan string, 8)}
	ts := newMCPServer(t, "mcp-secret", h, lim, 5)

	resp, body := do(t, http.MethodPost, ts.URL+"/mcp", "mcp-secret", strings.NewReader(batchOf(6500, "tools/call")))
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("6,500-call batch: status %d: %.200s", resp.StatusCode, body)
	}
	var rpc struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &rpc); err != nil || rpc.JSONRPC != "2.0" || string(rpc.ID) != "null" || rpc.Error.Code != -32600 ||
		!strings.Contains(rpc.Error.Message, fmt.Sprintf("batch of 6500 requests, over the limit of %d", api.DefaultMCPMaxBatch)) {
		t.Fatalf("6,500-call batch: %v %s", err, body)
	}
	openapitest.Load(t).CheckResponse(t, resp.Request, resp, body)
	select {
	case b := <-h.bodies:
		t.Fatalf("the MCP server got the refused batch (%d bytes)", len(b))
	default:
	}

	// The refused batch cost one request (limitMCP); a batch of 3 calls
	// and a list costs 3 more (the list rides on the POST's own count):
	// 4 of 5.
	batch := "[" + strings.TrimPrefix(strings.TrimSuffix(batchOf(3, "tools/call"), "]"), "[") + `,{"jsonrpc":"2.0","id":9,"method":"tools/list"}]`
	resp, body = do(t, http.MethodPost, ts.URL+"/mcp", "mcp-secret", strings.NewReader(batch))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("3-call batch: status %d: %s", resp.StatusCode, body)
	}
	if got := <-h.bodies; got != batch {
		t.Fatalf("the MCP server got %q, want the body as sent", got)
	}
	// Two more calls need 6 of 5: refused, Retry-After set.
	resp, body = do(t, http.MethodPost, ts.URL+"/mcp", "mcp-secret", strings.NewReader(batchOf(2, "tools/call")))
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("over the rate: status %d: %s", resp.StatusCode, body)
	}
	select {
	case b := <-h.bodies:
		t.Fatalf("the MCP server got a batch over the rate: %s", b)
	default:
	}
}
