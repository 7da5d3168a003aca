package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/gameassist/gameassist/internal/memo"
)

// ExecutorOptions tunes the safe executor; zero values take the defaults.
type ExecutorOptions struct {
	// Timeout bounds one call (default 10 s); a Spec.Timeout overrides it.
	Timeout time.Duration
	// MaxResultChars caps the JSON size of a result's data (default 8,000).
	MaxResultChars int
	// MaxAttempts bounds tries of a transient failure (default 3).
	MaxAttempts int
	// BaseBackoff is the first retry delay, doubled each try (default 20 ms).
	BaseBackoff time.Duration
	// Logger receives panics and backend failures; nil discards.
	Logger *slog.Logger
}

// Executor runs tool calls safely: arguments validated against the schema,
// a per-call timeout, retries of transient failures, panics turned into
// error envelopes, and oversized results cut to size.
type Executor struct {
	reg  *Registry
	opts ExecutorOptions
	log  *slog.Logger
	// done recycles the channels a call's goroutine answers on (see callOnce).
	done sync.Pool
	// bufs recycles the buffers results are encoded into (see fit).
	bufs sync.Pool
}

// validMemo remembers argument documents that passed validation against one
// registered schema, so the same call repeated (common: the LLM asks again,
// screens re-run) skips the schema walk. It lives in the registry entry, so a
// reload that changes a tool's schema starts a new memo. The zero value is
// ready (memo.DefaultLen documents).
type validMemo struct {
	seen memo.Map[string, struct{}]
}

// validMemoMaxKey bounds the argument documents remembered.
const validMemoMaxKey = 2048

// has reports whether args passed validation before; the lookup converts
// args without copying them.
func (m *validMemo) has(args []byte) bool {
	_, ok := memo.GetBytes(&m.seen, args)
	return ok
}

func (m *validMemo) add(args []byte) {
	if len(args) > validMemoMaxKey {
		return
	}
	m.seen.Put(string(args), struct{}{})
}

// NewExecutor returns an executor over reg.
func NewExecutor(reg *Registry, opts ExecutorOptions) (*Executor, error) {
	if reg == nil {
		return nil, errors.New("tool: executor needs a registry")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.MaxResultChars <= 0 {
		opts.MaxResultChars = 8000
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 3
	}
	if opts.BaseBackoff <= 0 {
		opts.BaseBackoff = 20 * time.Millisecond
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	e := &Executor{reg: reg, opts: opts, log: log}
	e.done.New = func() any { return make(chan outcome, 1) }
	e.bufs.New = func() any { return new(bytes.Buffer) }
	return e, nil
}

// Registry returns the registry the executor runs tools from.
func (e *Executor) Registry() *Registry { return e.reg }

// Execute runs one call and always returns an envelope: an unknown tool
// or version,
// invalid arguments, a timeout, a panic or a backend failure become error
// envelopes with guidance. A call that names no version runs the tool's
// default (highest) version. The envelope's internal_info names the
// canonical tool and the version that ran.
func (e *Executor) Execute(ctx context.Context, call Call) Result {
	return e.execute(ctx, call, nil)
}

// execute is Execute with the Steps a Composite tool runs its calls with
// (nil: through e).
func (e *Executor) execute(ctx context.Context, call Call, steps Steps) Result {
	args := call.Arguments
	if len(bytes.TrimSpace(args)) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	ent, ok := e.reg.lookupVersion(call.Name, call.Version)
	if !ok && call.Version != 0 && e.reg.Taken(call.Name) {
		r := Failure(fmt.Sprintf("Tool %s has no version %d.", Clip(call.Name, 80), call.Version),
			"no such version", fmt.Sprintf("Call %s without a version, or with one of %v.", Clip(call.Name, 80), e.reg.Versions(call.Name)))
		r.InternalInfo = InternalInfo{FunctionName: Clip(call.Name, 200), Parameters: safeRaw(args), Version: call.Version}
		return r
	}
	if !ok {
		r := Failure(fmt.Sprintf("Unknown tool %q.", Clip(call.Name, 80)),
			"no tool is registered under this name",
			"Use one of: "+strings.Join(e.reg.Closest(call.Name, 3), ", ")+".")
		r.InternalInfo = InternalInfo{FunctionName: Clip(call.Name, 200), Parameters: safeRaw(args)}
		return r
	}
	name := ent.spec.Name
	if !ent.valid.has(args) {
		if err := validate(ent.schema, args); err != nil {
			r := Failure("Invalid arguments for "+name+".", err.Error(),
				"Call "+name+" again with arguments that match its parameter schema.")
			r.InternalInfo = InternalInfo{FunctionName: name, Parameters: safeRaw(args), Version: ent.spec.Version}
			return r
		}
		ent.valid.add(args)
	}
	// Arguments that passed validation are valid JSON: no second scan.
	info := InternalInfo{FunctionName: name, Parameters: args, Version: ent.spec.Version}
	if steps == nil {
		steps = e.runSteps
	}
	ctx = bindPlayer(ctx, ent.spec, args)
	r, attempts := e.run(ctx, ent, args, steps)
	info.Attempts = attempts
	r.InternalInfo = info
	if r.LLMCacheDuration < 0 {
		r.LLMCacheDuration = ent.spec.CacheDuration
	}
	if !r.OK() {
		r.LLMCacheDuration = 0
	}
	r.InternalInfo.Rows = rowCount(r.Data)
	if r.Data != nil {
		r.Value = r.Data
		recordFacts(&r.InternalInfo, r.Data)
	}
	limit := e.opts.MaxResultChars
	if _, ok := ent.tool.(Composite); ok {
		// Each call of a composite had its data fitted by its own
		// execution; cutting the whole would break its structure.
		limit = math.MaxInt
	}
	e.fit(&r, limit)
	return r
}

// rowCount is how many items data holds: the length of a list, or of the
// first list field of an object (a result's rows), else 1; 0 for nothing.
func rowCount(data any) int {
	v := reflect.ValueOf(data)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return 0
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Invalid:
		return 0
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 { // json.RawMessage
			return 1
		}
		return v.Len()
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); v.Type().Field(i).IsExported() && f.Kind() == reflect.Slice && f.Type().Elem().Kind() != reflect.Uint8 {
				return f.Len()
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if e := reflect.ValueOf(iter.Value().Interface()); e.Kind() == reflect.Slice {
				return e.Len()
			}
		}
	}
	return 1
}

// run calls the tool with timeout, panic recovery and retries.
func (e *Executor) run(ctx context.Context, ent *entry, args json.RawMessage, steps Steps) (Result, int) {
	timeout := e.opts.Timeout
	if _, ok := ent.tool.(Composite); ok {
		timeout = 0 // each of its calls has the per-call timeout
	}
	if ent.spec.Timeout > 0 {
		timeout = ent.spec.Timeout
	}
	call, failed, ok := prepare(ent.tool, args, steps)
	if !ok {
		return failed, 1
	}
	backoff := e.opts.BaseBackoff
	var err error
	for attempt := 1; ; attempt++ {
		var r Result
		r, err = e.callOnce(ctx, ent.tool, call, timeout)
		if err == nil {
			return r, attempt
		}
		if !IsTransient(err) || attempt >= e.opts.MaxAttempts || ctx.Err() != nil {
			e.log.LogAttrs(ctx, slog.LevelWarn, "tool backend failure",
				slog.String("tool", ent.spec.Name), slog.Int("attempts", attempt), slog.String("error", err.Error()))
			return backendFailure(ent.spec.Name, err), attempt
		}
		jitter := time.Duration(rand.Int64N(int64(backoff)/2 + 1))
		select {
		case <-time.After(backoff + jitter):
		case <-ctx.Done():
			return backendFailure(ent.spec.Name, ctx.Err()), attempt
		}
		backoff *= 2
	}
}

// callOnce runs one attempt in its own goroutine, so a tool that ignores its
// context still cannot hold the caller past the timeout (none when timeout
// is 0: a composite, whose calls each have one). A ContextBound tool runs
// on the caller's goroutine: its own blocking steps end at the timeout.
func (e *Executor) callOnce(ctx context.Context, t Tool, call func(context.Context) (Result, error), timeout time.Duration) (Result, error) {
	var cancel context.CancelFunc
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	if _, ok := t.(ContextBound); ok {
		o := e.invoke(ctx, t, call)
		if o.err != nil && ctx.Err() != nil {
			// Failed because the time was up: report it as the timeout.
			o.err = ctx.Err()
		}
		return o.result()
	}
	done := e.done.Get().(chan outcome)
	go func() { done <- e.invoke(ctx, t, call) }()
	select {
	case o := <-done:
		// Answered and drained: the channel can serve another call. One
		// left behind by a timeout is not recycled, as its goroutine may
		// still send on it.
		e.done.Put(done)
		return o.result()
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// prepare returns the call to make for t with args: a Composite with
// steps, a Def with its arguments decoded here, once, on the caller's
// goroutine (decoding on a fresh goroutine grows its stack on every call),
// or the tool's own Call. A false ok comes with the failure to answer.
func prepare(t Tool, args json.RawMessage, steps Steps) (func(context.Context) (Result, error), Result, bool) {
	switch c := t.(type) {
	case Composite:
		return func(ctx context.Context) (Result, error) { return c.Compose(ctx, args, steps) }, Result{}, true
	case validatedDecoder:
		return c.decodeValidated(args)
	}
	return func(ctx context.Context) (Result, error) { return t.Call(ctx, args) }, Result{}, true
}

// invoke makes the call, turning a panic into an error envelope.
func (e *Executor) invoke(ctx context.Context, t Tool, call func(context.Context) (Result, error)) (o outcome) {
	defer func() {
		if p := recover(); p != nil {
			e.log.LogAttrs(ctx, slog.LevelError, "tool panicked",
				slog.String("tool", t.Spec().Name), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
			o = outcome{r: Failure("The tool failed unexpectedly.", "internal error", "Try a different tool or different arguments.")}
		}
	}()
	o.r, o.err = call(ctx)
	return o
}

// outcome is what a call's goroutine hands back to callOnce.
type outcome struct {
	r   Result
	err error
}

// result is the outcome as callOnce returns it: a success with no status
// set gets one.
func (o outcome) result() (Result, error) {
	if r, ok := Refused(o.err); ok {
		return r, nil
	}
	if o.err == nil && o.r.Status == "" {
		o.r.Status = StatusSuccess
	}
	return o.r, o.err
}

// backendFailure is the envelope of a call whose backend failed with err
// (kept as its Cause).
func backendFailure(name string, err error) Result {
	var r Result
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		r = Failure("The tool "+name+" timed out.", "timeout", "Try again with narrower arguments, or answer from what you already know.")
	case errors.Is(err, context.Canceled):
		r = Cancelled(name, err)
	default:
		r = Failure("The tool "+name+" is temporarily unavailable.", "backend unavailable",
			"Answer from the data you already have, or try again later.")
	}
	r.Cause = err
	return r
}

// Cancelled is the envelope of a call of tool name abandoned because its
// caller's context was cancelled (err, kept as its Cause).
func Cancelled(name string, err error) Result {
	r := Failure("The tool "+name+" was cancelled.", "cancelled", "The request was cancelled.")
	r.Cause = err
	return r
}

// fit replaces r.Data by its JSON encoding, cut to limit characters at an
// element or line boundary with a notice giving the full size.
func (e *Executor) fit(r *Result, limit int) {
	buf := e.bufs.Get().(*bytes.Buffer)
	buf.Reset()
	err := encodeTo(buf, r.Data)
	// The result keeps its own copy; the buffer goes back unless it grew
	// for an unusually large result.
	raw := bytes.Clone(buf.Bytes())
	if buf.Cap() <= 64<<10 {
		e.bufs.Put(buf)
	}
	if err != nil {
		*r = Failure("The tool returned data that could not be encoded.", err.Error(), "Try a different tool.")
		return
	}
	if len(raw) <= limit {
		r.Data = json.RawMessage(raw)
		return
	}
	cut, shown, total := truncateJSON(raw, limit)
	r.Data = cut
	r.InternalInfo.Truncated = true
	r.InternalInfo.FullSize = len(raw)
	notice := fmt.Sprintf("Result truncated: showing %d of %d %s; full size %d characters.", shown, total, unitName(raw), len(raw))
	if r.Message == "" {
		r.Message = notice
	} else {
		r.Message += " " + notice
	}
}

func unitName(raw []byte) string {
	if len(raw) > 0 && raw[0] == '"' {
		return "lines"
	}
	return "items"
}

// truncateJSON cuts a JSON value to at most limit bytes at a boundary: arrays
// keep a prefix of elements, strings a prefix of lines, objects trim their
// largest array or string member. It returns the cut value, how many
// elements or lines it kept and how many there were.
func truncateJSON(raw []byte, limit int) (json.RawMessage, int, int) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return json.RawMessage(`null`), 0, 0
	}
	switch x := v.(type) {
	case []any:
		kept := keepElements(x, limit)
		b, _ := json.Marshal(x[:kept])
		return b, kept, len(x)
	case string:
		s, kept, total := keepLines(x, limit)
		b, _ := json.Marshal(s)
		return b, kept, total
	case map[string]any:
		// Trim the largest member until the whole object fits.
		key, size := "", 0
		for k, m := range x {
			b, _ := json.Marshal(m)
			if len(b) > size {
				key, size = k, len(b)
			}
		}
		rest := len(raw) - size
		budget := max(limit-rest, 2)
		switch m := x[key].(type) {
		case []any:
			kept := keepElements(m, budget)
			x[key] = m[:kept]
			b, _ := json.Marshal(x)
			if len(b) <= limit {
				return b, kept, len(m)
			}
		case string:
			s, kept, total := keepLines(m, budget)
			x[key] = s
			b, _ := json.Marshal(x)
			if len(b) <= limit {
				return b, kept, total
			}
		}
	}
	// Fall back to text lines of the indented JSON.
	pretty, _ := json.MarshalIndent(v, "", " ")
	s, kept, total := keepLines(string(pretty), limit-2)
	b, _ := json.Marshal(s)
	return b, kept, total
}

func keepElements(xs []any, limit int) int {
	size := 2
	for i, x := range xs {
		b, _ := json.Marshal(x)
		size += len(b) + 1
		if size > limit {
			return i
		}
	}
	return len(xs)
}

func keepLines(s string, limit int) (string, int, int) {
	lines := strings.SplitAfter(s, "\n")
	size := 0
	for i, l := range lines {
		b, _ := json.Marshal(l)
		size += len(b) - 2
		if size > limit-2 {
			return strings.Join(lines[:i], ""), i, len(lines)
		}
	}
	return s, len(lines), len(lines)
}

// safeRaw returns args when they are valid JSON, or the text as a JSON string.
func safeRaw(args json.RawMessage) json.RawMessage {
	if json.Valid(args) {
		return args
	}
	b, _ := json.Marshal(Clip(string(args), 1000))
	return b
}
