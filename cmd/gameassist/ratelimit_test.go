package main

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
)

// TestRateLimitsAcrossInstances runs two instances over one fresh Redis
// with limits of 3 a minute: requests alternate between them and the
// fourth is refused, whichever instance gets it.
func TestRateLimitsAcrossInstances(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	rs := redistest.Start(t)
	limits := map[string]string{"CHAT_RATE_PER_MINUTE": "3", "SESSION_RATE_PER_MINUTE": "3"}
	a := newFixture(t, appSetup{redis: rs, env: limits})
	b := newFixture(t, appSetup{redis: rs, env: limits})
	instances := []*fixture{a, b}

	expectLimited := func(t *testing.T, resp *http.Response, body []byte) {
		t.Helper()
		if code := expectError(t, resp, body, http.StatusTooManyRequests); code != "rate_limited" {
			t.Fatalf("code %s", code)
		}
		secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		if err != nil || secs < 1 || secs > 60 {
			t.Fatalf("Retry-After %q", resp.Header.Get("Retry-After"))
		}
	}

	var sessions []session
	t.Run("session creation per IP", func(t *testing.T) {
		for i := range 3 {
			f := instances[i%2]
			sessions = append(sessions, f.newSession(t))
		}
		resp, body := instances[1].do(t, request{method: http.MethodPost, path: "/v1/sessions", body: []byte(`{}`)})
		expectLimited(t, resp, body)
		resp, body = instances[0].do(t, request{method: http.MethodPost, path: "/v1/sessions", body: []byte(`{}`)})
		expectLimited(t, resp, body)
		// A forwarded-for header does not open a new budget.
		resp, body = instances[0].do(t, request{
			method: http.MethodPost, path: "/v1/sessions", body: []byte(`{}`),
			header: map[string]string{"X-Forwarded-For": "203.0.113.9", "X-Real-IP": "203.0.113.9"},
		})
		expectLimited(t, resp, body)
	})
	if len(sessions) < 2 {
		t.Fatal("no sessions to chat with")
	}

	t.Run("chat per session", func(t *testing.T) {
		s := sessions[0]
		for i := range 3 {
			r := instances[i%2].chat(t, s, "Tell me about Kaelith")
			if r.Exchange != i+1 {
				t.Fatalf("turn %d: exchange %d", i, r.Exchange)
			}
		}
		for _, f := range []*fixture{b, a} {
			resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: chatBody(s, "once more")})
			expectLimited(t, resp, body)
		}
		// A limited request is not a turn.
		if v := a.adminSession(t, s.ID); v.Session.Exchange != 3 || len(v.History) != 6 {
			t.Fatalf("after refused turns: exchange %d, %d messages", v.Session.Exchange, len(v.History))
		}
		// Another session has its own budget.
		if r := b.chat(t, sessions[1], "Tell me about Kaelith"); r.Exchange != 1 {
			t.Fatalf("other session: %+v", r)
		}
	})

	t.Run("refusals are counted", func(t *testing.T) {
		for _, f := range instances {
			resp, body := f.do(t, request{method: http.MethodGet, path: "/metrics"})
			expect(t, resp, body, http.StatusOK)
			for _, want := range []string{`gameassist_rate_limited_total{scope="chat"} 1`, `gameassist_rate_limited_total{scope="sessions"} ` + map[*fixture]string{a: "2", b: "1"}[f]} {
				if !containsLine(body, want) {
					t.Errorf("metrics lack %q", want)
				}
			}
		}
	})
}

func containsLine(body []byte, line string) bool {
	return slices.Contains(strings.Split(string(body), "\n"), line)
}
