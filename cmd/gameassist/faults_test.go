package main

import (
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
)

// TestRedisDownAndBack stops Redis under a running server: requests that
// need it answer 503 quickly with an error body, liveness stays up,
// readiness reports Redis; once Redis is back (empty) the same server
// serves again.
func TestRedisDownAndBack(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	rs := redistest.Start(t)
	f := newFixture(t, appSetup{redis: rs})
	s := f.newSession(t)
	f.chat(t, s, "Tell me about Kaelith")

	rs.Stop()

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

	rs.Restart(t)

	t.Run("redis back", func(t *testing.T) {
		// The Redis client waits about a second between dials once dials
		// have failed; the server recovers on its own, without a restart.
		eventually(t, 15*time.Second, "ready again", func() (bool, string) {
			resp, body := f.do(t, request{method: http.MethodGet, path: "/readyz"})
			return resp.StatusCode == http.StatusOK, string(body)
		})
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
