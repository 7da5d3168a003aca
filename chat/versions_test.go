package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// fixedRollouts assigns sessions by a table; others get the highest version.
type fixedRollouts struct {
	by    map[string]int
	calls int
}

func (f *fixedRollouts) Version(_ context.Context, session, _ string, versions []int, _ int) int {
	f.calls++
	if v, ok := f.by[session]; ok {
		return v
	}
	return versions[len(versions)-1]
}

// versionedBox registers cards_get_card in versions 1 (name only) and 2
// (name and an optional limit), both cached 3 exchanges, and an
// unversioned tool.
func versionedBox(t testing.TB) (*tool.Executor, map[int]*countingTool) {
	t.Helper()
	tools := map[int]*countingTool{}
	reg := tool.NewRegistry()
	for v, props := range map[int]string{1: `"name":{"type":"string"}`, 2: `"name":{"type":"string"},"limit":{"type":"integer"}`} {
		tools[v] = &countingTool{spec: tool.Spec{
			Name: "cards_get_card", Description: fmt.Sprintf("Card lookup, version %d.", v), Category: tool.CategoryGCS,
			Version: v, CacheDuration: 3, Aliases: []string{"get_card"}, Parameters: objSchema(props, "name"),
		}}
	}
	tools[0] = &countingTool{spec: tool.Spec{Name: "cards_count", Category: tool.CategoryGCS, CacheDuration: 3}}
	// The same lookup unversioned, the benchmark's baseline.
	plain := &countingTool{spec: tool.Spec{Name: "cards_lookup", Category: tool.CategoryGCS, CacheDuration: 3, Parameters: objSchema(`"name":{"type":"string"}`, "name")}}
	if err := reg.Register(tools[1], tools[2], tools[0], plain); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ex, tools
}

func TestScopeRunsTheSessionsVersion(t *testing.T) {
	ctx := context.Background()
	ex, tools := versionedBox(t)
	ro := &fixedRollouts{by: map[string]int{"s1": 1, "s2": 2}}
	r, err := NewRunner(ex, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.SetRollouts(ro)

	// Session 1 is on version 1: it runs it (by the old alias too) and
	// caches the result under a key naming the version.
	s1 := r.Scope(ctx, "s1", 1, nil, false)
	outs := s1.Run(ctx, []tool.Call{call("get_card", `{"name":"Ember"}`), call("cards_count", `{}`)})
	if outs[0].Version != 1 || outs[0].Source != tool.SourceExecuted || tools[1].count() != 1 || tools[2].count() != 0 {
		t.Fatalf("session 1: %+v", outs[0])
	}
	if outs[1].Version != 0 {
		t.Fatalf("unversioned tool reported version %d", outs[1].Version)
	}
	puts := s1.Puts()
	if len(puts) != 2 || puts[0].Version != 1 || puts[0].Tool != "cards_get_card" {
		t.Fatalf("puts %+v", puts)
	}
	plain, _ := memory.CacheKey("cards_get_card", json.RawMessage(`{"name":"Ember"}`))
	v1key, _ := memory.CacheKey("cards_get_card@v1", json.RawMessage(`{"name":"Ember"}`))
	if puts[0].Key != v1key || puts[0].Key == plain {
		t.Fatalf("key %s, want the versioned key %s", puts[0].Key, v1key)
	}
	if countKey, _ := memory.CacheKey("cards_count", json.RawMessage(`{}`)); puts[1].Key != countKey {
		t.Fatal("an unversioned tool's key changed")
	}

	// Session 2 is on version 2: session 1's cached version-1 result is
	// never served to it, even given the same cache.
	s2 := r.Scope(ctx, "s2", 2, puts, false)
	outs = s2.Run(ctx, []tool.Call{call("cards_get_card", `{"name":"Ember"}`), call("cards_count", `{}`)})
	if outs[0].Version != 2 || outs[0].Source != tool.SourceExecuted || tools[2].count() != 1 {
		t.Fatalf("session 2 got %+v", outs[0])
	}
	if outs[1].Source != tool.SourceCache {
		t.Fatalf("the unversioned result was not served from the cache: %+v", outs[1])
	}
	// Back on version 1, the version-1 entry serves, with its version.
	s1b := r.Scope(ctx, "s1", 2, puts, false)
	outs = s1b.Run(ctx, []tool.Call{call("cards_get_card", `{"name":"Ember"}`), call("cards_get_card", `{"name":"Ember"}`)})
	if outs[0].Source != tool.SourceCache || outs[0].Version != 1 || outs[1].Source != tool.SourceDuplicate || outs[1].Version != 1 || tools[1].count() != 1 {
		t.Fatalf("session 1 again: %+v / %+v", outs[0], outs[1])
	}

	// The LLM is offered the session's version: one name, that version's
	// schema and description.
	specs := ex.Registry().Specs(nil)
	for session, want := range map[string]int{"s1": 1, "s2": 2} {
		sc := r.Scope(ctx, session, 3, nil, false)
		offered := sc.OfferedSpecs(ctx, specs)
		if len(offered) != len(specs) || offered[0].Name != "cards_get_card" || offered[0].Version != want ||
			!strings.Contains(offered[0].Description, fmt.Sprintf("version %d", want)) {
			t.Fatalf("%s offered %+v", session, offered[0])
		}
		if want == 1 && strings.Contains(string(offered[0].Parameters), "limit") {
			t.Fatal("session on version 1 offered version 2's schema")
		}
		// Decided once per scope: offering and running ask once.
		before := ro.calls
		sc.Run(ctx, []tool.Call{call("cards_get_card", `{"name":"X"}`)})
		if ro.calls != before {
			t.Fatalf("the scope asked for the version again (%d → %d)", before, ro.calls)
		}
	}
	if specs[0].Version != 2 {
		t.Fatal("OfferedSpecs changed the registry's specs")
	}
}
