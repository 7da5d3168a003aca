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
	"testing"
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/internal/handclock"
	"github.com/gameassist/gameassist/internal/openapitest"
	"github.com/gameassist/gameassist/internal/redistest"
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

func (m *memRollouts) Clear(_ context.Context, name string) (string, error) {
	c, ok := m.reg.Resolve(name)
	if !ok {
		return "", fmt.Errorf("clear %s: %w", name, rollout.ErrUnknownTool)
	}
	delete(m.w, c)
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
	if resp, _ := do(t, http.MethodDelete, ts2.URL+"/admin/tools/gcs_cards/rollout", "adm", nil); resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("DELETE without rollouts: %d", resp.StatusCode)
	}
}

// TestClearRolloutRoute: DELETE /admin/tools/:name/rollout on two
// instances sharing a real Redis (a single node, then a cluster) with the
// tools file's weights 80/20. The admin's 0/100 is cleared through one
// instance: it answers the file's weights at once, the other after its
// refresh interval; sessions on version 2 keep it (its weight stays
// above 0); deleting again answers the same. Every answer is checked
// against the OpenAPI document.
func TestClearRolloutRoute(t *testing.T) {
	redistest.EachFresh(t, func(t *testing.T, b redistest.Backend) {
		ctx := context.Background()
		reg := tool.NewRegistry()
		if err := reg.Register(versionTool{1}, versionTool{2}, echoTool{}); err != nil {
			t.Fatal(err)
		}
		ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
		if err != nil {
			t.Fatal(err)
		}
		clock := handclock.New(time.Unix(1_800_000_000, 0))
		prefix := b.Prefix(t)
		v := openapitest.Load(t)
		type instance struct {
			ro  *rollout.Assigner
			url string
		}
		start := func(file map[string]rollout.Weights) instance {
			ro, err := rollout.New(b.UniversalClient(t), reg, rollout.Options{Prefix: prefix, Now: clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			ro.SetFileWeights(file)
			srv, err := api.New(api.Deps{Executor: ex, Rollouts: ro, Logger: slog.New(slog.DiscardHandler)}, api.Options{AdminToken: "adm"})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)
			return instance{ro: ro, url: ts.URL}
		}
		file := map[string]rollout.Weights{"gcs_cards": {1: 80, 2: 20}}
		one, two := start(file), start(file)

		// call sends one admin request, checks the exchange against the
		// OpenAPI document and decodes a 200 answer.
		type answer struct {
			Tool    string          `json:"tool"`
			Weights rollout.Weights `json:"weights"`
			Source  rollout.Source  `json:"source"`
		}
		call := func(method, url, token, body string, want int) answer {
			t.Helper()
			var rd io.Reader
			if body != "" {
				rd = strings.NewReader(body)
			}
			resp, got := do(t, method, url, token, rd)
			req := httptest.NewRequest(method, url, nil)
			if body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			v.Check(t, req, []byte(body), resp, got)
			if resp.StatusCode != want {
				t.Fatalf("%s %s: %d %s, want %d", method, url, resp.StatusCode, got, want)
			}
			var a answer
			if want == http.StatusOK {
				if err := json.Unmarshal(got, &a); err != nil {
					t.Fatalf("%s %s answered %s", method, url, got)
				}
			}
			return a
		}
		path := func(in instance, name string) string { return in.url + "/admin/tools/" + name + "/rollout" }

		if a := call(http.MethodPut, path(one, "gcs_cards"), "adm", `{"weights":{"1":0,"2":100}}`, http.StatusOK); a.Source != rollout.SourceAdmin {
			t.Fatalf("PUT answered %+v", a)
		}
		// Instance two reads the admin's 0/100; its sessions go to 2.
		clock.Add(rollout.DefaultRefresh)
		ids := make([]string, 200)
		for i := range ids {
			ids[i] = fmt.Sprintf("session-%d", i)
			if got := two.ro.Version(ctx, ids[i], "gcs_cards", []int{1, 2}, 0); got != 2 {
				t.Fatalf("under 0/100 %s runs %d", ids[i], got)
			}
		}

		// Refused: no token, an unknown tool, an unversioned tool.
		call(http.MethodDelete, path(one, "gcs_cards"), "", "", http.StatusUnauthorized)
		call(http.MethodDelete, path(one, "nope"), "adm", "", http.StatusNotFound)
		call(http.MethodDelete, path(one, "gcs_echo"), "adm", "", http.StatusUnprocessableEntity)
		if w, src := one.ro.Weights(ctx, "gcs_cards"); src != rollout.SourceAdmin || w[2] != 100 {
			t.Fatalf("refused deletes changed the weights: %v from %s", w, src)
		}

		// Cleared through the alias on instance one: the file's 80/20 there
		// at once.
		a := call(http.MethodDelete, path(one, "cards_old"), "adm", "", http.StatusOK)
		if a.Tool != "gcs_cards" || a.Source != rollout.SourceFile || a.Weights[1] != 80 || a.Weights[2] != 20 || len(a.Weights) != 2 {
			t.Fatalf("DELETE answered %+v", a)
		}
		// Instance two still has the admin's weights until its refresh.
		if w, src := two.ro.Weights(ctx, "gcs_cards"); src != rollout.SourceAdmin || w[2] != 100 {
			t.Fatalf("before its refresh instance two has %v from %s", w, src)
		}
		clock.Add(rollout.DefaultRefresh)
		if w, src := two.ro.Weights(ctx, "gcs_cards"); src != rollout.SourceFile || w[1] != 80 || w[2] != 20 {
			t.Fatalf("after its refresh instance two has %v from %s", w, src)
		}
		// Version 2 is still above 0: the sessions on it keep it, while
		// new sessions follow 80/20.
		onTwo := 0
		for i, id := range ids {
			if got := two.ro.Version(ctx, id, "gcs_cards", []int{1, 2}, 2); got != 2 {
				t.Fatalf("after the clear %s moved from 2 to %d", id, got)
			}
			if two.ro.Version(ctx, fmt.Sprintf("new-%d", i), "gcs_cards", []int{1, 2}, 0) == 2 {
				onTwo++
			}
		}
		if onTwo == 0 || onTwo == len(ids) {
			t.Fatalf("new sessions on version 2: %d of %d under 80/20", onTwo, len(ids))
		}

		// Idempotent: a second DELETE, on either instance, answers the same.
		for _, in := range []instance{one, two} {
			again := call(http.MethodDelete, path(in, "gcs_cards"), "adm", "", http.StatusOK)
			if again.Source != rollout.SourceFile || again.Weights[1] != 80 || again.Weights[2] != 20 {
				t.Fatalf("a second DELETE answered %+v", again)
			}
		}

		// Without file weights a clear gives the default: the highest
		// version for every session.
		bare := start(nil)
		call(http.MethodPut, path(bare, "gcs_cards"), "adm", `{"weights":{"1":100,"2":0}}`, http.StatusOK)
		a = call(http.MethodDelete, path(bare, "gcs_cards"), "adm", "", http.StatusOK)
		if a.Source != rollout.SourceDefault || a.Weights[2] != 100 || len(a.Weights) != 1 {
			t.Fatalf("DELETE without file weights answered %+v", a)
		}
	})
}
