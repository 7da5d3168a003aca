package offline

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// listResolver is the default Resolver: an index of every name the cache_*
// list tools give (all locales), rebuilt when a list's last_updated stamp
// changes.
type listResolver struct {
	exec  Executor
	names map[string]bool
	every time.Duration
	log   *slog.Logger

	mu      sync.Mutex
	idx     *index
	stamps  map[Kind]string
	checked time.Time
}

func newListResolver(exec Executor, names map[string]bool, every time.Duration, log *slog.Logger) *listResolver {
	return &listResolver{exec: exec, names: names, every: every, log: log}
}

// Resolve implements Resolver.
func (l *listResolver) Resolve(ctx context.Context, text string) []Entity {
	toks := tokens(text)
	if len(toks) > maxTokens {
		toks = toks[:maxTokens]
	}
	return l.ensureIndex(ctx).find(toks)
}

// ByID implements Resolver.
func (l *listResolver) ByID(ctx context.Context, id string) (Entity, bool) {
	idx := l.ensureIndex(ctx)
	if idx == nil {
		return Entity{}, false
	}
	i, ok := idx.byID[id]
	if !ok {
		return Entity{}, false
	}
	return idx.ents[i], true
}

// Examples returns up to n entity names of kind, for help text.
func (l *listResolver) Examples(ctx context.Context, kind Kind, n int) []Entity {
	idx := l.ensureIndex(ctx)
	if idx == nil {
		return nil
	}
	var out []Entity
	for _, i := range idx.kinds[kind] {
		if len(out) == n {
			break
		}
		out = append(out, idx.ents[i])
	}
	return out
}

// ensureIndex returns the entity index, rebuilding it when a list's
// last_updated stamp changed (checked at most every l.every).
func (l *listResolver) ensureIndex(ctx context.Context) *index {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.idx != nil && time.Since(l.checked) < l.every {
		return l.idx
	}
	lists := map[Kind][]listItem{}
	stamps := map[Kind]string{}
	changed := l.idx == nil
	ok := true
	for _, src := range listSources() {
		if !l.names[src.tool] {
			continue
		}
		items, stamp, err := fetchList(ctx, l.exec, src.tool)
		if err != nil {
			l.log.LogAttrs(ctx, slog.LevelWarn, "offline: entity list unavailable", slog.String("tool", src.tool), slog.String("error", err.Error()))
			ok = false
			if l.idx != nil {
				lists[src.kind] = itemsFromIndex(l.idx, src.kind)
				stamps[src.kind] = l.stamps[src.kind]
			}
			continue
		}
		lists[src.kind], stamps[src.kind] = items, stamp
		if stamp == "" || stamp != l.stamps[src.kind] {
			changed = true
		}
	}
	if ok {
		// A failed list is retried at the next message, not after every.
		l.checked = time.Now()
	}
	if changed {
		l.idx, l.stamps = newIndex(lists), stamps
	}
	return l.idx
}

func itemsFromIndex(idx *index, kind Kind) []listItem {
	var out []listItem
	for _, i := range idx.kinds[kind] {
		e := idx.ents[i]
		out = append(out, listItem{id: e.ID, name: e.Name, names: e.Names})
	}
	return out
}
