package memory_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
	"github.com/redis/go-redis/v9"
)

// bigEntry is a cache entry with a result of some size, as game data is.
func bigEntry(key string, cachedAt, duration int) memory.CacheEntry {
	e := entry(key, cachedAt, duration)
	e.Result = json.RawMessage(`{"status":"success","data":{"name":"Aria","lore":"` + strings.Repeat("a long tale ", 80) + `"}}`)
	return e
}

// A cached result is stored once for the sessions that cache it; each
// session keeps a small reference, and both are served the whole result.
func TestSharedPayloadStoredOnce(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{SessionTTL: time.Hour})
		want := bigEntry("k", 1, 3)
		for _, id := range []string{"s1", "s2"} {
			e.create(t, id)
			e.begin(t, id)
			if err := e.store.FinishTurn(ctx, id, memory.Finish{Put: []memory.CacheEntry{want}}); err != nil {
				t.Fatal(err)
			}
			ref, err := e.rdb.HGet(ctx, e.key(id, "cache"), "k").Result()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(ref, "a long tale") || len(ref) > 200 {
				t.Errorf("session %s stores %d bytes for the entry, result included: %s", id, len(ref), ref)
			}
		}
		pk := memory.PayloadKey(e.store, want.DataVersion, want.Result)
		if n, err := e.rdb.Exists(ctx, pk).Result(); err != nil || n != 1 {
			t.Fatalf("payload key %s exists = %d, %v", pk, n, err)
		}
		for _, id := range []string{"s1", "s2"} {
			turn := e.begin(t, id)
			if len(turn.Cache) != 1 || string(turn.Cache[0].Result) != string(want.Result) || turn.Cache[0].Tool != want.Tool ||
				string(turn.Cache[0].Parameters) != string(want.Parameters) || turn.Cache[0].DataVersion != "v1" || turn.Cache[0].Remaining(turn.Meta.Exchange) != 2 {
				t.Fatalf("session %s serves %+v", id, turn.Cache)
			}
		}
		// Reading it renews its TTL.
		if err := e.rdb.PExpire(ctx, pk, time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		e.begin(t, "s1")
		if ttl, err := e.rdb.PTTL(ctx, pk).Result(); err != nil || ttl <= time.Minute {
			t.Errorf("payload TTL after a turn read it = %s, %v; want renewed to about an hour", ttl, err)
		}
	})
}

// A reference whose shared payload is gone is a miss: the turn goes on
// without the entry, the admin view leaves it out, and the tool's next
// result is cached again.
func TestVanishedPayloadIsMiss(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		for _, instance := range []string{"same instance", "other instance"} {
			t.Run(instance, func(t *testing.T) {
				e := newEnv(t, srv, memory.Options{})
				e.create(t, "s")
				e.begin(t, "s")
				want := bigEntry("k", 1, 5)
				keep := entry("small", 1, 5)
				if err := e.store.FinishTurn(ctx, "s", memory.Finish{Put: []memory.CacheEntry{want, keep}}); err != nil {
					t.Fatal(err)
				}
				if err := e.rdb.Del(ctx, memory.PayloadKey(e.store, want.DataVersion, want.Result)).Err(); err != nil {
					t.Fatal(err)
				}
				st := e.store
				if instance == "other instance" {
					st = newEnvPrefix(t, srv, e.prefix).store
				}
				turn, l, err := st.LockAndBegin(ctx, "s", time.Second)
				if err != nil {
					t.Fatalf("LockAndBegin with a vanished payload: %v", err)
				}
				if got := keysOf(turn.Cache); len(got) != 1 || got[0] != "small" {
					t.Fatalf("turn serves %v, want only the entry whose payload is there", got)
				}
				if err := st.FinishTurn(ctx, "s", memory.Finish{Release: l}); err != nil {
					t.Fatal(err)
				}
				if got, err := st.Cache(ctx, "s"); err != nil || len(got) != 1 || got[0].Key != "small" {
					t.Fatalf("admin Cache = %v, %v", keysOf(got), err)
				}
				if _, err := st.CacheEntry(ctx, "s", "k"); !errors.Is(err, memory.ErrNotFound) {
					t.Fatalf("admin CacheEntry of the vanished one: %v, want ErrNotFound", err)
				}
				// The tool runs again and its result is cached again.
				turn = e.begin(t, "s")
				again := bigEntry("k", turn.Meta.Exchange, 5)
				if err := st.FinishTurn(ctx, "s", memory.Finish{Put: []memory.CacheEntry{again}}); err != nil {
					t.Fatal(err)
				}
				if got := keysOf(e.begin(t, "s").Cache); len(got) != 2 {
					t.Fatalf("after caching again the turn serves %v", got)
				}
			})
		}
	})
}

// newEnvPrefix is another Store (another instance) over the same keys.
func newEnvPrefix(tb testing.TB, srv redistest.Backend, prefix string) env {
	tb.Helper()
	e := env{rdb: srv.UniversalClient(tb), prefix: prefix}
	st, err := memory.New(e.rdb, memory.Options{Prefix: prefix})
	if err != nil {
		tb.Fatal(err)
	}
	e.store = st
	return e
}

// Sessions and cache entries written by the previous version (a message
// as plain JSON, an entry with its result inline) stay readable.
func TestReadsPreviousFormat(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "s")
		oldMsg := `{"role":"user","content":"who counters this boss?","exchange":1,"at":"2025-01-02T03:04:05Z","context":"<data>boss</data>","shown":{"screen":"Boss"}}`
		oldEntry := `{"key":"k","tool":"gcs_get_boss_details","parameters":{"boss_id":5001},"result":{"status":"success","data":{"id":5001}},"cached_at_exchange":1,"duration":3,"data_version":"v1","hits":0}`
		if err := e.rdb.RPush(ctx, e.key("s", "history"), oldMsg).Err(); err != nil {
			t.Fatal(err)
		}
		if err := e.rdb.HSet(ctx, e.key("s", "cache"), "k", oldEntry).Err(); err != nil {
			t.Fatal(err)
		}
		if err := e.rdb.ZAdd(ctx, e.key("s", "cexp"), redisZ(4, "k")).Err(); err != nil {
			t.Fatal(err)
		}
		turn := e.begin(t, "s")
		if len(turn.History) != 1 || turn.History[0].Context != "<data>boss</data>" || turn.History[0].Shown == nil || *turn.History[0].Shown.Screen != "Boss" ||
			!turn.History[0].At.Equal(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)) {
			t.Fatalf("old message read as %+v", turn.History)
		}
		if len(turn.Cache) != 1 || string(turn.Cache[0].Result) != `{"status":"success","data":{"id":5001}}` || turn.Cache[0].DataVersion != "v1" {
			t.Fatalf("old entry read as %+v", turn.Cache)
		}
	})
}

// A user message's data block is stored compressed and read back the same.
func TestMessageStoredCompressed(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "s")
		e.begin(t, "s")
		block := "<data>\n" + strings.Repeat(`{"name":"Aria","rarity":"Legendary","affinity":"Force","stats":{"hp":15000,"atk":1200}}`+"\n", 30) + "</data>"
		screen := "Boss Battle"
		msg := memory.Message{Role: "user", Content: "who counters this boss?", Exchange: 1, At: time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC),
			Context: block, Shown: &memory.Shown{Screen: &screen}, Offered: []string{"a", "b"}}
		short := memory.Message{Role: "assistant", Content: "Aria.", Exchange: 1, At: time.Date(2025, 1, 2, 3, 4, 6, 0, time.UTC)}
		if err := e.store.FinishTurn(ctx, "s", memory.Finish{Messages: []memory.Message{msg, short}}); err != nil {
			t.Fatal(err)
		}
		raw, err := e.rdb.LRange(ctx, e.key("s", "history"), 0, -1).Result()
		if err != nil {
			t.Fatal(err)
		}
		if len(raw[0]) > len(block)/4 || raw[0][0] == '{' {
			t.Errorf("a %d-byte data block is stored in %d bytes", len(block), len(raw[0]))
		}
		if raw[1][0] != '{' {
			t.Errorf("a short message is stored compressed: %q", raw[1])
		}
		h, err := e.store.History(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 2 || h[0].Context != block || h[0].Content != msg.Content || !h[0].At.Equal(msg.At) || *h[0].Shown.Screen != screen ||
			len(h[0].Offered) != 2 || h[1].Content != "Aria." {
			t.Fatalf("History = %+v", h)
		}
	})
}

func redisZ(score float64, member string) redis.Z { return redis.Z{Score: score, Member: member} }

// A turn's load reads the shared payloads of the session's entries in its
// own round trip when this instance wrote or loaded the session before;
// another instance needs one more round trip, once.
func TestPayloadRoundTrips(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		prefix := srv.Prefix(t)
		c := &tripCounter{}
		instance := func() *memory.Store {
			rdb := srv.UniversalClient(t)
			rdb.AddHook(c)
			st, err := memory.New(rdb, memory.Options{Prefix: prefix})
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		st, other := instance(), instance()
		if err := st.CreateSession(ctx, memory.Meta{ID: "s", PlayerID: "alice"}); err != nil {
			t.Fatal(err)
		}
		tr, l, err := st.LockAndBegin(ctx, "s", time.Second) // loads the scripts
		if err != nil {
			t.Fatal(err)
		}
		if err := st.FinishTurn(ctx, "s", memory.Finish{Put: []memory.CacheEntry{bigEntry("a", tr.Meta.Exchange, 10), entry("b", tr.Meta.Exchange, 10)}, Release: l}); err != nil {
			t.Fatal(err)
		}
		// The other instance has met the session (and its player), not its
		// cache.
		if _, err := other.Session(ctx, "s"); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			name  string
			st    *memory.Store
			trips int64
		}{{"same instance", st, 1}, {"other instance, first turn", other, 2}, {"other instance, next turn", other, 1}} {
			before := c.n.Load()
			tr, l, err := tt.st.LockAndBegin(ctx, "s", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.n.Load() - before; got != tt.trips {
				t.Errorf("%s: LockAndBegin took %d round trips, want %d", tt.name, got, tt.trips)
			}
			if len(tr.Cache) != 2 || string(tr.Cache[0].Result) != string(bigEntry("a", 1, 10).Result) {
				t.Errorf("%s: turn serves %+v", tt.name, tr.Cache)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// An instance remembers the shared payloads it wrote or read: a turn that
// reads back a stored value it remembers is served its JSON without
// decompressing it (here, with the instance's decoder closed), while a
// stored value it does not remember (another instance's view, a value
// another writer replaced) is read from Redis as before; writing the same
// result again stores the same bytes.
func TestPayloadMemo(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{SessionTTL: time.Hour})
		other, err := memory.New(e.rdb, memory.Options{Prefix: e.prefix, SessionTTL: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		want := bigEntry("k", 1, 5)
		e.create(t, "s1")
		e.begin(t, "s1")
		if err := e.store.FinishTurn(ctx, "s1", memory.Finish{Put: []memory.CacheEntry{want}}); err != nil {
			t.Fatal(err)
		}
		pk := memory.PayloadKey(e.store, want.DataVersion, want.Result)
		stored, err := e.rdb.Get(ctx, pk).Bytes()
		if err != nil || stored[0] != 0x01 {
			t.Fatalf("payload stored as %q…, %v; want it compressed", stored[:min(8, len(stored))], err)
		}
		memory.StopDecompressing(e.store)
		memory.StopDecompressing(other)
		serves := func(st *memory.Store) []memory.CacheEntry {
			t.Helper()
			turn, err := st.BeginTurn(ctx, "s1")
			if err != nil {
				t.Fatal(err)
			}
			return turn.Cache
		}
		if got := serves(e.store); len(got) != 1 || string(got[0].Result) != string(want.Result) {
			t.Fatalf("the writing instance serves %+v, want the entry it wrote", got)
		}
		// The other instance never saw it: it must decompress, and cannot.
		if got := serves(other); len(got) != 0 {
			t.Fatalf("an instance that cannot decompress serves %+v", got)
		}
		// The same result written again: the same bytes.
		if err := e.rdb.Del(ctx, pk).Err(); err != nil {
			t.Fatal(err)
		}
		if err := e.store.FinishTurn(ctx, "s1", memory.Finish{Put: []memory.CacheEntry{want}}); err != nil {
			t.Fatal(err)
		}
		if again, err := e.rdb.Get(ctx, pk).Bytes(); err != nil || string(again) != string(stored) {
			t.Fatalf("written again as %d bytes (%v), want the %d bytes written first", len(again), err, len(stored))
		}
		// A value the instance does not remember under that id is read as stored.
		if err := e.rdb.Set(ctx, pk, `{"replaced":true}`, time.Hour).Err(); err != nil {
			t.Fatal(err)
		}
		if got := serves(e.store); len(got) != 1 || string(got[0].Result) != `{"replaced":true}` {
			t.Fatalf("after the value was replaced, serves %+v", got)
		}
	})
}
