package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/rollout"
)

// championV2File ships version 2 of the built-in gcs_get_champion_details
// as SQL over the sample game's schema and rolls every new session onto it.
const championV2File = `tools:
  - name: gcs_get_champion_details
    version: 2
    description: "Champion details, version 2 from SQL: one champion by name, with its faction."
    cache_duration: 3
    parameters:
      type: object
      properties: {champion_name: {type: string, minLength: 1, maxLength: 80}}
      required: [champion_name]
      additionalProperties: false
    statement: >-
      SELECT c.id, c.name, c.rarity, c.affinity, c.role, f.name AS faction, 'sql v2' AS answered_by
      FROM champions c JOIN factions f ON f.id = c.faction_id
      WHERE lower(c.name) = lower(trim(:champion_name))
    result: row
rollouts:
  gcs_get_champion_details: {"1": 0, "2": 100}
`

// withoutChampionV2 is the same file after the studio removed the version:
// one unrelated tool is left.
const withoutChampionV2 = `tools:
  - name: probe_faction_names
    description: Every faction's name.
    statement: SELECT name FROM factions ORDER BY name
`

// championLLM asks for Kaelith's details once per turn, then answers with
// text; it records the champion tool's description each request offered
// and the results it read.
type championLLM struct {
	mu      sync.Mutex
	offered string
	result  string
}

func (p *championLLM) respond(req openai.ChatCompletionRequest) llmtest.Reply {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range req.Tools {
		if t.Function != nil && t.Function.Name == "gcs_get_champion_details" {
			p.offered = t.Function.Description
		}
	}
	if last := req.Messages[len(req.Messages)-1]; last.Role == openai.ChatMessageRoleTool {
		p.result = last.Content
		return llmtest.Text("Done.")
	}
	return llmtest.ToolCalls(llmtest.Call{ID: "call_champ", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Kaelith"}`})
}

func (p *championLLM) last() (offered, result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.offered, p.result
}

// TestFileVersionOfBuiltinInChat runs a tools file's version 2 of a
// built-in tool against the built-in (single Redis and cluster): the
// file's 0/100 runs the SQL version and caches it under name@v2; an
// admin's 100/0 moves a new session to the built-in, now version 1; a
// reload with a file without the version makes the built-in unversioned
// again, and chat still works.
func TestFileVersionOfBuiltinInChat(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	const name = "gcs_get_champion_details"
	redistest.Each(t, backends, func(t *testing.T, rs redistest.Backend) {
		toolsFile := filepath.Join(t.TempDir(), "tools.yaml")
		if err := os.WriteFile(toolsFile, []byte(championV2File), 0o600); err != nil {
			t.Fatal(err)
		}
		fake := llmtest.New(t)
		llm := &championLLM{}
		fake.SetResponder(llm.respond)
		f := newFixture(t, appSetup{redis: rs, llm: fake, env: map[string]string{"TOOLS_FILE": toolsFile, "TOOL_SELECTION": "all"}})

		rolloutCall := func(method string, weights map[string]int) (rollout.Weights, string) {
			t.Helper()
			return f.rollout(t, method, name, name, weights)
		}
		// The backend is shared with other tests: start from the file's
		// weights.
		if w, src := rolloutCall(http.MethodDelete, nil); src != "file" || w[1] != 0 || w[2] != 100 {
			t.Fatalf("DELETE answered %v from %s", w, src)
		}

		turn := func(s session, wantVersion int, wantSource string) {
			t.Helper()
			resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: chatBody(s, "tell me about Kaelith")})
			expect(t, resp, body, http.StatusOK)
			r := decode[struct {
				ToolCalls []versionedOutcome `json:"tool_calls"`
			}](t, body)
			i := slices.IndexFunc(r.ToolCalls, func(o versionedOutcome) bool { return o.Name == name })
			if i < 0 {
				t.Fatalf("no %s call: %s", name, body)
			}
			if o := r.ToolCalls[i]; o.Status != "success" || o.Version != wantVersion || o.Source != wantSource {
				t.Fatalf("call %+v, want v%d from %s", o, wantVersion, wantSource)
			}
			offered, result := llm.last()
			// Version 2 is the file's SQL; version 1 and the unversioned
			// tool are the built-in, with the champion's kit.
			if fromFile := strings.Contains(result, "sql v2"); fromFile != (wantVersion == 2) || !strings.Contains(result, "Kaelith") {
				t.Fatalf("v%d result read by the LLM: %.300s", wantVersion, result)
			}
			if fileDesc := strings.Contains(offered, "version 2 from SQL"); fileDesc != (wantVersion == 2) {
				t.Fatalf("v%d: the LLM was offered %q", wantVersion, offered)
			}
		}
		cacheKeys := func(s session) map[int]string {
			t.Helper()
			resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + s.ID + "/cache", token: testAdminToken})
			expect(t, resp, body, http.StatusOK)
			cv := decode[struct {
				Entries []struct {
					Key        string          `json:"key"`
					Tool       string          `json:"tool"`
					Version    int             `json:"version"`
					Parameters json.RawMessage `json:"parameters"`
				} `json:"entries"`
			}](t, body)
			out := map[int]string{}
			for _, e := range cv.Entries {
				if e.Tool != name {
					continue
				}
				keyed := name
				if e.Version > 0 {
					keyed += "@v" + strconv.Itoa(e.Version)
				}
				want, err := memory.CacheKey(keyed, e.Parameters)
				if err != nil || e.Key != want {
					t.Fatalf("cache entry of v%d keyed %s, want the key of %s (%v)", e.Version, e.Key, keyed, err)
				}
				out[e.Version] = e.Key
			}
			return out
		}

		// The file's 0/100: the SQL version 2 runs, then serves from the
		// cache, keyed under name@v2.
		s := f.newSession(t)
		turn(s, 2, "executed")
		turn(s, 2, "cache")
		if keys := cacheKeys(s); len(keys) != 1 || keys[2] == "" {
			t.Fatalf("cached versions %v, want version 2 only", keys)
		}

		// The admin's 100/0: a new session runs the built-in, as version 1.
		if w, src := rolloutCall(http.MethodPut, map[string]int{"1": 100, "2": 0}); src != "admin" || w[1] != 100 {
			t.Fatalf("PUT answered %v from %s", w, src)
		}
		s1 := f.newSession(t)
		turn(s1, 1, "executed")
		turn(s1, 1, "cache")
		if keys := cacheKeys(s1); len(keys) != 1 || keys[1] == "" {
			t.Fatalf("cached versions %v, want version 1 only", keys)
		}
		// The first session's version is at 0: it moves at once.
		turn(s, 1, "executed")

		// The admin tool list shows the built-in and the file version.
		resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/tools", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		type listed struct {
			Name     string `json:"name"`
			Version  int    `json:"version"`
			Versions []struct {
				Version int `json:"version"`
			} `json:"versions"`
		}
		findListed := func(body []byte) listed {
			t.Helper()
			list := decode[struct {
				Tools []listed `json:"tools"`
			}](t, body)
			i := slices.IndexFunc(list.Tools, func(x listed) bool { return x.Name == name })
			if i < 0 {
				t.Fatalf("%s not listed: %.300s", name, body)
			}
			return list.Tools[i]
		}
		if got := findListed(body); got.Version != 2 || len(got.Versions) != 2 || got.Versions[0].Version != 1 || got.Versions[1].Version != 2 {
			t.Fatalf("%s listed as %+v", name, got)
		}
		// Back to the file's weights before the version goes (the admin
		// route refuses an unversioned tool).
		if w, src := rolloutCall(http.MethodDelete, nil); src != "file" || w[2] != 100 {
			t.Fatalf("DELETE answered %v from %s", w, src)
		}

		// The studio removes the file version: one unversioned built-in.
		if err := os.WriteFile(toolsFile, []byte(withoutChampionV2), 0o600); err != nil {
			t.Fatal(err)
		}
		resp, body = f.do(t, request{method: http.MethodPost, path: "/admin/tools/reload", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		resp, body = f.do(t, request{method: http.MethodGet, path: "/admin/tools", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		if got := findListed(body); got.Version != 0 || len(got.Versions) != 0 {
			t.Fatalf("after the reload %s is listed as %+v", name, got)
		}
		s0 := f.newSession(t)
		turn(s0, 0, "executed")
		turn(s0, 0, "cache")
		turn(s, 0, "executed")
		if keys := cacheKeys(s0); len(keys) != 1 || keys[0] == "" {
			t.Fatalf("cached versions %v, want the unversioned tool only", keys)
		}
		resp, body = f.do(t, request{method: http.MethodPut, path: "/admin/tools/" + name + "/rollout", token: testAdminToken,
			json: map[string]any{"weights": map[string]int{"1": 100}}})
		expectError(t, resp, body, http.StatusUnprocessableEntity)
	})
}

// TestDocsBuiltinVersionLoads: the file version of a built-in tool that
// docs/own-game.md shows is a valid tools file for the sample game, and its
// two versions answer (the built-in as version 1, the SQL as version 2).
func TestDocsBuiltinVersionLoads(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "own-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n### A file version of a built-in tool\n")
	if !ok {
		t.Fatal("docs/own-game.md has no section on a file version of a built-in tool")
	}
	_, rest, ok = strings.Cut(rest, "```yaml\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("the docs/own-game.md section has no yaml block")
	}
	file := filepath.Join(t.TempDir(), "tools.yaml")
	if err := os.WriteFile(file, []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, appSetup{env: map[string]string{"TOOLS_FILE": file}})
	for _, tc := range []struct {
		version int
		want    string // in the result of that version only
	}{{1, `"skills"`}, {2, `"faction":"`}} {
		resp, body := f.do(t, request{
			method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken,
			json: map[string]any{"tool_calls": []map[string]any{{"name": "gcs_get_champion_details", "version": tc.version, "arguments": json.RawMessage(`{"champion_name":"Kaelith"}`)}}},
		})
		expect(t, resp, body, http.StatusOK)
		other := map[int]string{1: `"faction":"`, 2: `"skills"`}[tc.version]
		if !strings.Contains(string(body), `"status":"success"`) || !strings.Contains(string(body), "Kaelith") ||
			!strings.Contains(string(body), tc.want) || strings.Contains(string(body), other) {
			t.Fatalf("version %d answered %.400s", tc.version, body)
		}
	}
	resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/tools", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	if !strings.Contains(string(body), `"rollout":{"weights":{"1":90,"2":10},"source":"file"}`) {
		t.Fatalf("the docs/own-game.md rollout is not in force: %.2000s", body)
	}
}
