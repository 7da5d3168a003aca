package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/screens"
)

const testMCPToken = "mcp-token-for-tests"

// mcpInitialize is a client's first message, as any MCP client sends it.
var mcpInitialize = []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)

// mcpRequest is a POST /mcp with the headers streamable HTTP requires.
func mcpRequest(token string) request {
	return request{
		method: http.MethodPost, path: "/mcp", token: token, body: mcpInitialize,
		header: map[string]string{"Accept": "application/json, text/event-stream"},
	}
}

func TestMCPAuth(t *testing.T) {
	closed := newFixture(t, appSetup{})
	open := newFixture(t, appSetup{env: map[string]string{"MCP_TOKEN": testMCPToken}})
	tests := []struct {
		name     string
		f        *fixture
		req      request
		status   int
		code     string
		wwwAuth  bool
		jsonrpcs bool
	}{
		{name: "unset token closes the endpoint", f: closed, req: mcpRequest(testMCPToken), status: http.StatusForbidden, code: "mcp_disabled"},
		{name: "no token", f: open, req: mcpRequest(""), status: http.StatusUnauthorized, code: "unauthorized", wwwAuth: true},
		{name: "wrong token", f: open, req: mcpRequest(testMCPToken + "x"), status: http.StatusUnauthorized, code: "unauthorized", wwwAuth: true},
		{name: "admin token is not the MCP token", f: open, req: mcpRequest(testAdminToken), status: http.StatusUnauthorized, code: "unauthorized", wwwAuth: true},
		{name: "prefix of the token", f: open, req: mcpRequest(testMCPToken[:5]), status: http.StatusUnauthorized, code: "unauthorized", wwwAuth: true},
		{name: "right token", f: open, req: mcpRequest(testMCPToken), status: http.StatusOK, jsonrpcs: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := tt.f.do(t, tt.req)
			if tt.jsonrpcs {
				expect(t, resp, body, tt.status)
				var out struct {
					Result struct {
						ServerInfo struct{ Name string } `json:"serverInfo"`
					} `json:"result"`
				}
				if err := json.Unmarshal(body, &out); err != nil || out.Result.ServerInfo.Name != "gameassist" {
					t.Fatalf("initialize answer %s", body)
				}
				return
			}
			if code := expectError(t, resp, body, tt.status); code != tt.code {
				t.Errorf("code %s, want %s", code, tt.code)
			}
			if got := resp.Header.Get("WWW-Authenticate"); tt.wwwAuth != strings.HasPrefix(got, "Bearer") {
				t.Errorf("WWW-Authenticate = %q", got)
			}
		})
	}
	t.Run("GET is refused in stateless mode", func(t *testing.T) {
		resp, body := open.do(t, request{method: http.MethodGet, path: "/mcp", token: testMCPToken})
		expect(t, resp, body, http.StatusMethodNotAllowed)
	})
}

// TestMCPRateLimit: /mcp is limited per client IP, wrong tokens included,
// with Retry-After.
func TestMCPRateLimit(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	rs := redistest.Start(t)
	f := newFixture(t, appSetup{redis: rs, env: map[string]string{"MCP_TOKEN": testMCPToken, "MCP_RATE_PER_MINUTE": "2"}})
	resp, body := f.do(t, mcpRequest("guess"))
	expect(t, resp, body, http.StatusUnauthorized)
	resp, body = f.do(t, mcpRequest(testMCPToken))
	expect(t, resp, body, http.StatusOK)
	resp, body = f.do(t, mcpRequest(testMCPToken))
	if code := expectError(t, resp, body, http.StatusTooManyRequests); code != "rate_limited" {
		t.Fatalf("code %s", code)
	}
	if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || secs < 1 || secs > 60 {
		t.Fatalf("Retry-After %q", resp.Header.Get("Retry-After"))
	}
}

// bearerTransport adds the MCP token to every request of an SDK client.
type bearerTransport struct {
	token string
	base  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func mcpConnect(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gameassist-e2e", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("mcp connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func mcpCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
	t.Cleanup(cancel)
	return ctx
}

// TestMCPOverHTTP: a support client reads the session a player just used
// and calls a tool through /mcp; the call shows in the metrics as source mcp.
func TestMCPOverHTTP(t *testing.T) {
	f := newFixture(t, appSetup{env: map[string]string{"MCP_TOKEN": testMCPToken}})
	s := f.newSession(t)
	turn := chatBody(s, "who counters the Fire Knight?")
	turn["screen"] = map[string]any{"name": "BossBattlePresenter", "data": map[string]any{"BossConfigId": 5001, "Phase": 1}}
	resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: turn})
	expect(t, resp, body, http.StatusOK)
	reply := decode[chatReply](t, body)

	cs := mcpConnect(t, &mcp.StreamableClientTransport{
		Endpoint: f.ts.URL + "/mcp", MaxRetries: -1, DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Timeout: clientTimeout, Transport: bearerTransport{token: testMCPToken, base: http.DefaultTransport}},
	})

	read := func(view string) string {
		t.Helper()
		res, err := cs.ReadResource(mcpCtx(t), &mcp.ReadResourceParams{URI: "gameassist://sessions/" + s.ID + "/" + view})
		if err != nil {
			t.Fatalf("read %s: %v", view, err)
		}
		return res.Contents[0].Text
	}
	if hist := read("history"); !strings.Contains(hist, "who counters the Fire Knight?") || !strings.Contains(hist, jsonText(t, reply.Reply)) {
		t.Errorf("history resource lacks the turn: %s", hist)
	}
	if sc := read("screen"); !strings.Contains(sc, `"name":"BossBattlePresenter"`) || !strings.Contains(sc, `"BossConfigId":5001`) {
		t.Errorf("screen resource: %s", sc)
	}
	if cache := read("cache"); !strings.Contains(cache, "gcs_get_boss_details") || strings.Contains(cache, "internal_info") {
		t.Errorf("cache resource: %s", cache)
	}

	res, err := cs.CallTool(mcpCtx(t), &mcp.CallToolParams{Name: "gcs_get_champion_details", Arguments: map[string]any{"champion_name": "Kaelith"}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	resp, body = f.do(t, request{method: http.MethodGet, path: "/metrics"})
	expect(t, resp, body, http.StatusOK)
	if !bytes.Contains(body, []byte(`gameassist_tool_calls_total{category="gcs",source="mcp",status="success",tool="gcs_get_champion_details",version="0"} 1`)) {
		t.Errorf("metrics lack the MCP call")
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(t *testing.T, s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Trim(string(b), `"`)
}

// TestMCPStdio runs `gameassist mcp` as a desktop client would, over its
// stdin and stdout, and ends it by closing stdin.
func TestMCPStdio(t *testing.T) {
	env := testEnv(t, appSetup{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		err := run(ctx, []string{"mcp"}, envOf(env), inR, outW, &stderr)
		_ = outW.Close()
		done <- err
	}()
	cs := mcpConnect(t, &mcp.IOTransport{Reader: outR, Writer: inW})

	tools, err := cs.ListTools(mcpCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = true
	}
	if !names["gcs_get_champion_details"] || !names["cache_get_bosses_list"] || !names["db_get_ux_details"] || names["gcs_db_query"] {
		t.Errorf("tools = %v, want every family and no SQL tool without SQL_TOOLS_FOR_LLM", names)
	}
	res, err := cs.CallTool(mcpCtx(t), &mcp.CallToolParams{Name: "gcs_find_counters_for_boss", Arguments: map[string]any{"boss_name": "Fire Knight"}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	rules, err := cs.ReadResource(mcpCtx(t), &mcp.ReadResourceParams{URI: "gameassist://screens/rules"})
	if err != nil || rules.Contents[0].Text != string(screens.DefaultRules()) {
		t.Errorf("rules resource: %v", err)
	}

	_ = cs.Close()
	_ = inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("gameassist mcp: %v; stderr %s", err, stderr.String())
		}
	case <-time.After(clientTimeout):
		t.Fatal("gameassist mcp did not end when stdin closed")
	}
}
