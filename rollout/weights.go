// Package rollout assigns chat sessions to the versions of a tool that has
// several, by weights a studio sets (the tools file's rollouts: section, or
// PUT /admin/tools/:name/rollout at run time). The weights live in Redis,
// one key per tool, so every instance agrees; each instance reads them at
// most once per refresh interval, never once per tool call.
//
// Weights are percentages summing to 100. A session's first version is a
// weighted rendezvous hash of (session id, tool name, version); the
// session then keeps it (the chat runner stores it with the session) while
// that version's weight is above 0, so changing 80/20 to 50/50 moves no
// session, and setting a version to 0 moves its sessions to the others at
// once (an instant rollback).
package rollout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// Total is what a tool's weights sum to: each weight is a percentage.
const Total = 100

// ErrInvalid marks weights that cannot be used: an unknown version, a
// negative or non-integer weight, or weights not summing to Total.
var ErrInvalid = errors.New("invalid rollout weights")

// Weights maps a tool version to its percentage of new sessions; valid
// weights sum to Total (100).
type Weights map[int]int

// Validate checks w against the versions a tool has: every version known,
// every weight from 0 to 100, and the weights summing to 100. The error
// wraps ErrInvalid and names the offending version.
func (w Weights) Validate(versions []int) error {
	if len(w) == 0 {
		return fmt.Errorf("%w: no weights given", ErrInvalid)
	}
	sum := 0
	for _, v := range w.Versions() {
		n := w[v]
		if !slices.Contains(versions, v) {
			return fmt.Errorf("%w: version %d is not one of the tool's versions %v", ErrInvalid, v, versions)
		}
		if n < 0 || n > Total {
			return fmt.Errorf("%w: weight of version %d is %d, not from 0 to %d", ErrInvalid, v, n, Total)
		}
		sum += n
	}
	if sum != Total {
		return fmt.Errorf("%w: the weights sum to %d, not %d", ErrInvalid, sum, Total)
	}
	return nil
}

// Versions returns the versions w names, ascending.
func (w Weights) Versions() []int {
	out := make([]int, 0, len(w))
	for v := range w {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// MarshalJSON writes w as {"1": 80, "2": 20}, versions ascending.
func (w Weights) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, v := range w.Versions() {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%d":%d`, v, w[v])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads {"1": 80, "2": 20}: keys are versions (whole numbers
// from 1), values whole numbers (80.5, "80" and 1e2 are refused).
func (w *Weights) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("%w: weights must be an object of version to weight, like {\"1\": 80, \"2\": 20}", ErrInvalid)
	}
	if raw == nil {
		return fmt.Errorf("%w: weights must be an object of version to weight, like {\"1\": 80, \"2\": 20}", ErrInvalid)
	}
	out := make(Weights, len(raw))
	for k, val := range raw {
		v, err := ParseVersion(k)
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(val)))
		if err != nil {
			return fmt.Errorf("%w: weight of version %s must be a whole number, got %s", ErrInvalid, k, tool.Clip(string(val), 40))
		}
		out[v] = n
	}
	*w = out
	return nil
}

// ParseVersion reads a version key ("2"): a whole number from 1.
func ParseVersion(s string) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 || strconv.Itoa(v) != s {
		return 0, fmt.Errorf("%w: version %q must be a whole number from 1", ErrInvalid, tool.Clip(s, 40))
	}
	return v, nil
}

// Pick returns the version of tool that session is assigned to under w,
// among versions (the versions the tool has now; weights of others are
// ignored). It returns 0 when no version of versions has a positive
// weight. Each version v draws a score -ln(u)/w[v], with u a uniform
// number hashed from (session, tool, v), and the lowest score wins
// (weighted rendezvous hashing): version v wins with probability
// w[v]/sum(w), and changing one weight only moves sessions to or from
// that version.
func Pick(session, tool string, w Weights, versions []int) int {
	best, bestScore := 0, math.Inf(1)
	for _, v := range versions {
		n := w[v]
		if n <= 0 {
			continue
		}
		score := -math.Log(unit(session, tool, v)) / float64(n)
		if score < bestScore {
			best, bestScore = v, score
		}
	}
	return best
}

// unit hashes (session, tool, version) to a number in (0, 1): FNV-1a
// (written out so the hot path allocates nothing), then mixed.
func unit(session, tool string, version int) float64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(session); i++ {
		h = (h ^ uint64(session[i])) * prime
	}
	h *= prime // a zero byte between the fields (h ^ 0 is h)
	for i := 0; i < len(tool); i++ {
		h = (h ^ uint64(tool[i])) * prime
	}
	h *= prime // a zero byte between the fields (h ^ 0 is h)
	for v := uint64(version); ; v /= 10 {
		h = (h ^ (v%10 + '0')) * prime
		if v < 10 {
			break
		}
	}
	x := mix(h)
	return (float64(x>>11) + 0.5) / (1 << 53)
}

// mix is splitmix64's finalizer: FNV's low-entropy high bits for similar
// inputs become uniform.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
