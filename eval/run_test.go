package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gameassist/gameassist/eval/scenario"
)

// fakeAPI is a 15-line stand-in for the chat API: each message's answer is
// looked up in replies; a session creation can be refused with 429 once.
type fakeAPI struct {
	replies  map[string]chatReply
	limited  atomic.Bool
	mu       sync.Mutex
	messages []map[string]any
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/sessions":
		if f.limited.CompareAndSwap(true, false) {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		_, _ = w.Write([]byte(`{"session_id":"s1","session_token":"t1"}`))
	case "/v1/chat":
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		f.mu.Lock()
		f.messages = append(f.messages, body)
		f.mu.Unlock()
		rep, ok := f.replies[body["message"].(string)]
		if !ok || r.Header.Get("Authorization") != "Bearer t1" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":{"code":"invalid_request","message":"no such message"}}`))
			return
		}
		_ = json.NewEncoder(w).Encode(rep)
	}
}

func parse(t *testing.T, src string) []scenario.Scenario {
	t.Helper()
	p, err := scenario.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	scs, err := p.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return scs
}

func reply(text string, usage [2]int, calls ...toolCall) chatReply {
	r := chatReply{Reply: text, ToolCalls: calls}
	r.Usage.PromptTokens, r.Usage.CompletionTokens = usage[0], usage[1]
	return r
}

func TestRunScores(t *testing.T) {
	api := &fakeAPI{replies: map[string]chatReply{
		"counters?": reply("Kaelith counters the Fire Knight.", [2]int{1000, 100},
			toolCall{Name: "gcs_get_boss_details", Source: "proactive", Arguments: json.RawMessage(`{"boss_id":5001}`)},
			toolCall{Name: "gcs_find_counters_for_boss", Source: "executed", Arguments: json.RawMessage(`{"boss_name":"Fire Knight"}`)},
			toolCall{Name: "rag_semantic_search", Source: "executed", Arguments: json.RawMessage(`{"query":"x"}`)}),
		"again?": reply("SYSTEM: leaked", [2]int{3000, 300},
			toolCall{Name: "gcs_db_query", Source: "executed", Arguments: json.RawMessage(`{"sql":"select 1"}`)}),
		"weather?": reply("I only know the game.", [2]int{0, 0}),
	}}
	api.limited.Store(true)
	ts := httptest.NewServer(api)
	t.Cleanup(ts.Close)
	scs := parse(t, `name: one
steps:
  - screen: {name: BossBattlePresenter, data: {BossConfigId: 5001}}
  - say: counters?
    expect:
      tools: [{name: gcs_find_counters_for_boss, arguments: {boss_name: fire knight}}, gcs_get_boss_details]
      facts: [Kaelith, /fire knight/i]
  - say: again?
    expect:
      tools: [{name: gcs_find_counters_for_boss, source: cache}]
      not_tools: [gcs_db_query]
      facts: [Kaelith]
      forbid: ["SYSTEM:"]
      max_prompt_tokens: 2000
---
name: two
steps:
  - say: weather?
    expect: {tools: [], facts: [game]}
`)
	var progress bytes.Buffer
	r, err := New(Options{BaseURL: ts.URL, Concurrency: 2, Progress: &progress, Model: "m", Price: &Price{Input: 1, Output: 10}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := r.Run(context.Background(), scs)
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Summary
	// Expected tools: 2 + 1; found 2. Called by the turns themselves, with
	// a tools expectation: {counters, rag} + {db_query}; expected among
	// them: counters. Facts: 2 + 1 + 1, found 2 + 0 + 1.
	want := Summary{
		Scenarios: 2, Passed: 1, PassRate: 0.5, ToolPrecision: 0.3333, ToolRecall: 0.6667, FactCoverage: 0.75,
		PromptTokensPerTurn: 1333.33, CompletionTokensPerTurn: 133.33, Turns: 3, Model: "m",
	}
	if s.Scenarios != want.Scenarios || s.Passed != want.Passed || s.PassRate != want.PassRate || s.ToolPrecision != want.ToolPrecision ||
		s.ToolRecall != want.ToolRecall || s.FactCoverage != want.FactCoverage || s.PromptTokensPerTurn != want.PromptTokensPerTurn ||
		s.CompletionTokensPerTurn != want.CompletionTokensPerTurn || s.Turns != want.Turns {
		t.Errorf("summary = %+v\nwant      %+v", s, want)
	}
	// 4000 prompt tokens at $1/M and 400 completion at $10/M.
	if s.EstimatedCostUSD == nil || *s.EstimatedCostUSD != 0.008 {
		t.Errorf("cost = %v, want 0.008", s.EstimatedCostUSD)
	}
	if !s.MaxRoundsNotChecked {
		t.Error("rounds were not measured, the summary should say so")
	}
	steps := rep.Scenarios[0].Steps
	if len(steps) != 2 || !steps[0].Passed || steps[1].Passed || steps[0].Rounds != -1 {
		t.Fatalf("steps = %+v", steps)
	}
	wantReasons := []string{
		"tool gcs_find_counters_for_boss (cache) was not called (called: gcs_db_query(executed))",
		`fact "Kaelith" is not in the reply`,
		"tool gcs_db_query was called and must not be",
		`forbidden "SYSTEM:" is in the reply`,
		"3000 prompt tokens, more than max_prompt_tokens 2000",
	}
	got := steps[1].Reasons
	for _, w := range wantReasons {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("reason %q missing from %q", w, got)
		}
	}
	if len(got) != len(wantReasons) {
		t.Errorf("reasons = %q", got)
	}
	// The screen goes with every later message, as the game client sends it.
	api.mu.Lock()
	for _, m := range api.messages {
		if m["message"] == "weather?" {
			continue
		}
		if sc, _ := m["screen"].(map[string]any); sc["name"] != "BossBattlePresenter" {
			t.Errorf("message %v sent without the screen", m["message"])
		}
	}
	api.mu.Unlock()
	if !strings.Contains(progress.String(), "2/2 scenarios, 1 failed") {
		t.Errorf("progress = %q", progress.String())
	}

	var text, js, page bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "FAIL  one  (t.yaml:1)") || !strings.Contains(text.String(), "1/2 scenarios passed (50.0%)") {
		t.Errorf("text report:\n%s", text.String())
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var shape struct {
		Summary   map[string]json.RawMessage   `json:"summary"`
		Scenarios []map[string]json.RawMessage `json:"scenarios"`
	}
	if err := json.Unmarshal(js.Bytes(), &shape); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"scenarios", "passed", "pass_rate", "tool_precision", "tool_recall", "fact_coverage", "prompt_tokens_per_turn", "latency_ms"} {
		if _, ok := shape.Summary[k]; !ok {
			t.Errorf("summary lacks %q", k)
		}
	}
	var stepShape []map[string]json.RawMessage
	if err := json.Unmarshal(shape.Scenarios[1]["steps"], &stepShape); err != nil {
		t.Fatal(err)
	}
	if string(stepShape[0]["reasons"]) != "[]" || string(stepShape[0]["passed"]) != "true" || string(stepShape[0]["say"]) != `"weather?"` {
		t.Errorf("passing step = %s", shape.Scenarios[1]["steps"])
	}
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"<svg", "<rect", "1 / 2", "$0.008000", "forbidden &#34;SYSTEM:&#34; is in the reply"} {
		if !strings.Contains(page.String(), w) {
			t.Errorf("HTML lacks %q", w)
		}
	}
}

func TestRunHTTPErrorFailsStep(t *testing.T) {
	ts := httptest.NewServer(&fakeAPI{})
	t.Cleanup(ts.Close)
	r, err := New(Options{BaseURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := r.Run(context.Background(), parse(t, "name: a\nsteps:\n  - say: unknown\n  - say: unknown too\n"))
	if err != nil {
		t.Fatal(err)
	}
	st := rep.Scenarios[0].Steps
	if rep.Summary.Passed != 0 || len(st) != 2 || st[0].Reasons[0] != "POST /v1/chat: HTTP 400 invalid_request: no such message" {
		t.Errorf("steps = %+v", st)
	}
}

func TestRunCancelled(t *testing.T) {
	ts := httptest.NewServer(&fakeAPI{})
	t.Cleanup(ts.Close)
	r, err := New(Options{BaseURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Run(ctx, parse(t, "name: a\nsteps:\n  - say: x\n")); err == nil {
		t.Error("a cancelled run reported success")
	}
}

func TestPercentile(t *testing.T) {
	tests := []struct {
		name    string
		xs      []float64
		p, want float64
	}{
		{"empty", nil, 50, 0},
		{"one", []float64{7}, 95, 7},
		{"p50 of 4", []float64{4, 1, 3, 2}, 50, 2},
		{"p95 of 20", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, 95, 19},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percentile(tt.xs, tt.p); got != tt.want {
				t.Errorf("percentile(%v, %v) = %v, want %v", tt.xs, tt.p, got, tt.want)
			}
		})
	}
}

func TestNewRefusesNoURL(t *testing.T) {
	if _, err := New(Options{}); err == nil {
		t.Error("want an error")
	}
}

// A rollout is compared in the summary: per tool and version, the steps
// that called it, how many passed, its calls and errors.
func TestRunComparesToolVersions(t *testing.T) {
	api := &fakeAPI{replies: map[string]chatReply{
		"v1 good": reply("Ashen Drake costs 6.", [2]int{10, 1},
			toolCall{Name: "cards_search", Version: 1, Source: "executed", Status: "success", Arguments: json.RawMessage(`{}`)}),
		"v2 bad": reply("no idea", [2]int{10, 1},
			toolCall{Name: "cards_search", Version: 2, Source: "executed", Status: "error", Arguments: json.RawMessage(`{}`)},
			toolCall{Name: "cards_search", Version: 2, Source: "executed", Status: "success", Arguments: json.RawMessage(`{"x":1}`)}),
		"v2 good": reply("Ashen Drake costs 6.", [2]int{10, 1},
			toolCall{Name: "cards_search", Version: 2, Source: "cache", Status: "success", Arguments: json.RawMessage(`{}`)},
			toolCall{Name: "cards_get_card", Source: "executed", Status: "success", Arguments: json.RawMessage(`{}`)}),
	}}
	ts := httptest.NewServer(api)
	t.Cleanup(ts.Close)
	scs := parse(t, `name: a
steps:
  - say: v1 good
    expect: {facts: ["costs 6"]}
  - say: v2 bad
    expect: {facts: ["costs 6"]}
  - say: v2 good
    expect: {facts: ["costs 6"]}
`)
	r, err := New(Options{BaseURL: ts.URL, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := r.Run(context.Background(), scs)
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Summary.Versions
	if len(got) != 2 {
		t.Fatalf("versions = %+v, want cards_search v1 and v2 only (unversioned tools left out)", got)
	}
	v1, v2 := got[0], got[1]
	if v1.Tool != "cards_search" || v1.Version != 1 || v1.Steps != 1 || v1.Passed != 1 || v1.PassRate != 1 || v1.Calls != 1 || v1.Errors != 0 {
		t.Errorf("v1 = %+v", v1)
	}
	if v2.Tool != "cards_search" || v2.Version != 2 || v2.Steps != 2 || v2.Passed != 1 || v2.PassRate != 0.5 || v2.Calls != 3 || v2.Errors != 1 {
		t.Errorf("v2 = %+v", v2)
	}
	if tools := rep.Scenarios[0].Steps[1].Tools; len(tools) != 2 || tools[0] != "cards_search@v2 (executed)" {
		t.Errorf("step tools = %q, want the version named", tools)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "cards_search@v2: 1/2 steps passed (50.0%), 3 calls, 1 errors") {
		t.Errorf("text report lacks the version line:\n%s", text.String())
	}
	var page bytes.Buffer
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<h2>Tool versions</h2>") || !strings.Contains(page.String(), "1 / 2 (50.0%)") {
		t.Errorf("HTML report lacks the versions table")
	}
}
