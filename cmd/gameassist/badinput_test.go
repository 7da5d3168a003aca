package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestBadInput is the whole-app journey of refused input: a few malformed
// bodies (api's TestBadInput has every case) leave the stored session as it
// was, and the session rules chat enforces (locale, player id) refuse.
func TestBadInput(t *testing.T) {
	f := newFixture(t, appSetup{})
	s := f.newSession(t)
	f.chat(t, s, "Tell me about Kaelith")

	sid := `"session_id":"` + s.ID + `"`
	long := strings.Repeat("a", 4001)
	chatCases := []struct {
		name        string
		body        string
		contentType string
		chunked     bool
		want        int
		code        string
	}{
		{name: "malformed JSON", body: `{` + sid + `,"message":`, want: 400, code: "bad_json"},
		{name: "message over the limit", body: `{` + sid + `,"message":"` + long + `"}`, want: 400, code: "message_too_long"},
		{name: "screen data an array", body: `{` + sid + `,"message":"hi","screen":{"name":"BossBattlePresenter","data":[1]}}`, want: 400},
		{name: "over 1 MiB chunked", body: `{` + sid + `,"message":"` + strings.Repeat("a", 1<<20) + `"}`, chunked: true, want: 413, code: "body_too_large"},
	}
	for _, tt := range chatCases {
		t.Run("chat/"+tt.name, func(t *testing.T) {
			req := request{method: http.MethodPost, path: "/v1/chat", token: s.Token, body: []byte(tt.body), chunked: tt.chunked, invalid: true}
			if tt.contentType != "" {
				req.header = map[string]string{"Content-Type": tt.contentType}
			}
			resp, body := f.do(t, req)
			code := expectError(t, resp, body, tt.want)
			if tt.code != "" && code != tt.code {
				t.Fatalf("code %s, want %s: %s", code, tt.code, body)
			}
			v := f.adminSession(t, s.ID)
			if v.Session.Exchange != 1 || len(v.History) != 2 || v.Session.Screen != nil {
				t.Fatalf("session changed: exchange %d, %d messages, screen %+v", v.Session.Exchange, len(v.History), v.Session.Screen)
			}
		})
	}

	sessionCases := []struct {
		name string
		body string
		want int
	}{
		{name: "locale not a string", body: `{"locale":1}`, want: 400},
		{name: "unknown field", body: `{"locale":"en","admin":true}`, want: 400},
		{name: "player_id too long", body: `{"player_id":"` + strings.Repeat("p", 129) + `"}`, want: 400},
		{name: "player_id with control characters", body: `{"player_id":"a\u0000b"}`, want: 400},
	}
	for _, tt := range sessionCases {
		t.Run("sessions/"+tt.name, func(t *testing.T) {
			resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/sessions", body: []byte(tt.body), invalid: true})
			expectError(t, resp, body, tt.want)
		})
	}
}
