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
