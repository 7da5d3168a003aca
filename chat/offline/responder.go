// Package offline answers players without an LLM: it finds champion, boss
// and faction names in a message (tolerating small typos), picks the game
// tools an assistant would call for the question, runs them and writes a
// short answer from their data. It serves deployments with no LLM
// configured and is the fallback when the LLM fails.
package offline

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/gameassist/gameassist/tool"
)

// Executor runs tool calls and knows the registry; *tool.Executor satisfies it.
type Executor interface {
	Execute(ctx context.Context, call tool.Call) tool.Result
	Registry() *tool.Registry
}

// RunFunc runs a batch of calls within a session's turn (so the session
// cache and duplicate detection apply) and returns outcomes in call order.
type RunFunc func(ctx context.Context, calls []tool.Call) []tool.Outcome

// Options tunes the responder; zero values take the defaults.
type Options struct {
	// RefreshEvery is how often the entity lists are checked for a new
	// last_updated stamp (default 30 s).
	RefreshEvery time.Duration
	// Logger receives list refresh failures; nil discards.
	Logger *slog.Logger
}

// Responder answers messages from tool data alone. It is safe for
// concurrent use.
type Responder struct {
	exec  Executor
	opts  Options
	log   *slog.Logger
	names map[string]bool // registered tool names

	mu      sync.Mutex
	idx     *index
	stamps  map[Kind]string
	checked time.Time
}

// New returns a responder over exec.
func New(exec Executor, opts Options) (*Responder, error) {
	if exec == nil || exec.Registry() == nil {
		return nil, errors.New("offline: responder needs an executor with a registry")
	}
	if opts.RefreshEvery <= 0 {
		opts.RefreshEvery = 30 * time.Second
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	names := map[string]bool{}
	for _, s := range exec.Registry().Specs(nil) {
		names[s.Name] = true
	}
	return &Responder{exec: exec, opts: opts, log: log, names: names}, nil
}

// Request is what the responder knows about a turn.
type Request struct {
	Message string
	// Screen is the name of the screen the player is on, "" if unknown.
	Screen string
	Locale string
}

// Answer is the responder's reply with the tool outcomes behind it.
type Answer struct {
	Text     string
	Plan     Plan
	Outcomes []tool.Outcome
}

// Answer plans the tools for req, runs them with run and writes the reply.
// It never fails: missing data turns into a helpful answer.
func (r *Responder) Answer(ctx context.Context, req Request, run RunFunc) Answer {
	p := r.Plan(ctx, req.Message, req.Screen)
	var outs []tool.Outcome
	if len(p.Calls) > 0 && run != nil {
		outs = run(ctx, p.Calls)
	}
	return Answer{Text: r.render(p, outs), Plan: p, Outcomes: outs}
}

// ensureIndex returns the entity index, rebuilding it when a list's
// last_updated stamp changed (checked at most every RefreshEvery).
func (r *Responder) ensureIndex(ctx context.Context) *index {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.idx != nil && time.Since(r.checked) < r.opts.RefreshEvery {
		return r.idx
	}
	lists := map[Kind][]listItem{}
	stamps := map[Kind]string{}
	changed := r.idx == nil
	ok := true
	for _, src := range listSources() {
		if !r.names[src.tool] {
			continue
		}
		items, stamp, err := fetchList(ctx, r.exec, src.tool)
		if err != nil {
			r.log.LogAttrs(ctx, slog.LevelWarn, "offline: entity list unavailable", slog.String("tool", src.tool), slog.String("error", err.Error()))
			ok = false
			if r.idx != nil {
				lists[src.kind] = itemsFromEntities(r.idx.kinds[src.kind])
				stamps[src.kind] = r.stamps[src.kind]
			}
			continue
		}
		lists[src.kind], stamps[src.kind] = items, stamp
		if stamp == "" || stamp != r.stamps[src.kind] {
			changed = true
		}
	}
	if ok {
		// A failed list is retried at the next message, not after RefreshEvery.
		r.checked = time.Now()
	}
	if changed {
		r.idx, r.stamps = newIndex(lists), stamps
	}
	return r.idx
}

func itemsFromEntities(es []Entity) []listItem {
	out := make([]listItem, len(es))
	for i, e := range es {
		out[i] = listItem{id: e.ID, name: e.Name}
	}
	return out
}

// Entities returns the entities named in message, in order.
func (r *Responder) Entities(ctx context.Context, message string) []Entity {
	return r.ensureIndex(ctx).find(tokens(message))
}

// examples returns one known name of kind, or fallback.
func (r *Responder) example(kind Kind, fallback string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.idx != nil && len(r.idx.kinds[kind]) > 0 {
		return r.idx.kinds[kind][0].Name
	}
	return fallback
}

func argsOf(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// contains reports whether the normalized text holds any phrase as whole words.
func contains(text string, phrases ...string) bool {
	for _, p := range phrases {
		if strings.Contains(text, " "+p+" ") {
			return true
		}
	}
	return false
}
