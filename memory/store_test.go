package memory_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/handclock"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
	"github.com/redis/go-redis/v9"
)

func entry(key string, cachedAt, duration int) memory.CacheEntry {
	return memory.CacheEntry{
		Key: key, Tool: "gcs_get_champion_details", Parameters: json.RawMessage(`{"champion_name":"Aria"}`),
		Result: json.RawMessage(`{"status":"success","data":{"k":"` + key + `"}}`), CachedAt: cachedAt, Duration: duration,
		DataVersion: "v1",
	}
}

func keysOf(es []memory.CacheEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Key
	}
	return out
}

func TestNewRefusesBadInput(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		rdb := srv.UniversalClient(t)
		tests := []struct {
			name string
			rdb  redis.UniversalClient
			opts memory.Options
		}{
			{"nil client", nil, memory.Options{}},
			{"brace in prefix", rdb, memory.Options{Prefix: "a{b"}},
			{"negative history", rdb, memory.Options{HistoryMax: -1}},
			{"negative ttl", rdb, memory.Options{SessionTTL: -time.Second}},
			{"negative lock ttl", rdb, memory.Options{LockTTL: -time.Second}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if _, err := memory.New(tt.rdb, tt.opts); err == nil {
					t.Error("New succeeded")
				}
			})
		}
	})
}

func TestSessionLifecycle(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		if err := e.store.Ping(ctx); err != nil {
			t.Fatalf("Ping: %v", err)
		}
		e.create(t, "s1")

		m, err := e.store.Session(ctx, "s1")
		if err != nil {
			t.Fatalf("Session: %v", err)
		}
		want := memory.Meta{
			ID: "s1", PlayerID: "p-s1", Locale: "en", TokenHash: memory.HashToken("tok-s1"),
			CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC),
		}
		if !reflect.DeepEqual(m, want) {
			t.Errorf("Session = %+v, want %+v", m, want)
		}

		if err := e.store.CreateSession(ctx, memory.Meta{ID: "s1"}); err == nil {
			t.Error("CreateSession over an existing id succeeded")
		}
		if err := e.store.CreateSession(ctx, memory.Meta{ID: "bad{id}"}); err == nil {
			t.Error("CreateSession with a brace in the id succeeded")
		}

		sc := &memory.Screen{Name: "ChampionDetails", Data: json.RawMessage(`{"ChampionConfigId":7}`), Hash: "h1", Injection: "inj"}
		if err := e.store.SetScreen(ctx, "s1", sc); err != nil {
			t.Fatalf("SetScreen: %v", err)
		}
		if m, _ = e.store.Session(ctx, "s1"); !reflect.DeepEqual(m.Screen, sc) {
			t.Errorf("screen = %+v, want %+v", m.Screen, sc)
		}
		if err := e.store.SetScreen(ctx, "s1", nil); err != nil {
			t.Fatalf("SetScreen(nil): %v", err)
		}
		if m, _ = e.store.Session(ctx, "s1"); m.Screen != nil {
			t.Errorf("screen after clear = %+v", m.Screen)
		}

		turn := e.begin(t, "s1")
		if turn.Meta.Exchange != 1 || len(turn.History) != 0 || len(turn.Cache) != 0 {
			t.Errorf("first turn = %+v", turn)
		}
		if n, err := e.store.ActiveSessions(ctx); err != nil || n != 1 {
			t.Errorf("ActiveSessions = %d, %v; want 1", n, err)
		}
	})
}

func TestUnknownSession(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		calls := []struct {
			name string
			call func(id string) error
		}{
			{"Session", func(id string) error { _, err := e.store.Session(ctx, id); return err }},
			{"BeginTurn", func(id string) error { _, err := e.store.BeginTurn(ctx, id); return err }},
			{"FinishTurn", func(id string) error {
				return e.store.FinishTurn(ctx, id, memory.Finish{Messages: []memory.Message{{Role: "user", Content: "x"}}})
			}},
			{"SetScreen", func(id string) error { return e.store.SetScreen(ctx, id, &memory.Screen{Name: "x"}) }},
			{"PutCache", func(id string) error { return e.store.PutCache(ctx, id, entry("k", 0, 1)) }},
			{"Cache", func(id string) error { _, err := e.store.Cache(ctx, id); return err }},
			{"CacheEntry", func(id string) error { _, err := e.store.CacheEntry(ctx, id, "k"); return err }},
			{"DeleteCache", func(id string) error { return e.store.DeleteCache(ctx, id, "k") }},
			{"ClearCache", func(id string) error { _, err := e.store.ClearCache(ctx, id); return err }},
			{"History", func(id string) error { _, err := e.store.History(ctx, id); return err }},
		}
		for _, c := range calls {
			for _, id := range []string{"missing", "", "a{b}", "sp ace", string(make([]byte, 200))} {
				t.Run(fmt.Sprintf("%s/%q", c.name, id), func(t *testing.T) {
					if err := c.call(id); !errors.Is(err, memory.ErrNotFound) {
						t.Errorf("err = %v, want ErrNotFound", err)
					}
				})
			}
		}
		// Writes to an unknown session leave no keys behind.
		n, err := e.rdb.Exists(ctx, e.key("missing", "meta"), e.key("missing", "history"), e.key("missing", "cache")).Result()
		if err != nil || n != 0 {
			t.Errorf("keys of unknown session: %d, %v", n, err)
		}
		if n, err := e.store.ActiveSessions(ctx); err != nil || n != 0 {
			t.Errorf("ActiveSessions = %d, %v; want 0", n, err)
		}
	})
}

// TestCacheExpiry checks that an entry cached at exchange E for D exchanges
// is served at E..E+D and gone at E+D+1, and that hits never extend it.
func TestCacheExpiry(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		tests := []struct {
			name       string
			e, d, at   int
			hitEachRun bool
			served     bool
		}{
			{"same exchange", 1, 3, 1, false, true},
			{"next exchange", 1, 3, 2, false, true},
			{"last exchange", 1, 3, 4, false, true},
			{"one past", 1, 3, 5, false, false},
			{"duration 1 last", 2, 1, 3, false, true},
			{"duration 1 past", 2, 1, 4, false, false},
			{"long past", 1, 1, 6, false, false},
			{"hits do not extend", 1, 2, 4, true, false},
			{"hit entry served to the end", 1, 2, 3, true, true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				env := newEnv(t, srv, memory.Options{})
				env.create(t, "s")
				var turn memory.Turn
				for range tt.e {
					turn = env.begin(t, "s")
				}
				if err := env.store.PutCache(ctx, "s", entry("k", tt.e, tt.d)); err != nil {
					t.Fatalf("PutCache: %v", err)
				}
				for turn.Meta.Exchange < tt.at {
					turn = env.begin(t, "s")
					if tt.hitEachRun && len(turn.Cache) == 1 {
						if err := env.store.FinishTurn(ctx, "s", memory.Finish{Hits: []string{"k"}}); err != nil {
							t.Fatalf("FinishTurn: %v", err)
						}
					}
				}
				// Expired entries are removed, not merely hidden.
				_, err := env.store.CacheEntry(ctx, "s", "k")
				if err != nil && !errors.Is(err, memory.ErrNotFound) {
					t.Fatal(err)
				}
				served := err == nil
				if tt.at > tt.e && served != slices.Contains(keysOf(turn.Cache), "k") {
					t.Fatalf("BeginTurn cache %v disagrees with CacheEntry err %v", keysOf(turn.Cache), err)
				}
				if served != tt.served {
					t.Fatalf("at exchange %d served = %v, want %v", tt.at, served, tt.served)
				}
				if served != entry("k", tt.e, tt.d).Live(tt.at) {
					t.Fatalf("CacheEntry.Live disagrees with the store")
				}
			})
		}
	})
}

func TestCacheOperations(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "s")
		e.begin(t, "s")

		if err := e.store.PutCache(ctx, "s", entry("b", 1, 3), entry("a", 1, 2)); err != nil {
			t.Fatalf("PutCache: %v", err)
		}
		for _, bad := range []memory.CacheEntry{entry("z", 1, 0), entry("z", 1, -1), entry("", 1, 2), entry("z", -1, 2)} {
			if err := e.store.PutCache(ctx, "s", bad); err == nil {
				t.Errorf("PutCache(%+v) succeeded", bad)
			}
		}
		if err := e.store.FinishTurn(ctx, "s", memory.Finish{Hits: []string{"a", "a", "b", "gone"}}); err != nil {
			t.Fatalf("FinishTurn: %v", err)
		}
		all, err := e.store.Cache(ctx, "s")
		if err != nil {
			t.Fatalf("Cache: %v", err)
		}
		if got := keysOf(all); !slices.Equal(got, []string{"a", "b"}) {
			t.Fatalf("Cache keys = %v", got)
		}
		want := entry("a", 1, 2)
		want.Hits = 2
		if !reflect.DeepEqual(all[0], want) {
			t.Errorf("Cache[0] = %+v, want %+v", all[0], want)
		}
		if all[1].Hits != 1 || all[0].Size() != len(want.Result) {
			t.Errorf("b hits = %d, a size = %d", all[1].Hits, all[0].Size())
		}
		one, err := e.store.CacheEntry(ctx, "s", "a")
		if err != nil || !reflect.DeepEqual(one, want) {
			t.Errorf("CacheEntry = %+v, %v", one, err)
		}
		if _, err := e.store.CacheEntry(ctx, "s", "gone"); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("CacheEntry(gone) err = %v", err)
		}

		if err := e.store.DeleteCache(ctx, "s", "a"); err != nil {
			t.Fatalf("DeleteCache: %v", err)
		}
		if err := e.store.DeleteCache(ctx, "s", "a"); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("second DeleteCache err = %v", err)
		}
		// A re-cached entry starts with no hits.
		if err := e.store.PutCache(ctx, "s", entry("a", 1, 2)); err != nil {
			t.Fatalf("PutCache: %v", err)
		}
		if one, _ := e.store.CacheEntry(ctx, "s", "a"); one.Hits != 0 {
			t.Errorf("re-cached hits = %d", one.Hits)
		}
		n, err := e.store.ClearCache(ctx, "s")
		if err != nil || n != 2 {
			t.Fatalf("ClearCache = %d, %v; want 2", n, err)
		}
		if turn := e.begin(t, "s"); len(turn.Cache) != 0 {
			t.Errorf("cache after clear: %v", keysOf(turn.Cache))
		}
	})
}

func TestSessionsIsolated(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "a")
		e.create(t, "b")
		e.begin(t, "a")
		err := e.store.FinishTurn(ctx, "a", memory.Finish{
			Messages: []memory.Message{{Role: "user", Content: "secret", Exchange: 1}},
			Put:      []memory.CacheEntry{entry("k", 1, 3)},
		})
		if err != nil {
			t.Fatalf("FinishTurn: %v", err)
		}
		turn := e.begin(t, "b")
		if turn.Meta.Exchange != 1 || len(turn.History) != 0 || len(turn.Cache) != 0 {
			t.Errorf("b sees %+v", turn)
		}
		if _, err := e.store.CacheEntry(ctx, "b", "k"); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("b CacheEntry(k) err = %v", err)
		}
		if h, err := e.store.History(ctx, "b"); err != nil || len(h) != 0 {
			t.Errorf("b history = %v, %v", h, err)
		}
		// A store with another prefix over the same Redis sees nothing either.
		other := newEnv(t, srv, memory.Options{})
		if _, err := other.store.Session(ctx, "a"); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("other prefix Session(a) err = %v", err)
		}
		if a := e.begin(t, "a"); a.Meta.Exchange != 2 || len(a.History) != 1 || len(a.Cache) != 1 {
			t.Errorf("a = %+v", a)
		}
	})
}

func TestLock(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{LockPoll: time.Millisecond})
		e.create(t, "s")

		l1, err := e.store.Lock(ctx, "s", 0)
		if err != nil {
			t.Fatalf("Lock: %v", err)
		}
		if _, err := e.store.Lock(ctx, "s", 20*time.Millisecond); !errors.Is(err, memory.ErrBusy) {
			t.Fatalf("second Lock err = %v, want ErrBusy", err)
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := e.store.Lock(cctx, "s", time.Hour); !errors.Is(err, context.Canceled) {
			t.Fatalf("Lock with canceled ctx err = %v", err)
		}
		if err := l1.Refresh(ctx); err != nil {
			t.Fatalf("Refresh: %v", err)
		}

		// l1's lock expires (simulated) and l2 takes it: l1 can no longer
		// release or refresh it.
		if err := e.rdb.Del(ctx, e.key("s", "lock")).Err(); err != nil {
			t.Fatal(err)
		}
		l2, err := e.store.Lock(ctx, "s", 0)
		if err != nil {
			t.Fatalf("Lock after expiry: %v", err)
		}
		if err := l1.Release(ctx); !errors.Is(err, memory.ErrNotHeld) {
			t.Fatalf("non-owner Release err = %v, want ErrNotHeld", err)
		}
		if err := l1.Refresh(ctx); !errors.Is(err, memory.ErrNotHeld) {
			t.Fatalf("non-owner Refresh err = %v, want ErrNotHeld", err)
		}
		if _, err := e.store.Lock(ctx, "s", 0); !errors.Is(err, memory.ErrBusy) {
			t.Fatalf("lock stolen by non-owner release: err = %v", err)
		}
		if err := l2.Release(ctx); err != nil {
			t.Fatalf("owner Release: %v", err)
		}
		if err := l2.Release(ctx); !errors.Is(err, memory.ErrNotHeld) {
			t.Fatalf("double Release err = %v", err)
		}

		// A waiter gets the lock once the holder releases it.
		l3, err := e.store.Lock(ctx, "s", 0)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan error, 1)
		go func() {
			l, err := e.store.Lock(ctx, "s", time.Minute)
			if err == nil {
				err = l.Release(ctx)
			}
			got <- err
		}()
		if err := l3.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-got; err != nil {
			t.Fatalf("waiter: %v", err)
		}

		// Locks of different sessions are independent.
		la, err := e.store.Lock(ctx, "a", 0)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := e.store.Lock(ctx, "b", 0)
		if err != nil {
			t.Fatalf("lock b while a is held: %v", err)
		}
		_ = la.Release(ctx)
		_ = lb.Release(ctx)
	})
}

func TestLockExpires(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{LockTTL: 50 * time.Millisecond})
		holder, crash := context.WithCancel(ctx)
		l0, err := e.store.Lock(holder, "s", 0)
		if err != nil {
			t.Fatal(err)
		}
		crash()
		<-memory.RenewalDone(l0)
		// The holder never releases nor renews; the TTL frees the lock for
		// the next turn.
		l, err := e.store.Lock(ctx, "s", 30*time.Second)
		if err != nil {
			t.Fatalf("Lock after holder crashed: %v", err)
		}
		_ = l.Release(ctx)
	})
}

// TestConcurrentTurns runs 16 full turns on one session at once: each gets
// its own exchange and no message is lost.
func TestConcurrentTurns(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "s")
		const n = 16
		exchanges := make([]int, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				// Each goroutine uses its own Store and client, as separate
				// instances would.
				rdb := srv.UniversalClient(t)
				defer rdb.Close()
				st, err := memory.New(rdb, memory.Options{Prefix: e.prefix})
				if err != nil {
					errs[i] = err
					return
				}
				errs[i] = func() error {
					l, err := st.Lock(ctx, "s", time.Minute)
					if err != nil {
						return err
					}
					turn, err := st.BeginTurn(ctx, "s")
					if err != nil {
						return err
					}
					ex := turn.Meta.Exchange
					exchanges[i] = ex
					err = st.FinishTurn(ctx, "s", memory.Finish{Messages: []memory.Message{
						{Role: "user", Content: fmt.Sprintf("q%d", ex), Exchange: ex},
						{Role: "assistant", Content: fmt.Sprintf("a%d", ex), Exchange: ex},
					}})
					if err != nil {
						return err
					}
					return l.Release(ctx)
				}()
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("goroutine %d: %v", i, err)
			}
		}
		slices.Sort(exchanges)
		for i, ex := range exchanges {
			if ex != i+1 {
				t.Fatalf("exchanges = %v, want 1..%d", exchanges, n)
			}
		}
		h, err := e.store.History(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 2*n {
			t.Fatalf("history has %d messages, want %d", len(h), 2*n)
		}
		// The lock serialized the turns: history is in exchange order, pairs intact.
		for i, m := range h {
			ex := i/2 + 1
			want := fmt.Sprintf("q%d", ex)
			if i%2 == 1 {
				want = fmt.Sprintf("a%d", ex)
			}
			if m.Content != want || m.Exchange != ex {
				t.Fatalf("history[%d] = %+v, want %s", i, m, want)
			}
		}
	})
}

func TestHistoryTrimmed(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{HistoryMax: 5})
		e.create(t, "s")
		at := time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC)
		for ex := 1; ex <= 4; ex++ {
			turn := e.begin(t, "s")
			if len(turn.History) > 5 {
				t.Fatalf("turn %d history has %d messages", ex, len(turn.History))
			}
			err := e.store.FinishTurn(ctx, "s", memory.Finish{Messages: []memory.Message{
				{Role: "user", Content: fmt.Sprint("q", ex), Exchange: ex, At: at},
				{Role: "assistant", Content: fmt.Sprint("a", ex), Exchange: ex, At: at, Tools: []string{"t"}},
			}})
			if err != nil {
				t.Fatal(err)
			}
		}
		h, err := e.store.History(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range h {
			got = append(got, m.Content)
		}
		if want := []string{"a2", "q3", "a3", "q4", "a4"}; !slices.Equal(got, want) {
			t.Fatalf("history = %v, want %v", got, want)
		}
		if h[4].At != at || !slices.Equal(h[4].Tools, []string{"t"}) || h[4].Role != "assistant" {
			t.Errorf("last message = %+v", h[4])
		}
		if turn := e.begin(t, "s"); !reflect.DeepEqual(turn.History, h) {
			t.Errorf("BeginTurn history = %+v, want %+v", turn.History, h)
		}
	})
}

func TestTTL(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		t.Run("turn refreshes every key", func(t *testing.T) {
			e := newEnv(t, srv, memory.Options{SessionTTL: time.Hour})
			e.create(t, "s")
			e.begin(t, "s")
			if err := e.store.FinishTurn(ctx, "s", memory.Finish{
				Messages: []memory.Message{{Role: "user", Content: "x"}},
				Put:      []memory.CacheEntry{entry("k", 1, 5)},
			}); err != nil {
				t.Fatal(err)
			}
			parts := []string{"meta", "history", "cache", "hits", "cexp"}
			for _, p := range parts {
				if err := e.rdb.PExpire(ctx, e.key("s", p), 5*time.Second).Err(); err != nil {
					t.Fatal(err)
				}
			}
			e.begin(t, "s")
			for _, p := range parts {
				ttl, err := e.rdb.PTTL(ctx, e.key("s", p)).Result()
				if err != nil || ttl <= 5*time.Second {
					t.Errorf("%s TTL = %s, %v; want renewed to about 1h", p, ttl, err)
				}
			}
		})
		t.Run("idle session expires", func(t *testing.T) {
			// Redis drops the keys when their TTL ends; the store's part is
			// to give every key of the session the session TTL, and to stop
			// counting the session active once it has been idle that long
			// by its own clock. Neither needs time to pass.
			clock := handclock.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
			const ttl = time.Hour
			e := newEnv(t, srv, memory.Options{SessionTTL: ttl, Now: clock.Now})
			e.create(t, "s")
			e.begin(t, "s")
			if err := e.store.FinishTurn(ctx, "s", memory.Finish{
				Messages: []memory.Message{{Role: "user", Content: "x"}},
				Put:      []memory.CacheEntry{entry("k", 1, 5)},
				Hits:     []string{"k"},
			}); err != nil {
				t.Fatal(err)
			}
			parts := []string{"meta", "history", "cache", "hits", "cexp"}
			for _, p := range parts {
				left, err := e.rdb.PTTL(ctx, e.key("s", p)).Result()
				if err != nil || left <= 0 || left > ttl {
					t.Errorf("%s TTL = %s, %v; want the session TTL %s", p, left, err, ttl)
				}
			}
			active := func(want int64) {
				t.Helper()
				if n, err := e.store.ActiveSessions(ctx); err != nil || n != want {
					t.Fatalf("ActiveSessions at %s = %d, %v; want %d", clock.Now().Format(time.TimeOnly), n, err, want)
				}
			}
			active(1)
			clock.Add(ttl - time.Millisecond)
			active(1)
			clock.Add(2 * time.Millisecond)
			active(0)
			keys := make([]string, len(parts))
			for i, p := range parts {
				keys[i] = e.key("s", p)
			}
			if err := e.rdb.Del(ctx, keys...).Err(); err != nil { // what Redis does when the TTL ends
				t.Fatal(err)
			}
			if _, err := e.store.Session(ctx, "s"); !errors.Is(err, memory.ErrNotFound) {
				t.Fatalf("Session once its keys expired: %v, want ErrNotFound", err)
			}
		})
	})
}

// TestNewStoreSeesData: another instance (new client, new Store) continues
// the same session.
func TestNewStoreSeesData(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "s")
		e.begin(t, "s")
		if err := e.store.FinishTurn(ctx, "s", memory.Finish{
			Messages: []memory.Message{{Role: "user", Content: "hello", Exchange: 1}},
			Put:      []memory.CacheEntry{entry("k", 1, 3)},
		}); err != nil {
			t.Fatal(err)
		}
		rdb := srv.UniversalClient(t)
		defer rdb.Close()
		st, err := memory.New(rdb, memory.Options{Prefix: e.prefix})
		if err != nil {
			t.Fatal(err)
		}
		turn, err := st.BeginTurn(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		if turn.Meta.Exchange != 2 || len(turn.History) != 1 || turn.History[0].Content != "hello" ||
			!slices.Equal(keysOf(turn.Cache), []string{"k"}) {
			t.Errorf("new store sees %+v", turn)
		}
	})
}

// TestRedisDown: with Redis gone calls fail with an error that is not
// ErrNotFound; after a restart (data lost) the store works again.
func TestRedisDown(t *testing.T) {
	ctx := context.Background()
	own := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: own.Addr(), MaxRetries: -1, DialerRetries: 1})
	defer rdb.Close()
	st, err := memory.New(rdb, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateSession(ctx, memory.Meta{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	own.Stop()
	if _, err := st.BeginTurn(ctx, "s"); err == nil || errors.Is(err, memory.ErrNotFound) {
		t.Errorf("BeginTurn with Redis down err = %v", err)
	}
	if err := st.FinishTurn(ctx, "s", memory.Finish{}); err == nil || errors.Is(err, memory.ErrNotFound) {
		t.Errorf("FinishTurn with Redis down err = %v", err)
	}
	if _, err := st.Lock(ctx, "s", 10*time.Millisecond); err == nil || errors.Is(err, memory.ErrBusy) {
		t.Errorf("Lock with Redis down err = %v", err)
	}
	if err := st.Ping(ctx); err == nil {
		t.Error("Ping with Redis down succeeded")
	}
	own.Restart(t)
	// The restarted server has lost the session and the scripts.
	if _, err := st.BeginTurn(ctx, "s"); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("BeginTurn after restart err = %v", err)
	}
	if err := st.CreateSession(ctx, memory.Meta{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	if err := st.FinishTurn(ctx, "s", memory.Finish{Messages: []memory.Message{{Role: "user"}}}); err != nil {
		t.Fatalf("FinishTurn after restart: %v", err)
	}
}

func TestDamagedData(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		tests := []struct {
			name     string
			damage   func(e env) error
			beginErr bool
			check    func(e env) error
		}{
			{
				name:     "history message",
				damage:   func(e env) error { return e.rdb.RPush(ctx, e.key("s", "history"), "{not json").Err() },
				beginErr: true,
				check:    func(e env) error { _, err := e.store.History(ctx, "s"); return err },
			},
			{
				name:     "exchange counter",
				damage:   func(e env) error { return e.rdb.HSet(ctx, e.key("s", "meta"), "exchange", "x").Err() },
				beginErr: true,
				check:    func(e env) error { _, err := e.store.Session(ctx, "s"); return err },
			},
			{
				name:     "created_at",
				damage:   func(e env) error { return e.rdb.HSet(ctx, e.key("s", "meta"), "created_at", "yesterday").Err() },
				beginErr: true,
				check:    func(e env) error { _, err := e.store.Session(ctx, "s"); return err },
			},
			{
				name:     "screen",
				damage:   func(e env) error { return e.rdb.HSet(ctx, e.key("s", "meta"), "screen", "[").Err() },
				beginErr: true,
				check:    func(e env) error { _, err := e.store.Session(ctx, "s"); return err },
			},
			{
				// A damaged cache entry only costs a tool re-run: turns go on
				// without it, the admin view reports it.
				name: "cache entry",
				damage: func(e env) error {
					return e.rdb.HSet(ctx, e.key("s", "cache"), "k", `{"tool":`).Err()
				},
				beginErr: false,
				check:    func(e env) error { _, err := e.store.Cache(ctx, "s"); return err },
			},
			{
				name:     "hits counter",
				damage:   func(e env) error { return e.rdb.HSet(ctx, e.key("s", "hits"), "k", "many").Err() },
				beginErr: false,
				check:    func(e env) error { _, err := e.store.CacheEntry(ctx, "s", "k"); return err },
			},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				e := newEnv(t, srv, memory.Options{})
				e.create(t, "s")
				if err := e.store.PutCache(ctx, "s", entry("k", 0, 100)); err != nil {
					t.Fatal(err)
				}
				if err := tt.damage(e); err != nil {
					t.Fatal(err)
				}
				turn, err := e.store.BeginTurn(ctx, "s")
				if tt.beginErr && err == nil {
					t.Error("BeginTurn over damaged data succeeded")
				}
				if !tt.beginErr {
					if err != nil {
						t.Errorf("BeginTurn: %v", err)
					} else if len(turn.Cache) != 0 {
						t.Errorf("damaged entry served: %+v", turn.Cache)
					}
				}
				if err := tt.check(e); err == nil || errors.Is(err, memory.ErrNotFound) {
					t.Errorf("read of damaged data err = %v", err)
				}
			})
		}
	})
}

// TestExchangeExactWithoutLock: even without the turn lock, concurrent
// BeginTurn calls never share an exchange.
func TestExchangeExactWithoutLock(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "s")
		const n = 32
		got := make([]int, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				turn, err := e.store.BeginTurn(context.Background(), "s")
				got[i], errs[i] = turn.Meta.Exchange, err
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(got)
		for i, ex := range got {
			if ex != i+1 {
				t.Fatalf("exchanges = %v, want 1..%d", got, n)
			}
		}
	})
}

func TestLockAndBegin(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		st := newEnv(t, srv, memory.Options{}).store
		if err := st.CreateSession(ctx, memory.Meta{ID: "lb", Locale: "en"}); err != nil {
			t.Fatal(err)
		}
		t.Run("unknown session", func(t *testing.T) {
			if _, _, err := st.LockAndBegin(ctx, "nope", 10*time.Millisecond); !errors.Is(err, memory.ErrNotFound) {
				t.Fatalf("err = %v, want ErrNotFound", err)
			}
		})
		t.Run("busy while another turn holds the lock", func(t *testing.T) {
			l, err := st.Lock(ctx, "lb", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := st.LockAndBegin(ctx, "lb", 30*time.Millisecond); !errors.Is(err, memory.ErrBusy) {
				t.Fatalf("err = %v, want ErrBusy", err)
			}
			m, _ := st.Session(ctx, "lb")
			if m.Exchange != 0 {
				t.Fatalf("a refused LockAndBegin advanced the exchange to %d", m.Exchange)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("16 concurrent turns get 16 consecutive exchanges", func(t *testing.T) {
			var wg sync.WaitGroup
			got := make(chan int, 16)
			for i := range 16 {
				wg.Go(func() {
					turn, l, err := st.LockAndBegin(ctx, "lb", 10*time.Second)
					if err != nil {
						t.Error(err)
						return
					}
					msg := fmt.Sprint("m", i)
					f := memory.Finish{Messages: []memory.Message{
						{Role: "user", Content: msg, Exchange: turn.Meta.Exchange},
						{Role: "assistant", Content: msg, Exchange: turn.Meta.Exchange},
					}, Release: l}
					if err := st.FinishTurn(ctx, "lb", f); err != nil {
						t.Error(err)
					}
					got <- turn.Meta.Exchange
				})
			}
			wg.Wait()
			close(got)
			var ex []int
			for e := range got {
				ex = append(ex, e)
			}
			slices.Sort(ex)
			for i, e := range ex {
				if e != i+1 {
					t.Fatalf("exchanges %v, want 1..16", ex)
				}
			}
			h, _ := st.History(ctx, "lb")
			if len(h) != 32 {
				t.Fatalf("history has %d messages, want 32", len(h))
			}
			// The lock is free again: a plain Lock succeeds at once.
			l, err := st.Lock(ctx, "lb", 0)
			if err != nil {
				t.Fatalf("lock still held after the last FinishTurn: %v", err)
			}
			_ = l.Release(ctx)
		})
		t.Run("releasing another session's lock is refused", func(t *testing.T) {
			if err := st.CreateSession(ctx, memory.Meta{ID: "lb2", Locale: "en"}); err != nil {
				t.Fatal(err)
			}
			_, l, err := st.LockAndBegin(ctx, "lb", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Release(ctx)
			if err := st.FinishTurn(ctx, "lb2", memory.Finish{Release: l}); err == nil {
				t.Fatal("FinishTurn released a lock of another session")
			}
		})
	})
}

func TestLockAndLoadAndSaveScreen(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "sc")
		st := e.store
		if err := st.PutCache(ctx, "sc", entry("old", 0, 1)); err != nil {
			t.Fatal(err)
		}
		loaded, l, err := st.LockAndLoad(ctx, "sc", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if loaded.Meta.Exchange != 0 || len(loaded.History) != 0 || len(loaded.Cache) != 1 {
			t.Fatalf("loaded %+v, want exchange 0, no history, one entry", loaded)
		}
		if _, _, err := st.LockAndLoad(ctx, "sc", 20*time.Millisecond); !errors.Is(err, memory.ErrBusy) {
			t.Fatalf("second LockAndLoad: %v, want ErrBusy", err)
		}
		sc := &memory.Screen{Name: "BossBattlePresenter", Hash: "h1", Injection: "The player fights the Fire Knight."}
		// The screen's rules were served "old" twice from the cache and
		// "gone", which an admin evicted meanwhile, once.
		save := memory.ScreenSave{Screen: sc, Put: []memory.CacheEntry{entry("new", 0, 1)}, Hits: []string{"old", "gone", "old"}, Release: l}
		if err := st.SaveScreen(ctx, "sc", save); err != nil {
			t.Fatal(err)
		}
		m, err := st.Session(ctx, "sc")
		if err != nil {
			t.Fatal(err)
		}
		if m.Exchange != 0 || m.Screen == nil || m.Screen.Injection != sc.Injection {
			t.Fatalf("meta after save: %+v", m)
		}
		cache, err := st.Cache(ctx, "sc")
		if err != nil || len(cache) != 2 {
			t.Fatalf("cache after save: %v %v", keysOf(cache), err)
		}
		for _, e := range cache {
			if want := map[string]int{"old": 2, "new": 0}[e.Key]; e.Hits != want {
				t.Errorf("entry %s: %d hits after save, want %d", e.Key, e.Hits, want)
			}
		}
		// Hits alone (a screen served only from the cache) are counted too.
		if err := st.SaveScreen(ctx, "sc", memory.ScreenSave{Screen: sc, Hits: []string{"new"}}); err != nil {
			t.Fatal(err)
		}
		if e, err := st.CacheEntry(ctx, "sc", "new"); err != nil || e.Hits != 1 {
			t.Errorf("new after a hits-only save: %d hits, %v; want 1", e.Hits, err)
		}
		if _, err := st.CacheEntry(ctx, "sc", "gone"); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("a hit on a missing entry created it: %v", err)
		}
		// SaveScreen released the lock.
		l2, err := st.Lock(ctx, "sc", 0)
		if err != nil {
			t.Fatalf("lock still held after SaveScreen: %v", err)
		}
		_ = l2.Release(ctx)
		if err := st.SaveScreen(ctx, "missing", memory.ScreenSave{Screen: sc}); !errors.Is(err, memory.ErrNotFound) {
			t.Fatalf("SaveScreen of an unknown session: %v", err)
		}
		if _, _, err := st.LockAndLoad(ctx, "missing", 10*time.Millisecond); !errors.Is(err, memory.ErrNotFound) {
			t.Fatalf("LockAndLoad of an unknown session: %v", err)
		}
	})
}

// TestFirstUse records a key once: a second use within its expiry is
// refused, even from another Store (another instance), and Forget frees it.
func TestFirstUse(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		other, err := memory.New(srv.UniversalClient(t), memory.Options{Prefix: e.prefix})
		if err != nil {
			t.Fatal(err)
		}
		steps := []struct {
			name  string
			store *memory.Store
			key   string
			want  bool
		}{
			{"first", e.store, "webhook:abc", true},
			{"again", e.store, "webhook:abc", false},
			{"another instance", other, "webhook:abc", false},
			{"another key", other, "webhook:abd", true},
		}
		for _, st := range steps {
			got, err := st.store.FirstUse(ctx, st.key, time.Minute)
			if err != nil || got != st.want {
				t.Fatalf("%s: FirstUse = %v, %v; want %v", st.name, got, err, st.want)
			}
		}
		ttl, err := e.rdb.PTTL(ctx, e.prefix+":once:webhook:abc").Result()
		if err != nil || ttl <= 0 || ttl > time.Minute {
			t.Fatalf("TTL = %s, %v; want the minute asked for", ttl, err)
		}
		e.store.Forget(ctx, "webhook:abc")
		if got, err := other.FirstUse(ctx, "webhook:abc", time.Minute); err != nil || !got {
			t.Fatalf("after Forget: %v, %v", got, err)
		}
	})
}
