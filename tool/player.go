package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Player is the state the game server pushed for the player of the
// session a call runs for (what they own, how far they got). Only the chat
// engine puts it on a call's context, from the session's stored player id,
// so no argument can name another player's state.
type Player interface {
	// Version names the state; it changes whenever the state does.
	Version() string
	// Data is the decoded state object (maps, slices, json.Number, string,
	// bool, nil); callers must not modify it.
	Data() map[string]any
}

type playerKey struct{}

// WithPlayer returns ctx carrying the session's player state (nil: none).
func WithPlayer(ctx context.Context, p Player) context.Context {
	if p == nil {
		return ctx
	}
	return context.WithValue(ctx, playerKey{}, p)
}

// PlayerFrom returns the player state ctx carries, if any.
func PlayerFrom(ctx context.Context) (Player, bool) {
	p, ok := ctx.Value(playerKey{}).(Player)
	return p, ok && p != nil
}

// PlayerParam binds a tool parameter to the player state: the parameter is
// a boolean flag the LLM may set (e.g. owned_only), and when it is true the
// executor reads the values at Path from the session's player state and
// hands them to the tool (Bound). The LLM never sends the values itself.
type PlayerParam struct {
	// Flag is the boolean parameter of the tool's schema.
	Flag string `json:"flag"`
	// Path is a dotted path into the state; an array on the way fans out,
	// so "roster.id" is the id of every roster entry.
	Path string `json:"path"`
}

// playerPathPattern is the syntax of PlayerParam.Path.
var playerPathPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+){0,15}$`)

// CheckPlayerParams checks a spec's bindings against its schema: each
// flag a declared boolean property, each path well formed.
func CheckPlayerParams(spec Spec) error {
	if len(spec.Player) == 0 {
		return nil
	}
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(spec.Parameters, &schema); err != nil {
		return fmt.Errorf("tool %s: player binding: schema: %w", spec.Name, err)
	}
	seen := map[string]bool{}
	for _, b := range spec.Player {
		prop, ok := schema.Properties[b.Flag]
		switch {
		case !ok:
			return fmt.Errorf("tool %s: player binding %q is not a parameter of the schema", spec.Name, b.Flag)
		case prop.Type != "boolean":
			return fmt.Errorf("tool %s: player binding %q must be a boolean parameter", spec.Name, b.Flag)
		case !playerPathPattern.MatchString(b.Path):
			return fmt.Errorf("tool %s: player binding %q: path %q is not a dotted path", spec.Name, b.Flag, b.Path)
		case seen[b.Flag]:
			return fmt.Errorf("tool %s: player binding %q is declared twice", spec.Name, b.Flag)
		}
		seen[b.Flag] = true
	}
	return nil
}

// PlayerValues returns every value at a dotted path of the state; arrays on
// the way fan out ("roster.id": each roster entry's id). Nulls are left out.
func PlayerValues(p Player, path string) []any {
	if p == nil {
		return nil
	}
	var out []any
	var walk func(v any, segs []string)
	walk = func(v any, segs []string) {
		if arr, ok := v.([]any); ok {
			for _, e := range arr {
				walk(e, segs)
			}
			return
		}
		if len(segs) == 0 {
			if v != nil {
				out = append(out, v)
			}
			return
		}
		if m, ok := v.(map[string]any); ok {
			if next, ok := m[segs[0]]; ok {
				walk(next, segs[1:])
			}
		}
	}
	walk(p.Data(), strings.Split(path, "."))
	return out
}

// boundKey carries the values of a tool's player bindings.
type boundKey struct{}

// bound is what Bound answers, per flag.
type bound map[string][]any

// Bound returns the values the executor read from the player state for
// the binding of flag: ok is false when the flag was not set (or the tool
// has no such binding), and a nil slice with ok true means the flag was
// set but the session has no player state, so nothing is owned that the
// server knows of. Tools answer that case in general terms and say so.
func Bound(ctx context.Context, flag string) (values []any, known bool, ok bool) {
	b, _ := ctx.Value(boundKey{}).(bound)
	vals, set := b[flag]
	if !set {
		return nil, false, false
	}
	_, has := PlayerFrom(ctx)
	return vals, has, true
}

// bindPlayer reads the bound values of the flags set to true in args.
func bindPlayer(ctx context.Context, spec Spec, args json.RawMessage) context.Context {
	if len(spec.Player) == 0 {
		return ctx
	}
	var flags map[string]json.RawMessage
	if json.Unmarshal(args, &flags) != nil {
		return ctx
	}
	p, _ := PlayerFrom(ctx)
	b := bound{}
	for _, pp := range spec.Player {
		if string(flags[pp.Flag]) != "true" {
			continue
		}
		b[pp.Flag] = PlayerValues(p, pp.Path)
	}
	if len(b) == 0 {
		return ctx
	}
	return context.WithValue(ctx, boundKey{}, b)
}

// PlayerScoped reports whether a tool's result may depend on the player
// state: it binds parameters to it, or declared it reads it (Personal).
// The session cache keys such results by the state's version.
func (s Spec) PlayerScoped() bool { return len(s.Player) > 0 || s.Personal }
