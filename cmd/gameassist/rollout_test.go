package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/internal/handclock"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/rollout"
)

// probeToolsFile defines two versions of probe_lookup over the sample
// game's database. Each answers which version ran; version 2 takes an
// extra argument, so the two schemas differ. The file starts every
// session on version 1.
const probeToolsFile = `tools:
  - name: probe_lookup
    description: "Probe lookup, first version: echoes a name."
    aliases: [probe_old]
    version: 1
    cache_duration: 5
    parameters:
      type: object
      properties: {name: {type: string, minLength: 1}}
      required: [name]
      additionalProperties: false
    statement: SELECT :name AS name, 'one' AS answered_by
    result: row
  - name: probe_lookup
    description: "Probe lookup, second version: echoes a name, with detail."
    aliases: [probe_old]
    version: 2
    cache_duration: 5
    parameters:
      type: object
      properties: {name: {type: string, minLength: 1}, detail: {type: boolean}}
      required: [name]
      additionalProperties: false
    statement: SELECT :name AS name, 'two' AS answered_by, :detail AS detail
    result: row
rollouts:
  probe_lookup: {"1": 100, "2": 0}
`

// versionedOutcome is a tool call of a reply with its version.
type versionedOutcome struct {
	outcome
	Version int `json:"version"`
}

// probeLLM answers every turn by calling the tool under the old alias
// (once per turn), then with text; it records the probe description each
// request offered.
type probeLLM struct {
	mu      sync.Mutex
	offered []string
}

func (p *probeLLM) respond(req openai.ChatCompletionRequest) llmtest.Reply {
	for _, t := range req.Tools {
		if t.Function != nil && t.Function.Name == "probe_lookup" {
			p.mu.Lock()
			p.offered = append(p.offered, t.Function.Description)
			p.mu.Unlock()
		}
	}
	if last := req.Messages[len(req.Messages)-1]; last.Role == openai.ChatMessageRoleTool {
		return llmtest.Text("Done.")
	}
	return llmtest.ToolCalls(llmtest.Call{ID: "call_probe", Name: "probe_old", Arguments: `{"name":"Kaelith"}`})
}

func (p *probeLLM) lastOffered() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.offered) == 0 {
		return ""
	}
	return p.offered[len(p.offered)-1]
}

// TestToolRollout runs two instances on one Redis (a fresh single node,
// then a fresh cluster, since it reads the shared stats): the tools file
// starts sessions on version 1; an admin moves them to version 2 on one
// instance and the other follows after its refresh interval; sessions are
// sticky under a split and keep their version when the weights change
// while it stays above 0 (the version is stored with the session), and
// move at once when it drops to 0; a version-1 result is never served to a version-2
// session but serves again after the rollback; stats, metrics and the
// admin tool list carry the versions.
func TestToolRollout(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	redistest.EachFresh(t, testToolRollout)
}

func testToolRollout(t *testing.T, rs redistest.Backend) {
	toolsFile := filepath.Join(t.TempDir(), "tools.yaml")
	if err := os.WriteFile(toolsFile, []byte(probeToolsFile), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := llmtest.New(t)
	llm := &probeLLM{}
	fake.SetResponder(llm.respond)
	clock := handclock.New(time.Unix(1_800_000_000, 0))
	setup := appSetup{
		redis: rs, llm: fake,
		env:     map[string]string{"TOOLS_FILE": toolsFile, "TOOL_SELECTION": "all"},
		options: []appOption{withRolloutClock(clock.Now)},
	}
	a, b := newFixture(t, setup), newFixture(t, setup)

	turn := func(f *fixture, s session, wantVersion int, wantSource string) {
		t.Helper()
		resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: chatBody(s, "probe")})
		expect(t, resp, body, http.StatusOK)
		r := decode[struct {
			ToolCalls []versionedOutcome `json:"tool_calls"`
		}](t, body)
		if len(r.ToolCalls) != 1 {
			t.Fatalf("tool calls %s", body)
		}
		o := r.ToolCalls[0]
		if o.Name != "probe_lookup" || o.Status != "success" || o.Version != wantVersion || o.Source != wantSource {
			t.Fatalf("call %+v, want probe_lookup v%d from %s", o, wantVersion, wantSource)
		}
		wantDesc := map[int]string{1: "first version", 2: "second version"}[wantVersion]
		if got := llm.lastOffered(); !strings.Contains(got, wantDesc) {
			t.Fatalf("the LLM was offered %q, want the v%d description", got, wantVersion)
		}
	}

	// The file's 100/0: both instances run version 1.
	s := a.newSession(t)
	turn(a, s, 1, "executed")
	turn(b, s, 1, "cache")

	// An admin moves everyone to version 2 on instance a.
	resp, body := a.do(t, request{method: http.MethodPut, path: "/admin/tools/probe_old/rollout", token: testAdminToken,
		json: map[string]any{"weights": map[string]int{"1": 0, "2": 100}}})
	expect(t, resp, body, http.StatusOK)
	if got := decode[struct {
		Tool    string          `json:"tool"`
		Weights rollout.Weights `json:"weights"`
		Source  string          `json:"source"`
	}](t, body); got.Tool != "probe_lookup" || got.Weights[2] != 100 || got.Source != "admin" {
		t.Fatalf("PUT answered %s", body)
	}
	// Instance a uses the weights at once: version 2 runs, the live
	// version-1 result of the session is not served to it.
	turn(a, s, 2, "executed")
	// Instance b read the weights less than its refresh interval ago:
	// it still runs version 1 (from the cache) until the interval ends.
	turn(b, s, 1, "cache")
	clock.Add(rollout.DefaultRefresh)
	turn(b, s, 2, "cache")

	// Rollback at run time, through b: version 1 again, and its cached
	// result (exchange 1, live for 5 exchanges) serves again.
	resp, body = b.do(t, request{method: http.MethodPut, path: "/admin/tools/probe_lookup/rollout", token: testAdminToken,
		json: map[string]any{"weights": map[string]int{"1": 100, "2": 0}}})
	expect(t, resp, body, http.StatusOK)
	clock.Add(rollout.DefaultRefresh)
	turn(a, s, 1, "cache")

	// A 50/50 split: each new session runs the version the hash gives
	// it, on either instance, turn after turn.
	resp, body = a.do(t, request{method: http.MethodPut, path: "/admin/tools/probe_lookup/rollout", token: testAdminToken,
		json: map[string]any{"weights": map[string]int{"1": 50, "2": 50}}})
	expect(t, resp, body, http.StatusOK)
	clock.Add(rollout.DefaultRefresh)
	split := map[session]int{}
	for range 8 {
		ss := b.newSession(t)
		want := rollout.Pick(ss.ID, "probe_lookup", rollout.Weights{1: 50, 2: 50}, []int{1, 2})
		turn(a, ss, want, "executed")
		turn(b, ss, want, "cache")
		split[ss] = want
	}

	// 50/50 → 90/10 (set on b, read by a after its refresh): both
	// versions stay above 0, so no session moves (each keeps the version
	// stored with it, whichever instance runs the turn), while new
	// sessions follow the new weights' hash.
	resp, body = b.do(t, request{method: http.MethodPut, path: "/admin/tools/probe_lookup/rollout", token: testAdminToken,
		json: map[string]any{"weights": map[string]int{"1": 90, "2": 10}}})
	expect(t, resp, body, http.StatusOK)
	clock.Add(rollout.DefaultRefresh)
	for ss, v := range split {
		turn(a, ss, v, "cache")
	}
	fresh := a.newSession(t)
	turn(b, fresh, rollout.Pick(fresh.ID, "probe_lookup", rollout.Weights{1: 90, 2: 10}, []int{1, 2}), "executed")

	// Version 2 to 0: every session on it moves to version 1 at once
	// (on b, once it has read the weights).
	resp, body = a.do(t, request{method: http.MethodPut, path: "/admin/tools/probe_lookup/rollout", token: testAdminToken,
		json: map[string]any{"weights": map[string]int{"1": 100, "2": 0}}})
	expect(t, resp, body, http.StatusOK)
	clock.Add(rollout.DefaultRefresh)
	for ss, v := range split {
		if v == 2 {
			turn(b, ss, 1, "executed")
		} else {
			turn(b, ss, 1, "cache")
		}
	}
	// Back to 50/50 (both above 0): the moved sessions stay on version 1.
	resp, body = a.do(t, request{method: http.MethodPut, path: "/admin/tools/probe_lookup/rollout", token: testAdminToken,
		json: map[string]any{"weights": map[string]int{"1": 50, "2": 50}}})
	expect(t, resp, body, http.StatusOK)
	clock.Add(rollout.DefaultRefresh)
	for ss := range split {
		turn(b, ss, 1, "cache")
	}

	// The admin tool list shows both versions and the weights in force.
	resp, body = b.do(t, request{method: http.MethodGet, path: "/admin/tools", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	list := decode[struct {
		Tools []struct {
			Name     string `json:"name"`
			Version  int    `json:"version"`
			Versions []struct {
				Version     int    `json:"version"`
				Description string `json:"description"`
			} `json:"versions"`
			Rollout *struct {
				Weights rollout.Weights `json:"weights"`
				Source  string          `json:"source"`
			} `json:"rollout"`
		} `json:"tools"`
	}](t, body)
	found := false
	for _, ti := range list.Tools {
		if ti.Name != "probe_lookup" {
			continue
		}
		found = true
		if ti.Version != 2 || len(ti.Versions) != 2 || ti.Versions[0].Version != 1 || !strings.Contains(ti.Versions[0].Description, "first") ||
			ti.Rollout == nil || ti.Rollout.Source != "admin" || ti.Rollout.Weights[1] != 50 || ti.Rollout.Weights[2] != 50 {
			t.Fatalf("probe_lookup listed as %+v", ti)
		}
	}
	if !found {
		t.Fatal("probe_lookup not listed")
	}

	// Per-version stats, summed over both instances.
	a.app.observer.flush(t.Context())
	b.afterFlush(t, "per-version stats", func() (bool, string) {
		resp, body := b.do(t, request{method: http.MethodGet, path: "/admin/stats", token: testAdminToken})
		if resp.StatusCode != http.StatusOK {
			return false, string(body)
		}
		var rep struct {
			Tools []struct {
				Name     string `json:"name"`
				Calls    int    `json:"calls"`
				Versions []struct {
					Version   int `json:"version"`
					Calls     int `json:"calls"`
					Executed  int `json:"executed"`
					CacheHits int `json:"cache_hits"`
				} `json:"versions"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(body, &rep); err != nil {
			return false, err.Error()
		}
		for _, ti := range rep.Tools {
			if ti.Name != "probe_lookup" {
				continue
			}
			sum := 0
			for _, v := range ti.Versions {
				sum += v.Calls
			}
			// 6 turns of the first session, 5 of each of 8 more and 1 of
			// the session opened at 90/10.
			ok := ti.Calls == 47 && sum == 47 && len(ti.Versions) == 2 && ti.Versions[0].Version == 1 && ti.Versions[1].Executed >= 1
			return ok, fmt.Sprintf("%+v", ti)
		}
		return false, "probe_lookup has no stats: " + string(body)
	})

	// Prometheus: the version label.
	resp, body = a.do(t, request{method: http.MethodGet, path: "/metrics"})
	expect(t, resp, body, http.StatusOK)
	for _, want := range []string{`tool="probe_lookup",version="1"`, `tool="probe_lookup",version="2"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}

	// The admin cache view records the version of each cached result.
	resp, body = a.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + s.ID + "/cache", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	versions := map[float64]bool{}
	cv := decode[struct {
		Entries []map[string]any `json:"entries"`
	}](t, body)
	for _, e := range cv.Entries {
		if e["tool"] == "probe_lookup" {
			v, _ := e["version"].(float64)
			versions[v] = true
		}
	}
	if !versions[1] || !versions[2] {
		t.Fatalf("cache entries of both versions expected, got %s", body)
	}
}

// TestRolloutRouteRefuses: bad rollouts answer 4xx with a clear error and
// change nothing: 401 without the admin token, 404 for an unknown tool,
// 400 for a body that is not JSON or lacks weights, 422 for weights the
// tool cannot take (not summing to 100, unknown version, negative or
// non-integer); each response checked against the OpenAPI document.
func TestRolloutRouteRefuses(t *testing.T) {
	toolsFile := filepath.Join(t.TempDir(), "tools.yaml")
	if err := os.WriteFile(toolsFile, []byte(probeToolsFile), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, appSetup{env: map[string]string{"TOOLS_FILE": toolsFile}})
	tests := []struct {
		name    string
		path    string
		token   string
		body    string
		invalid bool
		want    int
		message string
	}{
		{name: "no admin token", path: "/admin/tools/probe_lookup/rollout", body: `{"weights":{"1":100}}`, want: http.StatusUnauthorized},
		{name: "unknown tool", path: "/admin/tools/nope_tool/rollout", token: testAdminToken, body: `{"weights":{"1":100}}`, want: http.StatusNotFound, message: "no tool"},
		{name: "unknown version", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{"weights":{"1":50,"3":50}}`, want: http.StatusUnprocessableEntity, message: "version 3 is not one of the tool's versions [1 2]"},
		{name: "negative weight", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{"weights":{"1":-1,"2":101}}`, invalid: true, want: http.StatusUnprocessableEntity, message: "weight of version 1 is -1"},
		{name: "zero sum", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{"weights":{"1":0,"2":0}}`, want: http.StatusUnprocessableEntity, message: "sum to 0, not 100"},
		{name: "relative weights", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{"weights":{"1":4,"2":1}}`, want: http.StatusUnprocessableEntity, message: "sum to 5, not 100"},
		{name: "sum over 100", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{"weights":{"1":80,"2":30}}`, want: http.StatusUnprocessableEntity, message: "sum to 110, not 100"},
		{name: "fraction", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{"weights":{"1":0.5,"2":99.5}}`, invalid: true, want: http.StatusUnprocessableEntity, message: "whole number"},
		{name: "text weight", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{"weights":{"1":"80","2":20}}`, invalid: true, want: http.StatusUnprocessableEntity, message: "whole number"},
		{name: "version not a number", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{"weights":{"v1":100}}`, invalid: true, want: http.StatusUnprocessableEntity, message: `must be a whole number from 1`},
		{name: "weights missing", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{}`, invalid: true, want: http.StatusBadRequest, message: "weights is required"},
		{name: "unknown field", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{"weights":{"1":100},"x":1}`, invalid: true, want: http.StatusBadRequest},
		{name: "not JSON", path: "/admin/tools/probe_lookup/rollout", token: testAdminToken, body: `{"weights":`, invalid: true, want: http.StatusBadRequest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := f.do(t, request{method: http.MethodPut, path: tc.path, token: tc.token, body: []byte(tc.body), invalid: tc.invalid})
			expectError(t, resp, body, tc.want)
			if !strings.Contains(string(body), tc.message) {
				t.Fatalf("error %s lacks %q", body, tc.message)
			}
		})
	}
	// Nothing changed: the file's weights are still in force.
	resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/tools", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	if !strings.Contains(string(body), `"rollout":{"weights":{"1":100,"2":0},"source":"file"}`) {
		t.Fatalf("refused rollouts changed the weights: %s", body)
	}
}
