package offline

import (
	"encoding/json"
	"testing"
)

// TestPhaseAsked: the phase a question names, from numbers, number words
// and ordinals before or after "phase", or the screen's for "this phase".
func TestPhaseAsked(t *testing.T) {
	for _, tc := range []struct {
		text   string
		screen int
		want   int
	}{
		{" what happens in phase 2 ", 0, 2},
		{" phase two ", 0, 2},
		{" the second phase ", 0, 2},
		{" la phase finale ", 0, -1},
		{" la derniere phase ", 0, -1},
		{" die dritte phase ", 0, 3},
		{" in this phase ", 4, 4},
		{" in this phase ", 0, 0},
		{" phase 100000000000000000000 ", 0, 0},
		{" phase 0 ", 0, 0},
		{" phases ", 0, 0},
	} {
		if got := phaseAsked(tc.text, tc.screen); got != tc.want {
			t.Errorf("phaseAsked(%q, %d) = %d, want %d", tc.text, tc.screen, got, tc.want)
		}
	}
}

// TestScreenPhase: a top-level whole number from 1 to 99 under "Phase";
// anything else is none.
func TestScreenPhase(t *testing.T) {
	for raw, want := range map[string]int{
		`{"Phase": 2}`:           2,
		`{"phase": "3"}`:         3,
		`{"Phase": 2.5}`:         0,
		`{"Phase": -1}`:          0,
		`{"Phase": 1e300}`:       0,
		`{"Phase": [2]}`:         0,
		`{"Boss": {"Phase": 2}}`: 0,
		`[1, 2]`:                 0,
		`not json`:               0,
		``:                       0,
		`{"Phase": 99999999999}`: 0,
		`{"Phase": "  7 "}`:      7,
		`{"Phase": null}`:        0,
	} {
		if got := screenPhase(json.RawMessage(raw)); got != want {
			t.Errorf("screenPhase(%s) = %d, want %d", raw, got, want)
		}
	}
}
