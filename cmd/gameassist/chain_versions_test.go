package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/rollout"
)

// versionedChainFile defines two versions of the chain probe_brief over
// two cached file tools: version 1 runs one step, version 2 two. The file
// starts every session on version 1.
const versionedChainFile = `tools:
  - name: probe_echo
    description: Echoes a name.
    cache_duration: 5
    parameters: {type: object, properties: {name: {type: string, minLength: 1}}, required: [name], additionalProperties: false}
    statement: SELECT :name AS name
    result: row
  - name: probe_shout
    description: Echoes a name, loud.
    cache_duration: 5
    parameters: {type: object, properties: {name: {type: string, minLength: 1}}, required: [name], additionalProperties: false}
    statement: SELECT upper(:name) AS shout
    result: row
chains:
  - name: probe_brief
    description: "Probe brief, first version: the name."
    aliases: [probe_brief_old]
    version: 1
    parameters: {type: object, properties: {name: {type: string, minLength: 1}}, required: [name], additionalProperties: false}
    steps:
      - {id: echo, tool: probe_echo, arguments: {name: $params.name}}
  - name: probe_brief
    description: "Probe brief, second version: the name, and loud."
    aliases: [probe_brief_old]
    version: 2
    parameters: {type: object, properties: {name: {type: string, minLength: 1}}, required: [name], additionalProperties: false}
    steps:
      - {id: echo, tool: probe_echo, arguments: {name: $params.name}}
      - {id: shout, tool: probe_shout, arguments: {name: $params.name}}
rollouts:
  probe_brief: {"1": 100, "2": 0}
`

// chainLLM calls probe_brief under its old alias once per turn, then
// answers with text; it records the chain's description each request
// offered and the chain results it read.
type chainLLM struct {
	mu      sync.Mutex
	offered string
	results []string
}

func (p *chainLLM) respond(req openai.ChatCompletionRequest) llmtest.Reply {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range req.Tools {
		if t.Function != nil && t.Function.Name == "probe_brief" {
			p.offered = t.Function.Description
		}
	}
	if last := req.Messages[len(req.Messages)-1]; last.Role == openai.ChatMessageRoleTool {
		p.results = append(p.results, last.Content)
		return llmtest.Text("Done.")
	}
	return llmtest.ToolCalls(llmtest.Call{ID: "call_brief", Name: "probe_brief_old", Arguments: `{"name":"Kaelith"}`})
}

func (p *chainLLM) last() (offered, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.results) > 0 {
		result = p.results[len(p.results)-1]
	}
	return p.offered, result
}

// TestChainVersionsInChat rolls out a chain's versions through chat turns
// (on a single Redis and a cluster): the file's 100/0 runs version 1 and
// caches it; an admin's 0/100 moves the session to version 2, whose
// result is not version 1's cached one; clearing the admin's weights
// brings back the file's, so the session returns to version 1 and its
// cached result; the cache view holds one entry per version.
func TestChainVersionsInChat(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, rs redistest.Backend) {
		toolsFile := filepath.Join(t.TempDir(), "tools.yaml")
		if err := os.WriteFile(toolsFile, []byte(versionedChainFile), 0o600); err != nil {
			t.Fatal(err)
		}
		fake := llmtest.New(t)
		llm := &chainLLM{}
		fake.SetResponder(llm.respond)
		f := newFixture(t, appSetup{redis: rs, llm: fake, env: map[string]string{"TOOLS_FILE": toolsFile, "TOOL_SELECTION": "all"}})

		rolloutCall := func(method string, weights map[string]int) (rollout.Weights, string) {
			t.Helper()
			return f.rollout(t, method, "probe_brief_old", "probe_brief", weights)
		}
		// The backend is shared with other tests: start from the file's
		// weights (a DELETE of weights not set answers them too).
		if w, src := rolloutCall(http.MethodDelete, nil); src != "file" || w[1] != 100 || w[2] != 0 {
			t.Fatalf("DELETE answered %v from %s", w, src)
		}

		s := f.newSession(t)
		turn := func(wantVersion int, wantSource string) {
			t.Helper()
			resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: chatBody(s, "brief me")})
			expect(t, resp, body, http.StatusOK)
			r := decode[struct {
				ToolCalls []versionedOutcome `json:"tool_calls"`
			}](t, body)
			var brief *versionedOutcome
			for i := range r.ToolCalls {
				if r.ToolCalls[i].Name == "probe_brief" {
					brief = &r.ToolCalls[i]
				}
			}
			if brief == nil || brief.Status != "success" || brief.Version != wantVersion || brief.Source != wantSource {
				t.Fatalf("tool calls %s, want probe_brief v%d from %s", body, wantVersion, wantSource)
			}
			offered, result := llm.last()
			wantDesc := map[int]string{1: "first version", 2: "second version"}[wantVersion]
			if !strings.Contains(offered, wantDesc) {
				t.Fatalf("the LLM was offered %q, want the v%d description", offered, wantVersion)
			}
			// Version 2's result has the shout step; version 1's does not.
			if got := strings.Contains(result, `"shout"`); got != (wantVersion == 2) || !strings.Contains(result, `"echo"`) {
				t.Fatalf("v%d result read by the LLM: %.300s", wantVersion, result)
			}
		}

		turn(1, "executed")
		turn(1, "cache")

		if w, src := rolloutCall(http.MethodPut, map[string]int{"1": 0, "2": 100}); src != "admin" || w[2] != 100 {
			t.Fatalf("PUT answered %v from %s", w, src)
		}
		turn(2, "executed")
		turn(2, "cache")

		// Cleared: the file's 100/0 again; version 2 is at 0, so the
		// session moves back to version 1, whose result is still cached.
		if w, src := rolloutCall(http.MethodDelete, nil); src != "file" || w[1] != 100 || w[2] != 0 {
			t.Fatalf("DELETE answered %v from %s", w, src)
		}
		turn(1, "cache")
		if w, src := rolloutCall(http.MethodDelete, nil); src != "file" || w[1] != 100 {
			t.Fatalf("a second DELETE answered %v from %s", w, src)
		}

		// The admin tool list shows each version's own steps and the
		// weights in force.
		resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/tools", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		type step struct {
			ID   string `json:"id"`
			Tool string `json:"tool"`
		}
		type listed struct {
			Name     string `json:"name"`
			Steps    []step `json:"steps"`
			Versions []struct {
				Version int    `json:"version"`
				Steps   []step `json:"steps"`
			} `json:"versions"`
			Rollout *struct {
				Source string `json:"source"`
			} `json:"rollout"`
		}
		list := decode[struct {
			Tools []listed `json:"tools"`
		}](t, body)
		i := slices.IndexFunc(list.Tools, func(x listed) bool { return x.Name == "probe_brief" })
		if i < 0 {
			t.Fatalf("probe_brief not listed: %s", body)
		}
		got := list.Tools[i]
		if len(got.Versions) != 2 || fmt.Sprint(got.Versions[0].Steps) != "[{echo probe_echo}]" ||
			fmt.Sprint(got.Versions[1].Steps) != "[{echo probe_echo} {shout probe_shout}]" ||
			fmt.Sprint(got.Steps) != fmt.Sprint(got.Versions[1].Steps) || got.Rollout == nil || got.Rollout.Source != "file" {
			t.Fatalf("probe_brief listed as %+v", got)
		}

		// One cached result per version of the chain.
		resp, body = f.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + s.ID + "/cache", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		cv := decode[struct {
			Entries []struct {
				Tool    string `json:"tool"`
				Version int    `json:"version"`
			} `json:"entries"`
		}](t, body)
		versions := map[int]int{}
		for _, e := range cv.Entries {
			if e.Tool == "probe_brief" {
				versions[e.Version]++
			}
		}
		if versions[1] != 1 || versions[2] != 1 || len(versions) != 2 {
			t.Fatalf("cached probe_brief versions %v: %s", versions, body)
		}
	})
}

// rollout sends method (PUT with weights, or DELETE) to the rollout route
// of name and returns the weights in force and their source; the answer
// must name the tool canonical.
func (f *fixture) rollout(t *testing.T, method, name, canonical string, weights map[string]int) (rollout.Weights, string) {
	t.Helper()
	r := request{method: method, path: "/admin/tools/" + name + "/rollout", token: testAdminToken}
	if weights != nil {
		r.json = map[string]any{"weights": weights}
	}
	resp, body := f.do(t, r)
	expect(t, resp, body, http.StatusOK)
	got := decode[struct {
		Tool    string          `json:"tool"`
		Weights rollout.Weights `json:"weights"`
		Source  string          `json:"source"`
	}](t, body)
	if got.Tool != canonical {
		t.Fatalf("%s answered %s", method, body)
	}
	return got.Weights, got.Source
}
