package memory

import (
	"bytes"
	"encoding/json"
	"sync"
)

// maxMetaMemo bounds the bytes of stored JSON a metaMemo keeps; past it
// the memo starts over.
const maxMetaMemo = 4 << 20

// metaMemo remembers the summaries and screens of sessions' metas as
// decoded from their stored JSON, by that JSON: both change seldom and a
// turn decodes its session's meta twice (its authorization's read and its
// load). Callers get copies of their own.
type metaMemo struct {
	mu        sync.Mutex
	summaries map[string]*Summary
	screens   map[string]*Screen
	bytes     int
}

// summary decodes raw, a stored summary.
func (m *metaMemo) summary(raw string) (*Summary, error) {
	return decodeKept(m, &m.summaries, raw, (*Summary).clone)
}

// screen decodes raw, a stored screen.
func (m *metaMemo) screen(raw string) (*Screen, error) {
	return decodeKept(m, &m.screens, raw, (*Screen).clone)
}

// decodeKept decodes raw, the JSON of a T, through kept, one of m's maps:
// a copy of what it holds for raw, else raw decoded (and a copy kept).
func decodeKept[T any](m *metaMemo, kept *map[string]*T, raw string, clone func(*T) *T) (*T, error) {
	m.mu.Lock()
	v, ok := (*kept)[raw]
	m.mu.Unlock()
	if ok {
		return clone(v), nil
	}
	v = new(T)
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.room(raw) {
		if *kept == nil {
			*kept = map[string]*T{}
		}
		(*kept)[raw] = clone(v)
	}
	return v, nil
}

// room makes room for raw, starting over when the memo is full, and says
// whether raw is kept (not when it alone would take an eighth of it).
// The caller holds m.mu.
func (m *metaMemo) room(raw string) bool {
	size := 2 * len(raw) // the key and, about, the value
	if size > maxMetaMemo/8 {
		return false
	}
	if m.bytes+size > maxMetaMemo {
		m.summaries, m.screens, m.bytes = nil, nil, 0
	}
	m.bytes += size
	return true
}

func (s *Summary) clone() *Summary {
	c := *s
	if s.Prev != nil {
		c.Prev = s.Prev.clone()
	}
	return &c
}

func (s *Screen) clone() *Screen {
	c := *s
	c.Data = bytes.Clone(s.Data)
	return &c
}
