package memory_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

// TestDefaultLockTTLIsShort: a lock whose holder is gone frees itself
// within seconds, not a minute.
func TestDefaultLockTTLIsShort(t *testing.T) {
	if memory.DefaultLockTTL > 10*time.Second {
		t.Fatalf("DefaultLockTTL = %s, want a few seconds", memory.DefaultLockTTL)
	}
	e := newEnv(t, backends[0], memory.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l, err := e.store.Lock(ctx, "s", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Release(context.Background()) }()
	ttl, err := e.rdb.PTTL(ctx, e.key("s", "lock")).Result()
	if err != nil || ttl <= 0 || ttl > memory.DefaultLockTTL {
		t.Fatalf("lock PTTL = %s, %v; want within (0, %s]", ttl, err, memory.DefaultLockTTL)
	}
}

// heldWithClock holds session "s"'s lock, taken with a TTL of ttl, whose
// renewals are paced by ticks and reported on renewed.
func heldWithClock(t *testing.T, srv redistest.Backend, ttl time.Duration) (env, memory.Lease, chan<- time.Time, <-chan error) {
	t.Helper()
	e := newEnv(t, srv, memory.Options{LockTTL: ttl})
	ticks := make(chan time.Time)
	renewed := make(chan error)
	memory.SetRenewClock(e.store, ticks, renewed)
	e.create(t, "s")
	_, l, err := e.store.LockAndBegin(context.Background(), "s", 0)
	if err != nil {
		t.Fatal(err)
	}
	return e, l, ticks, renewed
}

// TestLiveHolderRenewsLock: while its context lives, the holder renews
// the lock every tick back to the full TTL; release ends the renewal.
func TestLiveHolderRenewsLock(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		const ttl = 5 * time.Second
		e, l, ticks, renewed := heldWithClock(t, srv, ttl)
		key := e.key("s", "lock")
		for i := range 3 {
			// Time passes: the lock is about to expire.
			if err := e.rdb.PExpire(ctx, key, time.Hour).Err(); err != nil {
				t.Fatal(err)
			}
			ticks <- time.Time{}
			if err := <-renewed; err != nil {
				t.Fatalf("renewal %d: %v", i, err)
			}
			if got, err := e.rdb.PTTL(ctx, key).Result(); err != nil || got <= 0 || got > ttl {
				t.Fatalf("after renewal %d the lock's PTTL is %s, %v; want the TTL %s again", i, got, err, ttl)
			}
		}
		if _, err := e.store.Lock(ctx, "s", 0); !errors.Is(err, memory.ErrBusy) {
			t.Fatalf("a renewed lock was taken: %v", err)
		}
		if err := e.store.FinishTurn(ctx, "s", memory.Finish{Release: l}); err != nil {
			t.Fatal(err)
		}
		<-memory.RenewalDone(l)
		if n, err := e.rdb.Exists(ctx, key).Result(); err != nil || n != 0 {
			t.Fatalf("lock still there after the turn's release: %d, %v", n, err)
		}
	})
}

// TestReleaseDuringRenewal: a release while a renewal is in flight ends
// the renewal once that one returns, and arms no other.
func TestReleaseDuringRenewal(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e, l, ticks, _ := heldWithClock(t, srv, 5*time.Second)
		// The release runs from within the renewal's report, so the
		// renewal is still in flight while it does.
		during := make(chan error, 1)
		memory.SetRenewHook(e.store, func(err error) {
			// The renewal ran against a lock still held.
			if err != nil {
				during <- fmt.Errorf("renewal: %w", err)
				return
			}
			if err := l.Release(ctx); err != nil {
				during <- err
				return
			}
			select {
			case <-memory.RenewalDone(l):
				during <- errors.New("the renewal ended while one was still running")
			default:
				during <- nil
			}
		})
		ticks <- time.Time{}
		if err := <-during; err != nil {
			t.Fatal(err)
		}
		<-memory.RenewalDone(l)
		select {
		case ticks <- time.Time{}:
			t.Fatal("a renewal was armed after the release")
		default:
		}
		if n, err := e.rdb.Exists(ctx, e.key("s", "lock")).Result(); err != nil || n != 0 {
			t.Fatalf("lock still there after the release: %d, %v", n, err)
		}
	})
}

// TestDeadHolderLockReclaimed: a holder whose turn ended without releasing
// (its instance crashed, or Redis kept the key across a restart) renews no
// more; its lock carries no more than the short TTL, and once that passes
// the next turn takes it at once.
func TestDeadHolderLockReclaimed(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		const ttl = 4 * time.Second
		e := newEnv(t, srv, memory.Options{LockTTL: ttl, LockPoll: time.Millisecond})
		ticks := make(chan time.Time)
		renewed := make(chan error, 1)
		memory.SetRenewClock(e.store, ticks, renewed)
		e.create(t, "s")
		holder, die := context.WithCancel(context.Background())
		_, l, err := e.store.LockAndBegin(holder, "s", 0)
		if err != nil {
			t.Fatal(err)
		}
		die()
		<-memory.RenewalDone(l)

		ctx := context.Background()
		key := e.key("s", "lock")
		if got, err := e.rdb.PTTL(ctx, key).Result(); err != nil || got <= 0 || got > ttl {
			t.Fatalf("dead holder's lock PTTL = %s, %v; want within (0, %s]", got, err, ttl)
		}
		if _, _, err := e.store.LockAndBegin(ctx, "s", 0); !errors.Is(err, memory.ErrBusy) {
			t.Fatalf("lock taken before its TTL passed: %v", err)
		}
		// The TTL passes (in Redis's clock, shortened rather than waited for).
		if err := e.rdb.PExpire(ctx, key, time.Millisecond).Err(); err != nil {
			t.Fatal(err)
		}
		turn, l2, err := e.store.LockAndBegin(ctx, "s", 10*time.Second)
		if err != nil {
			t.Fatalf("next turn after the dead holder's TTL: %v", err)
		}
		if turn.Meta.Exchange != 2 {
			t.Errorf("next turn's exchange = %d, want 2", turn.Meta.Exchange)
		}
		if err := l2.Release(ctx); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-renewed:
			t.Fatalf("the dead holder renewed: %v", err)
		default:
		}
	})
}

// TestLoadingIsUnavailable: Redis answering LOADING (a restart reading a
// large data set) or CLUSTERDOWN (a cluster reconfiguring) fails every
// operation with ErrUnavailable, not as an internal error; so does a Redis
// that is down.
func TestLoadingIsUnavailable(t *testing.T) {
	loading := redistest.StartLoading(t)
	clusterDown := redistest.StartClusterDown(t)
	stopped := redistest.Start(t)
	stopped.Stop()
	for _, tc := range []struct {
		name string
		srv  *redistest.Server
	}{{"loading", loading}, {"cluster down", clusterDown}, {"down", stopped}} {
		t.Run(tc.name, func(t *testing.T) {
			rdb := redis.NewClient(&redis.Options{Addr: tc.srv.Addr(), MaxRetries: 1})
			t.Cleanup(func() { _ = rdb.Close() })
			st, err := memory.New(rdb, memory.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			ops := map[string]func() error{
				"session":   func() error { _, err := st.Session(ctx, "s"); return err },
				"lock":      func() error { _, _, err := st.LockAndBegin(ctx, "s", time.Second); return err },
				"first use": func() error { _, err := st.FirstUse(ctx, "k", time.Minute); return err },
				"create": func() error {
					return st.CreateSession(ctx, memory.Meta{ID: "s", Locale: "en", TokenHash: memory.HashToken("t")})
				},
				"recent": func() error { _, err := st.Recent(ctx, memory.RecentQuery{Limit: 10}); return err },
			}
			if tc.name != "cluster down" { // PING touches no slot
				ops["ping"] = func() error { return st.Ping(ctx) }
			}
			for name, op := range ops {
				err := op()
				if !errors.Is(err, memory.ErrUnavailable) {
					t.Errorf("%s: %v, want ErrUnavailable", name, err)
				}
			}
		})
	}
}
