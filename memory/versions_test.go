package memory_test

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

// TestAssignedVersions: tool versions recorded by a turn or a screen event
// come back with the meta of every later turn (also from another Store,
// as another instance would), live in the session's meta hash with the
// session's TTL, and are gone when the session expires.
func TestAssignedVersions(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{SessionTTL: time.Hour})
		e.create(t, "s")
		if got := e.begin(t, "s").Meta.Versions; len(got) != 0 {
			t.Fatalf("new session has versions %v", got)
		}
		if err := e.store.FinishTurn(ctx, "s", memory.Finish{
			Messages: []memory.Message{{Role: "user", Content: "x"}},
			Versions: map[string]int{"cards_get_card": 2, "cards_search": 1},
		}); err != nil {
			t.Fatal(err)
		}
		_, l, err := e.store.LockAndBegin(ctx, "s", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		// A screen event changes one and adds one; the others stay.
		if err := e.store.SaveScreen(ctx, "s", memory.ScreenSave{
			Screen:   &memory.Screen{Name: "deck", Hash: "h"},
			Versions: map[string]int{"cards_get_card": 1, "deck_stats": 3},
			Release:  l,
		}); err != nil {
			t.Fatal(err)
		}
		other, err := memory.New(srv.UniversalClient(t), memory.Options{Prefix: e.prefix, SessionTTL: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		turn, err := other.BeginTurn(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"cards_get_card": 1, "cards_search": 1, "deck_stats": 3}
		if !maps.Equal(turn.Meta.Versions, want) {
			t.Fatalf("versions %v, want %v", turn.Meta.Versions, want)
		}
		// In the meta hash (the session's hash slot), with its TTL.
		if v, err := e.rdb.HGet(ctx, e.key("s", "meta"), "version:deck_stats").Result(); err != nil || v != "3" {
			t.Fatalf("meta field = %q, %v", v, err)
		}
		if ttl, err := e.rdb.PTTL(ctx, e.key("s", "meta")).Result(); err != nil || ttl <= 0 || ttl > time.Hour {
			t.Fatalf("meta TTL %s, %v; want the session's hour", ttl, err)
		}
		// The session expires (an expiry time in the past removes the key
		// at once): a new session under the same id starts with none.
		if err := e.rdb.PExpireAt(ctx, e.key("s", "meta"), time.Unix(1, 0)).Err(); err != nil {
			t.Fatal(err)
		}
		if _, err := e.store.Session(ctx, "s"); err == nil {
			t.Fatal("session still there after its meta expired")
		}
		e.create(t, "s")
		if got := e.begin(t, "s").Meta.Versions; len(got) != 0 {
			t.Fatalf("versions %v outlived the session", got)
		}
	})
}

// TestAssignedVersionsRefused: a bad name or version is refused before
// anything is written; a damaged stored field costs only that field.
func TestAssignedVersionsRefused(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, backends[0], memory.Options{})
	e.create(t, "s")
	for _, bad := range []map[string]int{{"": 1}, {"t": 0}, {"t": -1}, {strings.Repeat("x", 201): 1}} {
		err := e.store.FinishTurn(ctx, "s", memory.Finish{Messages: []memory.Message{{Role: "user", Content: "x"}}, Versions: bad})
		if err == nil {
			t.Fatalf("versions %v accepted", bad)
		}
	}
	if err := e.rdb.HSet(ctx, e.key("s", "meta"), "version:a", "x", "version:b", "2").Err(); err != nil {
		t.Fatal(err)
	}
	turn := e.begin(t, "s")
	if len(turn.History) != 0 {
		t.Fatalf("refused finishes wrote %v", turn.History)
	}
	if !maps.Equal(turn.Meta.Versions, map[string]int{"b": 2}) {
		t.Fatalf("versions %v", turn.Meta.Versions)
	}
}
