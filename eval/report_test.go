package eval

import (
	"bytes"
	"strings"
	"testing"
)

func results() []ScenarioResult {
	return []ScenarioResult{
		{Name: "suite ok", File: "eval/suite/a.yaml", Line: 1, Passed: true,
			Steps: []StepResult{{Say: "hi", Passed: true, Reply: "Line one.\nLine two <b>bold</b>"}}},
		{Name: "baseline ok", File: "eval/offline/counters.yaml", Line: 1, Passed: true, Steps: []StepResult{{Say: "q", Passed: true}}},
		{Name: "baseline bad", File: "/abs/eval/offline/lore.yaml", Line: 9, Passed: false,
			Steps: []StepResult{{Say: "q", Passed: false, Reasons: []string{"missing fact"}}}},
	}
}

func TestReportMarksTheOfflineBaseline(t *testing.T) {
	rep := newReport(results(), Options{})
	g := rep.Summary.OfflineBaseline
	if g == nil || g.Scenarios != 2 || g.Passed != 1 || g.PassRate != 0.5 {
		t.Fatalf("offline baseline = %+v", g)
	}
	if rep.Scenarios[0].OfflineBaseline || !rep.Scenarios[1].OfflineBaseline || !rep.Scenarios[2].OfflineBaseline {
		t.Errorf("marks = %v %v %v", rep.Scenarios[0].OfflineBaseline, rep.Scenarios[1].OfflineBaseline, rep.Scenarios[2].OfflineBaseline)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FAIL  baseline bad  [offline baseline]", "offline baseline (eval/offline, the offline responder's set): 1/2 passed (50.0%)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if none := newReport(results()[:1], Options{}); none.Summary.OfflineBaseline != nil {
		t.Errorf("a run without baseline scenarios reports one: %+v", none.Summary.OfflineBaseline)
	}
}

func TestHTMLReportWordsAndLineBreaks(t *testing.T) {
	var b bytes.Buffer
	if err := newReport(results(), Options{}).WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		// The reply keeps its line break and stays escaped.
		"<p class=\"reply\">Line one.\nLine two &lt;b&gt;bold&lt;/b&gt;</p>", ".reply{white-space:pre-wrap}",
		// Results in words, not only colour.
		">PASS<", ">FAIL<", "✓ PASS", "✗ FAIL", ">PASS suite ok</text>", ">FAIL baseline bad</text>",
		"<th>of them offline baseline (eval/offline)</th><td class=\"num\">1 / 2 (50.0%)</td>", "offline baseline</span>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}
}
