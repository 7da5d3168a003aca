package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/internal/handclock"
	"github.com/gameassist/gameassist/internal/openapitest"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// TestPlayerStateRoute pushes player states through the signed route into
// a real Redis and reads them back through the admin route: unsigned,
// replayed, stale, oversized and non-object pushes are refused or
// acknowledged as the contract says, and one player's state is never
// shown for another. Every answer is checked against the OpenAPI document.
func TestPlayerStateRoute(t *testing.T) {
	srvRedis := redistest.Start(t)
	st, err := memory.New(srvRedis.UniversalClient(t), memory.Options{Prefix: srvRedis.Prefix(t)})
	if err != nil {
		t.Fatal(err)
	}
	clock := handclock.New(time.Unix(1_800_000_000, 0))
	ex, err := tool.NewExecutor(tool.NewRegistry(), tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Deps{Executor: ex, Replay: st, Players: st, Logger: slog.New(slog.DiscardHandler)},
		api.Options{WebhookSecret: webhookSecret, AdminToken: "adm", Now: clock.Now, PlayerStateTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	v := openapitest.Load(t)

	send := func(method, path string, header map[string]string, body []byte) (int, []byte) {
		t.Helper()
		req, err := http.NewRequestWithContext(context.Background(), method, ts.URL+path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for k, val := range header {
			req.Header.Set(k, val)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, _ := io.ReadAll(resp.Body)
		check := httptest.NewRequest(method, path, nil)
		if body != nil {
			check.Header.Set("Content-Type", "application/json")
		}
		if resp.StatusCode == http.StatusOK {
			v.Check(t, check, body, resp, got)
		} else {
			v.CheckResponse(t, check, resp, got)
		}
		return resp.StatusCode, got
	}
	push := func(player string, body []byte, at time.Time) (int, []byte) {
		t.Helper()
		return send(http.MethodPut, "/v1/players/"+player+"/state", map[string]string{"X-Signature": api.Sign(webhookSecret, body, at)}, body)
	}
	type pushed struct {
		PlayerID  string    `json:"player_id"`
		UpdatedAt time.Time `json:"updated_at"`
		Version   string    `json:"version"`
		Applied   bool      `json:"applied"`
	}
	decode := func(b []byte) pushed {
		t.Helper()
		var p pushed
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatalf("answer %s: %v", b, err)
		}
		return p
	}
	now := clock.Now()
	alice := []byte(`{"progress": {"chapter": 3}, "roster": [{"id": 1001, "level": 60, "stars": 6}]}`)
	code, body := push("alice", alice, now)
	if p := decode(body); code != http.StatusOK || !p.Applied || p.PlayerID != "alice" || !p.UpdatedAt.Equal(now) || p.Version == "" {
		t.Fatalf("first push: %d %s", code, body)
	}
	// The same signed delivery again is a replay.
	req := map[string]string{"X-Signature": api.Sign(webhookSecret, alice, now)}
	if code, body := send(http.MethodPut, "/v1/players/alice/state", req, alice); code != http.StatusUnauthorized || !strings.Contains(string(body), "signature_replayed") {
		t.Fatalf("replay: %d %s", code, body)
	}
	// An older push is acknowledged, not applied.
	older := []byte(`{"progress": {"chapter": 1}}`)
	code, body = push("alice", older, now.Add(-time.Minute))
	if p := decode(body); code != http.StatusOK || p.Applied || !p.UpdatedAt.Equal(now) {
		t.Fatalf("older push: %d %s", code, body)
	}
	for _, tc := range []struct {
		name   string
		header map[string]string
		body   []byte
		want   int
		code   string
	}{
		{"unsigned", nil, []byte(`{}`), http.StatusUnauthorized, "bad_signature"},
		{"wrong secret", map[string]string{"X-Signature": api.Sign("other", []byte(`{}`), now)}, []byte(`{}`), http.StatusUnauthorized, "bad_signature"},
		{"expired", map[string]string{"X-Signature": api.Sign(webhookSecret, []byte(`{"a":1}`), now.Add(-time.Hour))}, []byte(`{"a":1}`), http.StatusUnauthorized, "signature_expired"},
		{"array", nil, []byte(`[1,2]`), http.StatusBadRequest, "bad_player_state"},
		{"string", nil, []byte(`"x"`), http.StatusBadRequest, "bad_player_state"},
		{"not json", nil, []byte(`{"a":`), http.StatusBadRequest, "bad_player_state"},
		{"oversized", nil, []byte(`{"a":"` + strings.Repeat("x", api.MaxPlayerStateBytes) + `"}`), http.StatusRequestEntityTooLarge, "body_too_large"},
	} {
		h := tc.header
		if h == nil && tc.name != "unsigned" {
			h = map[string]string{"X-Signature": api.Sign(webhookSecret, tc.body, now)}
		}
		code, body := send(http.MethodPut, "/v1/players/alice/state", h, tc.body)
		if code != tc.want || !strings.Contains(string(body), tc.code) {
			t.Errorf("%s: %d %s, want %d %s", tc.name, code, body, tc.want, tc.code)
		}
	}
	if code, body := push("bad%7Bid%7D", []byte(`{}`), now); code != http.StatusBadRequest {
		t.Errorf("player id with braces: %d %s", code, body)
	}

	// The admin view shows alice's state as last applied, and nothing for bob.
	code, body = send(http.MethodGet, "/admin/players/alice/state", map[string]string{"Authorization": "Bearer adm"}, nil)
	var view struct {
		PlayerID string          `json:"player_id"`
		State    json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(body, &view); code != http.StatusOK || err != nil || view.PlayerID != "alice" ||
		string(view.State) != `{"progress":{"chapter":3},"roster":[{"id":1001,"level":60,"stars":6}]}` {
		t.Fatalf("admin alice: %d %s", code, body)
	}
	if code, body := send(http.MethodGet, "/admin/players/bob/state", map[string]string{"Authorization": "Bearer adm"}, nil); code != http.StatusNotFound {
		t.Fatalf("admin bob: %d %s", code, body)
	}
	if code, _ := send(http.MethodGet, "/admin/players/alice/state", nil, nil); code != http.StatusUnauthorized {
		t.Fatalf("admin without token: %d", code)
	}
}
