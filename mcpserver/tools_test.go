package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gameassist/gameassist/mcpserver"
	"github.com/gameassist/gameassist/tool"
)

func TestInitializeAndListTools(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			h := newHarness(t, setup{})
			cs := tr.connect(t, h)
			init := cs.InitializeResult()
			if init == nil || init.ServerInfo == nil || init.ServerInfo.Name != "gameassist" || init.Instructions == "" {
				t.Fatalf("initialize result = %+v", init)
			}
			if !slices.Contains(mcp.SupportedProtocolVersions(), init.ProtocolVersion) {
				t.Errorf("protocol version %q is not one the SDK speaks", init.ProtocolVersion)
			}
			if init.Capabilities == nil || init.Capabilities.Tools == nil || init.Capabilities.Resources == nil || init.Capabilities.Prompts == nil {
				t.Errorf("capabilities = %+v, want tools, resources and prompts", init.Capabilities)
			}

			res, err := cs.ListTools(testCtx(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := h.reg.Specs(func(s tool.Spec) bool { return s.Category != tool.CategorySQL })
			if len(res.Tools) != len(want) || len(want) == 0 {
				t.Fatalf("listed %d tools, want the registry's %d non-SQL tools", len(res.Tools), len(want))
			}
			byName := map[string]tool.Spec{}
			for _, sp := range want {
				byName[sp.Name] = sp
			}
			for _, got := range res.Tools {
				spec, ok := byName[got.Name]
				if !ok || got.Description != spec.Description {
					t.Errorf("tool %s is not a registry tool, or its description differs", got.Name)
					continue
				}
				delete(byName, got.Name)
				if got.Annotations == nil || !got.Annotations.ReadOnlyHint {
					t.Errorf("%s: annotations %+v, want readOnlyHint", got.Name, got.Annotations)
				}
				if !sameJSON(t, got.InputSchema, spec.Parameters) {
					t.Errorf("%s: input schema differs from the registry's", got.Name)
				}
				if d, ok := got.Meta[mcpserver.MetaCacheDuration].(float64); !ok || int(d) != spec.CacheDuration {
					t.Errorf("%s: _meta cache duration = %v, want %d", got.Name, got.Meta[mcpserver.MetaCacheDuration], spec.CacheDuration)
				}
				if got.Meta[mcpserver.MetaCategory] != string(spec.Category) {
					t.Errorf("%s: _meta category = %v, want %s", got.Name, got.Meta[mcpserver.MetaCategory], spec.Category)
				}
			}
			if len(byName) > 0 {
				t.Errorf("tools not listed: %v", byName)
			}
		})
	}
}

func TestSQLToolsOnlyWhenOffered(t *testing.T) {
	sqlNames := func(h *harness) []string {
		var out []string
		for _, s := range h.reg.Specs(func(s tool.Spec) bool { return s.Category == tool.CategorySQL }) {
			out = append(out, s.Name)
		}
		return out
	}
	for _, offered := range []bool{false, true} {
		h := newHarness(t, setup{sqlTools: offered})
		sql := sqlNames(h)
		if len(sql) == 0 {
			t.Fatal("the registry has no SQL tools to test with")
		}
		cs := transports[1].connect(t, h)
		res, err := cs.ListTools(testCtx(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range sql {
			listed := slices.ContainsFunc(res.Tools, func(tl *mcp.Tool) bool { return tl.Name == n })
			if listed != offered {
				t.Errorf("SQL_TOOLS_FOR_LLM=%v: %s listed = %v", offered, n, listed)
			}
		}
		_, err = cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: sql[0], Arguments: map[string]any{}})
		if offered != (err == nil) {
			t.Errorf("SQL_TOOLS_FOR_LLM=%v: calling %s: err = %v", offered, sql[0], err)
		}
	}
}

func TestCallToolMatchesTheExecutor(t *testing.T) {
	calls := []tool.Call{
		{Name: "gcs_get_boss_details", Arguments: json.RawMessage(`{"boss_name":"drowned king"}`)},
		{Name: "gcs_get_champion_details", Arguments: json.RawMessage(`{"champion_name":"Kaelith"}`)},
		{Name: "gcs_find_counters_for_boss", Arguments: json.RawMessage(`{"boss_id":5001,"limit":2}`)},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			h := newHarness(t, setup{})
			cs := tr.connect(t, h)
			for _, c := range calls {
				want := h.exec.Execute(context.Background(), c)
				if !want.OK() {
					t.Fatalf("%s: the executor itself failed: %s", c.Name, want.ForLLM())
				}
				spec, _ := h.reg.Spec(c.Name)
				res, err := cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: c.Name, Arguments: c.Arguments})
				if err != nil {
					t.Fatalf("%s: %v", c.Name, err)
				}
				if res.IsError {
					t.Fatalf("%s: tool error %v", c.Name, text(res))
				}
				var sc struct {
					Data             json.RawMessage `json:"data"`
					Message          string          `json:"message"`
					LLMCacheDuration *int            `json:"llm_cache_duration"`
				}
				b, _ := json.Marshal(res.StructuredContent)
				if err := json.Unmarshal(b, &sc); err != nil {
					t.Fatalf("%s: structured content %s: %v", c.Name, b, err)
				}
				if !sameJSON(t, sc.Data, want.Data) {
					t.Errorf("%s: structured data differs from the executor's:\n got %s\nwant %s", c.Name, sc.Data, want.Data)
				}
				if sc.LLMCacheDuration == nil || *sc.LLMCacheDuration != spec.CacheDuration || sc.Message != want.Message {
					t.Errorf("%s: cache duration %v message %q, want %d and %q", c.Name, sc.LLMCacheDuration, sc.Message, spec.CacheDuration, want.Message)
				}
				texts := text(res)
				if len(texts) == 0 || !sameJSON(t, json.RawMessage(texts[0]), json.RawMessage(b)) {
					t.Errorf("%s: first text block is not the structured content: %q", c.Name, texts)
				}
				if want.LLMInstruction != "" && !slices.Contains(texts, want.LLMInstruction) {
					t.Errorf("%s: llm_instruction %q not among the text blocks %q", c.Name, want.LLMInstruction, texts)
				}
				raw, _ := json.Marshal(res)
				if bytes.Contains(raw, []byte("internal_info")) || bytes.Contains(raw, []byte("function_name")) {
					t.Errorf("%s: internal_info left the server: %s", c.Name, raw)
				}
			}
		})
	}
}

func TestCallToolReportsMetricsSourceMCP(t *testing.T) {
	h := newHarness(t, setup{})
	cs := transports[1].connect(t, h)
	if _, err := cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: "gcs_get_boss_details", Arguments: map[string]any{"boss_id": 5001}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: "gcs_get_boss_details", Arguments: map[string]any{"boss_id": "x"}}); err != nil {
		t.Fatal(err)
	}
	outs := h.obs.all()
	if len(outs) != 2 {
		t.Fatalf("observer saw %d calls, want 2", len(outs))
	}
	for i, wantStatus := range []tool.Status{tool.StatusSuccess, tool.StatusError} {
		if o := outs[i]; o.Source != tool.SourceMCP || o.Name != "gcs_get_boss_details" || o.Status != wantStatus {
			t.Errorf("outcome %d = %s/%s/%s, want gcs_get_boss_details/mcp/%s", i, o.Name, o.Source, o.Status, wantStatus)
		}
	}
}

func TestToolErrorsCarryGuidance(t *testing.T) {
	tests := []struct {
		name      string
		tool      string
		args      any
		wantParts []string
	}{
		{
			name: "unknown property", tool: "gcs_get_boss_details", args: map[string]any{"boss_nam": "Drowned King"},
			wantParts: []string{"Invalid arguments for gcs_get_boss_details", "boss_nam", "Guidance:"},
		},
		{
			name: "wrong type", tool: "gcs_get_champion_details", args: map[string]any{"champion_name": 42},
			wantParts: []string{"Invalid arguments", "champion_name", "Guidance:"},
		},
		{
			name: "not an object", tool: "gcs_get_champion_details", args: json.RawMessage(`[1,2]`),
			wantParts: []string{"Invalid arguments", "Guidance:"},
		},
		{
			name: "no such champion", tool: "gcs_get_champion_details", args: map[string]any{"champion_name": "Nobody At All"},
			wantParts: []string{"Guidance:"},
		},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			h := newHarness(t, setup{})
			cs := tr.connect(t, h)
			for _, tc := range tests {
				res, err := cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				msg := strings.Join(text(res), "\n")
				if !res.IsError || res.StructuredContent != nil {
					t.Errorf("%s: isError=%v structured=%v, want a tool error without structured content", tc.name, res.IsError, res.StructuredContent)
				}
				for _, p := range tc.wantParts {
					if !strings.Contains(msg, p) {
						t.Errorf("%s: error text %q lacks %q", tc.name, msg, p)
					}
				}
			}
			// A tool that does not exist is a protocol error, not a tool result.
			_, err := cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: "gcs_drop_everything", Arguments: map[string]any{}})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("unknown tool: err = %v, want invalid params", err)
			}
		})
	}
}

// TestToolsFollowTheRegistry: the HTTP handler lists the registry as it is
// at each request, so tools registered later are served without a restart.
func TestToolsFollowTheRegistry(t *testing.T) {
	h := newHarness(t, setup{})
	cs := transports[1].connect(t, h)
	before, err := cs.ListTools(testCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.reg.Register(echoTool{}); err != nil {
		t.Fatal(err)
	}
	after, err := cs.ListTools(testCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := slices.ContainsFunc(after.Tools, func(tl *mcp.Tool) bool { return tl.Name == "studio_echo" })
	if len(after.Tools) != len(before.Tools)+1 || !listed {
		t.Fatalf("after registering: %d tools (was %d), studio_echo listed: %v", len(after.Tools), len(before.Tools), listed)
	}
	res, err := cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: "studio_echo", Arguments: map[string]any{"say": "hi"}})
	if err != nil || res.IsError {
		t.Fatalf("calling the new tool: %v %v", err, text(res))
	}
	if got := res.StructuredContent.(map[string]any)["data"]; got != "hi" {
		t.Errorf("data = %v, want hi", got)
	}
}

// echoTool stands for a tool a studio adds from its tools file.
type echoTool struct{}

func (echoTool) Spec() tool.Spec {
	return tool.Spec{
		Name: "studio_echo", Description: "Echo.", Category: "custom",
		Parameters: json.RawMessage(`{"type":"object","properties":{"say":{"type":"string"}},"required":["say"],"additionalProperties":false}`),
	}
}

func (echoTool) Call(_ context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct{ Say string }
	if err := tool.DecodeArgs("studio_echo", args, &a); err != nil {
		return tool.Result{}, err
	}
	return tool.Success("echoed", a.Say), nil
}

// text returns the text blocks of a result.
func text(res *mcp.CallToolResult) []string {
	if res == nil {
		return nil
	}
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

// sameJSON reports whether two values encode to equal JSON documents.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	norm := func(v any) any {
		raw, ok := v.(json.RawMessage)
		if !ok {
			var err error
			if raw, err = json.Marshal(v); err != nil {
				t.Fatalf("encode %v: %v", v, err)
			}
		}
		var out any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
		return out
	}
	x, _ := json.Marshal(norm(a))
	y, _ := json.Marshal(norm(b))
	return bytes.Equal(x, y)
}

// schemaTool is a tool with a given parameter schema, as a tools file may
// declare one.
type schemaTool struct {
	name   string
	schema string
}

func (s schemaTool) Spec() tool.Spec {
	return tool.Spec{Name: s.name, Description: "odd schema", Category: "custom", Parameters: json.RawMessage(s.schema)}
}

func (schemaTool) Call(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Success("ok", nil), nil
}

// TestToolsTheSDKRefusesAreSkipped: a schema the SDK will not serve (not an
// object, a bad x-mcp-header) leaves that tool out and the rest served.
func TestToolsTheSDKRefusesAreSkipped(t *testing.T) {
	h := newHarness(t, setup{})
	odd := []tool.Tool{
		schemaTool{name: "studio_array", schema: `{"type":"array","items":{"type":"string"}}`},
		schemaTool{name: "studio_header", schema: `{"type":"object","properties":{"x":{"type":"object","x-mcp-header":"Bad Header"}}}`},
	}
	if err := h.reg.Register(append(odd, echoTool{})...); err != nil {
		t.Fatal(err)
	}
	for _, tr := range transports[:2] {
		cs := tr.connect(t, h)
		res, err := cs.ListTools(testCtx(t), nil)
		if err != nil {
			t.Fatalf("%s: %v", tr.name, err)
		}
		var names []string
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
		}
		if slices.Contains(names, "studio_array") || slices.Contains(names, "studio_header") || !slices.Contains(names, "studio_echo") {
			t.Errorf("%s: tools = %v, want studio_echo and not the two the SDK refuses", tr.name, names)
		}
	}
}
