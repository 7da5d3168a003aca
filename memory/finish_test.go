package memory_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

// TestTurnWriteIsOneScript: a turn's write records its messages, its
// exchange and releases its lock in one script, so the exchange is
// recorded exactly when the messages are. A session gone meanwhile still
// has its lock released; a lock another turn holds by then is left alone.
func TestTurnWriteIsOneScript(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		c := &tripCounter{}
		e.rdb.AddHook(c)
		e.create(t, "s")
		turn := func(t *testing.T) (memory.Turn, memory.Lease) {
			t.Helper()
			tn, l, err := e.store.LockAndBegin(ctx, "s", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			return tn, l
		}
		finish := func(tn memory.Turn, l memory.Lease, reply string) memory.Finish {
			return memory.Finish{
				Messages: []memory.Message{{Role: "user", Content: "q", Exchange: tn.Meta.Exchange}, {Role: "assistant", Content: reply, Exchange: tn.Meta.Exchange}},
				Exchange: &memory.Exchange{Exchange: tn.Meta.Exchange, Message: "q", Reply: reply},
				Release:  l,
			}
		}
		lockKey := e.key("s", "lock")

		t.Run("one script", func(t *testing.T) {
			tn, l := turn(t)
			before := c.scripts.Load()
			if err := e.store.FinishTurn(ctx, "s", finish(tn, l, "first")); err != nil {
				t.Fatal(err)
			}
			// A first write may send the script whole after EVALSHA missed.
			if got := c.scripts.Load() - before; got < 1 || got > 2 {
				t.Fatalf("the turn's write sent %d scripts, want one (two when loading it)", got)
			}
			tn, l = turn(t)
			before = c.scripts.Load()
			if err := e.store.FinishTurn(ctx, "s", finish(tn, l, "second")); err != nil {
				t.Fatal(err)
			}
			if got := c.scripts.Load() - before; got != 1 {
				t.Errorf("the turn's write sent %d scripts, want 1", got)
			}
			if n, err := e.rdb.Exists(ctx, lockKey).Result(); err != nil || n != 0 {
				t.Errorf("lock key exists = %d, %v after the write; want released", n, err)
			}
			if err := l.Release(ctx); err != nil {
				t.Errorf("Release after the write = %v, want nil (already released)", err)
			}
			got, err := e.store.Exchanges(ctx, "s", tn.Meta.Exchange)
			if err != nil || got[tn.Meta.Exchange].Reply != "second" {
				t.Errorf("exchange %d recorded as %+v, %v; want the reply", tn.Meta.Exchange, got, err)
			}
			if _, l2, err := e.store.LockAndBegin(ctx, "s", 0); err != nil {
				t.Errorf("the next turn could not take the lock: %v", err)
			} else if err := l2.Release(ctx); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("lock taken over meanwhile", func(t *testing.T) {
			tn, l := turn(t)
			// The turn's lock expired and another turn took it.
			if err := e.rdb.Set(ctx, lockKey, "another-owner", time.Minute).Err(); err != nil {
				t.Fatal(err)
			}
			if err := e.store.FinishTurn(ctx, "s", finish(tn, l, "late")); err != nil {
				t.Fatal(err)
			}
			if v, err := e.rdb.Get(ctx, lockKey).Result(); err != nil || v != "another-owner" {
				t.Errorf("lock = %q, %v after the late write; want the other turn's", v, err)
			}
			if err := l.Release(ctx); !errors.Is(err, memory.ErrNotHeld) {
				t.Errorf("Release of the lost lock = %v, want ErrNotHeld", err)
			}
			if err := e.rdb.Del(ctx, lockKey).Err(); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("session gone meanwhile", func(t *testing.T) {
			tn, l := turn(t)
			if err := e.rdb.Del(ctx, e.key("s", "meta")).Err(); err != nil { // what Redis does when the TTL ends
				t.Fatal(err)
			}
			if err := e.store.FinishTurn(ctx, "s", finish(tn, l, "gone")); !errors.Is(err, memory.ErrNotFound) {
				t.Fatalf("FinishTurn on a session gone = %v, want ErrNotFound", err)
			}
			if n, err := e.rdb.Exists(ctx, lockKey, e.key("s", "exchanges")).Result(); err != nil || n != 1 {
				// The exchanges hash of the earlier turns is left to its TTL.
				t.Errorf("%d of lock and exchanges exist, %v; want the lock released and nothing recorded", n, err)
			}
			got, err := e.store.Exchanges(ctx, "s", tn.Meta.Exchange)
			if err != nil || len(got) != 0 {
				t.Errorf("exchange of the gone session recorded: %+v, %v", got, err)
			}
		})
	})
}
