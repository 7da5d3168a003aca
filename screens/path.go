package screens

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// field is a parsed json_field: the text as written in the rule (placeholders
// use it verbatim) and its segments.
type field struct {
	text string
	path []string
}

// parseField checks a dotted path such as "Slot.Champion.ConfigId" or
// "Team.0": non-empty segments of letters, digits, '_' and '-'.
func parseField(s string) (field, error) {
	if rest, ok := strings.CutPrefix(s, PlayerRoot+"."); ok {
		f, err := parseField(rest)
		if err != nil {
			return field{}, fmt.Errorf("%s: %w", PlayerRoot, err)
		}
		return field{text: s, path: append([]string{PlayerRoot}, f.path...)}, nil
	}
	if s == PlayerRoot {
		return field{}, fmt.Errorf("path %s needs a path into the player state, e.g. %s.progress.chapter", PlayerRoot, PlayerRoot)
	}
	if s == "" {
		return field{}, errors.New("path is empty")
	}
	if len(s) > MaxPathLen {
		return field{}, fmt.Errorf("path is longer than %d bytes", MaxPathLen)
	}
	segs := strings.Split(s, ".")
	if len(segs) > MaxPathSegments {
		return field{}, fmt.Errorf("path %s has more than %d segments", s, MaxPathSegments)
	}
	for _, seg := range segs {
		if seg == "" {
			return field{}, fmt.Errorf("path %q has an empty segment", s)
		}
		for _, c := range seg {
			if !isNameChar(c) {
				return field{}, fmt.Errorf("path %q may only hold letters, digits, '_', '-' and '.'", s)
			}
		}
	}
	return field{text: s, path: segs}, nil
}

// PlayerRoot starts a json_field or placeholder that reads the session's
// player state instead of the screen data: "$player.progress.chapter".
const PlayerRoot = "$player"

// isPlayerField reports whether f reads the player state.
func (f field) isPlayerField() bool { return len(f.path) > 0 && f.path[0] == PlayerRoot }

// source names where f is read from, for skip reasons.
func (f field) source() string {
	if f.isPlayerField() {
		return "the player state"
	}
	return "the screen data"
}

// withPlayer puts the player state of ctx under PlayerRoot in decoded
// screen data; a "$player" key the screen itself sent is dropped, so a
// client cannot pose as the player state.
func withPlayer(ctx context.Context, data map[string]any) {
	delete(data, PlayerRoot)
	if p, ok := tool.PlayerFrom(ctx); ok {
		data[PlayerRoot] = p.Data()
	}
}

// lookup walks decoded screen data (maps, slices, json.Number, string, bool,
// nil) along path. A segment indexes an array when it is a decimal index and
// names a key in an object. It reports false when a step is missing.
func lookup(v any, path []string) (any, bool) {
	for _, seg := range path {
		switch node := v.(type) {
		case map[string]any:
			next, ok := node[seg]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, ok := arrayIndex(seg)
			if !ok || i >= len(node) {
				return nil, false
			}
			v = node[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// arrayIndex parses a plain decimal index ("0", "12"; no sign, no leading zeros).
func arrayIndex(seg string) (int, bool) {
	if seg == "" || len(seg) > 9 || (len(seg) > 1 && seg[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(seg); i++ {
		if seg[i] < '0' || seg[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(seg)
	return n, err == nil
}

// kindOf names the JSON type of a decoded value, for skip reasons.
func kindOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if _, ok := wholeNumber(x); ok {
			return "integer"
		}
		return "number"
	}
	return "unknown"
}

// wholeNumber returns n as an int64 when it is a whole number in range,
// whatever its spelling ("1001", "1001.0", "1.001e3").
func wholeNumber(n json.Number) (int64, bool) {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || f < -(1<<53) || f > 1<<53 || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// Path is a parsed dotted path into JSON data ("Team.0",
// "Slot.Champion.ConfigId"): the json_field syntax of the rules, exported so
// the chains of a tools file read earlier steps' data the same way.
type Path struct{ f field }

// ParsePath checks a dotted path: non-empty segments of letters, digits,
// '_' and '-', at most MaxPathSegments of them and MaxPathLen bytes.
func ParsePath(s string) (Path, error) {
	f, err := parseField(s)
	if err != nil {
		return Path{}, err
	}
	return Path{f: f}, nil
}

// Lookup walks decoded JSON (maps, slices, json.Number, string, bool, nil)
// along the path: a decimal segment indexes an array, any other names an
// object key. It reports false when a step is missing.
func (p Path) Lookup(v any) (any, bool) { return lookup(v, p.f.path) }

// String returns the path as written.
func (p Path) String() string { return p.f.text }
