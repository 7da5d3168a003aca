package chat

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/gameassist/gameassist/internal/memo"
	"github.com/gameassist/gameassist/memory"
)

// TestKeyMemo: a remembered key is the key memory.CallKey gives, for calls
// whose name, version and arguments run into each other when joined, for
// arguments too long to remember, and after the memo starts over.
func TestKeyMemo(t *testing.T) {
	type call struct {
		name    string
		version int
		args    string
	}
	calls := []call{
		{"gcs_get_champion_details", 0, `{"champion_name":"Kaelith"}`},
		{"gcs_get_champion_details", 0, `{ "champion_name" : "Kaelith" }`},
		{"gcs_get_champion_details", 2, `{"champion_name":"Kaelith"}`},
		{"a1", 0, `{}`},
		{"a", 10, `{}`},
		{"a:", 0, `1:{}`},
		{"a", 0, `:a0:{}`},
		{"bad", 0, `{not json`},
		{"long", 0, `{"q":"` + string(make([]byte, keyMemoMaxArgs)) + `"}`},
	}
	var m keyMemo
	for round := range 2 {
		for _, c := range calls {
			want := memory.CallKey(c.name, c.version, json.RawMessage(c.args))
			if got := m.callKey(c.name, c.version, json.RawMessage(c.args)); got != want {
				t.Fatalf("round %d, %+v: key %s, want %s", round, c, got, want)
			}
		}
	}
	for i := range memo.DefaultLen + 1 {
		args := json.RawMessage(`{"n":` + strconv.Itoa(i) + `}`)
		if got, want := m.callKey("t", 0, args), memory.CallKey("t", 0, args); got != want {
			t.Fatalf("call %d: key %s, want %s", i, got, want)
		}
	}
	if n := m.keys.Len(); n > memo.DefaultLen {
		t.Fatalf("memo holds %d keys, bound %d", n, memo.DefaultLen)
	}
}

// BenchmarkCallKey: a call's cache key computed (memory.CallKey) and
// remembered (keyMemo).
func BenchmarkCallKey(b *testing.B) {
	args := json.RawMessage(`{"champion_name":"Kaelith"}`)
	b.Run("computed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = memory.CallKey("gcs_get_champion_details", 0, args)
		}
	})
	b.Run("remembered", func(b *testing.B) {
		var m keyMemo
		b.ReportAllocs()
		for b.Loop() {
			_ = m.callKey("gcs_get_champion_details", 0, args)
		}
	})
}
