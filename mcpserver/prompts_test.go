package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
)

func promptText(t *testing.T, res *mcp.GetPromptResult) string {
	t.Helper()
	if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
		t.Fatalf("messages = %+v, want one user message", res.Messages)
	}
	tc, ok := res.Messages[0].Content.(*mcp.TextContent)
	if !ok {
		t.Fatalf("content = %T, want text", res.Messages[0].Content)
	}
	return tc.Text
}

func TestPrompts(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			h := newHarness(t, setup{})
			cs := tr.connect(t, h)
			list, err := cs.ListPrompts(testCtx(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, p := range list.Prompts {
				names = append(names, p.Name)
			}
			slices.Sort(names)
			if want := []string{"compare_champions", "counter_boss", "explain_screen"}; !slices.Equal(names, want) {
				t.Fatalf("prompts = %v, want %v", names, want)
			}

			// explain_screen suggests exactly the calls the screen rules plan.
			data := `{"BossConfigId":5001,"Phase":2}`
			res, err := cs.GetPrompt(testCtx(t), &mcp.GetPromptParams{Name: "explain_screen", Arguments: map[string]string{"screen_name": "BossBattlePresenter", "screen_data": data, "locale": "fr"}})
			if err != nil {
				t.Fatal(err)
			}
			text := promptText(t, res)
			plan, err := h.rules.Plan(context.Background(), screens.Screen{Name: "BossBattlePresenter", Data: json.RawMessage(data)}, "fr")
			if err != nil || !plan.Matched || plan.Injection == "" {
				t.Fatalf("plan = %+v, %v", plan, err)
			}
			for _, c := range plan.Calls {
				if line := c.Name + " " + string(c.Arguments); !strings.Contains(text, line) {
					t.Errorf("explain_screen lacks the planned call %s:\n%s", line, text)
				}
			}
			if !strings.Contains(text, plan.Injection) || !strings.Contains(text, data) {
				t.Errorf("explain_screen lacks the injection or the data:\n%s", text)
			}

			res, err = cs.GetPrompt(testCtx(t), &mcp.GetPromptParams{Name: "counter_boss", Arguments: map[string]string{"boss_name": "Drowned King", "team": "Kaelith, Mirelle"}})
			if err != nil {
				t.Fatal(err)
			}
			text = promptText(t, res)
			for _, want := range []string{`gcs_find_counters_for_boss {"boss_name":"Drowned King","limit":5}`, `gcs_compare_characters {"names":["Kaelith","Mirelle"]}`} {
				if !strings.Contains(text, want) {
					t.Errorf("counter_boss lacks %s:\n%s", want, text)
				}
			}
			if strings.Contains(text, "rag_get_boss_details") {
				t.Errorf("counter_boss suggests a tool the server does not serve:\n%s", text)
			}

			res, err = cs.GetPrompt(testCtx(t), &mcp.GetPromptParams{Name: "compare_champions", Arguments: map[string]string{"champions": "Kaelith,Grimvar , Éloïse"}})
			if err != nil {
				t.Fatal(err)
			}
			if text = promptText(t, res); !strings.Contains(text, `gcs_compare_characters {"names":["Kaelith","Grimvar","Éloïse"]}`) {
				t.Errorf("compare_champions:\n%s", text)
			}
		})
	}
}

func TestPromptArgumentsRefused(t *testing.T) {
	tests := []struct {
		name   string
		prompt string
		args   map[string]string
		want   string
	}{
		{"screen name missing", "explain_screen", map[string]string{}, "screen_name (or session_id) is required"},
		{"screen and session", "explain_screen", map[string]string{"screen_name": "X", "session_id": "0b4f9e0e-2f7a-4c3e-9b1a-5d6c7e8f9a0b"}, "not both"},
		{"unknown session", "explain_screen", map[string]string{"session_id": "0b4f9e0e-2f7a-4c3e-9b1a-5d6c7e8f9a0b"}, "names no session"},
		{"screen data not JSON", "explain_screen", map[string]string{"screen_name": "X", "screen_data": "{nope"}, "screen_data"},
		{"screen data not an object", "explain_screen", map[string]string{"screen_name": "X", "screen_data": "[1]"}, "object"},
		{"control character", "counter_boss", map[string]string{"boss_name": "Fire\u0000Knight"}, "control"},
		{"name too long", "counter_boss", map[string]string{"boss_name": strings.Repeat("x", 101)}, "longer than 100"},
		{"one champion", "compare_champions", map[string]string{"champions": "Kaelith"}, "2 to 5"},
		{"six champions", "compare_champions", map[string]string{"champions": "a,b,c,d,e,f"}, "2 to 5"},
		{"unknown prompt", "write_malware", map[string]string{}, "unknown prompt"},
	}
	h := newHarness(t, setup{})
	cs := transports[0].connect(t, h)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := cs.GetPrompt(testCtx(t), &mcp.GetPromptParams{Name: tc.prompt, Arguments: tc.args})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, tc.want) {
				t.Errorf("err = %v, want invalid params mentioning %q", err, tc.want)
			}
		})
	}
}

// TestExplainSessionScreen: support staff name a session; the prompt
// explains the screen its player is on, in the session's locale.
func TestExplainSessionScreen(t *testing.T) {
	h := newHarness(t, setup{})
	id, _ := seedSession(t, h)
	meta, err := h.store.Session(context.Background(), id)
	if err != nil || meta.Screen == nil {
		t.Fatalf("session %+v: %v", meta, err)
	}
	cs := transports[0].connect(t, h)
	res, err := cs.GetPrompt(testCtx(t), &mcp.GetPromptParams{Name: "explain_screen", Arguments: map[string]string{"session_id": id}})
	if err != nil {
		t.Fatal(err)
	}
	text := promptText(t, res)
	plan, err := h.rules.Plan(context.Background(), screens.Screen{Name: meta.Screen.Name, Data: meta.Screen.Data}, meta.Locale)
	if err != nil || len(plan.Calls) == 0 {
		t.Fatalf("plan %+v: %v", plan, err)
	}
	for _, c := range plan.Calls {
		if line := c.Name + " " + string(c.Arguments); !strings.Contains(text, line) {
			t.Errorf("lacks the planned call %s:\n%s", line, text)
		}
	}
	if !strings.Contains(text, `locale "`+meta.Locale+`"`) || !strings.Contains(text, plan.Injection) {
		t.Errorf("not in the session's locale %s or lacks %q:\n%s", meta.Locale, plan.Injection, text)
	}

	bare := uuid.NewString()
	if err := h.store.CreateSession(context.Background(), memory.Meta{ID: bare, Locale: "en"}); err != nil {
		t.Fatal(err)
	}
	_, err = cs.GetPrompt(testCtx(t), &mcp.GetPromptParams{Name: "explain_screen", Arguments: map[string]string{"session_id": bare}})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || !strings.Contains(je.Message, "not reported a screen") {
		t.Errorf("session without a screen: err = %v", err)
	}
}

// post sends one raw JSON-RPC message to the HTTP handler, as a client the
// SDK did not write would.
func post(t *testing.T, url, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(testCtx(t), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
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

func TestProtocolVersions(t *testing.T) {
	h := newHarness(t, setup{})
	ts := httptest.NewServer(h.srv.Handler())
	t.Cleanup(ts.Close)
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

	t.Run("header naming a version the server does not speak is refused", func(t *testing.T) {
		resp, body := post(t, ts.URL, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"MCP-Protocol-Version": "1999-01-01"})
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "Unsupported protocol version") {
			t.Errorf("status %d body %q, want 400 naming the unsupported version", resp.StatusCode, body)
		}
	})
	t.Run("initialize asking for an unknown version is answered with one the server speaks", func(t *testing.T) {
		resp, body := post(t, ts.URL, strings.Replace(initialize, "%q", `"1999-01-01"`, 1), nil)
		var out struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &out) != nil {
			t.Fatalf("status %d body %q", resp.StatusCode, body)
		}
		if v := out.Result.ProtocolVersion; v == "1999-01-01" || !slices.Contains(mcp.SupportedProtocolVersions(), v) {
			t.Errorf("negotiated %q, want a version the server speaks", v)
		}
	})
	t.Run("a client speaking only an old version negotiates it", func(t *testing.T) {
		cs := connect(t, &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1, DisableStandaloneSSE: true},
			&mcp.ClientSessionOptions{ProtocolVersion: "2024-11-05"})
		if got := cs.InitializeResult().ProtocolVersion; got != "2024-11-05" {
			t.Errorf("negotiated %q, want the client's 2024-11-05", got)
		}
	})
	t.Run("a newer protocol version the server does not speak is refused with the versions it does", func(t *testing.T) {
		body := `{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`
		resp, out := post(t, ts.URL, body, map[string]string{"MCP-Protocol-Version": "2099-01-01", "Mcp-Method": "server/discover"})
		var reply struct {
			Error struct {
				Code int `json:"code"`
				Data struct {
					Supported []string `json:"supported"`
					Requested string   `json:"requested"`
				} `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(out), &reply); err != nil || resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("status %d body %q", resp.StatusCode, out)
		}
		if reply.Error.Code != mcp.CodeUnsupportedProtocolVersion || reply.Error.Data.Requested != "2099-01-01" ||
			!slices.Equal(reply.Error.Data.Supported, mcp.SupportedProtocolVersions()) {
			t.Errorf("error = %+v, want unsupported protocol version listing the supported ones", reply.Error)
		}
	})
	t.Run("stateless: no session id, GET refused", func(t *testing.T) {
		resp, _ := post(t, ts.URL, strings.Replace(initialize, "%q", `"2025-06-18"`, 1), nil)
		if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
			t.Errorf("Mcp-Session-Id = %q, want none (stateless)", sid)
		}
		req, _ := http.NewRequestWithContext(testCtx(t), http.MethodGet, ts.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		get, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		get.Body.Close()
		if get.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("GET: status %d, want 405", get.StatusCode)
		}
	})
}
