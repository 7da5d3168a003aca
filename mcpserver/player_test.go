package mcpserver_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/gameassist/gameassist/memory"
)

// A session's player resource shows its own player's state and never
// another's: bob's session reads null while alice has a state.
func TestSessionPlayerResource(t *testing.T) {
	h := newHarness(t, setup{})
	ctx := context.Background()
	alice, bob, none := uuid.NewString(), uuid.NewString(), uuid.NewString()
	for _, m := range []memory.Meta{{ID: alice, PlayerID: "alice", Locale: "en"}, {ID: bob, PlayerID: "bob", Locale: "en"}, {ID: none, Locale: "en"}} {
		if err := h.store.CreateSession(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	state := `{"progress":{"chapter":4},"roster":[{"id":1001,"level":50,"stars":5}]}`
	if _, _, err := h.store.PutPlayerState(ctx, "alice", []byte(state), time.Unix(1_800_000_000, 0), time.Hour); err != nil {
		t.Fatal(err)
	}
	cs := transports[1].connect(t, h)
	type view struct {
		Session struct {
			PlayerID string `json:"player_id"`
		} `json:"session"`
		Version string          `json:"version"`
		State   json.RawMessage `json:"state"`
	}
	var a, b, n view
	readJSON(t, cs, "gameassist://sessions/"+alice+"/player", &a)
	if a.Session.PlayerID != "alice" || !sameJSON(t, a.State, json.RawMessage(state)) || a.Version != memory.PlayerVersion([]byte(state)) {
		t.Fatalf("alice's session player = %+v %s", a, a.State)
	}
	readJSON(t, cs, "gameassist://sessions/"+bob+"/player", &b)
	if b.Session.PlayerID != "bob" || string(b.State) != "null" || b.Version != "" {
		t.Fatalf("bob's session shows %+v %s", b, b.State)
	}
	readJSON(t, cs, "gameassist://sessions/"+none+"/player", &n)
	if string(n.State) != "null" {
		t.Fatalf("a session without a player shows %s", n.State)
	}
}
