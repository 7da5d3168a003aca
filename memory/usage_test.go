package memory_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/gameassist/gameassist/memory"
	"github.com/redis/go-redis/v9"
)

// storedSession is a session as the whole app stored it, as Go values:
// testdata/boss_session.json is 3 turns on the sample game's Boss Battle
// screen and testdata/economy_session.json the 30-turn context-economy
// script (rewritten by cmd/gameassist's TestRedisMemoryPerSession with
// -update-boss-session).
type storedSession struct {
	Meta      memory.Meta             `json:"meta"`
	History   []memory.Message        `json:"history"`
	Cache     []memory.CacheEntry     `json:"cache"`
	Exchanges map[int]memory.Exchange `json:"exchanges"`
}

func loadStored(tb testing.TB, path string) storedSession {
	tb.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var s storedSession
	if err := json.Unmarshal(raw, &s); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return s
}

// replay writes s through the store as the app's turns did: each exchange
// its messages, the cache entries cached at it, its exchange record; the
// screen with the first turn, the summary at the end.
func replay(tb testing.TB, st *memory.Store, id string, s storedSession) {
	tb.Helper()
	ctx := context.Background()
	m := s.Meta
	if err := st.CreateSession(ctx, memory.Meta{ID: id, PlayerID: m.PlayerID, Locale: m.Locale, TokenHash: memory.HashToken("tok-" + id), CreatedAt: m.CreatedAt}); err != nil {
		tb.Fatal(err)
	}
	last := 0
	for _, msg := range s.History {
		last = max(last, msg.Exchange)
	}
	for n := 1; n <= last; n++ {
		turn, l, err := st.LockAndBegin(ctx, id, time.Second)
		if err != nil {
			tb.Fatal(err)
		}
		if turn.Meta.Exchange != n {
			tb.Fatalf("turn %d runs as exchange %d", n, turn.Meta.Exchange)
		}
		f := memory.Finish{Release: l}
		if n == 1 {
			f.Screen, f.Versions = m.Screen, m.Versions
		}
		for _, msg := range s.History {
			if msg.Exchange == n {
				f.Messages = append(f.Messages, msg)
			}
		}
		for _, e := range s.Cache {
			if max(e.CachedAt, 1) == n {
				e.Hits = 0
				f.Put = append(f.Put, e)
			}
		}
		if err := st.FinishTurn(ctx, id, f); err != nil {
			tb.Fatal(err)
		}
		if ex, ok := s.Exchanges[n]; ok {
			if err := st.SaveExchange(ctx, id, ex); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if m.Summary != nil {
		if _, err := st.SaveSummary(ctx, id, *m.Summary); err != nil {
			tb.Fatal(err)
		}
	}
}

// sessionParts are the session's keys as Store documents them.
var sessionParts = []string{"meta", "history", "cache", "hits", "cexp", "exchanges", "lock"}

// usage sums MEMORY USAGE over the session's keys (by part) and over the
// shared payloads of entries.
func usage(tb testing.TB, e env, id string, entries []memory.CacheEntry) (own int64, parts map[string]int64, shared int64) {
	tb.Helper()
	ctx := context.Background()
	parts = map[string]int64{}
	for _, p := range sessionParts {
		n, err := e.rdb.MemoryUsage(ctx, e.key(id, p), 0).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			tb.Fatal(err)
		}
		parts[p] = n
		own += n
	}
	seen := map[string]bool{}
	for _, en := range entries {
		k := memory.PayloadKey(e.store, en.DataVersion, en.Result)
		if seen[k] {
			continue
		}
		seen[k] = true
		n, err := e.rdb.MemoryUsage(ctx, k, 0).Result()
		if err != nil {
			tb.Fatalf("payload of %s: %v", en.Key, err)
		}
		shared += n
	}
	return own, parts, shared
}

// previousUsage is what the previous encoding took for s, in the same
// Redis: messages, cache entries (result inline) and exchange records as
// plain JSON, written to keys of their own and measured with MEMORY USAGE.
func previousUsage(tb testing.TB, e env, id string, s storedSession) map[string]int64 {
	tb.Helper()
	ctx := context.Background()
	out := map[string]int64{}
	hist, cache, exch := e.prefix+":prev:{"+id+"}:history", e.prefix+":prev:{"+id+"}:cache", e.prefix+":prev:{"+id+"}:exchanges"
	for _, m := range s.History {
		b, err := json.Marshal(m)
		if err != nil {
			tb.Fatal(err)
		}
		if err := e.rdb.RPush(ctx, hist, b).Err(); err != nil {
			tb.Fatal(err)
		}
	}
	for _, en := range s.Cache {
		en.Hits = 0
		b, err := json.Marshal(en)
		if err != nil {
			tb.Fatal(err)
		}
		if err := e.rdb.HSet(ctx, cache, en.Key, b).Err(); err != nil {
			tb.Fatal(err)
		}
	}
	for n, ex := range s.Exchanges {
		b, err := json.Marshal(ex)
		if err != nil {
			tb.Fatal(err)
		}
		if err := e.rdb.HSet(ctx, exch, n, b).Err(); err != nil {
			tb.Fatal(err)
		}
	}
	for part, k := range map[string]string{"history": hist, "cache": cache, "exchanges": exch} {
		n, err := e.rdb.MemoryUsage(ctx, k, 0).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			tb.Fatal(err)
		}
		out[part] = n
	}
	return out
}

// TestSessionMemoryUsage: a session after 3 turns on a boss screen takes
// at most 12 KB of Redis (MEMORY USAGE over its keys; the shared payloads
// it references are reported apart), and the 30-turn script's history (60
// messages) at most 25 KB; the previous encoding's figures are logged from
// the same run. The figures are deterministic for one Redis version.
func TestSessionMemoryUsage(t *testing.T) {
	e := newEnv(t, backends[0], memory.Options{})
	boss := loadStored(t, "testdata/boss_session.json")
	replay(t, e.store, "boss", boss)
	// A second session on the same screen shares the payloads.
	replay(t, e.store, "boss2", boss)
	own, parts, shared := usage(t, e, "boss", boss.Cache)
	prev := previousUsage(t, e, "boss", boss)
	before := own - parts["history"] - parts["cache"] - parts["exchanges"] + prev["history"] + prev["cache"] + prev["exchanges"]
	t.Logf("boss screen, 3 turns: session %d bytes %v (previous encoding: %d bytes, %v); shared payloads %d bytes for %d entries (per session at 2 sessions: %d)",
		own, parts, before, prev, shared, len(boss.Cache), shared/2)
	if own > 12*1024 {
		t.Errorf("session after 3 turns on a boss screen: %d bytes of Redis, want <= 12 KB", own)
	}
	turn := e.begin(t, "boss2")
	live := 0
	for _, en := range boss.Cache {
		if en.Live(turn.Meta.Exchange) {
			live++
		}
	}
	if len(turn.Cache) != live || live == 0 {
		t.Errorf("the second session serves %d entries, want the %d live ones", len(turn.Cache), live)
	}

	econ := loadStored(t, "testdata/economy_session.json")
	replay(t, e.store, "econ", econ)
	eown, eparts, eshared := usage(t, e, "econ", econ.Cache)
	eprev := previousUsage(t, e, "econ", econ)
	t.Logf("30-turn script: %d messages, history %d bytes (previous encoding %d); session %d bytes %v (previous: %v); shared payloads %d bytes",
		len(econ.History), eparts["history"], eprev["history"], eown, eparts, eprev, eshared)
	if eparts["history"] > 25*1024 {
		t.Errorf("the 30-turn script's history: %d bytes of Redis (previous encoding %d), want <= 25 KB", eparts["history"], eprev["history"])
	}
}

// BenchmarkFinishTurn measures a turn's write on a long session: the
// 30-turn economy script's session replayed, then each iteration writes
// one of its exchanges again (messages, cache entries and exchange record,
// renumbered as the next exchange) after a LockAndBegin outside the timer.
func BenchmarkFinishTurn(b *testing.B) {
	ctx := context.Background()
	e := newEnv(b, backends[0], memory.Options{})
	econ := loadStored(b, "testdata/economy_session.json")
	replay(b, e.store, "bench", econ)
	byExchange := map[int][]memory.Message{}
	last := 0
	for _, m := range econ.History {
		byExchange[m.Exchange] = append(byExchange[m.Exchange], m)
		last = max(last, m.Exchange)
	}
	i := 0
	for b.Loop() {
		b.StopTimer()
		turn, l, err := e.store.LockAndBegin(ctx, "bench", time.Second)
		if err != nil {
			b.Fatal(err)
		}
		n := turn.Meta.Exchange
		src := i%last + 1
		i++
		f := memory.Finish{Release: l}
		for _, m := range byExchange[src] {
			m.Exchange = n
			f.Messages = append(f.Messages, m)
		}
		for _, en := range econ.Cache {
			if max(en.CachedAt, 1) == src {
				en.Hits, en.CachedAt = 0, n
				f.Put = append(f.Put, en)
			}
		}
		if ex, ok := econ.Exchanges[src]; ok {
			ex.Exchange = n
			f.Exchange = &ex
		}
		b.StartTimer()
		if err := e.store.FinishTurn(ctx, "bench", f); err != nil {
			b.Fatal(err)
		}
	}
}
