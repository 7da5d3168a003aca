package ratelimit_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/handclock"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/ratelimit"
	"github.com/redis/go-redis/v9"
)

// backends are the package's shared single redis-server and 3-master
// cluster (see redistest.MainBackends): storage tests run on both.
var backends []redistest.Backend

func TestMain(m *testing.M) {
	redistest.MainBackends(m, func(s *redistest.Server, c *redistest.Cluster) {
		backends = []redistest.Backend{s, c}
	})
}

func newLimiter(tb testing.TB, srv redistest.Backend, prefix string) *ratelimit.Limiter {
	tb.Helper()
	l, err := ratelimit.New(srv.UniversalClient(tb), prefix)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

func allow(tb testing.TB, l *ratelimit.Limiter, key string, limit int, window time.Duration) ratelimit.Decision {
	tb.Helper()
	d, err := l.Allow(context.Background(), key, limit, window)
	if err != nil {
		tb.Fatalf("Allow(%s): %v", key, err)
	}
	return d
}

func TestLimit(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		l := newLimiter(t, srv, srv.Prefix(t))
		for i := range 3 {
			d := allow(t, l, "k", 3, time.Minute)
			if !d.Allowed || d.Remaining != 2-i || d.RetryAfter != 0 {
				t.Fatalf("request %d: %+v", i+1, d)
			}
		}
		for range 2 {
			d := allow(t, l, "k", 3, time.Minute)
			if d.Allowed || d.Remaining != 0 {
				t.Fatalf("over limit: %+v", d)
			}
			if d.RetryAfter <= 0 || d.RetryAfter > time.Minute {
				t.Fatalf("RetryAfter = %s, want in (0, 1m]", d.RetryAfter)
			}
		}
	})
}

func TestSharedAcrossInstances(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		prefix := srv.Prefix(t)
		a := newLimiter(t, srv, prefix)
		b := newLimiter(t, srv, prefix) // own client: another instance
		tests := []struct {
			name    string
			l       *ratelimit.Limiter
			allowed bool
		}{
			{"a first", a, true},
			{"b second", b, true},
			{"a third", a, true},
			{"b over", b, false},
			{"a over", a, false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if d := allow(t, tt.l, "player-1", 3, time.Minute); d.Allowed != tt.allowed {
					t.Fatalf("Allowed = %v, want %v", d.Allowed, tt.allowed)
				}
			})
		}
	})
}

func TestKeysIsolated(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		prefix := srv.Prefix(t)
		l := newLimiter(t, srv, prefix)
		if d := allow(t, l, "a", 1, time.Minute); !d.Allowed {
			t.Fatal("first a denied")
		}
		if d := allow(t, l, "a", 1, time.Minute); d.Allowed {
			t.Fatal("second a allowed")
		}
		long := strings.Repeat("x", 1000)
		for _, key := range []string{"b", "", long, long + "y"} {
			if d := allow(t, l, key, 1, time.Minute); !d.Allowed {
				t.Errorf("key %.10q denied by another key's use", key)
			}
		}
		// Another prefix is another namespace.
		if d := allow(t, newLimiter(t, srv, prefix+"-other"), "a", 1, time.Minute); !d.Allowed {
			t.Error("other prefix shares the count")
		}
	})
}

// TestWindowPasses times the window on a clock moved by hand: a denied
// request is told exactly when its slot frees, and is admitted then, not a
// microsecond before. The window is long, so the key's Redis expiry (real
// time) never ends it first.
func TestWindowPasses(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		clock := handclock.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
		l, err := ratelimit.New(srv.UniversalClient(t), srv.Prefix(t), ratelimit.WithClock(clock.Now))
		if err != nil {
			t.Fatal(err)
		}
		const window = time.Hour
		if d := allow(t, l, "k", 2, window); !d.Allowed || d.Remaining != 1 {
			t.Fatalf("first request: %+v", d)
		}
		clock.Add(10 * time.Minute)
		if d := allow(t, l, "k", 2, window); !d.Allowed || d.Remaining != 0 {
			t.Fatalf("second request: %+v", d)
		}
		clock.Add(20 * time.Minute)
		d := allow(t, l, "k", 2, window)
		if d.Allowed || d.RetryAfter != 30*time.Minute {
			t.Fatalf("third request, 30 minutes in: %+v, want denied with 30m to wait", d)
		}
		clock.Add(d.RetryAfter - time.Microsecond)
		if d := allow(t, l, "k", 2, window); d.Allowed || d.RetryAfter != time.Millisecond {
			t.Fatalf("a microsecond before the slot frees: %+v, want denied (the wait rounds up to 1ms)", d)
		}
		clock.Add(time.Microsecond)
		if d := allow(t, l, "k", 2, window); !d.Allowed || d.Remaining != 0 {
			t.Fatalf("when the first request leaves the window: %+v, want admitted with none left", d)
		}
		if d := allow(t, l, "k", 2, window); d.Allowed || d.RetryAfter != 10*time.Minute {
			t.Fatalf("then: %+v, want denied until the second request leaves, 10m on", d)
		}
	})
}

func TestBadInput(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		l := newLimiter(t, srv, srv.Prefix(t))
		tests := []struct {
			name   string
			limit  int
			window time.Duration
		}{
			{"zero limit", 0, time.Minute},
			{"negative limit", -1, time.Minute},
			{"zero window", 1, 0},
			{"sub-millisecond window", 1, time.Microsecond},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if _, err := l.Allow(context.Background(), "k", tt.limit, tt.window); err == nil {
					t.Error("Allow succeeded")
				}
			})
		}
		if _, err := ratelimit.New(nil, "x"); err == nil {
			t.Error("New(nil) succeeded")
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := l.Allow(ctx, "k", 1, time.Minute); !errors.Is(err, context.Canceled) {
			t.Errorf("Allow with canceled ctx err = %v", err)
		}
	})
}

func TestRedisDown(t *testing.T) {
	own := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: own.Addr(), MaxRetries: -1, DialerRetries: 1})
	defer rdb.Close()
	l, err := ratelimit.New(rdb, "")
	if err != nil {
		t.Fatal(err)
	}
	own.Stop()
	if d, err := l.Allow(context.Background(), "k", 1, time.Minute); err == nil {
		t.Fatalf("Allow with Redis down = %+v, want error", d)
	}
}
