package chat

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gameassist/gameassist/internal/memo"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// Runner runs the tool calls of sessions: within one turn a repeated call
// is answered once, a live cache entry of the session is served instead of
// running the tool again, and identical calls running at the same moment in
// this process (any session) share one execution.
type Runner struct {
	exec     Executor
	reg      *tool.Registry
	versions DataVersioner
	obs      Observer
	log      *slog.Logger
	rollouts Rollouts
	flight   flight
	keys     keyMemo
	// parallel bounds the executions of one batch running at once (0: no bound).
	parallel int
}

// NewRunner returns a runner over exec. versions may be nil (every result
// then carries the empty data version); obs may be nil.
func NewRunner(exec Executor, versions DataVersioner, obs Observer, logger *slog.Logger) (*Runner, error) {
	if exec == nil || exec.Registry() == nil {
		return nil, errors.New("chat: runner needs an executor with a registry")
	}
	if obs == nil {
		obs = nopObserver{}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Runner{exec: exec, reg: exec.Registry(), versions: versions, obs: obs, log: logger}, nil
}

// SetRollouts makes the runner run each session on its assigned version of
// tools that have several (nil: always the highest). Call it before the
// runner is used.
func (r *Runner) SetRollouts(ro Rollouts) { r.rollouts = ro }

// SetConcurrency bounds how many calls of one batch run at once; n <= 0
// removes the bound. Call it before the runner is used.
func (r *Runner) SetConcurrency(n int) { r.parallel = max(n, 0) }

// Scope is the tool state of one turn, or one screen event, of a session:
// which calls were already answered and what the session cache holds. It
// collects the cache entries to store and the cache keys served.
type Scope struct {
	r         *Runner
	session   string
	exchange  int
	proactive bool
	version   string
	versionOK bool

	mu sync.Mutex
	// assigned is the session's version of each versioned tool used in
	// the scope, decided once per scope.
	assigned map[string]int
	cache    map[string]memory.CacheEntry
	done     map[string]tool.Outcome // key → first answer in this scope
	puts     []memory.CacheEntry
	hits     []string

	// kept is the versions stored with the session (KeepVersions);
	// changed the versions decided here that differ from them, to store.
	kept, changed map[string]int

	// player is the version of the session's player state ("-": none);
	// it joins the cache key of tools whose results depend on it.
	player string
}

// Scope starts the tool state of a turn of session at exchange, over the
// session's cache entries. Entries not live at exchange, or computed from
// another data version (read once, here), are misses. A proactive scope
// (screen rules) reports executed calls as proactive and caches successful
// results for at least one exchange.
func (r *Runner) Scope(ctx context.Context, session string, exchange int, cache []memory.CacheEntry, proactive bool) *Scope {
	s := &Scope{
		r: r, session: session, exchange: exchange, proactive: proactive,
		cache: make(map[string]memory.CacheEntry, len(cache)),
		done:  map[string]tool.Outcome{}, assigned: map[string]int{},
	}
	s.version, s.versionOK = r.dataVersion(ctx)
	s.player = "-"
	if p, ok := tool.PlayerFrom(ctx); ok {
		s.player = p.Version()
	}
	for _, e := range cache {
		if s.versionOK && e.Serves(exchange, s.version) {
			s.cache[e.Key] = e
		}
	}
	return s
}

// Cached returns the session's cache entries served in this scope (live,
// same data version), oldest first.
func (s *Scope) Cached() []memory.CacheEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]memory.CacheEntry, 0, len(s.cache))
	for _, e := range s.cache {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b memory.CacheEntry) int {
		return cmp.Or(cmp.Compare(a.CachedAt, b.CachedAt), strings.Compare(a.Key, b.Key))
	})
	return out
}

// Puts returns the cache entries this scope's executions produced.
func (s *Scope) Puts() []memory.CacheEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]memory.CacheEntry(nil), s.puts...)
}

// Hits returns the cache keys served from the session cache in this scope.
func (s *Scope) Hits() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.hits...)
}

// prepared is one call of a batch, classified.
type prepared struct {
	name  string          // canonical when registered, else as called
	args  json.RawMessage // as sent, for the executor and the key
	shown json.RawMessage // valid JSON, for outcomes
	key   string
	// version is the session's version of a tool with several, else 0
	// (the executor runs the only version).
	version int
	dupOf   int // index in the batch of the first identical call, or -1
	start   time.Time
	source  tool.Source
}

// Run answers a batch of calls and returns their outcomes in call order.
// Calls that need executing run concurrently. It never fails: a cancelled
// ctx yields "cancelled" error envelopes.
func (s *Scope) Run(ctx context.Context, calls []tool.Call) []tool.Outcome {
	outs := make([]tool.Outcome, len(calls))
	preps := make([]prepared, len(calls))
	version, versionOK := s.version, s.versionOK

	s.mu.Lock()
	first := map[string]int{}
	var toRun []int
	for i, c := range calls {
		p := prepared{dupOf: -1, start: time.Now()}
		p.name, p.args, p.version, p.key = s.keyLocked(ctx, c)
		p.shown = argsJSON(p.args)
		if prev, ok := s.done[p.key]; ok {
			p.source = tool.SourceDuplicate
			outs[i] = duplicateOf(prev, p)
		} else if j, ok := first[p.key]; ok {
			p.source = tool.SourceDuplicate
			p.dupOf = j
		} else if e, ok := s.cache[p.key]; ok {
			if res, err := decodeResult(e.Result); err == nil {
				p.source = tool.SourceCache
				outs[i] = tool.Outcome{
					Name: p.name, Arguments: p.shown, Source: tool.SourceCache, Status: res.Status,
					Version: res.InternalInfo.Version, DurationMS: ms(time.Since(p.start)), Result: res,
				}
				s.done[p.key] = outs[i]
				s.hits = append(s.hits, p.key)
			} else {
				s.r.log.LogAttrs(ctx, slog.LevelWarn, "chat: damaged cache entry", slog.String("session_id", s.session),
					slog.String("key", p.key), slog.String("error", err.Error()))
			}
		}
		if p.source == "" {
			p.source = tool.SourceExecuted
			if s.proactive {
				p.source = tool.SourceProactive
			}
			first[p.key] = i
			toRun = append(toRun, i)
		}
		preps[i] = p
	}
	s.mu.Unlock()

	runOne := func(i int) {
		p := preps[i]
		res := s.executeSafe(ctx, tool.Call{Name: calls[i].Name, Arguments: p.args, Version: p.version}, p.key, version)
		outs[i] = tool.Outcome{
			Name: p.name, Arguments: p.shown, Source: p.source, Status: res.Status,
			Version: res.InternalInfo.Version, DurationMS: ms(time.Since(p.start)), Result: res,
		}
	}
	if len(toRun) == 1 {
		// One call (the usual turn) runs here: nothing to overlap with.
		runOne(toRun[0])
	} else {
		var wg sync.WaitGroup
		var slots chan struct{}
		if s.r.parallel > 0 {
			slots = make(chan struct{}, s.r.parallel)
		}
		for _, i := range toRun {
			if slots != nil {
				slots <- struct{}{}
			}
			wg.Go(func() {
				if slots != nil {
					defer func() { <-slots }()
				}
				runOne(i)
			})
		}
		wg.Wait()
	}

	s.mu.Lock()
	for _, i := range toRun {
		p, o := preps[i], outs[i]
		s.done[p.key] = o
		if !o.Result.OK() || !versionOK {
			continue
		}
		d := memory.EntryDuration(o.Result.LLMCacheDuration, s.proactive)
		if d <= 0 {
			continue
		}
		raw, err := o.Result.Stored()
		if err != nil {
			continue
		}
		s.puts = append(s.puts, memory.CacheEntry{
			Key: p.key, Tool: p.name, Version: o.Version, Parameters: p.args, Result: raw,
			CachedAt: s.exchange, Duration: d, DataVersion: version,
		})
	}
	for i, p := range preps {
		if p.dupOf >= 0 {
			outs[i] = duplicateOf(outs[p.dupOf], p)
		}
	}
	s.mu.Unlock()

	// The LLM view is rendered once: the turn's tool message and the
	// observer's metrics both read it.
	for i := range outs {
		outs[i].View = outs[i].Result.ForLLM()
	}
	for _, o := range outs {
		s.r.log.LogAttrs(ctx, slog.LevelInfo, "tool call",
			slog.String("tool", o.Name), slog.Int("version", o.Version), slog.String("source", string(o.Source)),
			slog.Float64("duration_ms", o.DurationMS), slog.String("status", string(o.Status)),
			slog.Int("rows", o.Result.InternalInfo.Rows), slog.Bool("truncated", o.Result.InternalInfo.Truncated),
			slog.String("session_id", s.session))
	}
	s.r.obs.ToolCalls(ctx, s.session, outs)
	return outs
}

// stepsExecutor is an Executor that runs a composite tool (a chain) with
// the caller's tool.Steps; *tool.Executor is one.
type stepsExecutor interface {
	ExecuteWith(ctx context.Context, call tool.Call, steps tool.Steps) tool.Result
}

// executeSafe is execute with a panic (an Executor's, past its own
// recovery) turned into the call's error result: on a batch's goroutine
// it would end the process.
func (s *Scope) executeSafe(ctx context.Context, call tool.Call, key, version string) (res tool.Result) {
	defer func() {
		if p := recover(); p != nil {
			res = s.r.panicked(ctx, call.Name, p)
		}
	}()
	return s.execute(ctx, call, key, version)
}

// panicked logs a tool call's panic and returns its error result.
func (r *Runner) panicked(ctx context.Context, name string, p any) tool.Result {
	r.log.LogAttrs(ctx, slog.LevelError, "chat: tool call panicked",
		slog.String("tool", name), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
	return tool.Failure("The tool "+tool.Clip(name, 80)+" failed unexpectedly.", "internal error", "Try a different tool or different arguments.")
}

// execute runs one call of the scope. A composite tool runs its steps
// through the scope, so each is served from the session cache when it can
// be, cached, suppressed as a duplicate and reported like any call; its
// execution is not shared with other sessions, whose caches differ.
func (s *Scope) execute(ctx context.Context, call tool.Call, key, version string) tool.Result {
	if se, ok := s.r.exec.(stepsExecutor); ok && s.r.reg.IsComposite(call.Name) {
		return se.ExecuteWith(ctx, call, s.Run)
	}
	return s.r.execute(ctx, call, key, version)
}

// execute runs one call, sharing the execution with identical calls in
// flight in this process.
func (r *Runner) execute(ctx context.Context, call tool.Call, key, version string) tool.Result {
	out, shared, err := r.flight.do(ctx, key+"\x00"+version, func() (res tool.Result) {
		defer func() {
			if p := recover(); p != nil {
				res = r.panicked(ctx, call.Name, p)
			}
		}()
		return r.exec.Execute(ctx, call)
	})
	if err != nil || (!shared && ctx.Err() != nil) {
		return tool.Cancelled(call.Name, ctx.Err())
	}
	// The shared execution belonged to a caller that went away; this
	// caller is still here, so it runs the tool itself.
	if shared && errors.Is(out.Cause, context.Canceled) && ctx.Err() == nil {
		return r.exec.Execute(ctx, call)
	}
	return out
}

// flight shares one execution among the identical calls in flight in this
// process. The first caller runs the call on its own goroutine (the
// executor ends it when that caller's context ends); the others wait for
// its result and leave when their own context ends. Unlike
// singleflight.Group.DoChan, a call costs no goroutine and no hand-off
// (a tool call's wall time was mostly those on a busy machine), and unlike
// its Do a waiting caller can still leave.
type flight struct {
	mu    sync.Mutex
	calls map[string]*flightCall
}

// flightCall is one shared execution: res is set before done is closed.
type flightCall struct {
	done chan struct{}
	res  tool.Result
}

// do returns fn's result for key, run once among concurrent callers;
// shared reports a result run by another caller, err this caller's
// context ending while it waited for one.
func (f *flight) do(ctx context.Context, key string, fn func() tool.Result) (res tool.Result, shared bool, err error) {
	f.mu.Lock()
	if c, ok := f.calls[key]; ok {
		f.mu.Unlock()
		select {
		case <-ctx.Done():
			return tool.Result{}, true, ctx.Err()
		case <-c.done:
			return c.res, true, nil
		}
	}
	c := &flightCall{done: make(chan struct{})}
	if f.calls == nil {
		f.calls = map[string]*flightCall{}
	}
	f.calls[key] = c
	f.mu.Unlock()
	// Deferred, so waiting callers are released even if fn panics.
	defer func() {
		f.mu.Lock()
		delete(f.calls, key)
		f.mu.Unlock()
		close(c.done)
	}()
	c.res = fn()
	return c.res, false, nil
}

// dataVersion returns the current data version; ok is false when it could
// not be read, and then the cache is neither read nor written.
func (r *Runner) dataVersion(ctx context.Context) (string, bool) {
	if r.versions == nil {
		return "", true
	}
	v, err := r.versions.DataVersion(ctx)
	if err != nil {
		r.log.LogAttrs(ctx, slog.LevelWarn, "chat: data version unavailable; tool cache bypassed", slog.String("error", err.Error()))
		return "", false
	}
	return v, true
}

// duplicateOf reports a call answered earlier in the scope: not run again,
// with the earlier result kept for the caller.
func duplicateOf(prev tool.Outcome, p prepared) tool.Outcome {
	return tool.Outcome{Name: p.name, Arguments: p.shown, Source: tool.SourceDuplicate, Status: prev.Status, Version: prev.Version, Result: prev.Result}
}

// duplicateNote is what the model reads for a duplicate call instead of the
// full result it already has.
func duplicateNote(o tool.Outcome) string {
	b, _ := json.Marshal(map[string]any{
		"status":  o.Status,
		"message": "Same call (" + o.Name + " with the same arguments) as earlier in this turn; its result is above. Use that result instead of calling again.",
	})
	return string(b)
}

// normalizeArgs returns args as JSON text: empty means {}; text that is not
// JSON is kept as sent so the executor can report it.
func normalizeArgs(raw json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(t)
}

// Key returns the session cache key of call in this scope: the key Run
// stores its result under, with the version Run assigned.
func (s *Scope) Key(ctx context.Context, call tool.Call) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _, _, key := s.keyLocked(ctx, call)
	return key
}

// keyLocked resolves call as Run keys it: the canonical name (the name
// as called when unregistered), the normalized arguments, the session's
// version of the tool and the cache key. The caller holds s.mu.
func (s *Scope) keyLocked(ctx context.Context, call tool.Call) (name string, args json.RawMessage, version int, key string) {
	name = call.Name
	if n, ok := s.r.reg.Resolve(name); ok {
		name = n
	}
	args = normalizeArgs(call.Arguments)
	version = s.versionLocked(ctx, name)
	return name, args, version, s.r.keys.callKey(s.keyName(name), version, args)
}

// keyMemo remembers the cache keys of recent calls (memory.CallKey, which
// decodes the arguments to write them canonically): the same call comes
// back across turns and sessions (a screen's rules, a popular champion).
// The zero value is ready (memo.DefaultLen keys).
type keyMemo struct {
	keys memo.Map[string, string]
}

// keyMemoMaxArgs bounds the arguments remembered.
const keyMemoMaxArgs = 1024

// callKey is memory.CallKey(name, version, args), remembered.
func (m *keyMemo) callKey(name string, version int, args json.RawMessage) string {
	if len(args) > keyMemoMaxArgs {
		return memory.CallKey(name, version, args)
	}
	// The name's length first: no two calls share an id.
	id := strconv.Itoa(len(name)) + ":" + name + strconv.Itoa(version) + ":" + string(args)
	if k, ok := m.keys.Get(id); ok {
		return k
	}
	k := memory.CallKey(name, version, args)
	m.keys.Put(id, k)
	return k
}

// keyName is the name a call's cache key is made from: the tool's name,
// with the player state's version for a tool whose result depends on it,
// so a new roster is never answered from an entry computed for the old.
func (s *Scope) keyName(name string) string {
	if sp, ok := s.r.reg.Spec(name); ok && sp.PlayerScoped() {
		return name + "#player:" + s.player
	}
	return name
}

// argsJSON makes arguments safe to embed in JSON: malformed text becomes a
// JSON string.
func argsJSON(args json.RawMessage) json.RawMessage {
	if json.Valid(args) {
		return args
	}
	b, _ := json.Marshal(string(args))
	return b
}

// decodeResult reads a stored envelope; its data stays raw JSON, so serving
// it again re-encodes nothing.
func decodeResult(raw json.RawMessage) (tool.Result, error) {
	var stored struct {
		tool.Result
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &stored); err != nil {
		return tool.Result{}, err
	}
	r := stored.Result
	r.Data = stored.Data
	if r.Status == "" {
		return tool.Result{}, errors.New("result without status")
	}
	return r, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// KeepVersions gives the scope the tool versions stored with the session
// (memory.Meta.Versions): the session keeps each while its weight is above
// 0. Call it before the scope runs anything; the map is not changed.
func (s *Scope) KeepVersions(stored map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kept = stored
}

// AssignedVersions returns the versions decided in the scope that differ
// from the ones stored with the session (new tools, or a version moved
// off by a weight of 0), for memory.Finish.Versions; nil when none.
func (s *Scope) AssignedVersions() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.changed)
}

// versionLocked returns the session's version of tool (a canonical name)
// when it has several versions, else 0; decided once per scope, so the
// weights are read at most once per turn. The caller holds s.mu.
func (s *Scope) versionLocked(ctx context.Context, name string) int {
	if v, ok := s.assigned[name]; ok {
		return v
	}
	v := 0
	if s.r.reg.HasVersions(name) {
		vs := s.r.reg.Versions(name)
		v = vs[len(vs)-1]
		if s.r.rollouts != nil {
			kept := s.kept[name]
			v = s.r.rollouts.Version(ctx, s.session, name, vs, kept)
			if v != kept && v > 0 {
				if s.changed == nil {
					s.changed = map[string]int{}
				}
				s.changed[name] = v
			}
		}
	}
	s.assigned[name] = v
	return v
}

// OfferedSpecs returns specs with each tool of several versions replaced by
// the spec of the session's version: the LLM sees one name and the schema
// and description of the version its calls will run.
func (s *Scope) OfferedSpecs(ctx context.Context, specs []tool.Spec) []tool.Spec {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []tool.Spec
	for i, sp := range specs {
		v := s.versionLocked(ctx, sp.Name)
		if v == 0 || v == sp.Version {
			continue
		}
		vs, ok := s.r.reg.SpecVersion(sp.Name, v)
		if !ok {
			continue
		}
		if out == nil {
			out = slices.Clone(specs)
		}
		out[i] = vs
	}
	if out == nil {
		return specs
	}
	return out
}
