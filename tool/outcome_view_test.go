package tool

import "testing"

// TestOutcomeLLMView: an outcome's LLM view is the one rendered into it,
// else its result rendered now.
func TestOutcomeLLMView(t *testing.T) {
	r := Success("ok", map[string]int{"rows": 2})
	if got, want := (Outcome{Result: r}).LLMView(), r.ForLLM(); got != want {
		t.Errorf("no view: %q, want %q", got, want)
	}
	if got := (Outcome{Result: r, View: "rendered"}).LLMView(); got != "rendered" {
		t.Errorf("with a view: %q, want the view", got)
	}
}
