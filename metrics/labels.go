package metrics

import (
	"strings"
	"sync"
	"sync/atomic"
)

// maxLabelLen is the longest label value an open label admits.
const maxLabelLen = 128

// labelGuard bounds the values of one label. A closed guard admits only its
// fixed values. An open guard admits well-formed values first come, first
// served, until it has seen max distinct ones. Everything else maps to the
// fallback value.
type labelGuard struct {
	fixed    map[string]string
	seen     sync.Map // string -> string, the guard's own copy
	mu       sync.Mutex
	n        atomic.Int64
	max      int64
	fallback string
}

// newLabelGuard returns a closed guard over fixed when fixed is not empty,
// else an open guard admitting up to limit values.
func newLabelGuard(fixed []string, limit int, fallback string) *labelGuard {
	g := &labelGuard{max: int64(limit), fallback: fallback}
	if len(fixed) > 0 {
		g.fixed = make(map[string]string, len(fixed))
		for _, v := range fixed {
			g.fixed[v] = v
		}
	}
	return g
}

// value returns v when the guard admits it, else the fallback. The string
// returned is the guard's own copy, never v itself: v may alias a larger
// buffer (a request body) that a metric's labels must not keep alive.
func (g *labelGuard) value(v string) string {
	if g.fixed != nil {
		if own, ok := g.fixed[v]; ok {
			return own
		}
		return g.fallback
	}
	if own, ok := g.seen.Load(v); ok {
		return own.(string)
	}
	if !wellFormed(v) || g.n.Load() >= g.max {
		return g.fallback
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if own, ok := g.seen.Load(v); ok {
		return own.(string)
	}
	if g.n.Load() >= g.max {
		return g.fallback
	}
	own := strings.Clone(v)
	g.seen.Store(own, own)
	g.n.Add(1)
	return own
}

// wellFormed reports whether v is a plausible identifier or route pattern:
// 1 to maxLabelLen bytes of ASCII letters, digits and _ - . / : * { }.
func wellFormed(v string) bool {
	if v == "" || len(v) > maxLabelLen {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '_', c == '-', c == '.', c == '/', c == ':', c == '*', c == '{', c == '}':
		default:
			return false
		}
	}
	return true
}
