package memory_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

// TestEveryKeyExpires runs each kind of write the store makes, then scans
// every key under the test's prefix: each must carry a TTL, so nothing the
// store writes stays forever (a new kind of key without one fails here).
func TestEveryKeyExpires(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		// s2's player never has a turn: its index must expire anyway.
		for id, player := range map[string]string{"s1": "player-1", "s2": "player-2"} {
			if err := e.store.CreateSession(ctx, memory.Meta{ID: id, PlayerID: player, Locale: "en", TokenHash: memory.HashToken("t")}); err != nil {
				t.Fatal(err)
			}
		}
		_, l, err := e.store.LockAndBegin(ctx, "s1", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		entry := memory.CacheEntry{Key: "k1", Tool: "tool_a", Parameters: json.RawMessage(`{}`), Result: json.RawMessage(`{"status":"success"}`), Duration: 3}
		err = e.store.FinishTurn(ctx, "s1", memory.Finish{
			Messages: []memory.Message{{Role: "user", Content: "hi", Exchange: 1}, {Role: "assistant", Content: "hello", Exchange: 1}},
			Put:      []memory.CacheEntry{entry},
			Hits:     []string{"k1"},
			Versions: map[string]int{"tool_a": 2},
			Screen:   &memory.Screen{Name: "Home", Hash: "h"},
			Release:  l,
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.store.SaveSummary(ctx, "s1", memory.Summary{Text: "earlier", Through: 1}); err != nil {
			t.Fatal(err)
		}
		_, l2, err := e.store.LockAndLoad(ctx, "s2", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.store.SaveScreen(ctx, "s2", memory.ScreenSave{Screen: &memory.Screen{Name: "Shop", Hash: "x"}, Put: []memory.CacheEntry{entry}, Release: l2}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.store.FirstUse(ctx, "webhook:abc", time.Minute); err != nil {
			t.Fatal(err)
		}
		for _, q := range []memory.RecentQuery{{Limit: 10}, {Limit: 10, PlayerID: "player-1"}} {
			if _, err := e.store.Recent(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		// A lock taken and left: it expires too.
		if _, err := e.store.Lock(ctx, "s2", 0); err != nil {
			t.Fatal(err)
		}

		keys := redistest.Keys(t, e.rdb, e.prefix)
		if len(keys) < 8 {
			t.Fatalf("only %d keys written: %v", len(keys), keys)
		}
		for _, k := range keys {
			ttl, err := e.rdb.PTTL(ctx, k).Result()
			if err != nil {
				t.Fatal(err)
			}
			if ttl <= 0 {
				t.Errorf("key %s has no TTL (PTTL %s)", k, ttl)
			}
		}
	})
}

// TestTurnRenewsPlayerIndex: the player's index lives as long as the
// player's newest session can, so a session kept alive by turns stays
// listed under its player.
func TestTurnRenewsPlayerIndex(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{SessionTTL: 24 * time.Hour})
		if err := e.store.CreateSession(ctx, memory.Meta{ID: "s", PlayerID: "p", Locale: "en", TokenHash: memory.HashToken("t")}); err != nil {
			t.Fatal(err)
		}
		key := e.prefix + ":player:p"
		// Most of the index's TTL has passed.
		if err := e.rdb.PExpire(ctx, key, time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		_, l, err := e.store.LockAndBegin(ctx, "s", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.store.FinishTurn(ctx, "s", memory.Finish{Release: l}); err != nil {
			t.Fatal(err)
		}
		if got, err := e.rdb.PTTL(ctx, key).Result(); err != nil || got <= time.Hour {
			t.Fatalf("player index PTTL after a turn = %s, %v; want the session TTL again", got, err)
		}
	})
}
