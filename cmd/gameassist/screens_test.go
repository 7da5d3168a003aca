package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/screens"
)

// TestScreens drives the signed webhook, its refusals, the injection a
// following turn sends to the LLM, and reloading the rules file.
func TestScreens(t *testing.T) {
	rulesPath := filepath.Join(t.TempDir(), "rules.json")
	if err := os.WriteFile(rulesPath, screens.DefaultRules(), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := llmtest.New(t)
	f := newFixture(t, appSetup{llm: fake, env: map[string]string{"SCREEN_RULES": rulesPath}})

	s := f.newSession(t)
	boss := func(id string) []byte {
		return mustJSON(t, map[string]any{"session_id": id, "screen": map[string]any{
			"name": "BossBattlePresenter",
			"data": map[string]any{"BossConfigId": 5001, "Phase": 2, "Team": []int{1001}},
		}})
	}

	t.Run("matched event runs the rules", func(t *testing.T) {
		resp, body := f.do(t, signedEvent(boss(s.ID)))
		expect(t, resp, body, http.StatusOK)
		r := decode[screenReply](t, body)
		if !r.Matched || r.Screen != "BossBattlePresenter" {
			t.Fatalf("event reply %s", body)
		}
		if r.PromptInjection == nil || !strings.Contains(*r.PromptInjection, "Fire Knight") || !strings.Contains(*r.PromptInjection, "Kaelith") {
			t.Fatalf("prompt injection %s", body)
		}
		ran := map[string]bool{}
		for _, o := range r.Tools {
			switch o.Source {
			case "proactive":
				ran[o.Name] = true
			case "skipped":
				if o.Reason == "" {
					t.Errorf("skipped %s without a reason", o.Name)
				}
				// Team.1..3 are absent: optional, so no error.
				if o.Status != "skipped" {
					t.Errorf("skipped %s (%s) has status %s, want skipped", o.Name, o.Reason, o.Status)
				}
			default:
				t.Errorf("tool %s source %s, want proactive or skipped", o.Name, o.Source)
			}
		}
		for _, want := range []string{"db_get_ux_details", "gcs_get_boss_details", "gcs_find_counters_for_boss", "gcs_get_character_details_by_id"} {
			if !ran[want] {
				t.Errorf("%s did not run proactively: %s", want, body)
			}
		}
	})

	t.Run("same event again runs nothing", func(t *testing.T) {
		resp, body := f.do(t, signedEvent(boss(s.ID)))
		expect(t, resp, body, http.StatusOK)
		r := decode[screenReply](t, body)
		if !r.Matched || r.PromptInjection == nil || !strings.Contains(*r.PromptInjection, "Fire Knight") {
			t.Fatalf("event reply %s", body)
		}
		for _, o := range r.Tools {
			if o.Source == "executed" || o.Source == "proactive" {
				t.Fatalf("repeated event ran %s (%s)", o.Name, o.Source)
			}
		}
	})

	t.Run("unknown screen", func(t *testing.T) {
		other := f.newSession(t)
		body := mustJSON(t, map[string]any{"session_id": other.ID, "screen": map[string]any{"name": "NoSuchPresenter", "data": map[string]any{"X": 1}}})
		resp, rb := f.do(t, signedEvent(body))
		expect(t, resp, rb, http.StatusOK)
		r := decode[screenReply](t, rb)
		if r.Matched || len(r.Tools) != 0 || r.PromptInjection != nil {
			t.Fatalf("unknown screen reply %s", rb)
		}
	})

	deep := `{"session_id":"` + s.ID + `","screen":{"name":"BossBattlePresenter","data":` +
		strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat(`}`, 40) + `}}`
	big := `{"session_id":"` + s.ID + `","screen":{"name":"BossBattlePresenter","data":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}}`
	refusals := []struct {
		name string
		req  request
		want int
	}{
		{name: "missing signature", req: request{method: http.MethodPost, path: "/v1/screens/events", body: boss(s.ID)}, want: http.StatusUnauthorized},
		{name: "wrong signature", req: request{
			method: http.MethodPost, path: "/v1/screens/events", body: boss(s.ID),
			header: map[string]string{"X-Signature": "sha256=" + strings.Repeat("ab", 32)},
		}, want: http.StatusUnauthorized},
		{name: "signature of another body", req: request{
			method: http.MethodPost, path: "/v1/screens/events", body: boss(s.ID),
			header: map[string]string{"X-Signature": signedEvent([]byte("{}")).header["X-Signature"]},
		}, want: http.StatusUnauthorized},
		{name: "bearer instead of signature", req: request{method: http.MethodPost, path: "/v1/screens/events", body: boss(s.ID), token: s.Token}, want: http.StatusUnauthorized},
		{name: "signed garbage", req: signedEvent([]byte("not json at all")), want: http.StatusBadRequest},
		{name: "signed too deep", req: signedEvent([]byte(deep)), want: http.StatusBadRequest},
		{name: "signed data not an object", req: signedEvent([]byte(`{"session_id":"` + s.ID + `","screen":{"name":"BossBattlePresenter","data":[1,2]}}`)), want: http.StatusBadRequest},
		{name: "signed over 1 MiB", req: signedEvent([]byte(big)), want: http.StatusRequestEntityTooLarge},
		{name: "signed over 1 MiB chunked", req: chunked(signedEvent([]byte(big))), want: http.StatusRequestEntityTooLarge},
		{name: "unsigned over 1 MiB chunked", req: request{method: http.MethodPost, path: "/v1/screens/events", body: []byte(big), chunked: true}, want: http.StatusRequestEntityTooLarge},
		{name: "signed unknown session", req: signedEvent(boss("00000000-0000-4000-8000-000000000000")), want: http.StatusNotFound},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.invalid = true
			resp, body := f.do(t, tt.req)
			expectError(t, resp, body, tt.want)
		})
	}

	t.Run("refusals changed nothing", func(t *testing.T) {
		v := f.adminSession(t, s.ID)
		if v.Session.Screen == nil || v.Session.Screen.Name != "BossBattlePresenter" || v.Session.Exchange != 0 {
			t.Fatalf("session after refused events: %+v", v.Session)
		}
	})

	t.Run("turn carries the injection to the LLM", func(t *testing.T) {
		before := fake.RequestCount()
		fake.Enqueue(llmtest.Text("Bring Kaelith."))
		r := f.chat(t, s, "who should I bring?")
		if r.Reply != "Bring Kaelith." || r.Degraded {
			t.Fatalf("reply %+v", r)
		}
		// (a background summary may follow the turn)
		reqs := slices.DeleteFunc(slices.Clone(fake.Requests()[before:]), isSummaryRequest)
		if len(reqs) != 1 {
			t.Fatalf("%d LLM requests, want 1", len(reqs))
		}
		// The screen context is a labelled data block in the user turn;
		// no system message holds the (player-controlled) screen values.
		var screenSection string
		for _, m := range reqs[0].Messages {
			if strings.Contains(m.Content, "## Screen\n") {
				if m.Role != "user" {
					t.Fatalf("screen context in a %s message", m.Role)
				}
				screenSection = m.Content
			}
		}
		if !strings.Contains(screenSection, "Fire Knight") || !strings.Contains(screenSection, "phase 2") {
			t.Fatalf("no labelled screen section in the LLM request: %+v", reqs[0].Messages)
		}
		// The proactive results are in the prompt as cached tool results.
		var all strings.Builder
		for _, m := range reqs[0].Messages {
			all.WriteString(m.Content)
		}
		if !strings.Contains(all.String(), "Blazing Vanguard") {
			t.Errorf("proactive boss details are not in the prompt")
		}
	})

	t.Run("reload", func(t *testing.T) {
		reload := request{method: http.MethodPost, path: "/admin/screens/reload", token: testAdminToken}

		var rules map[string]json.RawMessage
		if err := json.Unmarshal(screens.DefaultRules(), &rules); err != nil {
			t.Fatal(err)
		}
		delete(rules, "MainMenuPresenter")
		if err := os.WriteFile(rulesPath, mustJSON(t, rules), 0o600); err != nil {
			t.Fatal(err)
		}
		resp, body := f.do(t, reload)
		expect(t, resp, body, http.StatusOK)
		got := decode[struct {
			Screens []string `json:"screens"`
			Count   int      `json:"count"`
		}](t, body)
		if got.Count != len(rules) || len(got.Screens) != len(rules) || slices.Contains(got.Screens, "MainMenuPresenter") ||
			!slices.Contains(got.Screens, "BossBattlePresenter") {
			t.Fatalf("reloaded %s", body)
		}

		bad := []byte(`{"BossBattlePresenter": {"context_tool": {"tool": "no_such_tool", "parameters": {}}}}`)
		if err := os.WriteFile(rulesPath, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		resp, body = f.do(t, reload)
		code := expectError(t, resp, body, http.StatusUnprocessableEntity)
		if code != "invalid_rules" || !bytes.Contains(body, []byte("no_such_tool")) {
			t.Fatalf("bad rules answer %s", body)
		}
		if err := os.WriteFile(rulesPath, []byte("{not json"), 0o600); err != nil {
			t.Fatal(err)
		}
		resp, body = f.do(t, reload)
		expectError(t, resp, body, http.StatusUnprocessableEntity)

		// The rules loaded before the bad files still answer.
		other := f.newSession(t)
		resp, body = f.do(t, signedEvent(boss(other.ID)))
		expect(t, resp, body, http.StatusOK)
		if r := decode[screenReply](t, body); !r.Matched || r.PromptInjection == nil {
			t.Fatalf("event after a refused reload: %s", body)
		}
		menu := mustJSON(t, map[string]any{"session_id": other.ID, "screen": map[string]any{"name": "MainMenuPresenter", "data": map[string]any{"PlayerLevel": 3}}})
		resp, body = f.do(t, signedEvent(menu))
		expect(t, resp, body, http.StatusOK)
		if r := decode[screenReply](t, body); r.Matched {
			t.Fatalf("a screen removed by the good reload matched: %s", body)
		}
	})
}

func chunked(r request) request {
	r.chunked = true
	return r
}
