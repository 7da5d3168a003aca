package memory_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

func createFor(t *testing.T, e env, id, player string) {
	t.Helper()
	err := e.store.CreateSession(context.Background(), memory.Meta{
		ID: id, TokenHash: memory.HashToken("tok-" + id), Locale: "en", PlayerID: player, CreatedAt: time.Now(),
	})
	if err != nil {
		t.Fatalf("CreateSession(%s): %v", id, err)
	}
}

func recentIDs(t *testing.T, e env, q memory.RecentQuery) ([]string, string) {
	t.Helper()
	page, err := e.store.Recent(context.Background(), q)
	if err != nil {
		t.Fatalf("Recent(%+v): %v", q, err)
	}
	ids := make([]string, len(page.Sessions))
	for i, s := range page.Sessions {
		ids[i] = s.ID
		if s.LastActive.IsZero() {
			t.Errorf("session %s: zero last_active", s.ID)
		}
	}
	return ids, page.NextCursor
}

// fakeClock is a Store clock the test moves by hand.
type fakeClock struct{ ms atomic.Int64 }

func newFakeClock() *fakeClock {
	c := &fakeClock{}
	c.ms.Store(time.Now().UnixMilli())
	return c
}

func (c *fakeClock) Now() time.Time          { return time.UnixMilli(c.ms.Load()) }
func (c *fakeClock) Advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

func TestRecentPagesNewestFirstWithoutGapsOrRepeats(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		clock := newFakeClock()
		e := newEnv(t, srv, memory.Options{Now: clock.Now})
		ctx := context.Background()
		// Sessions created in the same millisecond tie on score; the cursor
		// must still neither skip nor repeat one.
		for i := range 7 {
			createFor(t, e, fmt.Sprintf("s%d", i), fmt.Sprintf("p%d", i%2))
		}
		// A turn on s0, later, makes it the most recent.
		clock.Advance(time.Second)
		e.begin(t, "s0")
		if err := e.store.FinishTurn(ctx, "s0", memory.Finish{}); err != nil {
			t.Fatal(err)
		}
		var all []string
		cursor := ""
		for range 10 {
			ids, next := recentIDs(t, e, memory.RecentQuery{Limit: 3, Cursor: cursor})
			all = append(all, ids...)
			if next == "" {
				break
			}
			cursor = next
		}
		if len(all) != 7 {
			t.Fatalf("paged ids = %v, want 7 distinct", all)
		}
		seen := map[string]bool{}
		for _, id := range all {
			if seen[id] {
				t.Fatalf("id %s repeated in %v", id, all)
			}
			seen[id] = true
		}
		if all[0] != "s0" {
			t.Errorf("first = %s, want s0 (the last active)", all[0])
		}

		ids, next := recentIDs(t, e, memory.RecentQuery{Limit: 10, PlayerID: "p1"})
		if len(ids) != 3 || next != "" {
			t.Fatalf("player p1 sessions = %v (next %q), want s1 s3 s5", ids, next)
		}
		for _, id := range ids {
			if id != "s1" && id != "s3" && id != "s5" {
				t.Errorf("player p1 listed %s", id)
			}
		}
		ids, _ = recentIDs(t, e, memory.RecentQuery{Limit: 1, PlayerID: "p0"})
		if len(ids) != 1 || ids[0] != "s0" {
			t.Errorf("player p0 first = %v, want [s0]", ids)
		}
		ids, _ = recentIDs(t, e, memory.RecentQuery{Limit: 5, PlayerID: "nobody"})
		if len(ids) != 0 {
			t.Errorf("unknown player listed %v", ids)
		}
	})
}

func TestRecentDropsExpiredSessions(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		e := newEnv(t, srv, memory.Options{})
		createFor(t, e, "gone", "p")
		createFor(t, e, "kept", "p")
		// The session's keys expire in Redis; its index entries must not
		// produce a row.
		if err := e.rdb.Del(context.Background(), e.key("gone", "meta")).Err(); err != nil {
			t.Fatal(err)
		}
		for _, q := range []memory.RecentQuery{{Limit: 10}, {Limit: 10, PlayerID: "p"}} {
			ids, _ := recentIDs(t, e, q)
			if len(ids) != 1 || ids[0] != "kept" {
				t.Errorf("Recent(%+v) = %v, want [kept]", q, ids)
			}
		}
	})
}

func TestRecentRefusesBadInput(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		e := newEnv(t, srv, memory.Options{})
		for _, c := range []string{"%%%", "bm90LWEtY3Vyc29y", "MTI6e2JhZH0"} {
			if _, err := e.store.Recent(context.Background(), memory.RecentQuery{Limit: 5, Cursor: c}); !errors.Is(err, memory.ErrBadCursor) {
				t.Errorf("cursor %q: err = %v, want ErrBadCursor", c, err)
			}
		}
		for _, n := range []int{0, -1, 101} {
			if _, err := e.store.Recent(context.Background(), memory.RecentQuery{Limit: n}); err == nil {
				t.Errorf("limit %d accepted", n)
			}
		}
	})
}
