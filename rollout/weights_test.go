package rollout_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/rollout"
)

// sessions returns n session ids shaped like the server's (uuid-like).
func sessions(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "0b8f3c2e-7d1a-4e6b-9c5d-" + strconv.FormatInt(int64(100000000000+i*7919), 10)
	}
	return out
}

// tolerance is how far (in percentage points) a version's share of 10,000
// sessions may be from its weight's share: more than 3.5 standard
// deviations at p = 0.2 (0.4 points). The hash is deterministic, so the
// shares measured are the same on every run.
const tolerance = 1.5

func TestPickDistribution(t *testing.T) {
	ids := sessions(10000)
	tests := []struct {
		name string
		w    rollout.Weights
	}{
		{name: "80/20", w: rollout.Weights{1: 80, 2: 20}},
		{name: "50/50", w: rollout.Weights{1: 50, 2: 50}},
		{name: "60/30/10", w: rollout.Weights{1: 60, 2: 30, 3: 10}},
		{name: "90/10", w: rollout.Weights{1: 90, 2: 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sum := 0
			for _, n := range tc.w {
				sum += n
			}
			count := map[int]int{}
			for _, id := range ids {
				count[rollout.Pick(id, "cards_get_card", tc.w, []int{1, 2, 3})]++
			}
			for v, n := range tc.w {
				got := 100 * float64(count[v]) / float64(len(ids))
				want := 100 * float64(n) / float64(sum)
				if got < want-tolerance || got > want+tolerance {
					t.Errorf("version %d: %.2f%% of sessions, want %.0f%% ± %.1f", v, got, want, tolerance)
				}
			}
			if count[0] != 0 {
				t.Errorf("%d sessions got no version", count[0])
			}
		})
	}
}

func TestPickStickyAndMinimalMoves(t *testing.T) {
	ids := sessions(10000)
	vs := []int{1, 2, 3}
	before := rollout.Weights{1: 80, 2: 20}
	first := map[string]int{}
	for _, id := range ids {
		first[id] = rollout.Pick(id, "cards_get_card", before, vs)
		// Same weights, same answer, every time.
		if again := rollout.Pick(id, "cards_get_card", rollout.Weights{2: 20, 1: 80}, vs); again != first[id] {
			t.Fatalf("session %s moved from %d to %d with the same weights", id, first[id], again)
		}
	}

	// 80/20 → 50/50: only sessions of version 1 move, all to version 2,
	// and about 30% of all sessions move (the least possible).
	moved := 0
	for _, id := range ids {
		now := rollout.Pick(id, "cards_get_card", rollout.Weights{1: 50, 2: 50}, vs)
		if now != first[id] {
			if first[id] != 1 || now != 2 {
				t.Fatalf("session %s moved %d → %d; only 1 → 2 is needed", id, first[id], now)
			}
			moved++
		}
	}
	if got := 100 * float64(moved) / float64(len(ids)); got < 30-tolerance || got > 30+tolerance {
		t.Errorf("%.2f%% of sessions moved, want 30%% ± %.1f", got, tolerance)
	}

	// A third version at 10: sessions move only to version 3.
	for _, id := range ids {
		now := rollout.Pick(id, "cards_get_card", rollout.Weights{1: 80, 2: 20, 3: 10}, vs)
		if now != first[id] && now != 3 {
			t.Fatalf("session %s moved %d → %d when version 3 was added", id, first[id], now)
		}
	}

	// Rollback: 100/0 puts every session on version 1 at once.
	for _, id := range ids {
		if v := rollout.Pick(id, "cards_get_card", rollout.Weights{1: 100, 2: 0}, vs); v != 1 {
			t.Fatalf("after rollback session %s is on %d", id, v)
		}
	}

	// Another tool draws independently: its split does not copy this one's.
	same := 0
	for _, id := range ids {
		if rollout.Pick(id, "cards_other", before, vs) == first[id] {
			same++
		}
	}
	// Independent 80/20 draws agree with probability 0.8²+0.2² = 68%.
	if got := 100 * float64(same) / float64(len(ids)); got < 68-tolerance || got > 68+tolerance {
		t.Errorf("two tools agree for %.2f%% of sessions, want 68%% ± %.1f (independent draws)", got, tolerance)
	}
}

func TestPickIgnoresMissingVersions(t *testing.T) {
	w := rollout.Weights{1: 0, 2: 100}
	if v := rollout.Pick("s", "t", w, []int{1}); v != 0 {
		t.Fatalf("weights only for a removed version gave %d, want 0", v)
	}
	if v := rollout.Pick("s", "t", rollout.Weights{}, []int{1, 2}); v != 0 {
		t.Fatalf("no weights gave %d", v)
	}
}

func TestWeightsJSONAndValidate(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    string // error text; empty: valid
		encoded string
	}{
		{name: "valid", body: `{"2": 20, "1": 80}`, encoded: `{"1":80,"2":20}`},
		{name: "zero allowed beside a positive", body: `{"1": 100, "2": 0}`, encoded: `{"1":100,"2":0}`},
		{name: "unknown version", body: `{"1": 50, "9": 50}`, want: "version 9 is not one of the tool's versions [1 2]"},
		{name: "negative", body: `{"1": -1, "2": 5}`, want: "weight of version 1 is -1"},
		{name: "too large", body: `{"1": 101}`, want: "not from 0 to 100"},
		{name: "zero sum", body: `{"1": 0, "2": 0}`, want: "sum to 0, not 100"},
		{name: "relative 4/1", body: `{"1": 4, "2": 1}`, want: "sum to 5, not 100"},
		{name: "over 100", body: `{"1": 80, "2": 30}`, want: "sum to 110, not 100"},
		{name: "one version under 100", body: `{"1": 99}`, want: "sum to 99, not 100"},
		{name: "empty", body: `{}`, want: "no weights given"},
		{name: "fraction", body: `{"1": 80.5}`, want: "weight of version 1 must be a whole number"},
		{name: "exponent", body: `{"1": 1e2}`, want: "weight of version 1 must be a whole number"},
		{name: "string weight", body: `{"1": "80"}`, want: "weight of version 1 must be a whole number"},
		{name: "version zero", body: `{"0": 80}`, want: `version "0" must be a whole number from 1`},
		{name: "version with a sign", body: `{"+1": 80}`, want: `version "+1" must be a whole number from 1`},
		{name: "version text", body: `{"v2": 80}`, want: `version "v2" must be a whole number from 1`},
		{name: "not an object", body: `[80, 20]`, want: "weights must be an object"},
		{name: "null", body: `null`, want: "weights must be an object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var w rollout.Weights
			err := json.Unmarshal([]byte(tc.body), &w)
			if err == nil {
				err = w.Validate([]int{1, 2})
			}
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(w)
				if string(b) != tc.encoded {
					t.Fatalf("encoded %s, want %s", b, tc.encoded)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, rollout.ErrInvalid) {
				t.Fatalf("error %v, want %q wrapping ErrInvalid", err, tc.want)
			}
		})
	}
}

func FuzzWeightsJSON(f *testing.F) {
	for _, s := range []string{`{"1":80,"2":20}`, `{"1":-1}`, `{"x":1}`, `[]`, `null`, `{"1":1e400}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var w rollout.Weights
		if json.Unmarshal([]byte(s), &w) != nil {
			return
		}
		if w.Validate([]int{1, 2, 3}) != nil {
			return
		}
		if v := rollout.Pick("s", "t", w, []int{1, 2, 3}); v < 1 || v > 3 || w[v] <= 0 {
			t.Fatalf("valid weights %v picked %d", w, v)
		}
	})
}
