package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/llm/llmtest"
)

// sampleToolsFile is the sample game's tools file, with the boss_briefing chain.
var sampleToolsFile = filepath.Join("..", "..", "examples", "sample", "tools.yaml")

// chainStep is one entry of a chain result's data.steps.
type chainStep struct {
	ID      string `json:"id"`
	Tool    string `json:"tool"`
	Status  string `json:"status"`
	Source  string `json:"source"`
	Message string `json:"message"`
}

// chainEnvelope is a chain's result as the LLM reads it.
type chainEnvelope struct {
	Status string                     `json:"status"`
	Data   map[string]json.RawMessage `json:"data"`
}

func (c chainEnvelope) steps(t *testing.T) map[string]chainStep {
	t.Helper()
	var list []chainStep
	// The model reads a list of objects as a table: columns, then rows.
	var table struct {
		Columns []string            `json:"columns"`
		Rows    [][]json.RawMessage `json:"rows"`
	}
	raw := c.Data["steps"]
	if json.Unmarshal(raw, &table) == nil && len(table.Columns) > 0 {
		var objs []map[string]json.RawMessage
		for _, row := range table.Rows {
			o := map[string]json.RawMessage{}
			for i, col := range table.Columns {
				if i < len(row) && string(row[i]) != "null" {
					o[col] = row[i]
				}
			}
			objs = append(objs, o)
		}
		raw, _ = json.Marshal(objs)
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatalf("steps: %v: %s", err, c.Data["steps"])
	}
	out := map[string]chainStep{}
	for _, s := range list {
		out[s.ID] = s
	}
	return out
}

// TestBossBriefingChain runs the sample tools file's chain end to end: the
// LLM (the OpenAI-wire fake) calls boss_briefing in a chat turn, the steps
// run through the session cache (a second turn serves the champions from
// it), a screen rule names the chain, /admin/tools lists it, the admin
// executor runs it outside any session, and a reload with a broken chain is
// refused while the running chain stays. Its own Redis: it reads stats.
func TestBossBriefingChain(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(sampleToolsFile)
	if err != nil {
		t.Fatal(err)
	}
	toolsFile := filepath.Join(dir, "tools.yaml")
	if err := os.WriteFile(toolsFile, good, 0o600); err != nil {
		t.Fatal(err)
	}
	rulesFile := filepath.Join(dir, "rules.json")
	rules := `{"BossBattlePresenter": {
  "data_tools": [{"tool": "boss_briefing", "json_field": "BossConfigId", "parameter_name": "boss_id"}],
  "prompt_injection": {"template": "The player is fighting {BossConfigId_translated} with the team {Team}.", "required_fields": ["BossConfigId", "Team"]}}}`
	if err := os.WriteFile(rulesFile, []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := llmtest.New(t)
	f := newFixture(t, appSetup{llm: fake, redis: redistest.Start(t), env: map[string]string{
		"TOOLS_FILE": toolsFile, "SCREEN_RULES": rulesFile, "MCP_TOKEN": testMCPToken,
		// Room for the whole chain result in every turn: the test reads it
		// back from the LLM request, which a tight budget would cut.
		"MAX_CONTEXT_TOKENS": "1000000",
	}})

	t.Run("listed as a tool", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/tools", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		type listed struct {
			Name          string          `json:"name"`
			Category      string          `json:"category"`
			CacheDuration int             `json:"cache_duration"`
			Parameters    json.RawMessage `json:"parameters"`
			Steps         []struct {
				ID       string   `json:"id"`
				Tool     string   `json:"tool"`
				Optional bool     `json:"optional"`
				After    []string `json:"after"`
			} `json:"steps"`
		}
		list := decode[struct {
			Tools []listed `json:"tools"`
		}](t, body)
		i := slices.IndexFunc(list.Tools, func(x listed) bool { return x.Name == "boss_briefing" })
		if i < 0 {
			t.Fatalf("boss_briefing not listed: %s", body)
		}
		// gcs_get_boss_details is not cached, so neither is the chain.
		if got := list.Tools[i]; got.Category != "gcs" || got.CacheDuration != 0 || !strings.Contains(string(got.Parameters), "boss_id") {
			t.Fatalf("listed as %+v", got)
		}
		// Its steps, in the file's order, with what each waits for.
		var steps []string
		for _, st := range list.Tools[i].Steps {
			steps = append(steps, fmt.Sprintf("%s:%s:%v:%v", st.ID, st.Tool, st.Optional, st.After))
		}
		want := []string{
			"boss:gcs_get_boss_details:false:[]", "counters:gcs_find_counters_for_boss:false:[boss]",
			"team_1:gcs_get_character_details_by_id:true:[]", "team_2:gcs_get_character_details_by_id:true:[]",
			"team_3:gcs_get_character_details_by_id:true:[]", "team_4:gcs_get_character_details_by_id:true:[]",
		}
		if !slices.Equal(steps, want) {
			t.Errorf("boss_briefing steps = %q, want %q", steps, want)
		}
		// A tool that is not a chain lists no steps.
		if j := slices.IndexFunc(list.Tools, func(x listed) bool { return x.Name == "gcs_get_boss_details" }); j < 0 || list.Tools[j].Steps != nil {
			t.Errorf("gcs_get_boss_details listed with steps")
		}
	})

	s := f.newSession(t)
	screen := map[string]any{"name": "BossBattlePresenter", "data": map[string]any{"BossConfigId": 5001, "Team": []int{1001, 1002}}}
	args := `{"boss_id":5001,"team":[1001,1002]}`
	// The fake LLM calls the chain when it is offered one on a player's
	// message and answers in text once it has the chain's result; any other
	// request (a background summary) gets text. Each turn has its own call id.
	var turnNo atomic.Int64
	callID := func() string { return fmt.Sprintf("call_brief_%d", turnNo.Load()) }
	native := func(req openai.ChatCompletionRequest) bool {
		return slices.ContainsFunc(req.Tools, func(tl openai.Tool) bool { return tl.Function != nil && tl.Function.Name == "boss_briefing" })
	}
	// Offered as a schema, or described in the conversation and called
	// through use_tool (the default).
	offers := func(req openai.ChatCompletionRequest) bool {
		return native(req) || llmtest.Describes(req, "boss_briefing")
	}
	fake.SetResponder(func(req openai.ChatCompletionRequest) llmtest.Reply {
		last := req.Messages[len(req.Messages)-1]
		switch {
		case last.Role == openai.ChatMessageRoleTool && last.ToolCallID == callID():
			return llmtest.Text("The Fire Knight burns; bring your counters.")
		case last.Role == openai.ChatMessageRoleUser && native(req):
			return llmtest.ToolCalls(llmtest.Call{ID: callID(), Name: "boss_briefing", Arguments: args})
		case last.Role == openai.ChatMessageRoleUser && offers(req):
			return llmtest.ToolCalls(llmtest.Call{ID: callID(), Name: llmtest.UseTool, Arguments: `{"name":"boss_briefing","arguments":` + args + `}`})
		}
		return llmtest.Text("ok")
	})
	turn := func(t *testing.T, withScreen bool) (chatReply, chainEnvelope) {
		t.Helper()
		turnNo.Add(1)
		before := fake.RequestCount()
		body := chatBody(s, "brief me on this boss fight")
		if withScreen {
			body["screen"] = screen
		}
		resp, b := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: body})
		expect(t, resp, b, http.StatusOK)
		r := decode[chatReply](t, b)
		var result *openai.ChatCompletionMessage
		called := false
		for _, req := range fake.Requests()[before:] {
			last := req.Messages[len(req.Messages)-1]
			if last.Role == openai.ChatMessageRoleUser && offers(req) {
				called = true
			}
			if last.Role == openai.ChatMessageRoleTool && last.ToolCallID == callID() {
				result = &last
			}
		}
		if !called {
			t.Fatal("boss_briefing not offered to the LLM on the boss screen")
		}
		if result == nil {
			t.Fatal("no LLM request carries the chain's result")
		}
		var env chainEnvelope
		if err := json.Unmarshal([]byte(result.Content), &env); err != nil {
			t.Fatalf("chain result: %v: %.500s", err, result.Content)
		}
		return r, env
	}

	t.Run("a chat turn calls the chain", func(t *testing.T) {
		r, env := turn(t, true)
		var calls []string
		for _, c := range r.ToolCalls {
			calls = append(calls, c.Name+":"+c.Source+":"+c.Status)
		}
		// The screen rule ran it proactively (no team: only boss_id maps),
		// then the LLM called it with the team.
		if !slices.Contains(calls, "boss_briefing:proactive:success") || !slices.Contains(calls, "boss_briefing:executed:success") {
			t.Fatalf("tool calls %v", calls)
		}
		if env.Status != "" { // the model reads a success without a status
			t.Fatalf("chain %s", env.Status)
		}
		steps := env.steps(t)
		for id, want := range map[string]string{"boss": "success", "counters": "success", "team_1": "success", "team_2": "success", "team_3": "skipped", "team_4": "skipped"} {
			if steps[id].Status != want {
				t.Errorf("step %s: %+v, want %s", id, steps[id], want)
			}
		}
		if steps["team_3"].Message != "no value for character_id ($params.team.2)" {
			t.Errorf("team_3 skipped with %q", steps["team_3"].Message)
		}
		if !strings.Contains(string(env.Data["boss"]), "Fire Knight") || !strings.Contains(string(env.Data["team_1"]), "Kaelith") {
			t.Fatalf("data boss %.200s team_1 %.200s", env.Data["boss"], env.Data["team_1"])
		}
		if counters := env.Data["counters"]; len(counters) < 10 {
			t.Fatalf("counters %s", env.Data["counters"])
		}
		// The steps' results are in the session cache by their own
		// durations (champion details: 3 exchanges).
		resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + s.ID + "/cache", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		entries := decode[struct {
			Entries []struct {
				Tool       string          `json:"tool"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"entries"`
		}](t, body).Entries
		cached := 0
		for _, e := range entries {
			if e.Tool == "gcs_get_character_details_by_id" {
				cached++
			}
		}
		if cached != 2 {
			t.Fatalf("%d champion entries in the session cache, want 2: %s", cached, body)
		}
	})

	t.Run("the next turn serves its steps from the cache", func(t *testing.T) {
		_, env := turn(t, false)
		steps := env.steps(t)
		// (boss and counters may be cached too: the screen rule ran them
		// proactively, which caches for at least one exchange.)
		if steps["team_1"].Source != "cache" || steps["team_2"].Source != "cache" {
			t.Fatalf("step sources %+v", steps)
		}
		f.afterFlush(t, "chain stats", func() (bool, string) {
			resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/stats", token: testAdminToken})
			expect(t, resp, body, http.StatusOK)
			stats := decode[struct {
				Tools []struct {
					Name      string `json:"name"`
					Calls     int    `json:"calls"`
					CacheHits int    `json:"cache_hits"`
				} `json:"tools"`
			}](t, body)
			hits, calls := map[string]int{}, map[string]int{}
			for _, x := range stats.Tools {
				hits[x.Name], calls[x.Name] = x.CacheHits, x.Calls
			}
			// The two champions of the second turn came from the cache; the
			// chain ran three times (the screen rule's, then the LLM's twice).
			ok := hits["gcs_get_character_details_by_id"] == 2 && calls["gcs_get_character_details_by_id"] == 4 && calls["boss_briefing"] == 3
			return ok, string(body)
		})
	})

	t.Run("the admin executor runs it outside a session", func(t *testing.T) {
		resp, body := f.do(t, request{
			method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken,
			json: map[string]any{"tool_calls": []map[string]any{{"name": "boss_briefing", "arguments": json.RawMessage(`{"boss_id":999999}`)}}},
		})
		expect(t, resp, body, http.StatusOK)
		out := decode[struct {
			Results []struct {
				Status   string `json:"status"`
				Message  string `json:"message"`
				Guidance string `json:"guidance"`
			} `json:"results"`
		}](t, body)
		// No such boss: the required boss step fails the chain with its guidance.
		if len(out.Results) != 1 || out.Results[0].Status != "error" || !strings.Contains(out.Results[0].Message, "step boss") || out.Results[0].Guidance == "" {
			t.Fatalf("results %s", body)
		}
	})

	t.Run("MCP lists and calls it; Prometheus counts it", func(t *testing.T) {
		cs := mcpConnect(t, &mcp.StreamableClientTransport{
			Endpoint: f.ts.URL + "/mcp", MaxRetries: -1, DisableStandaloneSSE: true,
			HTTPClient: &http.Client{Timeout: clientTimeout, Transport: bearerTransport{token: testMCPToken, base: http.DefaultTransport}},
		})
		list, err := cs.ListTools(mcpCtx(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(list.Tools, func(x *mcp.Tool) bool { return x.Name == "boss_briefing" }) {
			t.Fatal("MCP does not list boss_briefing")
		}
		res, err := cs.CallTool(mcpCtx(t), &mcp.CallToolParams{Name: "boss_briefing", Arguments: map[string]any{"boss_id": 5001, "team": []int{1003}}})
		if err != nil || res.IsError || len(res.Content) == 0 {
			t.Fatalf("call: %v %+v", err, res)
		}
		text, _ := res.Content[0].(*mcp.TextContent)
		if text == nil || !strings.Contains(text.Text, "Fire Knight") || !strings.Contains(text.Text, `"id":"team_1"`) {
			t.Fatalf("MCP result %+v", res.Content[0])
		}
		resp, body := f.do(t, request{method: http.MethodGet, path: "/metrics"})
		expect(t, resp, body, http.StatusOK)
		for _, want := range []string{
			`gameassist_tool_calls_total{category="gcs",source="mcp",status="success",tool="boss_briefing",version="0"} 1`,
			`gameassist_tool_calls_total{category="gcs",source="executed",status="success",tool="boss_briefing",version="0"} 2`,
		} {
			if !strings.Contains(string(body), want) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})

	t.Run("a broken chain is refused on reload and the old one stays", func(t *testing.T) {
		// boss now reads counters, which reads boss.
		broken := strings.Replace(string(good), "arguments: {boss_id: $params.boss_id}", "arguments: {boss_id: $counters.data.0.id}", 1)
		broken = strings.Replace(broken, "limit: 5", "limit: $params.boss_id", 1)
		if err := os.WriteFile(toolsFile, []byte(broken), 0o600); err != nil {
			t.Fatal(err)
		}
		resp, body := f.do(t, request{method: http.MethodPost, path: "/admin/tools/reload", token: testAdminToken})
		expect(t, resp, body, http.StatusUnprocessableEntity)
		if !strings.Contains(string(body), "chain boss_briefing") || !strings.Contains(string(body), "cycle") || !strings.Contains(string(body), "tools.yaml:") {
			t.Fatalf("422 does not name the chain and the cycle: %s", body)
		}
		resp, body = f.do(t, request{
			method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken,
			json: map[string]any{"tool_calls": []map[string]any{{"name": "boss_briefing", "arguments": json.RawMessage(`{"boss_id":5001}`)}}},
		})
		expect(t, resp, body, http.StatusOK)
		if !strings.Contains(string(body), `"status":"success"`) {
			t.Fatalf("old chain lost after a refused reload: %.300s", body)
		}
	})
}

// TestDocsChainLoads: the chain docs/own-game.md shows in "Chains" is a
// valid tools file for the sample game.
func TestDocsChainLoads(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "own-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n### Chains\n")
	if !ok {
		t.Fatal("docs/own-game.md has no Chains section")
	}
	_, rest, ok = strings.Cut(rest, "```yaml\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("the Chains section of docs/own-game.md has no yaml block")
	}
	file := filepath.Join(t.TempDir(), "tools.yaml")
	if err := os.WriteFile(file, []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, appSetup{env: map[string]string{"TOOLS_FILE": file}})
	resp, body := f.do(t, request{
		method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken,
		json: map[string]any{"tool_calls": []map[string]any{{"name": "boss_briefing", "arguments": json.RawMessage(`{"boss_id":5001,"team":[1001]}`)}}},
	})
	expect(t, resp, body, http.StatusOK)
	if !strings.Contains(string(body), `"status":"success"`) || !strings.Contains(string(body), "Kaelith") {
		t.Fatalf("the docs/own-game.md chain answered %.400s", body)
	}
}

// TestNewAppRefusesBadChain: a chain that does not fit the built-in tools
// it calls stops start-up, naming the file, line, chain and step.
func TestNewAppRefusesBadChain(t *testing.T) {
	t.Parallel() // its own app (and LLM fake); asserts nothing shared
	dir := t.TempDir()
	chain := func(step string) string {
		return "chains:\n  - name: my_chain\n    description: d\n    parameters: {type: object, properties: {boss: {type: integer}}}\n    steps:\n" +
			"      - {id: boss, tool: gcs_get_boss_details, arguments: {boss_id: $params.boss}}\n" + step
	}
	tests := []struct {
		name string
		file string
		want []string
	}{
		{
			name: "unknown tool", file: chain("      - {id: more, tool: gcs_get_bos_details, arguments: {boss_id: $boss.data.id}}\n"),
			want: []string{"tools.yaml:7", "chain my_chain: step more", "not a known tool", "gcs_get_boss_details"},
		},
		{
			name: "literal over the built-in's limit", file: chain("      - {id: counters, tool: gcs_find_counters_for_boss, arguments: {boss_id: $boss.data.id, limit: 99}}\n"),
			want: []string{"tools.yaml:7", "chain my_chain: step counters", "arguments do not fit gcs_find_counters_for_boss", "field 'limit'"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "tools.yaml")
			if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
				t.Fatal(err)
			}
			env := testEnv(t, appSetup{env: map[string]string{"TOOLS_FILE": path}})
			cfg, err := config.Load(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			a, err := newApp(context.Background(), cfg, testLogger(t))
			if err == nil {
				a.close()
				t.Fatal("newApp accepted the chain")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error %q does not name %q", err, w)
				}
			}
		})
	}
}
