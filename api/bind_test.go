package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/internal/openapitest"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/rollout"
	"github.com/gameassist/gameassist/tool"
)

// singleTool is a file tool with one version (version: 1, or none).
type singleTool struct{}

func (singleTool) Spec() tool.Spec {
	return tool.Spec{Name: "cards_single", Description: "one version", Category: tool.CategoryGCS, Version: 1,
		Parameters: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}
}

func (singleTool) Call(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Success("ok", nil), nil
}

// TestRolloutSingleVersionAndDuplicateKeys: with the real assigner over a
// real Redis, PUT and DELETE on a tool with one version answer 422 (the
// tools file's rollouts: refuses it too), and a PUT body repeating a key
// (which encoding/json would resolve to the last one, here a valid 80/20)
// answers 400 naming the key; nothing is stored. Every answer is checked
// against the OpenAPI document.
func TestRolloutSingleVersionAndDuplicateKeys(t *testing.T) {
	rdb := redistest.Start(t)
	reg := tool.NewRegistry()
	if err := reg.Register(versionTool{1}, versionTool{2}, singleTool{}, echoTool{}); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ro, err := rollout.New(rdb.Client(t), reg, rollout.Options{Prefix: rdb.Prefix(t)})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Deps{Executor: ex, Rollouts: ro, Logger: slog.New(slog.DiscardHandler)}, api.Options{AdminToken: "adm"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	v := openapitest.Load(t)

	tests := []struct {
		name, method, tool, body string
		want                     int
		contains                 string
	}{
		{name: "PUT on one version", method: http.MethodPut, tool: "cards_single", body: `{"weights":{"1":100}}`, want: 422, contains: "the tool has only version 1; a rollout needs several versions"},
		{name: "DELETE on one version", method: http.MethodDelete, tool: "cards_single", want: 422, contains: "only version 1"},
		{name: "DELETE on an unversioned tool", method: http.MethodDelete, tool: "gcs_echo", want: 422, contains: "unversioned"},
		{name: "repeated weight", method: http.MethodPut, tool: "gcs_cards", body: `{"weights":{"1":0,"2":100,"1":100,"2":0}}`, want: 400, contains: `duplicate key \"1\" in /weights`},
		{name: "repeated weights", method: http.MethodPut, tool: "gcs_cards", body: `{"weights":{"1":100,"2":0},"weights":{"1":0,"2":100}}`, want: 400, contains: `duplicate key \"weights\" in the top-level object`},
		{name: "repeated escaped key", method: http.MethodPut, tool: "gcs_cards", body: `{"weights":{"1":50,"\u0031":50,"2":50}}`, want: 400, contains: `duplicate key \"1\"`},
		{name: "valid", method: http.MethodPut, tool: "gcs_cards", body: `{"weights":{"1":80,"2":20}}`, want: 200, contains: `"weights":{"1":80,"2":20}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body *strings.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			url := ts.URL + "/admin/tools/" + tc.tool + "/rollout"
			var resp *http.Response
			var got []byte
			if body == nil {
				resp, got = do(t, tc.method, url, "adm", nil)
			} else {
				resp, got = do(t, tc.method, url, "adm", body)
			}
			if resp.StatusCode != tc.want || !strings.Contains(string(got), tc.contains) {
				t.Fatalf("status %d %s, want %d with %s", resp.StatusCode, got, tc.want, tc.contains)
			}
			v.CheckResponse(t, resp.Request, resp, got)
		})
	}
	// Only the valid PUT was stored.
	if w, src := ro.Weights(context.Background(), "gcs_cards"); src != rollout.SourceAdmin || w[1] != 80 || w[2] != 20 {
		t.Fatalf("weights %v from %s", w, src)
	}
	if w, src := ro.Weights(context.Background(), "cards_single"); src != rollout.SourceDefault || len(w) != 1 {
		t.Fatalf("single-version tool: %v from %s", w, src)
	}
}

// TestDuplicateKeysRefusedEverywhere: the webhook, session and admin
// bodies go through the one strict decoder, which refuses repeated keys
// (a signed webhook included: the signature holds, the body is still
// refused, and no screen is applied).
func TestDuplicateKeysRefusedEverywhere(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	sc := &screenChat{}
	replay, _, _ := replayStore(t)
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool{}); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Deps{Executor: ex, Chat: sc, Replay: replay, Logger: slog.New(slog.DiscardHandler)},
		api.Options{AdminToken: "adm", WebhookSecret: webhookSecret, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)

	webhook := fmt.Sprintf(`{"session_id":%q,"screen":{"name":"BossBattlePresenter","data":{"BossConfigId":5001,"BossConfigId":5002}}}`, testSession)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, ts.URL+"/v1/screens/events", strings.NewReader(webhook))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature", api.Sign(webhookSecret, []byte(webhook), now))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("webhook with a repeated key: status %d", resp.StatusCode)
	}
	sc.mu.Lock()
	applied := len(sc.evs)
	sc.mu.Unlock()
	if applied != 0 {
		t.Fatal("a webhook with a repeated key was applied")
	}

	for _, tc := range []struct{ name, path, body string }{
		{"admin execute", "/admin/tools/execute", `{"name":"gcs_echo","name":"gcs_other","arguments":{"name":"x"}}`},
		{"session", "/v1/sessions", `{"player_id":"p1","player_id":"p2"}`},
	} {
		resp, body := do(t, http.MethodPost, ts.URL+tc.path, "adm", strings.NewReader(tc.body))
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "duplicate key") {
			t.Fatalf("%s: status %d %s", tc.name, resp.StatusCode, body)
		}
	}
}
