package chat

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
)

// TestScreenEventsOrderAmongThemselves: webhook events are ordered by their
// sequence numbers when both carry one, else by signed time; a chat turn's
// screen (gameassist's clock) never makes a webhook stale, even one in the
// same second or from a game server whose clock is behind.
func TestScreenEventsOrderAmongThemselves(t *testing.T) {
	e := newEnv(t, envConfig{screens: true})
	ctx := context.Background()
	id, _ := e.session(t)
	t0 := time.Unix(1_700_000_000, 0)
	champ := screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId":1001}`)}
	boss := screens.Screen{Name: "BossBattlePresenter", Data: json.RawMessage(`{"BossConfigId":5001}`)}
	screenHash := func() string {
		t.Helper()
		m, err := e.store.Session(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if m.Screen == nil {
			return ""
		}
		return m.Screen.Hash
	}
	event := func(name string, sc screens.Screen, ev memory.ScreenEvent, applied bool) {
		t.Helper()
		before := screenHash()
		rep, err := e.svc.ScreenEventAt(ctx, id, sc, ev)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.Applied != applied {
			t.Fatalf("%s: applied %v, want %v", name, rep.Applied, applied)
		}
		after := screenHash()
		if applied && after != sc.Hash() {
			t.Fatalf("%s: stored screen %q, want %s's", name, after, sc.Name)
		}
		if !applied && after != before {
			t.Fatalf("%s: a stale event changed the screen", name)
		}
	}
	event("first, seq 5", champ, memory.ScreenEvent{At: t0.Add(10 * time.Second), Seq: 5}, true)
	event("later time but lower seq", boss, memory.ScreenEvent{At: t0.Add(20 * time.Second), Seq: 4}, false)
	event("earlier time but higher seq", boss, memory.ScreenEvent{At: t0.Add(5 * time.Second), Seq: 6}, true)
	event("no seq, before the last event's time", champ, memory.ScreenEvent{At: t0.Add(time.Second)}, false)
	event("no seq, same second as the last event", champ, memory.ScreenEvent{At: t0.Add(5 * time.Second)}, true)

	// The player opens the boss screen in the client and chats: the turn's
	// screen is stamped with gameassist's clock (now, far after t0).
	sc := boss
	if _, err := e.svc.Turn(ctx, TurnRequest{SessionID: id, Message: "what now?", Screen: &sc}, nil); err != nil {
		t.Fatal(err)
	}
	if m, _ := e.store.Session(ctx, id); m.Screen == nil || m.Screen.Name != boss.Name {
		t.Fatalf("turn's screen not stored: %+v", m.Screen)
	}
	// A webhook from a game server whose clock is behind gameassist's, but
	// after the last webhook: applied.
	event("webhook after a chat turn, clock behind", champ, memory.ScreenEvent{At: t0.Add(6 * time.Second)}, true)
}
