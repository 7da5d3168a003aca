package toolsfile

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// Chain is a composite tool of a tools file: its steps call other tools,
// those without dependencies between them at the same time, each through
// the caller's Steps (the session cache in a chat), and its result gathers
// every step's status and data in one envelope.
type Chain struct {
	def      ChainDef
	steps    []step
	cacheFor int
}

// step is a linked step: its tool's canonical name, the steps it waits for
// (indexes) and the properties its tool requires.
type step struct {
	id       string
	tool     string
	args     map[string]any
	optional bool
	after    []int
	required map[string]bool
}

var (
	_ tool.Composite     = (*Chain)(nil)
	_ tool.StepDescriber = (*Chain)(nil)
)

// StepInfos lists the chain's steps in the file's order, each with the
// tool it calls (canonical name) and the steps it waits for.
func (c *Chain) StepInfos() []tool.StepInfo {
	out := make([]tool.StepInfo, len(c.steps))
	for i, s := range c.steps {
		after := make([]string, len(s.after))
		for j, k := range s.after {
			after[j] = c.steps[k].id
		}
		out[i] = tool.StepInfo{ID: s.id, Tool: s.tool, Optional: s.optional, After: after}
	}
	return out
}

// Spec describes the chain to the registry and the LLM; its cache
// duration is the smallest of its steps' tools'.
func (c *Chain) Spec() tool.Spec {
	return tool.Spec{
		Name: c.def.Name, Description: c.def.Description, Category: c.def.Category,
		Parameters: c.def.Parameters, CacheDuration: c.cacheFor, Aliases: c.def.Aliases,
		Instruction: c.def.LLMInstruction, DisplayNames: c.def.DisplayNames, Version: c.def.Version,
		Personal: c.def.ReadsPlayer,
	}
}

// Def returns the definition the chain was built from.
func (c *Chain) Def() ChainDef { return c.def }

// Call implements tool.Tool. A chain runs other tools, so it needs an
// executor: the executor calls Compose instead.
func (c *Chain) Call(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Failure("The chain "+c.def.Name+" runs only through the tool executor.", "no executor",
		"Call the chain's steps one by one."), nil
}

// StepReport is one step of a chain call as its result reports it.
type StepReport struct {
	ID     string      `json:"id"`
	Tool   string      `json:"tool"`
	Status tool.Status `json:"status"`
	// Source says where a step that ran got its result (executed, cache,
	// duplicate, proactive).
	Source tool.Source `json:"source,omitempty"`
	// Message is the step's own message when it failed, or why it was
	// skipped.
	Message        string `json:"message,omitempty"`
	LLMInstruction string `json:"llm_instruction,omitempty"`
}

// ChainData is the data of a chain's result: every step's report, and the
// data of each step that succeeded under its id. It encodes as one object:
// "steps" first, then the step ids in chain order.
type ChainData struct {
	Steps []StepReport
	Data  map[string]json.RawMessage
}

// MarshalJSON encodes the reports and data in chain order.
func (d ChainData) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"steps":`)
	steps := d.Steps
	if steps == nil {
		steps = []StepReport{}
	}
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(steps); err != nil {
		return nil, err
	}
	b.Truncate(b.Len() - 1)
	for _, s := range d.Steps {
		raw, ok := d.Data[s.ID]
		if !ok {
			continue
		}
		fmt.Fprintf(&b, `,%q:`, s.ID)
		b.Write(raw)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// stepRun is the state of one step during a call.
type stepRun struct {
	report StepReport
	result tool.Result     // the step's envelope, once it ran
	raw    json.RawMessage // data of a successful step, as JSON
	data   any             // the same, decoded for references
	dur    int             // cache duration of a successful step's result
	// blocks is set when the step's failure (or a skip caused by one) must
	// keep the chain's result out of the cache.
	blocks bool
}

// Compose runs the chain's steps with steps: each step starts once the
// steps whose data it reads are done, up to MaxParallelSteps at once. A
// required step that fails (or cannot be given its arguments) fails the
// chain with that step's message and guidance and stops the steps still
// running; an optional step's failure is reported in its status, and the
// steps reading its data are skipped. The result's cache duration is the
// smallest of the steps' results'; a failed optional step makes it 0.
func (c *Chain) Compose(ctx context.Context, args json.RawMessage, steps tool.Steps) (tool.Result, error) {
	decoded, err := decodeData(args)
	params := inputs{params: decoded}
	if p, ok := tool.PlayerFrom(ctx); ok {
		params.player = p.Data()
	}
	if err != nil {
		return tool.Failure("Invalid arguments for "+c.def.Name+".", "arguments are not valid JSON",
			"Call "+c.def.Name+" again with arguments that match its parameter schema."), nil
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	n := len(c.steps)
	runs := make([]stepRun, n)
	for i, s := range c.steps {
		runs[i].report = StepReport{ID: s.id, Tool: s.tool}
	}
	waiting := make([]int, n)
	dependents := make([][]int, n)
	var ready []int
	for i, s := range c.steps {
		waiting[i] = len(s.after)
		for _, a := range s.after {
			dependents[a] = append(dependents[a], i)
		}
		if waiting[i] == 0 {
			ready = append(ready, i)
		}
	}
	release := func(i int) {
		for _, j := range dependents[i] {
			if waiting[j]--; waiting[j] == 0 {
				ready = append(ready, j)
			}
		}
	}
	type finished struct {
		i   int
		out tool.Outcome
	}
	done := make(chan finished, n)
	running := 0
	failed := -1 // the required step that failed the chain
	for {
		for failed < 0 && ctx.Err() == nil && running < MaxParallelSteps && len(ready) > 0 {
			i := ready[0]
			ready = ready[1:]
			s := c.steps[i]
			call, why, blocked := c.prepare(i, params, runs)
			if why != "" {
				runs[i].report.Status = tool.StatusSkipped
				runs[i].report.Message = why
				runs[i].blocks = blocked
				if !s.optional {
					failed = i
					cancel() // the chain has failed: stop the steps still running
					break
				}
				release(i)
				continue
			}
			running++
			go func() {
				var o tool.Outcome
				if outs := steps(ctx, []tool.Call{call}); len(outs) > 0 {
					o = outs[0]
				}
				done <- finished{i: i, out: o}
			}()
		}
		if running == 0 {
			break
		}
		f := <-done
		running--
		c.record(&runs[f.i], f.out, len(dependents[f.i]) > 0)
		if runs[f.i].report.Status != tool.StatusSuccess && !c.steps[f.i].optional && failed < 0 {
			failed = f.i
			cancel() // the chain has failed: stop the steps still running
		}
		release(f.i)
	}
	if err := parent.Err(); err != nil {
		return tool.Result{}, err
	}
	data := ChainData{Data: map[string]json.RawMessage{}}
	for i := range runs {
		r := &runs[i]
		if r.report.Status == "" { // only once a step has failed the chain
			r.report.Status = tool.StatusSkipped
			r.report.Message = "not run: the chain had failed"
			if failed >= 0 {
				r.report.Message = "not run: step " + c.steps[failed].id + " failed the chain"
			}
		}
		data.Steps = append(data.Steps, r.report)
		if r.report.Status == tool.StatusSuccess {
			data.Data[r.report.ID] = r.raw
		}
	}
	if failed >= 0 {
		return c.failure(failed, runs, data), nil
	}
	return c.success(runs, data), nil
}

// prepare resolves step i's arguments. It returns why the step cannot run
// ("" when it can), and whether that is because of a failure (which keeps
// the chain's result out of the cache) rather than an absent value.
func (c *Chain) prepare(i int, params inputs, runs []stepRun) (tool.Call, string, bool) {
	s := c.steps[i]
	for _, a := range s.after {
		dep := runs[a].report
		switch dep.Status {
		case tool.StatusSuccess:
		case tool.StatusSkipped:
			return tool.Call{}, fmt.Sprintf("its input comes from step %s, which was skipped", dep.ID), runs[a].blocks
		default:
			return tool.Call{}, fmt.Sprintf("its input comes from step %s, which failed", dep.ID), true
		}
	}
	out := make(map[string]any, len(s.args))
	for _, k := range slices.Sorted(maps.Keys(s.args)) {
		v := s.args[k]
		if r, ok := v.(Ref); ok {
			val, found := c.lookup(r, params, runs)
			if !found {
				if s.required[k] {
					return tool.Call{}, fmt.Sprintf("no value for %s (%s)", k, r.Text), false
				}
				continue // an absent optional value leaves the argument out
			}
			out[k] = val
			continue
		}
		val, missing := c.fill(v, params, runs)
		if missing != "" {
			return tool.Call{}, fmt.Sprintf("no value for %s.%s", k, missing), false
		}
		out[k] = val
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return tool.Call{}, "its arguments could not be encoded", true
	}
	return tool.Call{Name: s.tool, Arguments: raw}, "", false
}

// fill replaces the references nested in v by their values; missing names
// the first one without a value.
func (c *Chain) fill(v any, params inputs, runs []stepRun) (any, string) {
	switch x := v.(type) {
	case Ref:
		val, ok := c.lookup(x, params, runs)
		if !ok {
			return nil, "(" + x.Text + ")"
		}
		return val, ""
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			val, missing := c.fill(e, params, runs)
			if missing != "" {
				return nil, k + " " + missing
			}
			out[k] = val
		}
		return out, ""
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			val, missing := c.fill(e, params, runs)
			if missing != "" {
				return nil, fmt.Sprintf("%d %s", i, missing)
			}
			out[i] = val
		}
		return out, ""
	}
	return v, ""
}

// inputs are what step arguments read besides earlier steps: the chain's
// arguments and the session's player state (nil: none).
type inputs struct {
	params any
	player any
}

// lookup reads a reference's value; a JSON null counts as no value.
func (c *Chain) lookup(r Ref, params inputs, runs []stepRun) (any, bool) {
	src := params.params
	if r.Player {
		src = params.player
	}
	if r.Step != "" {
		src = nil
		for i := range runs {
			if runs[i].report.ID == r.Step {
				src = runs[i].data
				break
			}
		}
	}
	if r.Whole {
		return src, src != nil
	}
	v, ok := r.Path.Lookup(src)
	return v, ok && v != nil
}

// record stores a finished step's outcome; read says whether later steps
// read its data (only then is it decoded).
func (c *Chain) record(r *stepRun, o tool.Outcome, read bool) {
	r.report.Source = o.Source
	res := o.Result
	r.result = res
	if o.Status != tool.StatusSuccess || res.Status != tool.StatusSuccess {
		r.report.Status = tool.StatusError
		r.report.Message = res.Message
		if r.report.Message == "" {
			r.report.Message = "the step failed"
		}
		r.blocks = true
		return
	}
	raw, data, err := decodeAny(res.Data, read)
	if err != nil {
		r.report.Status = tool.StatusError
		r.report.Message = "the step's data could not be read"
		r.blocks = true
		return
	}
	r.report.Status = tool.StatusSuccess
	r.report.LLMInstruction = res.LLMInstruction
	r.raw, r.data, r.dur = raw, data, res.LLMCacheDuration
}

// failure is the chain's error envelope for a required step i that failed
// or could not run.
func (c *Chain) failure(i int, runs []stepRun, data ChainData) tool.Result {
	s := c.steps[i]
	rep := runs[i].report
	var r tool.Result
	if rep.Status == tool.StatusSkipped {
		r = tool.Failure(
			fmt.Sprintf("%s could not run its step %s (%s): %s.", c.def.Name, s.id, s.tool, rep.Message),
			fmt.Sprintf("step %s: %s", s.id, rep.Message),
			"Call "+c.def.Name+" again with arguments that give every value its steps need, or call "+s.tool+" directly.")
	} else {
		res := runs[i].result
		r = tool.Failure(
			fmt.Sprintf("%s failed at step %s (%s): %s", c.def.Name, s.id, s.tool, res.Message),
			strings.TrimSpace(fmt.Sprintf("step %s: %s", s.id, res.ErrorDetails)),
			res.Guidance)
	}
	r.Data = data
	return r
}

// success is the chain's envelope when no required step failed.
func (c *Chain) success(runs []stepRun, data ChainData) tool.Result {
	d := c.cacheFor
	counts := map[tool.Status]int{}
	for _, r := range runs {
		counts[r.report.Status]++
		switch {
		case r.report.Status == tool.StatusSuccess:
			d = min(d, max(r.dur, 0))
		case r.blocks:
			d = 0
		}
	}
	if counts[tool.StatusSuccess] == 0 {
		d = 0
	}
	msg := fmt.Sprintf("Ran the %d steps of %s: %d succeeded", len(runs), c.def.Name, counts[tool.StatusSuccess])
	if k := counts[tool.StatusError]; k > 0 {
		msg += fmt.Sprintf(", %d failed (optional)", k)
	}
	if k := counts[tool.StatusSkipped]; k > 0 {
		msg += fmt.Sprintf(", %d skipped", k)
	}
	r := tool.Success(msg+".", data)
	r.LLMCacheDuration = d
	r.LLMInstruction = c.def.LLMInstruction
	return r
}

// decodeData decodes JSON text with numbers kept as json.Number, as the
// screen rules' path reader expects.
func decodeData(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// decodeAny reads a result's data, raw JSON as the executor leaves it or
// any value, as JSON text and, when decode is set, decoded.
func decodeAny(v any, decode bool) (json.RawMessage, any, error) {
	raw, ok := v.(json.RawMessage)
	if !ok || !json.Valid(raw) {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, nil, err
		}
		raw = b
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`null`)
	}
	if !decode {
		return raw, nil, nil
	}
	d, err := decodeData(raw)
	return raw, d, err
}
