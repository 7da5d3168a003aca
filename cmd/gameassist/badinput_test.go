package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestBadInput sends malformed bodies: each gets a 4xx with an error object
// and leaves the session as it was.
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
		{name: "unknown field", body: `{` + sid + `,"message":"hi","mood":"happy"}`, want: 400, code: "bad_json"},
		{name: "message not a string", body: `{` + sid + `,"message":42}`, want: 400, code: "bad_json"},
		{name: "stream not a boolean", body: `{` + sid + `,"message":"hi","stream":"yes"}`, want: 400, code: "bad_json"},
		{name: "session_id not a string", body: `{"session_id":7,"message":"hi"}`, want: 400, code: "bad_json"},
		{name: "missing session_id", body: `{"message":"hi"}`, want: 400, code: "bad_request"},
		{name: "empty message", body: `{` + sid + `,"message":""}`, want: 400, code: "bad_request"},
		{name: "blank message", body: `{` + sid + `,"message":" \n\t "}`, want: 400, code: "bad_request"},
		{name: "missing message", body: `{` + sid + `}`, want: 400, code: "bad_request"},
		{name: "message over the limit", body: `{` + sid + `,"message":"` + long + `"}`, want: 400, code: "message_too_long"},
		{name: "multi-byte message over the limit", body: `{` + sid + `,"message":"` + strings.Repeat("é", 4001) + `"}`, want: 400, code: "message_too_long"},
		{name: "screen data an array", body: `{` + sid + `,"message":"hi","screen":{"name":"BossBattlePresenter","data":[1]}}`, want: 400},
		{name: "screen data a string", body: `{` + sid + `,"message":"hi","screen":{"name":"BossBattlePresenter","data":"x"}}`, want: 400},
		{name: "screen data a number", body: `{` + sid + `,"message":"hi","screen":{"name":"BossBattlePresenter","data":5}}`, want: 400},
		{name: "screen not an object", body: `{` + sid + `,"message":"hi","screen":"BossBattlePresenter"}`, want: 400, code: "bad_json"},
		{name: "screen without name", body: `{` + sid + `,"message":"hi","screen":{"data":{}}}`, want: 400},
		{name: "screen data too deep", body: `{` + sid + `,"message":"hi","screen":{"name":"X","data":` + strings.Repeat(`{"a":`, 33) + `1` + strings.Repeat(`}`, 33) + `}}`, want: 400, code: "bad_json"},
		{name: "non-UTF-8 message", body: "{" + sid + ",\"message\":\"caf\xe9\"}", want: 400, code: "bad_json"},
		{name: "invalid escape", body: `{` + sid + `,"message":"\x"}`, want: 400, code: "bad_json"},
		{name: "trailing data", body: `{` + sid + `,"message":"hi"}{"message":"again"}`, want: 400, code: "bad_json"},
		{name: "array body", body: `[` + `{` + sid + `,"message":"hi"}]`, want: 400, code: "bad_json"},
		{name: "null body", body: `null`, want: 400},
		{name: "empty body", body: ``, want: 400, code: "bad_json"},
		{name: "text content type", body: `{` + sid + `,"message":"hi"}`, contentType: "text/plain", want: 415, code: "unsupported_media_type"},
		{name: "over 1 MiB", body: `{` + sid + `,"message":"` + strings.Repeat("a", 1<<20) + `"}`, want: 413, code: "body_too_large"},
		{name: "over 1 MiB chunked", body: `{` + sid + `,"message":"` + strings.Repeat("a", 1<<20) + `"}`, chunked: true, want: 413, code: "body_too_large"},
		{name: "small chunked but malformed", body: `{` + sid + `,"message":`, chunked: true, want: 400, code: "bad_json"},
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
		{name: "malformed", body: `{"locale":`, want: 400},
		{name: "not UTF-8", body: "{\"player_id\":\"\xff\"}", want: 400},
	}
	for _, tt := range sessionCases {
		t.Run("sessions/"+tt.name, func(t *testing.T) {
			resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/sessions", body: []byte(tt.body), invalid: true})
			expectError(t, resp, body, tt.want)
		})
	}

	executeCases := []struct {
		name string
		body string
		want int
	}{
		{name: "no calls", body: `{"tool_calls":[]}`, want: 400},
		{name: "too many calls", body: `{"tool_calls":[` + strings.TrimSuffix(strings.Repeat(`{"name":"cache_get_bosses_list","arguments":{}},`, 21), ",") + `]}`, want: 400},
		{name: "call without name", body: `{"tool_calls":[{"arguments":{}}]}`, want: 400},
		{name: "calls not an array", body: `{"tool_calls":{}}`, want: 400},
		{name: "unknown field", body: `{"tool_calls":[],"dry_run":true}`, want: 400},
	}
	for _, tt := range executeCases {
		t.Run("execute/"+tt.name, func(t *testing.T) {
			resp, body := f.do(t, request{method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken, body: []byte(tt.body), invalid: true})
			expectError(t, resp, body, tt.want)
		})
	}

	t.Run("wrong method", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/v1/chat", undocumented: true})
		expectError(t, resp, body, http.StatusMethodNotAllowed)
	})
	t.Run("unknown route", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/v1/nothing-here", undocumented: true})
		expectError(t, resp, body, http.StatusNotFound)
	})
}
