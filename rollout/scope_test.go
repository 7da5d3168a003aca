package rollout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/rollout"
	"github.com/gameassist/gameassist/tool"
)

// cardTool answers every call with its own name and version.
type cardTool struct{ spec tool.Spec }

func (c cardTool) Spec() tool.Spec { return c.spec }
func (c cardTool) Call(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Success("ok", map[string]any{"tool": c.spec.Name, "version": c.spec.Version}), nil
}

// versionedExecutor registers cards_get_card in versions 1 (name only) and
// 2 (name and an optional limit), both cached 3 exchanges, cards_count
// unversioned, and cards_lookup, the versioned lookup's unversioned twin.
func versionedExecutor(tb testing.TB) *tool.Executor {
	tb.Helper()
	schema := func(props string) json.RawMessage {
		return json.RawMessage(`{"type":"object","properties":{` + props + `},"required":["name"],"additionalProperties":false}`)
	}
	reg := tool.NewRegistry()
	err := reg.Register(
		cardTool{tool.Spec{Name: "cards_get_card", Description: "Card lookup, version 1.", Category: tool.CategoryGCS, Version: 1, CacheDuration: 3,
			Parameters: schema(`"name":{"type":"string"}`)}},
		cardTool{tool.Spec{Name: "cards_get_card", Description: "Card lookup, version 2.", Category: tool.CategoryGCS, Version: 2, CacheDuration: 3,
			Parameters: schema(`"name":{"type":"string"},"limit":{"type":"integer"}`)}},
		cardTool{tool.Spec{Name: "cards_count", Category: tool.CategoryGCS, CacheDuration: 3}},
		cardTool{tool.Spec{Name: "cards_lookup", Category: tool.CategoryGCS, CacheDuration: 3, Parameters: schema(`"name":{"type":"string"}`)}},
	)
	if err != nil {
		tb.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return ex
}

func cardCall(name, args string) tool.Call {
	return tool.Call{Name: name, Arguments: json.RawMessage(args)}
}

// BenchmarkVersionAssignment is the cost of running a call of a tool with
// two versions (assignment by rollout.Assigner over a real Redis, weights
// read at most once a second) against the same call (same schema and
// arguments) of an unversioned tool, a new scope (a turn) per call, for a
// new session and for one given its stored version; then the assignment
// alone.
func BenchmarkVersionAssignment(b *testing.B) {
	ex := versionedExecutor(b)
	rdb := backends[0].UniversalClient(b)
	as, err := rollout.New(rdb, ex.Registry(), rollout.Options{Prefix: backends[0].Prefix(b)})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := as.Set(ctx, "cards_get_card", rollout.Weights{1: 80, 2: 20}); err != nil {
		b.Fatal(err)
	}
	r, err := chat.NewRunner(ex, nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	r.SetRollouts(as)
	ids := make([]string, 1024)
	for i := range ids {
		ids[i] = fmt.Sprintf("5f0c8a4e-2b1d-4c3e-9f6a-%012d", i)
	}
	// stored is each session's version as a first turn stores it, given
	// back to later turns (memory.Meta.Versions).
	stored := make([]map[string]int, len(ids))
	for i, id := range ids {
		stored[i] = map[string]int{"cards_get_card": as.Version(ctx, id, "cards_get_card", []int{1, 2}, 0)}
	}
	for _, bc := range []struct {
		name, tool, args string
		kept             bool
	}{
		{"unversioned", "cards_lookup", `{"name":"Ember"}`, false},
		{"versioned", "cards_get_card", `{"name":"Ember"}`, false},
		{"versioned_stored", "cards_get_card", `{"name":"Ember"}`, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			calls := []tool.Call{cardCall(bc.tool, bc.args)}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				sc := r.Scope(ctx, ids[i%len(ids)], 1, nil, false)
				if bc.kept {
					sc.KeepVersions(stored[i%len(ids)])
				}
				sc.Run(ctx, calls)
				sc.AssignedVersions()
			}
		})
	}
	b.Run("pick_only", func(b *testing.B) {
		w := rollout.Weights{1: 80, 2: 20}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			rollout.Pick(ids[i%len(ids)], "cards_get_card", w, []int{1, 2})
		}
	})
	b.Run("assigner_only", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			as.Version(ctx, ids[i%len(ids)], "cards_get_card", []int{1, 2}, 0)
		}
	})
	b.Run("assigner_stored", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			as.Version(ctx, ids[i%len(ids)], "cards_get_card", []int{1, 2}, stored[i%len(ids)]["cards_get_card"])
		}
	})
}

// TestScopeKeepsStoredVersions: over a real Assigner, a turn's scope (package
// chat)
// reports the versions to store with the session only when they are new
// or moved; given the stored ones back, a weight change that keeps every
// version above 0 moves no session, and a version set to 0 hands all its
// sessions to the other at once.
func TestScopeKeepsStoredVersions(t *testing.T) {
	ctx := context.Background()
	ex := versionedExecutor(t)
	as, err := rollout.New(backends[0].UniversalClient(t), ex.Registry(), rollout.Options{Prefix: backends[0].Prefix(t)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := chat.NewRunner(ex, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.SetRollouts(as)
	set := func(w rollout.Weights) {
		t.Helper()
		if _, err := as.Set(ctx, "cards_get_card", w); err != nil {
			t.Fatal(err)
		}
	}
	// turn runs one call in a scope over the stored versions and returns
	// the version it ran and what the scope would store.
	turn := func(id string, stored map[string]int) (int, map[string]int) {
		t.Helper()
		sc := r.Scope(ctx, id, 1, nil, false)
		sc.KeepVersions(stored)
		outs := sc.Run(ctx, []tool.Call{cardCall("cards_get_card", `{"name":"Ember"}`), cardCall("cards_count", `{}`)})
		return outs[0].Version, sc.AssignedVersions()
	}
	set(rollout.Weights{1: 80, 2: 20})
	stored := map[string]map[string]int{}
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("session-%d", i)
		v, put := turn(ids[i], nil)
		if len(put) != 1 || put["cards_get_card"] != v {
			t.Fatalf("first turn ran %d and would store %v", v, put)
		}
		stored[ids[i]] = put
	}
	set(rollout.Weights{1: 50, 2: 50})
	hashMoves := 0
	for _, id := range ids {
		held := stored[id]["cards_get_card"]
		if v, put := turn(id, stored[id]); v != held || put != nil {
			t.Fatalf("80/20 → 50/50 moved %s from %d to %d (store %v)", id, held, v, put)
		}
		if v, _ := turn(id, nil); v != held {
			hashMoves++
		}
	}
	if hashMoves == 0 {
		t.Fatal("without the stored version no session would have moved; the test shows nothing")
	}
	set(rollout.Weights{1: 100, 2: 0})
	for _, id := range ids {
		v, put := turn(id, stored[id])
		if v != 1 {
			t.Fatalf("after 2 → 0 %s runs %d", id, v)
		}
		if was := stored[id]["cards_get_card"]; (was == 2) != (put["cards_get_card"] == 1) {
			t.Fatalf("%s held %d; the scope would store %v", id, was, put)
		}
	}
}
