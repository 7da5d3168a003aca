package rollout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/tool"
)

// DefaultRefresh is how long an instance uses the weights it read from
// Redis before reading them again.
const DefaultRefresh = time.Second

// ErrUnknownTool is returned by Set for a name no tool answers to.
var ErrUnknownTool = errors.New("unknown tool")

// Source says where a tool's weights come from.
type Source string

// The sources of a tool's weights, strongest first.
const (
	// SourceAdmin: set at run time (PUT /admin/tools/:name/rollout),
	// stored in Redis.
	SourceAdmin Source = "admin"
	// SourceFile: the tools file's rollouts: section.
	SourceFile Source = "file"
	// SourceDefault: no weights set; the highest version takes every session.
	SourceDefault Source = "default"
)

// Tools is what the assigner needs of the tool registry; *tool.Registry
// satisfies it.
type Tools interface {
	// Resolve returns the canonical name for a name or alias.
	Resolve(name string) (string, bool)
	// Versions returns a tool's versions, ascending.
	Versions(name string) []int
	// Versioned lists the canonical names of tools with several versions.
	Versioned() []string
}

// Options tune an Assigner; zero values take the defaults.
type Options struct {
	// Prefix starts the Redis keys (default "ga"); keys are
	// "<prefix>:{rollouts}:<tool>", one per tool, all in one cluster slot.
	Prefix string
	// Refresh is how long weights read from Redis are used before being
	// read again (default DefaultRefresh).
	Refresh time.Duration
	// Now is the clock of the refresh (default time.Now).
	Now func() time.Time
	// Logger receives Redis failures; nil discards.
	Logger *slog.Logger
}

// Assigner assigns sessions to tool versions and keeps the weights: the
// admin's in Redis, the tools file's in memory. Safe for concurrent use.
type Assigner struct {
	rdb    redis.UniversalClient
	tools  Tools
	prefix string
	opts   Options
	log    *slog.Logger

	file atomic.Pointer[map[string]Weights]

	// admin holds the weights as last read from Redis (nil until the
	// first read); readAt is when. One caller at a time refreshes (mu);
	// the others go on with the weights read before, so a slow Redis
	// delays one call per interval, not every call.
	admin atomic.Pointer[adminSnapshot]
	mu    sync.Mutex
}

// adminSnapshot is one read of the admin weights.
type adminSnapshot struct {
	weights map[string]Weights
	readAt  time.Time
}

// New returns an Assigner over rdb for the tools of reg.
func New(rdb redis.UniversalClient, tools Tools, opts Options) (*Assigner, error) {
	if rdb == nil || tools == nil {
		return nil, errors.New("rollout: new: nil redis client or tools")
	}
	if opts.Prefix == "" {
		opts.Prefix = "ga"
	}
	if strings.ContainsAny(opts.Prefix, "{}") {
		return nil, fmt.Errorf("rollout: new: prefix %q holds a hash tag brace", opts.Prefix)
	}
	if opts.Refresh <= 0 {
		opts.Refresh = DefaultRefresh
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a := &Assigner{rdb: rdb, tools: tools, prefix: opts.Prefix + ":{rollouts}:", opts: opts, log: log}
	a.file.Store(&map[string]Weights{})
	return a, nil
}

func (a *Assigner) key(tool string) string { return a.prefix + tool }

// SetFileWeights replaces the weights of the tools file (at start and on
// every reload). Weights set through Set take precedence.
func (a *Assigner) SetFileWeights(w map[string]Weights) {
	c := maps.Clone(w)
	if c == nil {
		c = map[string]Weights{}
	}
	a.file.Store(&c)
}

// Version returns the version of tool (a canonical name) that session
// runs, among versions (the tool's versions, ascending). kept is the
// version stored with the session for tool (0: none yet): the session
// keeps it while it is one of versions with a weight above 0. Otherwise
// (a new session, a version set to 0 or gone) the version is a weighted
// rendezvous hash of (session, tool) over the versions with a positive
// weight; the caller stores it with the session. With no usable weights
// the highest version takes every session. It reads Redis at most once
// per refresh interval; when Redis fails it goes on with the weights it
// read last.
func (a *Assigner) Version(ctx context.Context, session, tool string, versions []int, kept int) int {
	if len(versions) == 0 {
		return 0
	}
	if len(versions) == 1 {
		return versions[0]
	}
	w, src := a.set(ctx, tool, versions)
	if src == SourceDefault {
		return versions[len(versions)-1]
	}
	if kept > 0 && w[kept] > 0 && slices.Contains(versions, kept) {
		return kept
	}
	if v := Pick(session, tool, w, versions); v != 0 {
		return v
	}
	return versions[len(versions)-1]
}

// Weights returns the weights that assign sessions to tool's versions now
// and where they come from.
func (a *Assigner) Weights(ctx context.Context, tool string) (Weights, Source) {
	versions := a.tools.Versions(tool)
	w, src := a.set(ctx, tool, versions)
	switch {
	case src != SourceDefault:
		return maps.Clone(w), src
	case len(versions) == 0:
		return Weights{}, SourceDefault
	}
	return Weights{versions[len(versions)-1]: Total}, SourceDefault
}

// set returns the weights set for tool among versions: the admin's, else
// the tools file's, each only when it gives one of versions a positive
// weight; else nil and SourceDefault (the highest version takes every
// session). The map is shared: callers must not change it.
func (a *Assigner) set(ctx context.Context, tool string, versions []int) (Weights, Source) {
	if w, ok := a.adminWeights(ctx, tool); ok && usable(w, versions) {
		return w, SourceAdmin
	}
	if w, ok := (*a.file.Load())[tool]; ok && usable(w, versions) {
		return w, SourceFile
	}
	return nil, SourceDefault
}

// usable reports whether w gives one of versions a positive weight.
func usable(w Weights, versions []int) bool {
	for _, v := range versions {
		if w[v] > 0 {
			return true
		}
	}
	return false
}

// Set validates w against the versions of the tool under name (or alias),
// stores it in Redis for every instance and uses it here at once. It
// returns ErrUnknownTool for an unknown name and an error wrapping
// ErrInvalid for weights the tool cannot take, or a tool with fewer than
// two versions.
func (a *Assigner) Set(ctx context.Context, name string, w Weights) (string, error) {
	canon, ok := a.tools.Resolve(name)
	if !ok {
		return "", fmt.Errorf("rollout: set %s: %w", tool.Clip(name, 80), ErrUnknownTool)
	}
	vs, err := rollable(a.tools.Versions(canon))
	if err != nil {
		return canon, fmt.Errorf("rollout: set %s: %w", canon, err)
	}
	if err := w.Validate(vs); err != nil {
		return canon, fmt.Errorf("rollout: set %s: %w", canon, err)
	}
	raw, err := json.Marshal(w)
	if err != nil {
		return canon, fmt.Errorf("rollout: set %s: %w", canon, err)
	}
	if err := a.rdb.Set(ctx, a.key(canon), raw, 0).Err(); err != nil {
		return canon, fmt.Errorf("rollout: set %s: %w", canon, err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	next := &adminSnapshot{weights: map[string]Weights{}}
	if cur := a.admin.Load(); cur != nil {
		next.readAt = cur.readAt
		maps.Copy(next.weights, cur.weights)
	}
	next.weights[canon] = maps.Clone(w)
	a.admin.Store(next)
	return canon, nil
}

// rollable returns a tool's versions when it can be rolled out: it has
// several, as a tools file's rollouts: section requires too; an error
// wrapping ErrInvalid otherwise.
func rollable(vs []int) ([]int, error) {
	switch {
	case len(vs) == 0 || vs[len(vs)-1] == 0:
		return nil, fmt.Errorf("%w: the tool is unversioned, it has no rollout", ErrInvalid)
	case len(vs) == 1:
		return nil, fmt.Errorf("%w: the tool has only version %d; a rollout needs several versions", ErrInvalid, vs[0])
	}
	return vs, nil
}

// Clear removes the weights set at run time for the tool under name (or
// alias) from Redis and from this instance's copy, so the tools file's
// weights (or the default: the highest version takes every session) apply
// again: here at once, on other instances after their refresh interval.
// Sessions keep their stored version while its weight stays above 0, as
// after Set. Clearing a tool with no admin weights is not an error. It
// returns the canonical name; ErrUnknownTool for an unknown name, and an
// error wrapping ErrInvalid for an unversioned tool or one with a single
// version, which has no rollout (Set refuses it too).
func (a *Assigner) Clear(ctx context.Context, name string) (string, error) {
	canon, ok := a.tools.Resolve(name)
	if !ok {
		return "", fmt.Errorf("rollout: clear %s: %w", tool.Clip(name, 80), ErrUnknownTool)
	}
	if _, err := rollable(a.tools.Versions(canon)); err != nil {
		return canon, fmt.Errorf("rollout: clear %s: %w", canon, err)
	}
	if err := a.rdb.Del(ctx, a.key(canon)).Err(); err != nil {
		return canon, fmt.Errorf("rollout: clear %s: %w", canon, err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	cur := a.admin.Load()
	if cur == nil {
		return canon, nil
	}
	next := &adminSnapshot{weights: maps.Clone(cur.weights), readAt: cur.readAt}
	delete(next.weights, canon)
	a.admin.Store(next)
	return canon, nil
}

// adminWeights returns the weights set at run time for tool, refreshing
// the instance's copy from Redis when it is older than the refresh
// interval. The first read waits; later, while one caller refreshes, the
// others use the previous read.
func (a *Assigner) adminWeights(ctx context.Context, tool string) (Weights, bool) {
	cur := a.admin.Load()
	if cur == nil || a.opts.Now().Sub(cur.readAt) >= a.opts.Refresh {
		if cur == nil {
			a.mu.Lock()
		} else if !a.mu.TryLock() {
			w, ok := cur.weights[tool]
			return w, ok
		}
		cur = a.refreshLocked(ctx)
		a.mu.Unlock()
	}
	w, ok := cur.weights[tool]
	return w, ok
}

// refreshTimeout bounds one read of the weights.
const refreshTimeout = 2 * time.Second

// refreshLocked reads the weights of every tool with several versions in
// one round trip (the keys share a hash slot) unless another caller just
// did; a failure keeps the weights read before. The caller holds mu.
func (a *Assigner) refreshLocked(ctx context.Context) *adminSnapshot {
	now := a.opts.Now()
	cur := a.admin.Load()
	if cur != nil && now.Sub(cur.readAt) < a.opts.Refresh {
		return cur
	}
	next := &adminSnapshot{weights: map[string]Weights{}, readAt: now}
	if cur != nil {
		next.weights = cur.weights
	}
	if names := a.tools.Versioned(); len(names) > 0 {
		keys := make([]string, len(names))
		for i, n := range names {
			keys[i] = a.key(n)
		}
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), refreshTimeout)
		vals, err := a.rdb.MGet(rctx, keys...).Result()
		cancel()
		if err != nil {
			a.log.LogAttrs(ctx, slog.LevelWarn, "rollout: reading weights failed; the last ones read stay", slog.String("error", err.Error()))
		} else {
			next.weights = make(map[string]Weights, len(names))
			for i, v := range vals {
				s, ok := v.(string)
				if !ok {
					continue
				}
				var w Weights
				if err := json.Unmarshal([]byte(s), &w); err != nil {
					a.log.LogAttrs(ctx, slog.LevelWarn, "rollout: stored weights unreadable; ignored",
						slog.String("tool", names[i]), slog.String("error", err.Error()))
					continue
				}
				next.weights[names[i]] = w
			}
		}
	}
	a.admin.Store(next)
	return next
}
