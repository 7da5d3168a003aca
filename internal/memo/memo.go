// Package memo holds Map, the bounded map the engine remembers derived
// values in: encodings, cache keys, arguments found valid, decoded stored
// values. What it remembers can always be derived again, so it keeps no
// order and no bookkeeping per entry: when an entry would pass one of its
// bounds, it forgets everything at once and starts over.
package memo

import (
	"cmp"
	"math"
	"sync"
)

// DefaultLen bounds the entries of a zero Map.
const DefaultLen = 4096

// Map remembers values by key, bounded by how many it holds and,
// optionally, by the sum of a cost of each (bytes, say). It is safe for
// concurrent use. Its zero value is ready and holds at most DefaultLen
// entries; New and NewCosted build one with other bounds.
type Map[K comparable, V any] struct {
	maxLen  int // 0: DefaultLen
	maxCost int
	costOf  func(K, V) int

	mu   sync.RWMutex
	m    map[K]V
	cost int
}

// New returns a Map that holds at most maxLen entries (at least one).
func New[K comparable, V any](maxLen int) *Map[K, V] {
	return &Map[K, V]{maxLen: max(maxLen, 1)}
}

// NewCosted returns a Map whose entries' costs (costOf of each key and
// value) sum to at most maxCost, however many they are. A value that
// costs more than maxCost alone is not remembered.
func NewCosted[K comparable, V any](maxCost int, costOf func(K, V) int) *Map[K, V] {
	return &Map[K, V]{maxLen: math.MaxInt, maxCost: maxCost, costOf: costOf}
}

// Get returns the value remembered for k.
func (m *Map[K, V]) Get(k K) (V, bool) {
	m.mu.RLock()
	v, ok := m.m[k]
	m.mu.RUnlock()
	return v, ok
}

// GetBytes is m.Get(string(k)) without copying k.
func GetBytes[V any](m *Map[string, V], k []byte) (V, bool) {
	m.mu.RLock()
	v, ok := m.m[string(k)]
	m.mu.RUnlock()
	return v, ok
}

// Put remembers v for k, in place of the value remembered for k before.
// When one more entry or v's cost would pass a bound, m first forgets
// everything.
func (m *Map[K, V]) Put(k K, v V) {
	cost := 0
	if m.costOf != nil {
		if cost = m.costOf(k, v); cost > m.maxCost {
			return
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, had := m.m[k]
	if had && m.costOf != nil {
		m.cost -= m.costOf(k, old)
	}
	if m.m == nil || (!had && len(m.m) >= cmp.Or(m.maxLen, DefaultLen)) || (m.costOf != nil && m.cost+cost > m.maxCost) {
		m.m, m.cost = make(map[K]V), 0
	}
	m.m[k] = v
	m.cost += cost
}

// Len is how many entries m holds.
func (m *Map[K, V]) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.m)
}

// Cost is the sum of the costs of the entries m holds (0 without costs).
func (m *Map[K, V]) Cost() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.cost
}
