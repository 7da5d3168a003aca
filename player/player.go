// Package player reads the state a game server pushed for a player: any
// JSON object, decoded once per turn, with dotted-path lookups for screen
// rules, chains and prompt templates, the progress value that unlocks
// documents, and the sample game's roster shape
// ({"progress": {"chapter", "level"}, "roster": [{"id", "level", "stars"}]}).
package player

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gameassist/gameassist/tool"
)

// DefaultProgressPath is where the sample game keeps the progress that
// unlocks documents.
const DefaultProgressPath = "progress.chapter"

// State is one player's decoded state. It implements tool.Player.
type State struct {
	PlayerID  string
	UpdatedAt time.Time
	version   string
	data      map[string]any
}

var _ tool.Player = (*State)(nil)

// Parse decodes a stored state object (numbers kept as json.Number).
func Parse(playerID, version string, at time.Time, raw []byte) (*State, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("player: parse state of %s: %w", playerID, err)
	}
	if m == nil {
		return nil, fmt.Errorf("player: parse state of %s: %w", playerID, errNotObject)
	}
	return &State{PlayerID: playerID, UpdatedAt: at, version: version, data: m}, nil
}

var errNotObject = errors.New("state is not a JSON object")

// Version implements tool.Player.
func (s *State) Version() string {
	if s == nil {
		return ""
	}
	return s.version
}

// Data implements tool.Player.
func (s *State) Data() map[string]any {
	if s == nil {
		return nil
	}
	return s.data
}

// Lookup returns the value at a dotted path ("progress.chapter",
// "roster.0.id"): a decimal segment indexes an array.
func (s *State) Lookup(path string) (any, bool) {
	if s == nil {
		return nil, false
	}
	var v any = s.data
	for _, seg := range strings.Split(path, ".") {
		switch node := v.(type) {
		case map[string]any:
			next, ok := node[seg]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(node) {
				return nil, false
			}
			v = node[i]
		default:
			return nil, false
		}
	}
	return v, v != nil
}

// Number returns the number at path.
func (s *State) Number(path string) (float64, bool) {
	v, ok := s.Lookup(path)
	if !ok {
		return 0, false
	}
	return number(v)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// Progress returns the progress at path (ok false when the state has no
// number there).
func (s *State) Progress(path string) (float64, bool) {
	if path == "" {
		path = DefaultProgressPath
	}
	return s.Number(path)
}

// Owned is one roster entry of the sample shape.
type Owned struct {
	ID    int64 `json:"id"`
	Level int   `json:"level,omitempty"`
	Stars int   `json:"stars,omitempty"`
}

// Roster returns the "roster" entries that carry a whole-number id, in the
// pushed order; nil when there are none.
func (s *State) Roster() []Owned { return RosterOf(s.Data()) }

// RosterOf reads the sample shape's "roster" from a decoded state (see
// tool.Player.Data): the entries with a whole-number id, in order.
func RosterOf(data map[string]any) []Owned {
	arr, _ := data["roster"].([]any)
	var out []Owned
	for _, e := range arr {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		id, ok := number(m["id"])
		if !ok || id != float64(int64(id)) || id <= 0 {
			continue
		}
		o := Owned{ID: int64(id)}
		if l, ok := number(m["level"]); ok {
			o.Level = int(l)
		}
		if st, ok := number(m["stars"]); ok {
			o.Stars = int(st)
		}
		out = append(out, o)
	}
	return out
}

// OwnedIDs returns the roster's ids, sorted.
func (s *State) OwnedIDs() []int64 {
	r := s.Roster()
	ids := make([]int64, len(r))
	for i, o := range r {
		ids[i] = o.ID
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}
