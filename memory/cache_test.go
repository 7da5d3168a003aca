package memory_test

import (
	"encoding/json"
	"testing"

	"github.com/gameassist/gameassist/memory"
)

func TestCallKey(t *testing.T) {
	a := memory.CallKey("t", 0, json.RawMessage(`{"a":`))
	b := memory.CallKey("t", 0, json.RawMessage(`{"a":`))
	c := memory.CallKey("t", 0, json.RawMessage(`{"b":`))
	d := memory.CallKey("t", 0, json.RawMessage(`{ "a" : 1 }`))
	if a != b || a == c || a == d || len(a) != 32 {
		t.Errorf("keys of malformed arguments %s %s %s, of valid ones %s", a, b, c, d)
	}
	if want, _ := memory.CacheKey("t", json.RawMessage(`{"a":1}`)); d != want {
		t.Errorf("valid arguments key %s, want CacheKey's %s", d, want)
	}
	v2 := memory.CallKey("t", 2, json.RawMessage(`{"a":1}`))
	if want, _ := memory.CacheKey("t@v2", json.RawMessage(`{"a":1}`)); v2 != want || v2 == d {
		t.Errorf("version 2 key %s, want CacheKey(t@v2) %s, unlike the unversioned %s", v2, want, d)
	}
	if memory.CallKey("t", 1, json.RawMessage(`{"a":1}`)) == v2 {
		t.Error("versions 1 and 2 share a key")
	}
}

func TestCacheEntryRules(t *testing.T) {
	e := memory.CacheEntry{CachedAt: 4, Duration: 2, DataVersion: "d1"}
	tests := []struct {
		exchange int
		version  string
		live     bool
		serves   bool
	}{
		{4, "d1", true, true},
		{6, "d1", true, true},
		{7, "d1", false, false},
		{5, "d2", true, false},
	}
	for _, tt := range tests {
		if got := e.Live(tt.exchange); got != tt.live {
			t.Errorf("Live(%d) = %v, want %v", tt.exchange, got, tt.live)
		}
		if got := e.Serves(tt.exchange, tt.version); got != tt.serves {
			t.Errorf("Serves(%d, %s) = %v, want %v", tt.exchange, tt.version, got, tt.serves)
		}
	}
	if e.ExpiresAfter() != 6 || e.Remaining(5) != 1 {
		t.Errorf("expires after %d, remaining at 5: %d", e.ExpiresAfter(), e.Remaining(5))
	}
	for _, tt := range []struct {
		d         int
		proactive bool
		want      int
	}{{3, false, 3}, {0, false, 0}, {0, true, 1}, {3, true, 3}, {-1, true, 1}} {
		if got := memory.EntryDuration(tt.d, tt.proactive); got != tt.want {
			t.Errorf("EntryDuration(%d, %v) = %d, want %d", tt.d, tt.proactive, got, tt.want)
		}
	}
}
