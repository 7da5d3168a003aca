package rollout_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/handclock"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/rollout"
	"github.com/gameassist/gameassist/tool"
)

var backends []redistest.Backend

func TestMain(m *testing.M) {
	redistest.MainBackends(m, func(s *redistest.Server, c *redistest.Cluster) {
		backends = []redistest.Backend{s, c}
	})
}

type stubTool struct{ spec tool.Spec }

func (s stubTool) Spec() tool.Spec { return s.spec }
func (s stubTool) Call(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Success("", nil), nil
}

func registry(t *testing.T) *tool.Registry {
	t.Helper()
	reg := tool.NewRegistry()
	err := reg.Register(
		stubTool{tool.Spec{Name: "cards_get_card", Version: 1, Aliases: []string{"get_card"}}},
		stubTool{tool.Spec{Name: "cards_get_card", Version: 2, Aliases: []string{"get_card"}}},
		stubTool{tool.Spec{Name: "cards_count"}},
		stubTool{tool.Spec{Name: "cards_single", Version: 1}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// share is the percentage of ids a assigns to version v of cards_get_card.
func share(a *rollout.Assigner, ids []string, v int) float64 {
	n := 0
	for _, id := range ids {
		if a.Version(context.Background(), id, "cards_get_card", []int{1, 2}, 0) == v {
			n++
		}
	}
	return 100 * float64(n) / float64(len(ids))
}

func TestAssignerAcrossInstances(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		ctx := context.Background()
		reg := registry(t)
		prefix := b.Prefix(t)
		clock := handclock.New(time.Unix(1_700_000_000, 0))
		newInstance := func() *rollout.Assigner {
			a, err := rollout.New(b.UniversalClient(t), reg, rollout.Options{Prefix: prefix, Refresh: time.Second, Now: clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			a.SetFileWeights(map[string]rollout.Weights{"cards_get_card": {1: 80, 2: 20}})
			return a
		}
		one, two := newInstance(), newInstance()
		ids := sessions(2000)

		// The file's weights until an admin sets some.
		if w, src := two.Weights(ctx, "cards_get_card"); src != rollout.SourceFile || w[1] != 80 || w[2] != 20 {
			t.Fatalf("weights %v from %s", w, src)
		}
		if got := share(two, ids, 2); got < 20-3 || got > 20+3 {
			t.Fatalf("file weights give v2 %.1f%%", got)
		}
		sticky := map[string]int{}
		for _, id := range ids {
			sticky[id] = two.Version(ctx, id, "cards_get_card", []int{1, 2}, 0)
		}

		// Instance one sets 50/50 through the alias; it uses them at once.
		if name, err := one.Set(ctx, "get_card", rollout.Weights{1: 50, 2: 50}); err != nil || name != "cards_get_card" {
			t.Fatalf("Set = %q, %v", name, err)
		}
		if w, src := one.Weights(ctx, "cards_get_card"); src != rollout.SourceAdmin || w[2] != 50 {
			t.Fatalf("setter sees %v from %s", w, src)
		}
		// Instance two keeps what it read until its refresh interval ends:
		// no Redis read per call, and its sessions stay where they were.
		for _, id := range ids {
			if v := two.Version(ctx, id, "cards_get_card", []int{1, 2}, sticky[id]); v != sticky[id] {
				t.Fatalf("session %s moved before the refresh", id)
			}
		}
		clock.Add(time.Second)
		if w, src := two.Weights(ctx, "cards_get_card"); src != rollout.SourceAdmin || w[1] != 50 || w[2] != 50 {
			t.Fatalf("after the refresh instance two sees %v from %s", w, src)
		}
		if got := share(two, ids, 2); got < 50-3 || got > 50+3 {
			t.Fatalf("50/50 gives v2 %.1f%%", got)
		}
		// Sessions that hold a version keep it: both stay above 0.
		for _, id := range ids {
			if v := two.Version(ctx, id, "cards_get_card", []int{1, 2}, sticky[id]); v != sticky[id] {
				t.Fatalf("session %s moved from %d to %d when 80/20 became 50/50", id, sticky[id], v)
			}
		}

		// Rollback: 100/0 on instance two; instance one follows after
		// its refresh, and every session is on version 1.
		if _, err := two.Set(ctx, "cards_get_card", rollout.Weights{1: 100, 2: 0}); err != nil {
			t.Fatal(err)
		}
		clock.Add(time.Second)
		for _, a := range []*rollout.Assigner{one, two} {
			if got := share(a, ids, 1); got != 100 {
				t.Fatalf("after rollback %.1f%% on version 1", got)
			}
		}
		// A new instance reads the stored weights at its first call.
		if got := share(newInstance(), ids, 1); got != 100 {
			t.Fatalf("a new instance puts %.1f%% on version 1", got)
		}
	})
}

func TestAssignerSetRefuses(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		ctx := context.Background()
		a, err := rollout.New(b.UniversalClient(t), registry(t), rollout.Options{Prefix: b.Prefix(t)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Set(ctx, "no_such_tool", rollout.Weights{1: 1}); !errors.Is(err, rollout.ErrUnknownTool) {
			t.Fatalf("unknown tool: %v", err)
		}
		if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{1: 50, 3: 50}); !errors.Is(err, rollout.ErrInvalid) {
			t.Fatalf("unknown version: %v", err)
		}
		if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{1: 0, 2: 0}); !errors.Is(err, rollout.ErrInvalid) {
			t.Fatalf("zero sum: %v", err)
		}
		if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{1: 80, 2: 30}); !errors.Is(err, rollout.ErrInvalid) {
			t.Fatalf("sum 110: %v", err)
		}
		if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{1: 4, 2: 1}); !errors.Is(err, rollout.ErrInvalid) {
			t.Fatalf("relative weights: %v", err)
		}
		// One version is no rollout, as the tools file's rollouts: says.
		if _, err := a.Set(ctx, "cards_single", rollout.Weights{1: 100}); !errors.Is(err, rollout.ErrInvalid) || !strings.Contains(err.Error(), "only version 1") {
			t.Fatalf("single version: %v", err)
		}
		if _, err := a.Set(ctx, "cards_count", rollout.Weights{1: 100}); !errors.Is(err, rollout.ErrInvalid) || !strings.Contains(err.Error(), "unversioned") {
			t.Fatalf("unversioned: %v", err)
		}
		// Nothing was stored: the default (highest version) still holds.
		if w, src := a.Weights(ctx, "cards_get_card"); src != rollout.SourceDefault || w[2] != 100 || len(w) != 1 {
			t.Fatalf("after refused sets: %v from %s", w, src)
		}
		if v := a.Version(ctx, "s", "cards_get_card", []int{1, 2}, 0); v != 2 {
			t.Fatalf("default version %d, want the highest", v)
		}
	})
}

func TestAssignerRedisDown(t *testing.T) {
	srv := redistest.Start(t)
	clock := handclock.New(time.Unix(1_700_000_000, 0))
	rdb := srv.UniversalClient(t)
	a, err := rollout.New(rdb, registry(t), rollout.Options{Prefix: srv.Prefix(t), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{1: 100}); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	clock.Add(time.Minute)
	// The read fails; the weights read last stay in force.
	if v := a.Version(ctx, "s", "cards_get_card", []int{1, 2}, 0); v != 1 {
		t.Fatalf("with Redis down version %d, want the last weights' 1", v)
	}
	if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{2: 100}); err == nil {
		t.Fatal("Set succeeded with Redis down")
	}
}

// TestAssignerConcurrent: many sessions assigned at once while the refresh
// interval passes and an admin changes the weights; under -race. Every
// answer is a version of the tool, and once the change is read everyone
// agrees.
func TestAssignerConcurrent(t *testing.T) {
	srv := backends[0]
	clock := handclock.New(time.Unix(1_700_000_000, 0))
	a, err := rollout.New(srv.UniversalClient(t), registry(t), rollout.Options{Prefix: srv.Prefix(t), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ids := sessions(400)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i, id := range ids {
				if v := a.Version(ctx, id, "cards_get_card", []int{1, 2}, 0); v != 1 && v != 2 {
					t.Errorf("version %d", v)
					return
				}
				if g == 0 && i%100 == 0 {
					clock.Add(time.Second)
				}
			}
		})
	}
	if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{1: 100, 2: 0}); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	clock.Add(time.Second)
	if got := share(a, ids, 1); got != 100 {
		t.Fatalf("after the change %.1f%% on version 1", got)
	}
}

// TestAssignerKeepsStoredVersion: a session holding a version keeps it
// while that version's weight is above 0, whatever the new weights; new
// sessions follow the new weights; a version at 0 (or gone) hands its
// sessions to the versions above 0 at once.
func TestAssignerKeepsStoredVersion(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		ctx := context.Background()
		a, err := rollout.New(b.UniversalClient(t), registry(t), rollout.Options{Prefix: b.Prefix(t)})
		if err != nil {
			t.Fatal(err)
		}
		vs := []int{1, 2}
		if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{1: 80, 2: 20}); err != nil {
			t.Fatal(err)
		}
		old := sessions(4000)
		held := map[string]int{}
		for _, id := range old {
			held[id] = a.Version(ctx, id, "cards_get_card", vs, 0)
		}
		if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{1: 50, 2: 50}); err != nil {
			t.Fatal(err)
		}
		for _, id := range old {
			if v := a.Version(ctx, id, "cards_get_card", vs, held[id]); v != held[id] {
				t.Fatalf("80/20 → 50/50 moved session %s from %d to %d", id, held[id], v)
			}
		}
		// Without the stored version the hash alone would have moved some
		// of them: what the stored version is there for.
		moved := 0
		for _, id := range old {
			if a.Version(ctx, id, "cards_get_card", vs, 0) != held[id] {
				moved++
			}
		}
		if moved == 0 {
			t.Fatal("the hash moved no session from 80/20 to 50/50; the test shows nothing")
		}
		// New sessions follow 50/50 (the hash is deterministic, so the
		// share is the same on every run).
		fresh := make([]string, 4000)
		for i := range fresh {
			fresh[i] = fmt.Sprintf("new-%d", i)
		}
		if got := share(a, fresh, 2); got < 50-tolerance || got > 50+tolerance {
			t.Fatalf("new sessions on version 2: %.2f%%, want 50 ± %.1f", got, tolerance)
		}
		// Rollback: version 2 to 0 moves every session on it to 1 at once.
		if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{1: 100, 2: 0}); err != nil {
			t.Fatal(err)
		}
		for _, id := range old {
			if v := a.Version(ctx, id, "cards_get_card", vs, held[id]); v != 1 {
				t.Fatalf("after 2 → 0 session %s (held %d) runs %d", id, held[id], v)
			}
		}
		// A stored version the tool no longer has is picked again.
		if v := a.Version(ctx, "s", "cards_get_card", vs, 7); v != 1 {
			t.Fatalf("stored version 7 of a tool with %v gave %d", vs, v)
		}
	})
}

// TestAssignerClear: clearing the admin weights brings back the tools
// file's (or the default) on the instance that clears at once and on the
// others after their refresh interval; sessions keep a version whose
// weight stays above 0; clearing twice, or a tool never set, is fine.
func TestAssignerClear(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		ctx := context.Background()
		reg := registry(t)
		prefix := b.Prefix(t)
		clock := handclock.New(time.Unix(1_700_000_000, 0))
		newInstance := func(file map[string]rollout.Weights) *rollout.Assigner {
			a, err := rollout.New(b.UniversalClient(t), reg, rollout.Options{Prefix: prefix, Refresh: time.Second, Now: clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			a.SetFileWeights(file)
			return a
		}
		file := map[string]rollout.Weights{"cards_get_card": {1: 80, 2: 20}}
		one, two := newInstance(file), newInstance(file)
		vs := []int{1, 2}
		ids := sessions(2000)

		if _, err := one.Set(ctx, "cards_get_card", rollout.Weights{1: 0, 2: 100}); err != nil {
			t.Fatal(err)
		}
		held := map[string]int{}
		for _, id := range ids {
			if held[id] = two.Version(ctx, id, "cards_get_card", vs, 0); held[id] != 2 {
				t.Fatalf("under 0/100 session %s runs %d", id, held[id])
			}
		}

		// Cleared through the alias on instance one: the file's weights
		// there at once.
		if name, err := one.Clear(ctx, "get_card"); err != nil || name != "cards_get_card" {
			t.Fatalf("Clear = %q, %v", name, err)
		}
		if w, src := one.Weights(ctx, "cards_get_card"); src != rollout.SourceFile || w[1] != 80 || w[2] != 20 || len(w) != 2 {
			t.Fatalf("after clear instance one sees %v from %s", w, src)
		}
		if got := share(one, ids, 2); got < 20-3 || got > 20+3 {
			t.Fatalf("the file's 80/20 gives new sessions v2 %.1f%%", got)
		}
		// Instance two keeps the admin weights until its refresh.
		if w, src := two.Weights(ctx, "cards_get_card"); src != rollout.SourceAdmin || w[2] != 100 {
			t.Fatalf("before the refresh instance two sees %v from %s", w, src)
		}
		clock.Add(time.Second)
		if w, src := two.Weights(ctx, "cards_get_card"); src != rollout.SourceFile || w[1] != 80 || w[2] != 20 {
			t.Fatalf("after the refresh instance two sees %v from %s", w, src)
		}
		// Version 2 keeps a weight above 0 (20): its sessions stay on it.
		for _, id := range ids {
			if v := two.Version(ctx, id, "cards_get_card", vs, held[id]); v != 2 {
				t.Fatalf("after clear session %s moved from 2 to %d", id, v)
			}
		}
		// A new instance reads nothing from Redis: the file's weights.
		if w, src := newInstance(file).Weights(ctx, "cards_get_card"); src != rollout.SourceFile || w[1] != 80 {
			t.Fatalf("a new instance sees %v from %s", w, src)
		}

		// Clearing again changes nothing.
		if _, err := two.Clear(ctx, "cards_get_card"); err != nil {
			t.Fatalf("second Clear: %v", err)
		}
		if w, src := two.Weights(ctx, "cards_get_card"); src != rollout.SourceFile || w[1] != 80 {
			t.Fatalf("after a second clear %v from %s", w, src)
		}
		if _, err := two.Clear(ctx, "no_such_tool"); !errors.Is(err, rollout.ErrUnknownTool) {
			t.Fatalf("unknown tool: %v", err)
		}
		// An unversioned tool has no rollout, as Set says too.
		if _, err := two.Clear(ctx, "cards_count"); !errors.Is(err, rollout.ErrInvalid) {
			t.Fatalf("unversioned tool: %v", err)
		}
		if _, err := two.Clear(ctx, "cards_single"); !errors.Is(err, rollout.ErrInvalid) || !strings.Contains(err.Error(), "only version 1") {
			t.Fatalf("single-version tool: %v", err)
		}

		// Without file weights a clear falls back to the default: the
		// highest version takes every session, and a session held on
		// version 1 moves (its weight is now 0).
		bare := newInstance(nil)
		if _, err := bare.Set(ctx, "cards_get_card", rollout.Weights{1: 100, 2: 0}); err != nil {
			t.Fatal(err)
		}
		if v := bare.Version(ctx, "s", "cards_get_card", vs, 0); v != 1 {
			t.Fatalf("under 100/0 version %d", v)
		}
		if _, err := bare.Clear(ctx, "cards_get_card"); err != nil {
			t.Fatal(err)
		}
		if w, src := bare.Weights(ctx, "cards_get_card"); src != rollout.SourceDefault || w[2] != 100 || len(w) != 1 {
			t.Fatalf("cleared without file weights: %v from %s", w, src)
		}
		if v := bare.Version(ctx, "s", "cards_get_card", vs, 1); v != 2 {
			t.Fatalf("default after clear: session held on 1 runs %d, want 2", v)
		}
	})
}

// TestAssignerClearRedisDown: a clear that cannot reach Redis is an
// error and leaves the weights in force.
func TestAssignerClearRedisDown(t *testing.T) {
	srv := redistest.Start(t)
	a, err := rollout.New(srv.UniversalClient(t), registry(t), rollout.Options{Prefix: srv.Prefix(t)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := a.Set(ctx, "cards_get_card", rollout.Weights{1: 100}); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	if _, err := a.Clear(ctx, "cards_get_card"); err == nil {
		t.Fatal("Clear succeeded with Redis down")
	}
	if w, src := a.Weights(ctx, "cards_get_card"); src != rollout.SourceAdmin || w[1] != 100 {
		t.Fatalf("a failed clear changed the weights: %v from %s", w, src)
	}
}
