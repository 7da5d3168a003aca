package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// Report is the outcome of a run: the summary, then every scenario. Its JSON
// is the `--json` output of docs/eval.md, "The JSON report" (extra fields
// are additions).
type Report struct {
	Summary   Summary          `json:"summary"`
	Scenarios []ScenarioResult `json:"scenarios"`
}

// Summary adds up a run. Ratios are 1 when nothing was expected of them.
type Summary struct {
	Scenarios int     `json:"scenarios"`
	Passed    int     `json:"passed"`
	PassRate  float64 `json:"pass_rate"`
	// ToolPrecision: of the distinct tools a turn with a `tools`
	// expectation called itself (not proactively), the share expected.
	ToolPrecision float64 `json:"tool_precision"`
	// ToolRecall: of the expected tool calls, the share found.
	ToolRecall float64 `json:"tool_recall"`
	// FactCoverage: of the expected facts, the share found in the replies.
	FactCoverage            float64 `json:"fact_coverage"`
	PromptTokensPerTurn     float64 `json:"prompt_tokens_per_turn"`
	LatencyMS               Latency `json:"latency_ms"`
	Turns                   int     `json:"turns"`
	DegradedTurns           int     `json:"degraded_turns"`
	CompletionTokensPerTurn float64 `json:"completion_tokens_per_turn"`
	// Model is the priced model; EstimatedCostUSD is nil without a price.
	Model               string   `json:"model,omitempty"`
	EstimatedCostUSD    *float64 `json:"estimated_cost_usd"`
	CostPerTurnUSD      *float64 `json:"cost_per_turn_usd"`
	MaxRoundsNotChecked bool     `json:"max_rounds_not_checked,omitempty"`
	// Versions compares the versions of versioned tools (a rollout): per
	// tool and version, the steps that called it and how they scored.
	Versions []VersionSummary `json:"versions,omitempty"`
	// OfflineBaseline counts, apart, the scenarios of the offline
	// responder's baseline set (files in a directory named offline, as
	// eval/offline): generated from the sample game's data, they measure
	// the offline responder, not the suite. Nil when none ran.
	OfflineBaseline *Group `json:"offline_baseline,omitempty"`
}

// Group is how a set of scenarios did.
type Group struct {
	Scenarios int     `json:"scenarios"`
	Passed    int     `json:"passed"`
	PassRate  float64 `json:"pass_rate"`
}

// baselineDir names the directory of the offline baseline scenarios.
const baselineDir = "offline"

// isBaseline reports whether a scenario read from file is one of the
// offline baseline's.
func isBaseline(file string) bool {
	return file != "" && filepath.Base(filepath.Dir(file)) == baselineDir
}

// VersionSummary is how the steps that called one version of a tool did.
type VersionSummary struct {
	Tool    string `json:"tool"`
	Version int    `json:"version"`
	// Steps called this version at least once; Passed of them passed.
	Steps    int     `json:"steps"`
	Passed   int     `json:"passed"`
	PassRate float64 `json:"pass_rate"`
	// Calls and Errors count the calls of this version.
	Calls     int     `json:"calls"`
	Errors    int     `json:"errors"`
	LatencyMS Latency `json:"latency_ms"`
}

// Latency holds percentiles of the turns' latency in milliseconds.
type Latency struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
}

// ScenarioResult is one scenario's outcome; Error is set when it could not
// run at all (no session).
type ScenarioResult struct {
	Name   string       `json:"name"`
	Passed bool         `json:"passed"`
	Steps  []StepResult `json:"steps"`
	File   string       `json:"file,omitempty"`
	Line   int          `json:"line,omitempty"`
	Error  string       `json:"error,omitempty"`
	// OfflineBaseline marks a scenario of the offline baseline set.
	OfflineBaseline bool `json:"offline_baseline,omitempty"`
}

// StepResult is one player message's outcome: passed when Reasons is empty.
type StepResult struct {
	Say              string   `json:"say"`
	Passed           bool     `json:"passed"`
	Reasons          []string `json:"reasons"`
	Line             int      `json:"line,omitempty"`
	Reply            string   `json:"reply"`
	Tools            []string `json:"tools"`
	LatencyMS        float64  `json:"latency_ms"`
	PromptTokens     int      `json:"prompt_tokens"`
	CompletionTokens int      `json:"completion_tokens"`
	Degraded         bool     `json:"degraded"`
	// Rounds is the number of LLM rounds that asked for tools; -1 when not
	// measured (remote server).
	Rounds int `json:"rounds"`

	score    stepScore
	versions []versionCall
}

// versionCall is one call of a versioned tool in a step.
type versionCall struct {
	tool    string
	version int
	failed  bool
}

// versionSuffix names a tool's version in a step's tool list ("@v2").
func versionSuffix(v int) string {
	if v <= 0 {
		return ""
	}
	return fmt.Sprintf("@v%d", v)
}

// stepScore is what a step adds to the summary's ratios.
type stepScore struct {
	toolsExpected, toolsFound        int
	toolsCalled, toolsCalledExpected int
	facts, factsFound                int
}

func newReport(results []ScenarioResult, opts Options) Report {
	s := Summary{Scenarios: len(results), Model: opts.Model}
	var sc stepScore
	var latencies []float64
	prompt, completion := 0, 0
	type versionKey struct {
		tool    string
		version int
	}
	versions := map[versionKey]*VersionSummary{}
	versionLatencies := map[versionKey][]float64{}
	for i := range results {
		res := &results[i]
		if res.Passed {
			s.Passed++
		}
		if isBaseline(res.File) {
			res.OfflineBaseline = true
			if s.OfflineBaseline == nil {
				s.OfflineBaseline = &Group{}
			}
			s.OfflineBaseline.Scenarios++
			if res.Passed {
				s.OfflineBaseline.Passed++
			}
		}
		for j := range res.Steps {
			st := &res.Steps[j]
			if st.Reasons == nil {
				st.Reasons = []string{}
			}
			if st.Tools == nil {
				st.Tools = []string{}
			}
			s.Turns++
			if st.Degraded {
				s.DegradedTurns++
			}
			latencies = append(latencies, st.LatencyMS)
			prompt += st.PromptTokens
			completion += st.CompletionTokens
			sc.toolsExpected += st.score.toolsExpected
			sc.toolsFound += st.score.toolsFound
			sc.toolsCalled += st.score.toolsCalled
			sc.toolsCalledExpected += st.score.toolsCalledExpected
			sc.facts += st.score.facts
			sc.factsFound += st.score.factsFound
			seen := map[versionKey]bool{}
			for _, vc := range st.versions {
				k := versionKey{vc.tool, vc.version}
				v := versions[k]
				if v == nil {
					v = &VersionSummary{Tool: vc.tool, Version: vc.version}
					versions[k] = v
				}
				v.Calls++
				if vc.failed {
					v.Errors++
				}
				if !seen[k] {
					seen[k] = true
					v.Steps++
					if st.Passed {
						v.Passed++
					}
					versionLatencies[k] = append(versionLatencies[k], st.LatencyMS)
				}
			}
		}
	}
	for k, v := range versions {
		v.PassRate = ratio(v.Passed, v.Steps)
		v.LatencyMS = Latency{P50: percentile(versionLatencies[k], 50), P95: percentile(versionLatencies[k], 95)}
		s.Versions = append(s.Versions, *v)
	}
	slices.SortFunc(s.Versions, func(a, b VersionSummary) int {
		if c := strings.Compare(a.Tool, b.Tool); c != 0 {
			return c
		}
		return a.Version - b.Version
	})
	s.PassRate = ratio(s.Passed, s.Scenarios)
	if g := s.OfflineBaseline; g != nil {
		g.PassRate = ratio(g.Passed, g.Scenarios)
	}
	s.ToolPrecision = ratio(sc.toolsCalledExpected, sc.toolsCalled)
	s.ToolRecall = ratio(sc.toolsFound, sc.toolsExpected)
	s.FactCoverage = ratio(sc.factsFound, sc.facts)
	if s.Turns > 0 {
		s.PromptTokensPerTurn = round2(float64(prompt) / float64(s.Turns))
		s.CompletionTokensPerTurn = round2(float64(completion) / float64(s.Turns))
	}
	s.LatencyMS = Latency{P50: percentile(latencies, 50), P95: percentile(latencies, 95)}
	if p := opts.Price; p != nil {
		cost := (float64(prompt)*p.Input + float64(completion)*p.Output) / 1e6
		total := math.Round(cost*1e6) / 1e6
		s.EstimatedCostUSD = &total
		if s.Turns > 0 {
			per := math.Round(cost/float64(s.Turns)*1e8) / 1e8
			s.CostPerTurnUSD = &per
		}
	}
	s.MaxRoundsNotChecked = !opts.RoundsMeasured
	return Report{Summary: s, Scenarios: results}
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 1
	}
	return round4(float64(n) / float64(d))
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }
func round4(f float64) float64 { return math.Round(f*10000) / 10000 }

// percentile is the nearest-rank percentile of xs (0 when empty).
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	rank = min(max(rank, 1), len(s))
	return round2(s[rank-1])
}

// WriteJSON writes the report as indented JSON.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("eval: write JSON: %w", err)
	}
	return nil
}

// WriteText writes the report for a terminal: each scenario with its failed
// steps and their reasons, then the summary.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, sc := range r.Scenarios {
		mark := "PASS"
		if !sc.Passed {
			mark = "FAIL"
		}
		fmt.Fprintf(&b, "%s  %s", mark, sc.Name)
		if sc.OfflineBaseline {
			b.WriteString("  [offline baseline]")
		}
		if sc.File != "" {
			fmt.Fprintf(&b, "  (%s:%d)", sc.File, sc.Line)
		}
		b.WriteByte('\n')
		if sc.Error != "" {
			fmt.Fprintf(&b, "      %s\n", sc.Error)
		}
		for i, st := range sc.Steps {
			if st.Passed {
				continue
			}
			fmt.Fprintf(&b, "      step %d (line %d) %q\n", i+1, st.Line, tool.Clip(st.Say, 80))
			for _, reason := range st.Reasons {
				fmt.Fprintf(&b, "        - %s\n", reason)
			}
		}
	}
	s := r.Summary
	fmt.Fprintf(&b, "\n%d/%d scenarios passed (%.1f%%), %d turns, %d degraded\n", s.Passed, s.Scenarios, s.PassRate*100, s.Turns, s.DegradedTurns)
	if g := s.OfflineBaseline; g != nil {
		fmt.Fprintf(&b, "of them offline baseline (eval/offline, the offline responder's set): %d/%d passed (%.1f%%)\n", g.Passed, g.Scenarios, g.PassRate*100)
	}
	fmt.Fprintf(&b, "tool precision %.3f, tool recall %.3f, fact coverage %.3f\n", s.ToolPrecision, s.ToolRecall, s.FactCoverage)
	fmt.Fprintf(&b, "tokens per turn: %.1f prompt, %.1f completion", s.PromptTokensPerTurn, s.CompletionTokensPerTurn)
	if s.EstimatedCostUSD != nil {
		fmt.Fprintf(&b, "; estimated cost %s: $%.6f ($%.8f per turn)", s.Model, *s.EstimatedCostUSD, deref(s.CostPerTurnUSD))
	} else if s.Model != "" {
		fmt.Fprintf(&b, "; no price for %s (EVAL_PRICES)", s.Model)
	}
	fmt.Fprintf(&b, "\nlatency per turn: p50 %.1f ms, p95 %.1f ms\n", s.LatencyMS.P50, s.LatencyMS.P95)
	for _, v := range s.Versions {
		fmt.Fprintf(&b, "%s@v%d: %d/%d steps passed (%.1f%%), %d calls, %d errors, latency p50 %.1f ms, p95 %.1f ms\n",
			v.Tool, v.Version, v.Passed, v.Steps, v.PassRate*100, v.Calls, v.Errors, v.LatencyMS.P50, v.LatencyMS.P95)
	}
	if s.MaxRoundsNotChecked {
		b.WriteString("max_rounds is not checked against a remote server (its LLM calls are not visible)\n")
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("eval: write report: %w", err)
	}
	return nil
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}
