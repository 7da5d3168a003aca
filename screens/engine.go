// Package screens is the screen-rule engine: when the player changes screen,
// it turns the screen (name and data) into a Plan — which context and data
// tools to run proactively, with which arguments, and the prompt injection
// that tells the LLM where the player is. Rules are data (a JSON file,
// validated against the tool registry at load and on reload); the engine runs
// no tools and stores nothing, so the chat service decides how to execute
// and cache the plan.
package screens

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gameassist/gameassist/tool"
)

//go:embed default_rules.json
var defaultRules []byte

// DefaultRules returns the embedded rules file for the sample game, used
// when no rules file is configured.
func DefaultRules() []byte {
	return append([]byte(nil), defaultRules...)
}

// Call roles within a Plan.
const (
	// RoleContext is the rule's context tool (UX documentation of the screen).
	RoleContext = "context"
	// RoleData is a data tool fed from a screen field.
	RoleData = "data"
)

// Plan is what the rules say to do for one screen: the calls to run (context
// tool first, then data tools in rule order) and the rendered prompt injection.
type Plan struct {
	// Screen is the screen name the plan is for.
	Screen string
	// Matched reports whether a rule covers the screen.
	Matched bool
	// Calls are the tool calls, in order; calls with Skipped set must not run.
	Calls []PlannedCall
	// Injection is the rendered prompt injection; "" when the rule has none
	// or it could not be rendered.
	Injection string
	// InjectionSkipped says why a rule's injection was not rendered.
	InjectionSkipped string
}

// PlannedCall is one tool call of a Plan with its role; a non-empty Skipped
// gives the reason it must not run (a field absent or of the wrong type, a
// value outside the tool's schema, or the same call earlier in the plan).
// Name is always the canonical tool name and Arguments are canonical JSON
// (sorted keys); Arguments is nil when the mapped field could not be used.
type PlannedCall struct {
	tool.Call
	// Role is RoleContext or RoleData.
	Role string
	// Skipped is the reason the call must not run; "" means run it.
	Skipped string
	// Fault marks a skip caused by a screen value that is there but unusable
	// (wrong type, outside the tool's schema). An optional field that is
	// absent, or a call already in the plan, is no fault: the rule simply
	// has nothing to run.
	Fault bool
}

// SkipStatus is the status a client sees for a skipped call: error for a
// fault, skipped otherwise.
func (pc PlannedCall) SkipStatus() tool.Status {
	if pc.Fault {
		return tool.StatusError
	}
	return tool.StatusSkipped
}

// Engine plans screens from the current rules and reloads them on demand;
// it is safe for concurrent use, and a reload swaps rules atomically.
type Engine struct {
	path string
	// builtin is the rules used when path is "": the embedded sample
	// rules, or none for a studio's own game (NewEmptyEngine).
	builtin []byte
	v       Validator
	tr      Translator
	log     *slog.Logger
	rules   atomic.Pointer[RuleSet]
	reload  sync.Mutex
}

// NewEngine loads and validates the rules file at path (the embedded default
// rules when path is ""). A bad file fails with an error wrapping
// ErrInvalidRules that lists every problem.
func NewEngine(path string, v Validator, tr Translator, logger *slog.Logger) (*Engine, error) {
	return newEngine(path, defaultRules, v, tr, logger)
}

func newEngine(path string, builtin []byte, v Validator, tr Translator, logger *slog.Logger) (*Engine, error) {
	switch {
	case v == nil:
		return nil, errors.New("screens: new engine: nil validator")
	case tr == nil:
		return nil, errors.New("screens: new engine: nil translator")
	case logger == nil:
		return nil, errors.New("screens: new engine: nil logger")
	}
	e := &Engine{path: path, builtin: builtin, v: v, tr: tr, log: logger}
	rs, err := e.load()
	if err != nil {
		return nil, err
	}
	e.rules.Store(rs)
	logger.Info("screen rules loaded", slog.String("source", e.source()), slog.Int("rules", rs.Len()))
	return e, nil
}

func (e *Engine) source() string {
	if e.path == "" && string(e.builtin) == "{}" {
		return "no rules"
	}
	if e.path == "" {
		return "embedded default"
	}
	return e.path
}

// load reads and parses the configured rules.
func (e *Engine) load() (*RuleSet, error) {
	data := e.builtin
	if e.path != "" {
		b, err := readLimited(e.path)
		if err != nil {
			return nil, err
		}
		data = b
	}
	rs, err := Parse(data, e.v)
	if err != nil {
		return nil, fmt.Errorf("screens: load %s: %w", e.source(), err)
	}
	return rs, nil
}

// readLimited reads a rules file, refusing one over MaxRulesFileSize.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path) //nolint:gosec // the operator's SCREEN_RULES path, read by design
	if err != nil {
		return nil, fmt.Errorf("screens: read rules: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxRulesFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("screens: read rules %s: %w", path, err)
	}
	if len(b) > MaxRulesFileSize {
		return nil, fmt.Errorf("screens: read rules %s: %w: file is over the %d-byte limit", path, ErrInvalidRules, MaxRulesFileSize)
	}
	return b, nil
}

// Reload re-reads and re-validates the rules. A bad file is refused with an
// error wrapping ErrInvalidRules and the running rules stay; a good one takes
// effect for every Plan that starts after Reload returns.
func (e *Engine) Reload(ctx context.Context) error {
	e.reload.Lock()
	defer e.reload.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("screens: reload: %w", err)
	}
	rs, err := e.load()
	if err != nil {
		return err
	}
	e.rules.Store(rs)
	e.log.InfoContext(ctx, "screen rules reloaded", slog.String("source", e.source()), slog.Int("rules", rs.Len()))
	return nil
}

// Rules returns the screen names the running rules cover, sorted.
func (e *Engine) Rules() []string {
	return e.rules.Load().Names()
}

// Tools returns the tools the running rule of screen names (data tools in
// rule order, then the context tool), for tool selection and for ordering
// cached results in the prompt; nil when no rule covers it.
func (e *Engine) Tools(screen string) []string {
	return e.rules.Load().Tools(screen)
}

// Plan turns a screen into the calls to run and the prompt injection. Bad
// screen input (empty name, data that is not an object, over 64 KiB or
// deeper than 32 levels) fails with ErrBadScreen; an unknown screen gives
// Plan{Matched: false} and no error. The error is otherwise only ctx's.
func (e *Engine) Plan(ctx context.Context, screen Screen, locale string) (Plan, error) {
	if err := checkName(screen.Name); err != nil {
		return Plan{}, err
	}
	data, err := decodeData(screen.Data)
	if err != nil {
		return Plan{}, err
	}
	withPlayer(ctx, data)
	p := Plan{Screen: screen.Name}
	r, ok := e.rules.Load().rules[screen.Name]
	if !ok {
		return p, nil
	}
	p.Matched = true
	p.Calls = make([]PlannedCall, 0, len(r.data)+1)
	if r.context != nil {
		c := *r.context
		c.Arguments = slices.Clone(c.Arguments) // the rule's copy stays immutable
		p.Calls = append(p.Calls, PlannedCall{Call: c, Role: RoleContext})
	}
	for _, dt := range r.data {
		pc := e.planData(dt, data)
		if pc.Skipped == "" {
			for i, prev := range p.Calls {
				if prev.Skipped == "" && prev.Name == pc.Name && string(prev.Arguments) == string(pc.Arguments) {
					pc.Skipped = fmt.Sprintf("same call as calls[%d]", i)
					break
				}
			}
		}
		p.Calls = append(p.Calls, pc)
	}
	if r.tmpl == nil {
		return p, nil
	}
	for _, f := range r.required {
		if v, ok := lookup(data, f.path); !ok || v == nil {
			p.InjectionSkipped = fmt.Sprintf("required field %s is absent from %s", f.text, f.source())
			return p, nil
		}
	}
	s, err := r.tmpl.render(ctx, data, e.tr, locale, e.log)
	if err != nil {
		return Plan{}, err
	}
	p.Injection = s
	return p, nil
}

// planData maps one screen field to a data tool's parameter, or says why the
// call must be skipped.
func (e *Engine) planData(dt dataTool, data map[string]any) PlannedCall {
	pc := PlannedCall{Call: tool.Call{Name: dt.tool}, Role: RoleData}
	v, ok := lookup(data, dt.field.path)
	if !ok || v == nil {
		pc.Skipped = fmt.Sprintf("field %s is absent from %s", dt.field.text, dt.field.source())
		return pc
	}
	val, ok := convert(v, dt.kinds)
	if !ok {
		pc.Fault = true
		pc.Skipped = fmt.Sprintf("field %s is %s %s, but parameter %s of %s needs %s",
			dt.field.text, article(kindOf(v)), kindOf(v), dt.param, dt.tool, strings.Join(dt.kinds, " or "))
		return pc
	}
	args := maps.Clone(dt.fixed)
	if args == nil {
		args = map[string]json.RawMessage{}
	}
	args[dt.param] = val
	raw, err := marshalArgs(args)
	if err != nil {
		pc.Fault = true
		pc.Skipped = fmt.Sprintf("arguments for %s could not be encoded", dt.tool)
		return pc
	}
	pc.Arguments = raw
	if err := e.v.ValidateArgs(dt.tool, raw); err != nil {
		pc.Fault = true
		pc.Skipped = fmt.Sprintf("field %s does not fit %s: %s", dt.field.text, dt.tool, err)
	}
	return pc
}

func article(kind string) string {
	if kind == "integer" || kind == "object" || kind == "array" {
		return "an"
	}
	return "a"
}

// convert encodes a screen value as the parameter's JSON value when it fits
// one of kinds (any kind when kinds is empty); whole numbers become integers.
func convert(v any, kinds []string) (json.RawMessage, bool) {
	fits := func(k string) bool {
		if len(kinds) == 0 {
			return true
		}
		for _, x := range kinds {
			if x == k {
				return true
			}
		}
		return false
	}
	switch x := v.(type) {
	case json.Number:
		if id, ok := wholeNumber(x); ok && (fits("integer") || fits("number")) {
			return json.RawMessage(fmt.Sprint(id)), true
		}
		if fits("number") {
			return json.RawMessage(x), true
		}
	case string:
		if fits("string") {
			b, err := json.Marshal(x)
			return b, err == nil
		}
	case bool:
		if fits("boolean") {
			return json.RawMessage(fmt.Sprint(x)), true
		}
	case []any:
		if fits("array") {
			b, err := json.Marshal(x)
			return b, err == nil
		}
	case map[string]any:
		if fits("object") {
			b, err := json.Marshal(x)
			return b, err == nil
		}
	}
	return nil, false
}
