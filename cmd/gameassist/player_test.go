package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/data"
)

// TestPlayerStateJourney: the game server pushes a player's state; that
// player's sessions get answers from their roster on a boss screen, another
// player's do not, a server started again over the same Redis still has
// it, and a chapter-gated story stays out of reach of a player below it.
func TestPlayerStateJourney(t *testing.T) {
	f := newFixture(t, appSetup{})
	alice, bob := "alice-"+uuid.NewString()[:8], "bob-"+uuid.NewString()[:8]
	state := data.DemoPlayer() // chapter 5; owns Vorenyn, Kaelith, not Rakaix
	resp, body := f.do(t, request{method: http.MethodPut, path: "/v1/players/" + alice + "/state", body: state,
		header: map[string]string{"X-Signature": api.Sign(testWebhookSecret, state, eventTime())}})
	expect(t, resp, body, http.StatusOK)
	if !strings.Contains(string(body), `"applied":true`) {
		t.Fatalf("push: %s", body)
	}

	open := func(f *fixture, playerID string) session {
		t.Helper()
		resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/sessions", json: map[string]string{"locale": "en", "player_id": playerID}})
		expect(t, resp, body, http.StatusCreated)
		return decode[session](t, body)
	}
	ask := func(f *fixture, s session, msg string) chatReply {
		t.Helper()
		b := chatBody(s, msg)
		b["screen"] = map[string]any{"name": "BossBattlePresenter", "data": map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1084, 1002}}}
		resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: b})
		expect(t, resp, body, http.StatusOK)
		return decode[chatReply](t, body)
	}

	r := ask(f, open(f, alice), "who should I bring here?")
	for _, want := range []string{"From your roster", "**Vorenyn** (level 60, 6★)", "don't own: **Rakaix**"} {
		if !strings.Contains(r.Reply, want) {
			t.Errorf("alice's answer lacks %q:\n%s", want, r.Reply)
		}
	}
	r = ask(f, open(f, bob), "who should I bring here?")
	if !strings.Contains(r.Reply, "don't know your roster") || strings.Contains(r.Reply, "From your roster") {
		t.Errorf("bob's answer uses a roster:\n%s", r.Reply)
	}
	resp, body = f.do(t, request{method: http.MethodGet, path: "/admin/players/" + bob + "/state", token: testAdminToken})
	expect(t, resp, body, http.StatusNotFound)

	// Another server over the same Redis (a restart) still knows alice.
	g := newFixture(t, appSetup{})
	r = ask(g, open(g, alice), "who should I bring here?")
	if !strings.Contains(r.Reply, "From your roster") {
		t.Errorf("after a restart alice's answer lacks her roster:\n%s", r.Reply)
	}
	// Chapter 5 does not unlock the chapter 7 story.
	r = ask(g, open(g, alice), "tell me the lore story of the Hollow Crown and the Ashen Crown")
	if strings.Contains(r.Reply, "ancestor") || strings.Contains(r.Reply, "Chapter 7") {
		t.Errorf("a chapter 5 player read the chapter 7 story:\n%s", r.Reply)
	}
}
