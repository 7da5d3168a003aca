package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestSessionTokensJourney is the whole app's side of the authorization
// matrix (api's TestAuthorizationMatrix covers every route with every
// credential): a real session token opens its own session only, through
// the real chat service and Redis, and another session's token, the admin
// token or a malformed session id change nothing.
func TestSessionTokensJourney(t *testing.T) {
	t.Parallel()
	f := newFixture(t, appSetup{})
	own, other := f.newSession(t), f.newSession(t)
	if r := f.chat(t, own, "Tell me about Kaelith"); r.Exchange != 1 {
		t.Fatalf("own turn: %+v", r)
	}
	for name, req := range map[string]request{
		"other session's token": {method: http.MethodPost, path: "/v1/chat", token: other.Token, json: chatBody(own, "hi")},
		"admin token":           {method: http.MethodPost, path: "/v1/chat", token: testAdminToken, json: chatBody(own, "hi")},
		"uppercase id":          {method: http.MethodPost, path: "/v1/chat", token: own.Token, invalid: true, json: map[string]any{"session_id": strings.ToUpper(own.ID), "message": "hi"}},
	} {
		t.Run(name, func(t *testing.T) {
			resp, body := f.do(t, req)
			expectError(t, resp, body, http.StatusNotFound)
		})
	}
	t.Run("session token on an admin route", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + own.ID, token: own.Token})
		expectError(t, resp, body, http.StatusUnauthorized)
	})
	if v := f.adminSession(t, own.ID); v.Session.Exchange != 1 || len(v.History) != 2 {
		t.Fatalf("own session after refused requests: exchange %d, %d messages", v.Session.Exchange, len(v.History))
	}
	if o := f.adminSession(t, other.ID); o.Session.Exchange != 0 || len(o.History) != 0 {
		t.Fatalf("other session touched: %+v", o)
	}
}

// TestAdminAndWebhookDisabled runs a server without ADMIN_TOKEN and
// WEBHOOK_SECRET: every admin route and every screen event is refused,
// whatever is presented.
func TestAdminAndWebhookDisabled(t *testing.T) {
	t.Parallel()
	f := newFixture(t, appSetup{env: map[string]string{"ADMIN_TOKEN": "", "WEBHOOK_SECRET": ""}})
	s := f.newSession(t)
	event := mustJSON(t, map[string]any{"session_id": s.ID, "screen": map[string]any{"name": "MainMenuPresenter", "data": map[string]any{"PlayerLevel": 7}}})
	execute := mustJSON(t, map[string]any{"tool_calls": []map[string]any{{"name": "cache_get_bosses_list", "arguments": map[string]any{}}}})
	sess := "/admin/sessions/" + s.ID
	routes := []struct {
		method, path string
		body         []byte
	}{
		{http.MethodGet, sess, nil},
		{http.MethodGet, sess + "/cache", nil},
		{http.MethodDelete, sess + "/cache", nil},
		{http.MethodDelete, sess + "/cache/0123456789abcdef0123456789abcdef", nil},
		{http.MethodGet, "/admin/tools", nil},
		{http.MethodPost, "/admin/tools/execute", execute},
		{http.MethodGet, "/admin/stats", nil},
		{http.MethodPost, "/admin/screens/reload", nil},
	}
	tokens := map[string]string{"no token": "", "former admin token": testAdminToken, "session token": s.Token, "empty-looking token": " "}
	for _, r := range routes {
		for name, tok := range tokens {
			t.Run(r.method+" "+strings.ReplaceAll(r.path, s.ID, ":id")+"/"+name, func(t *testing.T) {
				resp, body := f.do(t, request{method: r.method, path: r.path, body: r.body, token: tok})
				if code := expectError(t, resp, body, http.StatusForbidden); code != "admin_disabled" {
					t.Fatalf("code %s", code)
				}
			})
		}
	}
	for _, signed := range []bool{false, true} {
		t.Run("webhook signed "+map[bool]string{false: "no", true: "yes"}[signed], func(t *testing.T) {
			req := request{method: http.MethodPost, path: "/v1/screens/events", body: event}
			if signed {
				req = signedEvent(event)
			}
			resp, body := f.do(t, req)
			if code := expectError(t, resp, body, http.StatusForbidden); code != "webhook_disabled" {
				t.Fatalf("code %s", code)
			}
		})
	}
	// Players are unaffected.
	r := f.chat(t, s, "Tell me about Kaelith")
	if r.Exchange != 1 {
		t.Fatalf("chat with admin disabled: %+v", r)
	}
}
