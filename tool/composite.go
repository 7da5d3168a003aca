package tool

import (
	"context"
	"encoding/json"
	"fmt"
)

// Steps runs calls on behalf of a composite tool and returns their outcomes
// in call order. In a chat session it is the session's scope, so each call
// goes through the session cache, duplicate suppression and metrics; with
// no session (MCP, admin) it is the executor itself.
type Steps func(ctx context.Context, calls []Call) []Outcome

// Composite is a tool made of calls to other tools (a chain of a tools
// file). The executor runs it like any tool (arguments validated against
// its schema, panics recovered, the result fitted to size) but hands it a
// Steps to run its calls with, and gives it no per-call timeout of its own:
// each of its calls has one, and cancelling the context stops it.
type Composite interface {
	Tool
	Compose(ctx context.Context, args json.RawMessage, steps Steps) (Result, error)
}

// IsComposite reports whether the tool registered under name (or alias) is
// a Composite, so a caller that owns a session's cache runs it with
// ExecuteWith instead of sharing its execution with other sessions.
func (r *Registry) IsComposite(name string) bool {
	e, ok := r.lookup(name)
	if !ok {
		return false
	}
	_, c := e.tool.(Composite)
	return c
}

// ExecuteWith is Execute for a call whose tool may be a Composite: steps
// runs the composite's calls (nil runs them through e, each reported as
// executed). For any other tool it is Execute.
func (e *Executor) ExecuteWith(ctx context.Context, call Call, steps Steps) Result {
	return e.execute(ctx, call, steps)
}

// runSteps is the Steps of an executor with no session: each call is
// executed in turn.
func (e *Executor) runSteps(ctx context.Context, calls []Call) []Outcome {
	out := make([]Outcome, len(calls))
	for i, c := range calls {
		r := e.Execute(ctx, c)
		name := r.InternalInfo.FunctionName
		if name == "" {
			name = c.Name
		}
		out[i] = Outcome{Name: name, Arguments: safeRaw(c.Arguments), Source: SourceExecuted, Status: r.Status, Result: r}
	}
	return out
}

// ValidateSchema checks args against a JSON Schema document and returns a
// readable error naming the offending field, as the registry does for its
// tools; a schema that does not compile is an error too. Tools files use it
// to check literal arguments at load.
func ValidateSchema(name string, schema, args json.RawMessage) error {
	s, err := CompileSchema(name, schema)
	if err != nil {
		return fmt.Errorf("tool: %w", err)
	}
	return validate(s, args)
}

// StepInfo describes one step of a composite tool for operators
// (GET /admin/tools): its id, the tool it calls, whether it may fail
// without failing the whole, and the steps whose data it waits for.
type StepInfo struct {
	ID       string   `json:"id"`
	Tool     string   `json:"tool"`
	Optional bool     `json:"optional"`
	After    []string `json:"after"`
}

// StepDescriber is implemented by composite tools that can list their steps.
type StepDescriber interface {
	StepInfos() []StepInfo
}

// StepInfos lists the steps of the composite tool registered under name (or
// alias), its default (highest) version; ok is false for a tool that is not
// a StepDescriber.
func (r *Registry) StepInfos(name string) (steps []StepInfo, ok bool) {
	return r.StepInfosVersion(name, 0)
}

// StepInfosVersion is StepInfos for one version of a composite tool with
// several (0: the default), so operators see what each version runs.
func (r *Registry) StepInfosVersion(name string, version int) (steps []StepInfo, ok bool) {
	e, found := r.lookupVersion(name, version)
	if !found {
		return nil, false
	}
	d, ok := e.tool.(StepDescriber)
	if !ok {
		return nil, false
	}
	return d.StepInfos(), true
}
