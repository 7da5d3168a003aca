package memo

import (
	"sync"
	"testing"
)

func TestMapRemembersAndReplaces(t *testing.T) {
	m := New[string, int](4)
	if _, ok := m.Get("a"); ok {
		t.Fatal("an empty map remembers a")
	}
	m.Put("a", 1)
	m.Put("a", 2)
	if v, ok := m.Get("a"); !ok || v != 2 {
		t.Fatalf("Get(a) = %d, %v; want 2, true", v, ok)
	}
	if v, ok := GetBytes(m, []byte("a")); !ok || v != 2 {
		t.Fatalf("GetBytes(a) = %d, %v; want 2, true", v, ok)
	}
	if m.Len() != 1 {
		t.Fatalf("Len = %d after replacing a, want 1", m.Len())
	}
}

func TestMapStartsOverWhenFull(t *testing.T) {
	m := New[int, int](3)
	for i := range 3 {
		m.Put(i, i)
	}
	m.Put(1, 10) // a key it holds: no new entry, nothing forgotten
	if m.Len() != 3 {
		t.Fatalf("Len = %d after replacing a held key, want 3", m.Len())
	}
	m.Put(3, 3)
	if m.Len() != 1 {
		t.Fatalf("Len = %d after a fourth key in a map of 3, want 1 (started over)", m.Len())
	}
	if _, ok := m.Get(0); ok {
		t.Fatal("0 remembered after the map started over")
	}
	if v, ok := m.Get(3); !ok || v != 3 {
		t.Fatalf("Get(3) = %d, %v; want 3, true", v, ok)
	}
}

func TestZeroMapHoldsDefaultLen(t *testing.T) {
	var m Map[int, int]
	for i := range DefaultLen {
		m.Put(i, i)
	}
	if m.Len() != DefaultLen {
		t.Fatalf("Len = %d after %d keys, want all of them", m.Len(), DefaultLen)
	}
	m.Put(DefaultLen, 0)
	if m.Len() != 1 {
		t.Fatalf("Len = %d past DefaultLen, want 1 (started over)", m.Len())
	}
}

func TestMapCostBound(t *testing.T) {
	m := NewCosted(10, func(k string, v []byte) int { return len(k) + len(v) })
	m.Put("a", make([]byte, 4)) // 5
	m.Put("b", make([]byte, 4)) // 10
	if m.Len() != 2 || m.Cost() != 10 {
		t.Fatalf("Len, Cost = %d, %d; want 2, 10", m.Len(), m.Cost())
	}
	m.Put("a", make([]byte, 2)) // replaces 5 by 3: 8
	if m.Len() != 2 || m.Cost() != 8 {
		t.Fatalf("after replacing a: Len, Cost = %d, %d; want 2, 8", m.Len(), m.Cost())
	}
	m.Put("c", make([]byte, 2)) // 8 + 3 > 10: starts over
	if m.Len() != 1 || m.Cost() != 3 {
		t.Fatalf("after c: Len, Cost = %d, %d; want 1, 3", m.Len(), m.Cost())
	}
	m.Put("d", make([]byte, 10)) // 11 alone: not remembered, nothing forgotten
	if _, ok := m.Get("d"); ok || m.Len() != 1 || m.Cost() != 3 {
		t.Fatalf("a value over the bound: remembered %v, Len %d, Cost %d; want false, 1, 3", ok, m.Len(), m.Cost())
	}
}

func TestGetBytesDoesNotAllocate(t *testing.T) {
	m := New[string, int](4)
	m.Put("key", 1)
	k := []byte("key")
	if n := testing.AllocsPerRun(50, func() { GetBytes(m, k) }); n != 0 {
		t.Fatalf("GetBytes allocates %.0f times, want 0", n)
	}
}

// TestMapConcurrent runs readers and writers at once (for -race) and
// checks the bound held.
func TestMapConcurrent(t *testing.T) {
	m := New[int, int](64)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 1000 {
				m.Put(w*1000+i, i)
				if v, ok := m.Get(w*1000 + i); ok && v != i {
					t.Errorf("Get(%d) = %d, want %d", w*1000+i, v, i)
				}
			}
		})
	}
	wg.Wait()
	if n := m.Len(); n > 64 {
		t.Fatalf("Len = %d, bound 64", n)
	}
}
