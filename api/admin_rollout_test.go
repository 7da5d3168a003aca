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

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/rollout"
	"github.com/gameassist/gameassist/tool"
)

// versionTool is version v of gcs_cards.
type versionTool struct{ v int }

func (t versionTool) Spec() tool.Spec {
	return tool.Spec{
		Name: "gcs_cards", Description: fmt.Sprintf("cards, version %d", t.v), Category: tool.CategoryGCS, Version: t.v,
		Aliases: []string{"cards_old"}, Parameters: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
	}
}

func (t versionTool) Call(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Success("ok", map[string]int{"version": t.v}), nil
}

// memRollouts keeps weights in a map, validated as rollout.Assigner does.
type memRollouts struct {
	reg *tool.Registry
	w   map[string]rollout.Weights
}

func (m *memRollouts) Set(_ context.Context, name string, w rollout.Weights) (string, error) {
	c, ok := m.reg.Resolve(name)
	if !ok {
		return "", fmt.Errorf("set %s: %w", name, rollout.ErrUnknownTool)
	}
	if err := w.Validate(m.reg.Versions(c)); err != nil {
		return c, fmt.Errorf("rollout: set %s: %w", c, err)
	}
	m.w[c] = w
	return c, nil
}

func (m *memRollouts) Weights(_ context.Context, name string) (rollout.Weights, rollout.Source) {
	if w, ok := m.w[name]; ok {
		return w, rollout.SourceAdmin
	}
	return rollout.Weights{2: 100}, rollout.SourceDefault
}

func TestRolloutRoute(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(versionTool{1}, versionTool{2}, echoTool{}); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ro := &memRollouts{reg: reg, w: map[string]rollout.Weights{}}
	srv, err := api.New(api.Deps{Executor: ex, Rollouts: ro, Logger: slog.New(slog.DiscardHandler)}, api.Options{AdminToken: "adm"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)

	tests := []struct {
		name     string
		tool     string
		body     string
		want     int
		contains string
	}{
		{name: "set by alias", tool: "cards_old", body: `{"weights":{"1":80,"2":20}}`, want: 200, contains: `{"source":"admin","tool":"gcs_cards","weights":{"1":80,"2":20}}`},
		{name: "unknown tool", tool: "nope", body: `{"weights":{"1":100}}`, want: 404, contains: `"unknown_tool"`},
		{name: "unknown version", tool: "gcs_cards", body: `{"weights":{"3":100}}`, want: 422, contains: `version 3 is not one of the tool's versions [1 2]`},
		{name: "unversioned tool has version 0 only", tool: "gcs_echo", body: `{"weights":{"1":100}}`, want: 422, contains: `version 1 is not one of the tool's versions [0]`},
		{name: "negative", tool: "gcs_cards", body: `{"weights":{"1":-5,"2":105}}`, want: 422, contains: `weight of version 1 is -5`},
		{name: "float", tool: "gcs_cards", body: `{"weights":{"1":2.5,"2":97.5}}`, want: 422, contains: `must be a whole number`},
		{name: "text weight", tool: "gcs_cards", body: `{"weights":{"1":"80","2":20}}`, want: 422, contains: `must be a whole number`},
		{name: "zero sum", tool: "gcs_cards", body: `{"weights":{"1":0}}`, want: 422, contains: `sum to 0, not 100`},
		{name: "relative weights under 100", tool: "gcs_cards", body: `{"weights":{"1":4,"2":1}}`, want: 422, contains: `sum to 5, not 100`},
		{name: "over 100", tool: "gcs_cards", body: `{"weights":{"1":80,"2":30}}`, want: 422, contains: `sum to 110, not 100`},
		{name: "one weight over 100", tool: "gcs_cards", body: `{"weights":{"1":200,"2":-100}}`, want: 422, contains: `not from 0 to 100`},
		{name: "weights not an object", tool: "gcs_cards", body: `{"weights":[1,2]}`, want: 422, contains: `weights must be an object`},
		{name: "missing weights", tool: "gcs_cards", body: `{}`, want: 400, contains: `weights is required`},
		{name: "null weights", tool: "gcs_cards", body: `{"weights":null}`, want: 400, contains: `weights is required`},
		{name: "not JSON", tool: "gcs_cards", body: `{"weights":`, want: 400, contains: `"error"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := do(t, http.MethodPut, ts.URL+"/admin/tools/"+tc.tool+"/rollout", "adm", strings.NewReader(tc.body))
			if resp.StatusCode != tc.want || !strings.Contains(string(body), tc.contains) {
				t.Fatalf("status %d %s, want %d with %s", resp.StatusCode, body, tc.want, tc.contains)
			}
		})
	}
	if w := ro.w["gcs_cards"]; w[1] != 80 || w[2] != 20 || len(ro.w) != 1 {
		t.Fatalf("refused requests changed the weights: %v", ro.w)
	}
	if resp, _ := do(t, http.MethodPut, ts.URL+"/admin/tools/gcs_cards/rollout", "", strings.NewReader(`{"weights":{"1":100}}`)); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: %d", resp.StatusCode)
	}

	resp, body := do(t, http.MethodGet, ts.URL+"/admin/tools", "adm", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("list: %d", resp.StatusCode)
	}
	var list struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &list); err != nil || len(list.Tools) != 2 {
		t.Fatalf("list %s", body)
	}
	for _, want := range []string{`"version":2`, `"versions":[{"version":1,"description":"cards, version 1"`, `"rollout":{"weights":{"1":80,"2":20},"source":"admin"}`} {
		if !strings.Contains(string(list.Tools[0]), want) {
			t.Fatalf("gcs_cards listed as %s, lacks %s", list.Tools[0], want)
		}
	}
	if strings.Contains(string(list.Tools[1]), `"versions"`) || strings.Contains(string(list.Tools[1]), `"rollout"`) {
		t.Fatalf("unversioned tool listed with versions: %s", list.Tools[1])
	}

	// Without a rollout service the route answers 503.
	bare, err := api.New(api.Deps{Executor: ex, Logger: slog.New(slog.DiscardHandler)}, api.Options{AdminToken: "adm"})
	if err != nil {
		t.Fatal(err)
	}
	ts2 := httptest.NewServer(bare.Handler())
	t.Cleanup(ts2.Close)
	if resp, _ := do(t, http.MethodPut, ts2.URL+"/admin/tools/gcs_cards/rollout", "adm", strings.NewReader(`{"weights":{"1":100}}`)); resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("no rollouts: %d", resp.StatusCode)
	}
}
