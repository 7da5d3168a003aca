package main

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/redis/go-redis/v9"
)

// TestRedisDownAndBack stops Redis under a running server: requests that
// need it answer 503 quickly with an error body, liveness stays up,
// readiness reports Redis; once Redis is back (empty) the same server
// serves again.
func TestRedisDownAndBack(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	rs := redistest.Start(t)
	f := newFixture(t, appSetup{redis: rs})
	dials := newDialWatch()
	f.app.rdb.AddHook(dials)
	s := f.newSession(t)
	f.chat(t, s, "Tell me about Kaelith")

	rs.Stop()
	select { // a dial that succeeded before the stop
	case <-dials.ok:
	default:
	}

	// f.do fails the test on a client timeout (clientTimeout): every
	// answer below arrived, none hung.
	down := []struct {
		name string
		req  request
	}{
		{name: "create session", req: request{method: http.MethodPost, path: "/v1/sessions", body: []byte(`{}`)}},
		{name: "chat", req: request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: chatBody(s, "Tell me about Kaelith")}},
		{name: "chat streamed", req: request{
			method: http.MethodPost, path: "/v1/chat", token: s.Token,
			json: map[string]any{"session_id": s.ID, "message": "Tell me about Kaelith", "stream": true},
		}},
		{name: "screen event", req: signedEvent(mustJSON(t, map[string]any{
			"session_id": s.ID,
			"screen":     map[string]any{"name": "MainMenuPresenter", "data": map[string]any{"PlayerLevel": 2}},
		}))},
		{name: "admin session", req: request{method: http.MethodGet, path: "/admin/sessions/" + s.ID, token: testAdminToken}},
		{name: "admin cache", req: request{method: http.MethodGet, path: "/admin/sessions/" + s.ID + "/cache", token: testAdminToken}},
		{name: "admin stats", req: request{method: http.MethodGet, path: "/admin/stats", token: testAdminToken}},
	}
	for _, tt := range down {
		t.Run("redis down/"+tt.name, func(t *testing.T) {
			resp, body := f.do(t, tt.req)
			code := expectError(t, resp, body, http.StatusServiceUnavailable)
			if code != "unavailable" && code != "timeout" {
				t.Fatalf("code %s: %s", code, body)
			}
		})
	}
	t.Run("redis down/readyz", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/readyz"})
		expect(t, resp, body, http.StatusServiceUnavailable)
		ready := decode[struct {
			Status string `json:"status"`
			Checks map[string]struct {
				Status string `json:"status"`
				Error  string `json:"error"`
			} `json:"checks"`
		}](t, body)
		if ready.Status != "unavailable" || ready.Checks["redis"].Status != "unavailable" || ready.Checks["redis"].Error == "" {
			t.Fatalf("readyz %s", body)
		}
		if ready.Checks["gcs"].Status != "ok" || ready.Checks["vector_store"].Status != "ok" {
			t.Fatalf("readyz blames other dependencies: %s", body)
		}
	})
	t.Run("redis down/healthz", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/healthz"})
		expect(t, resp, body, http.StatusOK)
	})
	t.Run("redis down/tools still run", func(t *testing.T) {
		resp, body := f.do(t, request{
			method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken,
			json: map[string]any{"tool_calls": []map[string]any{{"name": "gcs_get_champion_details", "arguments": map[string]string{"champion_name": "Kaelith"}}}},
		})
		expect(t, resp, body, http.StatusOK)
	})

	dials.arm()
	rs.Restart(t)

	t.Run("redis back", func(t *testing.T) {
		// Once dials have failed, the Redis client refuses commands and
		// probes in the background, about once a second; the server
		// recovers on its own, without a restart. A successful probe
		// resets its pool's count of failed dials, then closes its
		// connection (the client's pools probe apart): each failed check waits for such a close before it
		// checks again. noDialFor only turns a server that never
		// reconnects into a failure instead of a hang.
		const noDialFor = time.Minute
		for {
			resp, body := f.do(t, request{method: http.MethodGet, path: "/readyz"})
			if resp.StatusCode == http.StatusOK {
				break
			}
			select {
			case <-dials.closed:
			case <-time.After(noDialFor):
				t.Fatalf("not ready again, and no probe of Redis succeeded in %s: %s", noDialFor, body)
			}
		}
		// The data is gone with the old server: the old session is unknown.
		resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: chatBody(s, "hello again")})
		expectError(t, resp, body, http.StatusNotFound)
		fresh := f.newSession(t)
		r := f.chat(t, fresh, "Tell me about Kaelith")
		if r.Exchange != 1 || r.Reply == "" {
			t.Fatalf("turn after restart: %+v", r)
		}
		if v := f.adminSession(t, fresh.ID); len(v.History) != 2 {
			t.Fatalf("history after restart: %+v", v.History)
		}
	})
}

// TestQdrantUnreachable starts the server with QDRANT_URL pointing at a
// port nobody listens on: it starts and serves, /readyz says the vector
// store is down, RAG tools answer error envelopes with guidance, and the
// other tool families still answer.
func TestQdrantUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	f := newFixture(t, appSetup{env: map[string]string{"QDRANT_URL": "http://" + addr}})

	resp, body := f.do(t, request{method: http.MethodGet, path: "/readyz"})
	expect(t, resp, body, http.StatusServiceUnavailable)
	ready := decode[struct {
		Checks map[string]struct {
			Status string `json:"status"`
		} `json:"checks"`
	}](t, body)
	if ready.Checks["vector_store"].Status != "unavailable" || ready.Checks["redis"].Status != "ok" || ready.Checks["gcs"].Status != "ok" {
		t.Fatalf("readyz %s", body)
	}

	resp, body = f.do(t, request{
		method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken,
		json: map[string]any{"tool_calls": []map[string]any{
			{"name": "db_get_lore_details", "arguments": map[string]any{"query": "Kaelith"}},
			{"name": "gcs_get_champion_details", "arguments": map[string]any{"champion_name": "Kaelith"}},
		}},
	})
	expect(t, resp, body, http.StatusOK)
	out := decode[struct {
		Results []struct {
			Status   string `json:"status"`
			Guidance string `json:"guidance"`
		} `json:"results"`
	}](t, body)
	if len(out.Results) != 2 || out.Results[0].Status != "error" || out.Results[0].Guidance == "" || out.Results[1].Status != "success" {
		t.Fatalf("results %s", body)
	}
}

// dialWatch reports a Redis client's successful dials on ok (buffered; a
// dial finds it full when one is already reported) and, once armed, the
// client closing a connection it dialed after that on closed (buffered
// likewise).
type dialWatch struct {
	ok, closed chan struct{}
	armed      atomic.Bool
}

func newDialWatch() *dialWatch {
	return &dialWatch{ok: make(chan struct{}, 1), closed: make(chan struct{}, 1)}
}

// arm watches the connections dialed from now on for their close.
func (w *dialWatch) arm() { w.armed.Store(true) }

func (w *dialWatch) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := next(ctx, network, addr)
		if err != nil {
			return c, err
		}
		notify(w.ok)
		if w.armed.Load() {
			if tc, ok := c.(*net.TCPConn); ok {
				return &watchedConn{TCPConn: tc, closed: w.closed}, nil
			}
		}
		return c, nil
	}
}

// watchedConn is a dialed connection that reports its close.
type watchedConn struct {
	*net.TCPConn
	closed chan struct{}
}

func (c *watchedConn) Close() error {
	err := c.TCPConn.Close()
	notify(c.closed)
	return err
}

// notify sends on ch unless a send is already waiting there.
func notify(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

func (w *dialWatch) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

func (w *dialWatch) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
