package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
)

// TestTwoInstancesOneSession runs two servers on one Redis (a single node,
// then the cluster), as two replicas behind a load balancer: they take
// turns and screen events of one session in alternation, then at once.
// Exchanges stay contiguous, no message is lost or doubled, the turn lock
// holds across instances and a result cached by one is served by the other.
func TestTwoInstancesOneSession(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	redistest.Each(t, backends, testTwoInstancesOneSession)
}

func testTwoInstancesOneSession(t *testing.T, rs redistest.Backend) {
	inst := []*fixture{newFixture(t, appSetup{redis: rs}), newFixture(t, appSetup{redis: rs})}
	s := inst[0].newSession(t)
	var sent []string             // sent[i] is the message of exchange i+1
	eventRan := map[string]bool{} // tool+arguments the first event ran

	screensByTurn := []map[string]any{
		{"name": "ChampionFeatureModelsPresenter", "data": map[string]any{"ChampionConfigId": 1001}},
		{"name": "BossBattlePresenter", "data": map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1001}}},
	}
	const alternating = 6
	for i := range alternating {
		turnOn, eventOn := inst[i%2], inst[(i+1)%2]
		// The game server's event reaches one instance ...
		scr := screensByTurn[i%2]
		resp, body := eventOn.do(t, signedEvent(mustJSON(t, map[string]any{"session_id": s.ID, "screen": scr})))
		expect(t, resp, body, http.StatusOK)
		if i == 0 {
			for _, o := range decode[screenReply](t, body).Tools {
				if o.Source == "proactive" {
					eventRan[o.Name+string(o.Arguments)] = true
				}
			}
		}
		// ... and the player's turn the other, which sees that screen.
		if v := turnOn.adminSession(t, s.ID); v.Session.Screen == nil || v.Session.Screen.Name != scr["name"] {
			t.Fatalf("turn %d: instance %d sees screen %+v, want %s", i+1, i%2, v.Session.Screen, scr["name"])
		}
		msg := fmt.Sprintf("Tell me about Kaelith (%d)", i+1)
		r := turnOn.chat(t, s, msg)
		sent = append(sent, msg)
		if r.Exchange != i+1 {
			t.Fatalf("turn %d on instance %d: exchange %d", i+1, i%2, r.Exchange)
		}
		if i == 0 {
			// The event on instance 1 ran and cached the screen's tools;
			// this turn, on instance 0, is served them from the shared cache.
			if !slices.ContainsFunc(r.ToolCalls, func(o outcome) bool { return o.Source == "cache" && eventRan[o.Name+string(o.Arguments)] }) {
				t.Fatalf("turn 1: nothing the other instance's event cached came from the cache (event ran %v): %+v", eventRan, r.ToolCalls)
			}
		}
	}

	// Now both instances at once: the lock serializes the turns.
	const concurrent = 8
	type result struct {
		exchange int
		msg      string
		err      error
	}
	results := make([]result, concurrent)
	var wg sync.WaitGroup
	for i := range concurrent {
		wg.Go(func() {
			f := inst[i%2]
			msg := fmt.Sprintf("Who counters the Fire Knight? (c%d)", i)
			resp, body, err := f.send(context.Background(), t, request{
				method: http.MethodPost, path: "/v1/chat", token: s.Token, json: chatBody(s, msg),
			})
			switch {
			case err != nil:
				results[i] = result{err: err}
			case resp.StatusCode != http.StatusOK:
				results[i] = result{err: fmt.Errorf("status %d: %.300s", resp.StatusCode, body)}
			default:
				var rep chatReply
				err := json.Unmarshal(body, &rep)
				results[i] = result{exchange: rep.Exchange, msg: msg, err: err}
			}
		})
	}
	wg.Wait()
	byExchange := map[int]string{}
	for i, r := range results {
		if r.err != nil {
			t.Fatalf("concurrent turn %d: %v", i, r.err)
		}
		if prev, ok := byExchange[r.exchange]; ok {
			t.Fatalf("exchange %d given to %q and %q", r.exchange, prev, r.msg)
		}
		byExchange[r.exchange] = r.msg
	}
	for ex := alternating + 1; ex <= alternating+concurrent; ex++ {
		msg, ok := byExchange[ex]
		if !ok {
			t.Fatalf("exchange %d missing: %v", ex, byExchange)
		}
		sent = append(sent, msg)
	}

	// Either instance reads the same, whole history.
	for n, f := range inst {
		v := f.adminSession(t, s.ID)
		total := alternating + concurrent
		if v.Session.Exchange != total || len(v.History) != 2*total {
			t.Fatalf("instance %d: exchange %d with %d history messages, want %d and %d", n, v.Session.Exchange, len(v.History), total, 2*total)
		}
		for i, m := range v.History {
			ex := i/2 + 1
			if want := []string{"user", "assistant"}[i%2]; m.Role != want || m.Exchange != ex {
				t.Fatalf("instance %d: history[%d] is %s of exchange %d, want %s of %d", n, i, m.Role, m.Exchange, want, ex)
			}
			if m.Role == "user" && m.Content != sent[ex-1] {
				t.Fatalf("instance %d: exchange %d question %q, want %q", n, ex, m.Content, sent[ex-1])
			}
		}
	}
}
