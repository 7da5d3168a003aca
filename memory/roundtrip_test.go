package memory_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
	"github.com/redis/go-redis/v9"
)

// tripCounter counts round trips (n: a command or a whole pipeline is
// one) and the scripts they send (scripts: EVALSHA or EVAL commands).
type tripCounter struct{ n, scripts atomic.Int64 }

func (c *tripCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *tripCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if !handshake(cmd) {
			c.n.Add(1)
		}
		c.countScript(cmd)
		return next(ctx, cmd)
	}
}

func (c *tripCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if len(cmds) == 0 || !handshake(cmds[0]) {
			c.n.Add(1)
		}
		for _, cmd := range cmds {
			c.countScript(cmd)
		}
		return next(ctx, cmds)
	}
}

func (c *tripCounter) countScript(cmd redis.Cmder) {
	if n := cmd.Name(); n == "evalsha" || n == "eval" {
		c.scripts.Add(1)
	}
}

var _ redis.Hook = (*tripCounter)(nil)

// handshake reports whether cmd is part of a new connection's handshake
// (HELLO, CLIENT ...), which the client sends on its own when it dials.
func handshake(cmd redis.Cmder) bool {
	name := cmd.Name()
	return name == "hello" || name == "client"
}

func countedStore(tb testing.TB, srv redistest.Backend) (*memory.Store, *tripCounter) {
	tb.Helper()
	rdb := srv.UniversalClient(tb)
	tb.Cleanup(func() { _ = rdb.Close() })
	c := &tripCounter{}
	rdb.AddHook(c)
	st, err := memory.New(rdb, memory.Options{Prefix: srv.Prefix(tb)})
	if err != nil {
		tb.Fatal(err)
	}
	return st, c
}

func TestRoundTrips(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		st, c := countedStore(t, srv)
		if err := st.CreateSession(ctx, memory.Meta{ID: "s"}); err != nil {
			t.Fatal(err)
		}
		finish := memory.Finish{
			Messages: []memory.Message{{Role: "user", Content: "q"}, {Role: "assistant", Content: "a"}},
			Put:      []memory.CacheEntry{entry("k", 1, 3)},
			Hits:     []string{"k"},
		}
		// The first turns load the scripts into Redis (EVALSHA misses
		// once), the screen's too, so each case below runs on its own.
		if _, err := st.BeginTurn(ctx, "s"); err != nil {
			t.Fatal(err)
		}
		if err := st.FinishTurn(ctx, "s", finish); err != nil {
			t.Fatal(err)
		}
		if err := st.FinishTurn(ctx, "s", memory.Finish{Screen: &memory.Screen{Name: "start"}}); err != nil {
			t.Fatal(err)
		}
		if _, l, err := st.LockAndBegin(ctx, "s", time.Second); err != nil {
			t.Fatal(err)
		} else if err := st.FinishTurn(ctx, "s", memory.Finish{Release: l, Exchange: &memory.Exchange{Exchange: 1}}); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name string
			call func() error
			want int64
		}{
			{"BeginTurn", func() error { _, err := st.BeginTurn(ctx, "s"); return err }, 1},
			{"FinishTurn", func() error { return st.FinishTurn(ctx, "s", finish) }, 1},
			{"LockAndBegin then FinishTurn releasing", func() error {
				_, l, err := st.LockAndBegin(ctx, "s", time.Second)
				if err != nil {
					return err
				}
				f := finish
				f.Release = l
				if err := st.FinishTurn(ctx, "s", f); err != nil {
					return err
				}
				return l.Release(ctx) // already released: no round trip
			}, 2},
			{"LockAndBegin then FinishTurn with its exchange record", func() error {
				turn, l, err := st.LockAndBegin(ctx, "s", time.Second)
				if err != nil {
					return err
				}
				f := finish
				f.Release = l
				f.Exchange = &memory.Exchange{Exchange: turn.Meta.Exchange, Message: "q", Reply: "a", Model: "m"}
				if err := st.FinishTurn(ctx, "s", f); err != nil {
					return err
				}
				return l.Release(ctx)
			}, 2},
			{"FinishTurn with a new screen and its exchange record", func() error {
				f := finish
				f.Screen = &memory.Screen{Name: "home"}
				f.Exchange = &memory.Exchange{Exchange: 7, Message: "q", Reply: "on home"}
				return st.FinishTurn(ctx, "s", f)
			}, 1},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				before := c.n.Load()
				if err := tt.call(); err != nil {
					t.Fatal(err)
				}
				if got := c.n.Load() - before; got != tt.want {
					t.Errorf("%s took %d round trips, want %d", tt.name, got, tt.want)
				}
			})
		}
		got, err := st.Exchanges(ctx, "s", 7)
		if err != nil || got[7].Reply != "on home" {
			t.Errorf("the exchange written with a screen: %+v, %v", got, err)
		}
	})
}

// BenchmarkTurn measures a turn's storage work: LockAndBegin, then
// FinishTurn releasing the lock.
func BenchmarkTurn(b *testing.B) {
	ctx := context.Background()
	st, c := countedStore(b, backends[0])
	if err := st.CreateSession(ctx, memory.Meta{ID: "bench"}); err != nil {
		b.Fatal(err)
	}
	turn := func(i int) error {
		t, l, err := st.LockAndBegin(ctx, "bench", time.Second)
		if err != nil {
			return err
		}
		ex := t.Meta.Exchange
		f := memory.Finish{Messages: []memory.Message{
			{Role: "user", Content: "How strong is Aria?", Exchange: ex},
			{Role: "assistant", Content: "Aria is a strong support champion.", Exchange: ex, Tools: []string{"gcs_get_champion_details"}},
		}, Release: l}
		if i%3 == 0 {
			f.Put = []memory.CacheEntry{entry(fmt.Sprint("k", i), ex, 3)}
		}
		if len(t.Cache) > 0 {
			f.Hits = []string{t.Cache[0].Key}
		}
		if err := st.FinishTurn(ctx, "bench", f); err != nil {
			return err
		}
		return l.Release(ctx)
	}
	if err := turn(0); err != nil { // load scripts
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, 1024)
	trips := c.n.Load()
	i := 0
	for b.Loop() {
		i++
		start := time.Now()
		if err := turn(i); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	trips = c.n.Load() - trips
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[int(p*float64(len(lat)-1))].Microseconds())
	}
	b.ReportMetric(pct(0.50), "p50_µs")
	b.ReportMetric(pct(0.99), "p99_µs")
	b.ReportMetric(float64(trips)/float64(len(lat)), "roundtrips/turn")
}
