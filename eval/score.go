package eval

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/gameassist/gameassist/eval/scenario"
	"github.com/gameassist/gameassist/tool"
)

// check scores one answer against its expectations, appending a reason per
// failed expectation and filling the counts the summary adds up.
func check(sr *StepResult, e *scenario.Expect, rep chatReply) {
	if e == nil {
		return
	}
	called := func() string {
		if len(rep.ToolCalls) == 0 {
			return "no tool was called"
		}
		var names []string
		for _, c := range rep.ToolCalls {
			names = append(names, c.Name+"("+string(c.Source)+")")
		}
		return "called: " + strings.Join(names, ", ")
	}
	if e.Tools != nil {
		sr.score.toolsExpected = len(e.Tools)
		for _, ref := range e.Tools {
			if slices.ContainsFunc(rep.ToolCalls, func(c toolCall) bool { return matches(ref, c) }) {
				sr.score.toolsFound++
			} else {
				sr.Reasons = append(sr.Reasons, fmt.Sprintf("tool %s was not called (%s)", ref, called()))
			}
		}
		// Precision: of the distinct tools the turn itself called, how
		// many were expected.
		seen := map[string]bool{}
		for _, c := range rep.ToolCalls {
			if c.Source == tool.SourceProactive || c.Source == tool.SourceSkipped || seen[c.Name] {
				continue
			}
			seen[c.Name] = true
			sr.score.toolsCalled++
			if slices.ContainsFunc(e.Tools, func(ref scenario.ToolRef) bool { return ref.Name == c.Name }) {
				sr.score.toolsCalledExpected++
			}
		}
	}
	for _, ref := range e.NotTools {
		if slices.ContainsFunc(rep.ToolCalls, func(c toolCall) bool { return c.Source != tool.SourceSkipped && matches(ref, c) }) {
			sr.Reasons = append(sr.Reasons, fmt.Sprintf("tool %s was called and must not be", ref))
		}
	}
	sr.score.facts = len(e.Facts)
	for _, f := range e.Facts {
		if f.Match(rep.Reply) {
			sr.score.factsFound++
		} else {
			sr.Reasons = append(sr.Reasons, fmt.Sprintf("fact %q is not in the reply", f.Source))
		}
	}
	for _, f := range e.Forbid {
		if f.Match(rep.Reply) {
			sr.Reasons = append(sr.Reasons, fmt.Sprintf("forbidden %q is in the reply", f.Source))
		}
	}
	if e.MaxRounds != nil && sr.Rounds >= 0 && sr.Rounds > *e.MaxRounds {
		sr.Reasons = append(sr.Reasons, fmt.Sprintf("%d tool rounds, more than max_rounds %d", sr.Rounds, *e.MaxRounds))
	}
	if e.MaxPromptTokens != nil && rep.Usage.PromptTokens > *e.MaxPromptTokens {
		sr.Reasons = append(sr.Reasons, fmt.Sprintf("%d prompt tokens, more than max_prompt_tokens %d", rep.Usage.PromptTokens, *e.MaxPromptTokens))
	}
}

// matches reports whether call c is the one ref names: same tool, same
// source when given, and every key argument of ref equal in c.
func matches(ref scenario.ToolRef, c toolCall) bool {
	if c.Name != ref.Name || (ref.Source != "" && c.Source != tool.Source(ref.Source)) {
		return false
	}
	if len(ref.Arguments) == 0 {
		return true
	}
	var args map[string]any
	if json.Unmarshal(c.Arguments, &args) != nil {
		return false
	}
	for k, want := range ref.Arguments {
		got, ok := args[k]
		if !ok || !sameValue(want, got) {
			return false
		}
	}
	return true
}

// sameValue compares a YAML-given argument with a JSON one: strings
// case-insensitively, numbers by value, anything else structurally.
func sameValue(want, got any) bool {
	w, _ := json.Marshal(want)
	var wv any
	_ = json.Unmarshal(w, &wv)
	switch x := wv.(type) {
	case string:
		g, ok := got.(string)
		return ok && strings.EqualFold(strings.TrimSpace(x), strings.TrimSpace(g))
	case float64:
		g, ok := got.(float64)
		return ok && g == x
	default:
		return reflect.DeepEqual(wv, got)
	}
}
