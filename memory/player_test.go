package memory_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gameassist/gameassist/data"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

func TestPlayerStateStoreAndOrder(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		at := time.Unix(1_700_000_000, 0)
		if _, err := e.store.PlayerState(ctx, "p1"); !errors.Is(err, memory.ErrNotFound) {
			t.Fatalf("PlayerState before any push: %v, want ErrNotFound", err)
		}
		ps, applied, err := e.store.PutPlayerState(ctx, "p1", []byte(`{"progress":{"chapter":2}}`), at, time.Hour)
		if err != nil || !applied {
			t.Fatalf("first put: applied %v, %v", applied, err)
		}
		if !ps.UpdatedAt.Equal(at) || ps.Version != memory.PlayerVersion([]byte(`{"progress":{"chapter":2}}`)) {
			t.Fatalf("first put = %+v", ps)
		}
		// An older push is acknowledged and changes nothing.
		old, applied, err := e.store.PutPlayerState(ctx, "p1", []byte(`{"progress":{"chapter":1}}`), at.Add(-time.Second), time.Hour)
		if err != nil || applied {
			t.Fatalf("older put: applied %v, %v", applied, err)
		}
		if !old.UpdatedAt.Equal(at) || string(old.State) != `{"progress":{"chapter":2}}` {
			t.Fatalf("older put answered %+v %s, want the stored state", old, old.State)
		}
		// A newer one replaces it.
		if _, applied, err := e.store.PutPlayerState(ctx, "p1", []byte(`{"progress":{"chapter":3}}`), at.Add(time.Second), time.Hour); err != nil || !applied {
			t.Fatalf("newer put: applied %v, %v", applied, err)
		}
		got, err := e.store.PlayerState(ctx, "p1")
		if err != nil || string(got.State) != `{"progress":{"chapter":3}}` || !got.UpdatedAt.Equal(at.Add(time.Second)) {
			t.Fatalf("PlayerState = %+v %s, %v", got, got.State, err)
		}
		// Another player sees none of it.
		if _, err := e.store.PlayerState(ctx, "p2"); !errors.Is(err, memory.ErrNotFound) {
			t.Fatalf("other player's state: %v, want ErrNotFound", err)
		}
		ttl, err := e.rdb.PTTL(ctx, e.prefix+":pstate:{p1}").Result()
		if err != nil || ttl <= 0 || ttl > time.Hour {
			t.Fatalf("state TTL %s, %v; want (0, 1h]", ttl, err)
		}
		if _, _, err := e.store.PutPlayerState(ctx, "bad{id}", []byte(`{}`), at, time.Hour); err == nil {
			t.Fatal("a player id with a hash-tag brace was stored")
		}
	})
}

// The player's state travels with the turn's load: a session whose player
// this instance knows starts its turn in one round trip, state included,
// on a single node and on Cluster (where the state is in another slot).
func TestPlayerStateTravelsWithTurn(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		prefix := srv.Prefix(t)
		rdb := srv.UniversalClient(t)
		c := &tripCounter{}
		rdb.AddHook(c)
		st, err := memory.New(rdb, memory.Options{Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []memory.Meta{{ID: "sa", PlayerID: "alice"}, {ID: "sb", PlayerID: "bob"}, {ID: "sn"}} {
			if err := st.CreateSession(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := st.PutPlayerState(ctx, "alice", []byte(`{"roster":[{"id":1001}]}`), time.Unix(1_700_000_000, 0), time.Hour); err != nil {
			t.Fatal(err)
		}
		turn := func(id string) memory.Turn {
			t.Helper()
			tr, l, err := st.LockAndBegin(ctx, id, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
			return tr
		}
		turn("sa") // loads the script
		before := c.n.Load()
		tr, l, err := st.LockAndBegin(ctx, "sa", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if n := c.n.Load() - before; n != 1 {
			t.Errorf("LockAndBegin with a player took %d round trips, want 1", n)
		}
		_ = l.Release(ctx)
		if tr.Player == nil || string(tr.Player.State) != `{"roster":[{"id":1001}]}` || tr.Player.PlayerID != "alice" {
			t.Fatalf("alice's turn has player %+v", tr.Player)
		}
		if p := turn("sb").Player; p != nil {
			t.Fatalf("bob's session sees state %s", p.State)
		}
		if p := turn("sn").Player; p != nil {
			t.Fatalf("a session without a player sees state %s", p.State)
		}
		// A second instance that never saw the session still finds the state.
		st2, err := memory.New(srv.UniversalClient(t), memory.Options{Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		tr2, l2, err := st2.LockAndLoad(ctx, "sa", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_ = l2.Release(ctx)
		if tr2.Player == nil || tr2.Player.PlayerID != "alice" {
			t.Fatalf("a fresh instance's load has player %+v", tr2.Player)
		}
	})
}

// The demo player's state takes under 4 KiB of Redis memory (MEMORY USAGE
// of its one key, encoding overhead included).
func TestPlayerStateMemoryUsage(t *testing.T) {
	srv := backends[0]
	ctx := context.Background()
	e := newEnv(t, srv, memory.Options{})
	if _, _, err := e.store.PutPlayerState(ctx, data.DemoPlayerID, data.DemoPlayer(), time.Unix(1_800_000_000, 0), 30*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	n, err := e.rdb.MemoryUsage(ctx, e.prefix+":pstate:{"+data.DemoPlayerID+"}").Result()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("demo player: %d bytes of state, MEMORY USAGE %d bytes", len(data.DemoPlayer()), n)
	if n <= int64(len(data.DemoPlayer())) || n >= 4096 {
		t.Fatalf("MEMORY USAGE = %d bytes, want under 4096 (and above the %d bytes of state)", n, len(data.DemoPlayer()))
	}
}
