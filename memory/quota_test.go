package memory_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
	"github.com/redis/go-redis/v9"
)

// TestTurnQuota: LockAndBegin counts each turn in the session's quota in
// its own round trip, and refuses a turn over it without changing
// anything: no lock taken, no exchange advanced, nothing counted. A
// request that found the lock busy was counted; screen events (LockAndLoad)
// and other sessions are not.
func TestTurnQuota(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{TurnQuota: memory.Quota{Turns: 3, Per: time.Hour}})
		c := &tripCounter{}
		e.rdb.AddHook(c)
		e.create(t, "s")
		e.create(t, "other")
		turn := func(id string) {
			t.Helper()
			_, l, err := e.store.LockAndBegin(ctx, id, 0)
			if err != nil {
				t.Fatalf("LockAndBegin(%s): %v", id, err)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
		turn("s")
		// A request that finds the lock busy counts, once.
		_, held, err := e.store.LockAndBegin(ctx, "s", 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.store.LockAndBegin(ctx, "s", 0); !errors.Is(err, memory.ErrBusy) {
			t.Fatalf("LockAndBegin while held: %v, want ErrBusy", err)
		}
		if err := held.Release(ctx); err != nil {
			t.Fatal(err)
		}
		// Screen events do not count.
		_, l, err := e.store.LockAndLoad(ctx, "s", 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
		exchange := exchangeOf(t, e, "s")

		before := c.n.Load()
		_, _, err = e.store.LockAndBegin(ctx, "s", 0)
		var rl *memory.RateLimitError
		if !errors.Is(err, memory.ErrRateLimited) || !errors.As(err, &rl) {
			t.Fatalf("fourth request: %v, want a RateLimitError", err)
		}
		if n := c.n.Load() - before; n != 1 {
			t.Errorf("the refused LockAndBegin took %d round trips, want 1", n)
		}
		if rl.RetryAfter <= 0 || rl.RetryAfter > time.Hour {
			t.Errorf("RetryAfter %s, want within the hour's window", rl.RetryAfter)
		}
		if got := exchangeOf(t, e, "s"); got != exchange {
			t.Errorf("the refused turn moved the exchange from %d to %d", exchange, got)
		}
		// No lock was left behind: a screen event gets it at once.
		_, l, err = e.store.LockAndLoad(ctx, "s", 0)
		if err != nil {
			t.Fatalf("LockAndLoad after the refusal: %v", err)
		}
		_ = l.Release(ctx)
		// Refusals are not counted: the log still holds three turns.
		if n, err := e.rdb.ZCard(ctx, e.key("s", "quota")).Result(); err != nil || n != 3 {
			t.Errorf("quota log holds %d (%v), want 3", n, err)
		}
		if ttl, err := e.rdb.PTTL(ctx, e.key("s", "quota")).Result(); err != nil || ttl <= 0 || ttl > time.Hour {
			t.Errorf("quota log TTL %s (%v), want at most the window", ttl, err)
		}
		turn("other")
	})
}

// TestTurnQuotaWaiterCountsOnce: a turn that waits for the lock through
// several attempts is counted once, so it is admitted when it fits.
func TestTurnQuotaWaiterCountsOnce(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{TurnQuota: memory.Quota{Turns: 2, Per: time.Hour}})
		e.create(t, "s")
		_, held, err := e.store.LockAndBegin(ctx, "s", 0)
		if err != nil {
			t.Fatal(err)
		}
		attempts := &attemptHook{seen: make(chan struct{}, 64)}
		e.rdb.AddHook(attempts)
		got := make(chan error, 1)
		go func() {
			_, l, err := e.store.LockAndBegin(ctx, "s", time.Minute)
			if err == nil {
				err = l.Release(ctx)
			}
			got <- err
		}()
		// Two attempts while the lock is held, then free it.
		<-attempts.seen
		<-attempts.seen
		if err := held.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-got; err != nil {
			t.Fatalf("the waiting turn: %v, want admitted", err)
		}
		if _, _, err := e.store.LockAndBegin(ctx, "s", 0); !errors.Is(err, memory.ErrRateLimited) {
			t.Fatalf("third turn: %v, want ErrRateLimited", err)
		}
	})
}

func TestTurnQuotaZeroAdmitsAll(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, backends[0], memory.Options{})
	e.create(t, "s")
	for i := range 20 {
		_, l, err := e.store.LockAndBegin(ctx, "s", 0)
		if err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		_ = l.Release(ctx)
	}
	if n, err := e.rdb.Exists(ctx, e.key("s", "quota")).Result(); err != nil || n != 0 {
		t.Errorf("without a quota a log was kept (%d, %v)", n, err)
	}
}

func exchangeOf(t *testing.T, e env, id string) int {
	t.Helper()
	m, err := e.store.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m.Exchange
}

// attemptHook signals each lock-and-begin attempt (the script with the
// session keys, the lock and the quota log), sent alone or in a pipeline.
type attemptHook struct{ seen chan struct{} }

func (h *attemptHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *attemptHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		h.note(cmd)
		return err
	}
}

func (h *attemptHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		for _, c := range cmds {
			h.note(c)
		}
		return err
	}
}

func (h *attemptHook) note(cmd redis.Cmder) {
	args := cmd.Args()
	if len(args) > 2 && (cmd.Name() == "evalsha" || cmd.Name() == "eval") && fmt.Sprint(args[2]) == "7" {
		h.seen <- struct{}{}
	}
}
