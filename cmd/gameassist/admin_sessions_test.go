package main

import (
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type sessionsPage struct {
	Sessions []struct {
		ID         string `json:"id"`
		PlayerID   string `json:"player_id"`
		LastActive string `json:"last_active"`
	} `json:"sessions"`
	NextCursor *string `json:"next_cursor"`
}

// TestAdminSessionsList pages through recent sessions, filters them by
// player and refuses bad queries, every exchange checked against the
// OpenAPI document.
func TestAdminSessionsList(t *testing.T) {
	// The store's clock moves only when the test says: the turn below is
	// a second after the sessions were created, whatever the real clock.
	clock := newManualClock()
	f := newFixture(t, appSetup{options: []appOption{withClock(clock.Now)}})
	player := "list-player-" + strings.ReplaceAll(t.Name(), "/", "-")
	var sessions []session
	var ids []string
	for range 3 {
		resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/sessions", json: map[string]string{"locale": "en", "player_id": player}})
		expect(t, resp, body, http.StatusCreated)
		s := decode[session](t, body)
		sessions = append(sessions, s)
		ids = append(ids, s.ID)
	}
	// A turn on the first, later, makes it the most recently active.
	clock.Advance(time.Second)
	f.chat(t, sessions[0], "hello")

	list := func(q url.Values) sessionsPage {
		t.Helper()
		resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/sessions?" + q.Encode(), token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		return decode[sessionsPage](t, body)
	}
	var got []string
	q := url.Values{"player_id": {player}, "limit": {"2"}}
	for range 3 {
		page := list(q)
		for _, s := range page.Sessions {
			if s.PlayerID != player || s.LastActive == "" {
				t.Errorf("row %+v", s)
			}
			got = append(got, s.ID)
		}
		if page.NextCursor == nil {
			break
		}
		q.Set("cursor", *page.NextCursor)
	}
	if len(got) != 3 || got[0] != ids[0] {
		t.Fatalf("player's sessions = %v, want 3 starting with %s", got, ids[0])
	}
	if page := list(url.Values{"player_id": {"nobody-" + player}}); len(page.Sessions) != 0 || page.NextCursor != nil {
		t.Errorf("unknown player: %+v", page)
	}
	if page := list(url.Values{"limit": {"1"}}); len(page.Sessions) != 1 || page.NextCursor == nil {
		t.Errorf("limit 1 over many sessions: %+v", page)
	}

	for _, bad := range []string{"limit=0", "limit=101", "limit=x", "cursor=nope", "cursor=" + strings.Repeat("a", 600), "player_id=" + strings.Repeat("p", 129)} {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/sessions?" + bad, token: testAdminToken, invalid: true})
		expectError(t, resp, body, http.StatusBadRequest)
	}
	resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/sessions"})
	expectError(t, resp, body, http.StatusUnauthorized)
}

// manualClock is a clock a test moves by hand, safe for concurrent use.
type manualClock struct{ ms atomic.Int64 }

func newManualClock() *manualClock {
	c := &manualClock{}
	c.ms.Store(time.Now().UnixMilli())
	return c
}

// Now is the clock's time.
func (c *manualClock) Now() time.Time { return time.UnixMilli(c.ms.Load()) }

// Advance moves the clock forward by d.
func (c *manualClock) Advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }
