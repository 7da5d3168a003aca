package main

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// credential is what a request presents.
type credential string

const (
	credNone    credential = "no token"
	credWrong   credential = "wrong token"
	credOther   credential = "other session's token"
	credSession credential = "session token"
	credAdmin   credential = "admin token"
)

// credentials lists every credential of the matrix.
func credentials() []credential {
	return []credential{credNone, credWrong, credOther, credSession, credAdmin}
}

// authRoute is one route of the matrix and what each credential gets.
type authRoute struct {
	method, path string
	body         []byte
	// signed adds a valid webhook signature of body.
	signed bool
	want   map[credential]int
}

// every is a public route's expectation: the same status whatever is sent.
func every(status int) map[credential]int {
	m := map[credential]int{}
	for _, c := range credentials() {
		m[c] = status
	}
	return m
}

// sessionRoute is a player route's expectation: only the session's own
// token opens it; any other token is answered as for an unknown session.
func sessionRoute() map[credential]int {
	return map[credential]int{
		credNone: http.StatusUnauthorized, credWrong: http.StatusNotFound,
		credOther: http.StatusNotFound, credSession: http.StatusOK, credAdmin: http.StatusNotFound,
	}
}

// adminRoute is an admin route's expectation: only the admin token opens
// it, with status ok; any other bearer token fails authentication (401).
func adminRoute(ok int) map[credential]int {
	return map[credential]int{
		credNone: http.StatusUnauthorized, credWrong: http.StatusUnauthorized,
		credOther: http.StatusUnauthorized, credSession: http.StatusUnauthorized, credAdmin: ok,
	}
}

// TestAuthorizationMatrix sends every route with every credential, one
// table row per pair, then checks that no refused request changed the
// session.
func TestAuthorizationMatrix(t *testing.T) {
	f := newFixture(t, appSetup{})
	own, other := f.newSession(t), f.newSession(t)
	// A first turn fills own's cache so the entry delete has something to drop.
	f.chat(t, own, "Tell me about Kaelith")
	resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + own.ID + "/cache", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	cache := decode[struct {
		Entries []struct {
			Key string `json:"key"`
		} `json:"entries"`
	}](t, body)
	if len(cache.Entries) == 0 {
		t.Fatalf("no cache entries after a turn: %s", body)
	}

	tokens := map[credential]string{
		credNone: "", credWrong: "not-the-right-token", credOther: other.Token,
		credSession: own.Token, credAdmin: testAdminToken,
	}
	chat := mustJSON(t, chatBody(own, "Tell me about Kaelith"))
	event := mustJSON(t, map[string]any{"session_id": own.ID, "screen": map[string]any{"name": "MainMenuPresenter", "data": map[string]any{"PlayerLevel": 7}}})
	execute := mustJSON(t, map[string]any{"tool_calls": []map[string]any{{"name": "cache_get_bosses_list", "arguments": map[string]any{}}}})
	sess := "/admin/sessions/" + own.ID

	routes := []authRoute{
		{method: http.MethodGet, path: "/healthz", want: every(http.StatusOK)},
		{method: http.MethodGet, path: "/readyz", want: every(http.StatusOK)},
		{method: http.MethodGet, path: "/metrics", want: every(http.StatusOK)},
		{method: http.MethodGet, path: "/openapi.json", want: every(http.StatusOK)},
		{method: http.MethodPost, path: "/v1/sessions", body: []byte(`{}`), want: every(http.StatusCreated)},
		{method: http.MethodPost, path: "/v1/chat", body: chat, want: sessionRoute()},
		// The webhook wants a signature, never a bearer token.
		{method: http.MethodPost, path: "/v1/screens/events", body: event, want: every(http.StatusUnauthorized)},
		{method: http.MethodPost, path: "/v1/screens/events", body: event, signed: true, want: every(http.StatusOK)},
		{method: http.MethodGet, path: sess, want: adminRoute(http.StatusOK)},
		{method: http.MethodGet, path: sess + "/cache", want: adminRoute(http.StatusOK)},
		{method: http.MethodDelete, path: sess + "/cache/" + cache.Entries[0].Key, want: adminRoute(http.StatusNoContent)},
		{method: http.MethodDelete, path: sess + "/cache", want: adminRoute(http.StatusOK)},
		{method: http.MethodGet, path: "/admin/tools", want: adminRoute(http.StatusOK)},
		{method: http.MethodPost, path: "/admin/tools/execute", body: execute, want: adminRoute(http.StatusOK)},
		{method: http.MethodGet, path: "/admin/stats", want: adminRoute(http.StatusOK)},
		{method: http.MethodPost, path: "/admin/screens/reload", want: adminRoute(http.StatusOK)},
	}
	type row struct {
		name  string
		req   request
		want  int
		route string
	}
	var rows []row
	for _, r := range routes {
		for _, c := range credentials() {
			req := request{method: r.method, path: r.path, body: r.body, token: tokens[c]}
			name := r.method + " " + strings.ReplaceAll(r.path, own.ID, ":id")
			if r.signed {
				req = signedEvent(r.body)
				req.token = tokens[c]
				name += " signed"
			}
			rows = append(rows, row{name: name + "/" + string(c), req: req, want: r.want[c], route: r.method + " " + r.path})
		}
	}
	okChats := 0
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := f.do(t, tt.req)
			if tt.want >= 400 {
				expectError(t, resp, body, tt.want)
				return
			}
			expect(t, resp, body, tt.want)
			if tt.req.path == "/v1/chat" {
				okChats++
			}
		})
	}

	t.Run("refused requests changed nothing", func(t *testing.T) {
		v := f.adminSession(t, own.ID)
		if v.Session.Exchange != 1+okChats || len(v.History) != 2*(1+okChats) {
			t.Fatalf("own session: exchange %d, %d history messages; want %d turns", v.Session.Exchange, len(v.History), 1+okChats)
		}
		o := f.adminSession(t, other.ID)
		if o.Session.Exchange != 0 || len(o.History) != 0 {
			t.Fatalf("other session touched: %+v", o)
		}
	})

	t.Run("unknown and malformed session ids", func(t *testing.T) {
		unknown := "00000000-0000-4000-8000-000000000000"
		ids := []struct {
			name string
			id   string
		}{
			{name: "unknown uuid", id: unknown},
			{name: "not a uuid", id: "session-1"},
			{name: "uppercase of a real id", id: strings.ToUpper(own.ID)},
			{name: "real id with suffix", id: own.ID + "0"},
			{name: "real id with brace", id: own.ID + "}"},
			{name: "wildcard", id: "*"},
			{name: "hash tag", id: "{" + own.ID + "}"},
		}
		for _, tt := range ids {
			t.Run(tt.name+"/chat", func(t *testing.T) {
				body := mustJSON(t, map[string]any{"session_id": tt.id, "message": "hi"})
				resp, rb := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: own.Token, body: body, invalid: true})
				if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusBadRequest {
					t.Fatalf("status %d: %s", resp.StatusCode, rb)
				}
				expectError(t, resp, rb, resp.StatusCode)
			})
			for _, suffix := range []string{"", "/cache"} {
				t.Run(tt.name+"/admin"+suffix, func(t *testing.T) {
					resp, rb := f.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + url.PathEscape(tt.id) + suffix, token: testAdminToken, invalid: true})
					if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusBadRequest {
						t.Fatalf("status %d: %s", resp.StatusCode, rb)
					}
					expectError(t, resp, rb, resp.StatusCode)
					if bytes.Contains(rb, []byte(own.ID)) {
						t.Fatalf("answer leaks the real session: %s", rb)
					}
				})
			}
			t.Run(tt.name+"/webhook", func(t *testing.T) {
				body := mustJSON(t, map[string]any{"session_id": tt.id, "screen": map[string]any{"name": "MainMenuPresenter", "data": map[string]any{"PlayerLevel": 1}}})
				req := signedEvent(body)
				req.invalid = true
				resp, rb := f.do(t, req)
				if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusBadRequest {
					t.Fatalf("status %d: %s", resp.StatusCode, rb)
				}
				expectError(t, resp, rb, resp.StatusCode)
			})
		}
		t.Run("delete entry of an unknown session", func(t *testing.T) {
			resp, rb := f.do(t, request{method: http.MethodDelete, path: "/admin/sessions/" + unknown + "/cache/" + cache.Entries[0].Key, token: testAdminToken})
			expectError(t, resp, rb, http.StatusNotFound)
		})
		t.Run("clear cache of an unknown session", func(t *testing.T) {
			resp, rb := f.do(t, request{method: http.MethodDelete, path: "/admin/sessions/" + unknown + "/cache", token: testAdminToken})
			expectError(t, resp, rb, http.StatusNotFound)
		})
	})
}

// TestAdminAndWebhookDisabled runs a server without ADMIN_TOKEN and
// WEBHOOK_SECRET: every admin route and every screen event is refused,
// whatever is presented.
func TestAdminAndWebhookDisabled(t *testing.T) {
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
