package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/schemas"
)

// TestHappyPath walks the offline server through a player's session and
// every admin view of it, on a single Redis and on a Redis Cluster. It has
// its own Redis: it reads global stats.
func TestHappyPath(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	redistest.EachFresh(t, testHappyPath)
}

func testHappyPath(t *testing.T, rs redistest.Backend) {
	f := newFixture(t, appSetup{redis: rs})
	const question = "is Kaelith good against the Fire Knight?"

	s := f.newSession(t)
	first := f.chat(t, s, question)
	if first.SessionID != s.ID || first.Exchange != 1 || first.Degraded {
		t.Fatalf("first turn: session %s exchange %d degraded %v", first.SessionID, first.Exchange, first.Degraded)
	}
	if !strings.Contains(first.Reply, "Kaelith") {
		t.Fatalf("reply does not mention Kaelith: %q", first.Reply)
	}
	if len(first.ToolCalls) == 0 {
		t.Fatal("first turn used no tools")
	}
	var cacheable []string
	for _, c := range first.ToolCalls {
		if c.Source != "executed" {
			t.Errorf("first turn: %s source %s, want executed", c.Name, c.Source)
		}
		if c.Name == "gcs_get_champion_details" {
			cacheable = append(cacheable, c.Name)
		}
	}
	if len(cacheable) == 0 {
		t.Fatalf("first turn did not call gcs_get_champion_details: %+v", first.ToolCalls)
	}

	second := f.chat(t, s, question)
	if second.Exchange != 2 {
		t.Fatalf("second turn exchange %d, want 2", second.Exchange)
	}
	idx := slices.IndexFunc(second.ToolCalls, func(o outcome) bool { return o.Name == "gcs_get_champion_details" })
	if idx < 0 || second.ToolCalls[idx].Source != "cache" {
		t.Fatalf("second turn: gcs_get_champion_details not served from the cache: %+v", second.ToolCalls)
	}

	t.Run("session history", func(t *testing.T) {
		v := f.adminSession(t, s.ID)
		if v.Session.ID != s.ID || v.Session.Exchange != 2 || v.Session.Locale != "en" {
			t.Fatalf("session meta %+v", v.Session)
		}
		if len(v.History) != 4 {
			t.Fatalf("history holds %d messages, want 4: %+v", len(v.History), v.History)
		}
		for i, m := range v.History {
			wantRole, wantEx := []string{"user", "assistant"}[i%2], i/2+1
			if m.Role != wantRole || m.Exchange != wantEx {
				t.Fatalf("history[%d] = %s at %d, want %s at %d", i, m.Role, m.Exchange, wantRole, wantEx)
			}
		}
		if v.History[0].Content != question || v.History[1].Content != first.Reply {
			t.Fatalf("history content %+v", v.History[:2])
		}
	})

	var entries []struct {
		Key                  string          `json:"key"`
		Tool                 string          `json:"tool"`
		Parameters           json.RawMessage `json:"parameters"`
		CachedAtExchange     int             `json:"cached_at_exchange"`
		ExpiresAfterExchange int             `json:"expires_after_exchange"`
		RemainingExchanges   int             `json:"remaining_exchanges"`
		Hits                 int             `json:"hits"`
		SizeBytes            int             `json:"size_bytes"`
	}
	t.Run("cache view", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + s.ID + "/cache", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		view := decode[struct {
			Exchange int             `json:"exchange"`
			Entries  json.RawMessage `json:"entries"`
		}](t, body)
		if view.Exchange != 2 {
			t.Fatalf("cache view exchange %d, want 2", view.Exchange)
		}
		if err := json.Unmarshal(view.Entries, &entries); err != nil {
			t.Fatal(err)
		}
		if len(entries) == 0 {
			t.Fatalf("no cache entries: %s", body)
		}
		found := false
		for _, e := range entries {
			if e.RemainingExchanges != e.ExpiresAfterExchange-view.Exchange {
				t.Errorf("entry %s: remaining %d, want %d - %d", e.Key, e.RemainingExchanges, e.ExpiresAfterExchange, view.Exchange)
			}
			if e.Key == "" || e.SizeBytes <= 0 || e.CachedAtExchange != 1 {
				t.Errorf("entry %+v", e)
			}
			if e.Tool == "gcs_get_champion_details" {
				found = true
				if e.ExpiresAfterExchange != 1+3 || e.Hits < 1 {
					t.Errorf("champion entry: expires after %d (want 4), hits %d (want ≥ 1)", e.ExpiresAfterExchange, e.Hits)
				}
			}
		}
		if !found {
			t.Fatalf("no gcs_get_champion_details entry: %s", body)
		}
	})

	t.Run("delete cache entries", func(t *testing.T) {
		if len(entries) == 0 {
			t.Skip("no entries")
		}
		path := "/admin/sessions/" + s.ID + "/cache/" + entries[0].Key
		resp, body := f.do(t, request{method: http.MethodDelete, path: path, token: testAdminToken})
		expect(t, resp, body, http.StatusNoContent)
		resp, body = f.do(t, request{method: http.MethodDelete, path: path, token: testAdminToken})
		expectError(t, resp, body, http.StatusNotFound)

		resp, body = f.do(t, request{method: http.MethodDelete, path: "/admin/sessions/" + s.ID + "/cache", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		got := decode[struct {
			Deleted *int `json:"deleted"`
		}](t, body)
		if got.Deleted == nil || *got.Deleted != len(entries)-1 {
			t.Fatalf("clear cache: %s, want deleted %d", body, len(entries)-1)
		}
		resp, body = f.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + s.ID + "/cache", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		if !bytes.Contains(body, []byte(`"entries":[]`)) {
			t.Fatalf("cache not empty after clear: %s", body)
		}
	})

	t.Run("tools", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/tools", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		list := decode[struct {
			Tools []struct {
				Name         string `json:"name"`
				Category     string `json:"category"`
				OfferedToLLM bool   `json:"offered_to_llm"`
			} `json:"tools"`
		}](t, body)
		byCategory := map[string]int{}
		for _, tl := range list.Tools {
			byCategory[tl.Category]++
			if tl.Category == "sql" && tl.OfferedToLLM {
				t.Errorf("SQL tool %s is offered to the LLM", tl.Name)
			}
			if tl.Category != "sql" && !tl.OfferedToLLM {
				t.Errorf("tool %s (%s) is not offered to the LLM", tl.Name, tl.Category)
			}
		}
		if byCategory["gcs"] < 13 || byCategory["cache"] < 2 || byCategory["rag"] < 2 || byCategory["sql"] < 1 {
			t.Fatalf("tools by category %v", byCategory)
		}
	})

	t.Run("execute", func(t *testing.T) {
		resp, body := f.do(t, request{
			method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken,
			json: map[string]any{"tool_calls": []map[string]any{{"name": "gcs_get_champion_details", "arguments": map[string]string{"champion_name": "Kaelith"}}}},
		})
		expect(t, resp, body, http.StatusOK)
		out := decode[struct {
			Results []struct {
				Status string          `json:"status"`
				Data   json.RawMessage `json:"data"`
			} `json:"results"`
		}](t, body)
		if len(out.Results) != 1 || out.Results[0].Status != "success" || !bytes.Contains(out.Results[0].Data, []byte("Kaelith")) {
			t.Fatalf("execute: %.500s", body)
		}
	})

	t.Run("stats", func(t *testing.T) {
		type toolStats struct {
			Name      string `json:"name"`
			Calls     int64  `json:"calls"`
			CacheHits int64  `json:"cache_hits"`
			Executed  int64  `json:"executed"`
		}
		f.afterFlush(t, "stats of both turns", func() (bool, string) {
			resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/stats", token: testAdminToken})
			expect(t, resp, body, http.StatusOK)
			rep := decode[struct {
				Tools []toolStats `json:"tools"`
				Turns struct {
					Count int64 `json:"count"`
				} `json:"turns"`
			}](t, body)
			i := slices.IndexFunc(rep.Tools, func(ts toolStats) bool { return ts.Name == "gcs_get_champion_details" })
			if i < 0 || rep.Turns.Count < 2 {
				return false, string(body)
			}
			st := rep.Tools[i]
			return st.Calls >= 2 && st.Executed >= 1 && st.CacheHits >= 1, string(body)
		})
	})

	t.Run("metrics", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/metrics"})
		expect(t, resp, body, http.StatusOK)
		for _, want := range []string{"gameassist_tool_calls_total", "gameassist_http_requests_total", `tool="gcs_get_champion_details"`} {
			if !bytes.Contains(body, []byte(want)) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})

	t.Run("openapi", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/openapi.json"})
		expect(t, resp, body, http.StatusOK)
		if !bytes.Equal(body, schemas.OpenAPI()) {
			t.Fatal("GET /openapi.json is not the embedded document")
		}
	})

	t.Run("chat carrying a screen", func(t *testing.T) {
		s := f.newSession(t)
		body := chatBody(s, "what should I do here?")
		body["screen"] = map[string]any{"name": "BossBattlePresenter", "data": map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1001}}}
		resp, rb := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: body})
		expect(t, resp, rb, http.StatusOK)
		r := decode[chatReply](t, rb)
		if !slices.ContainsFunc(r.ToolCalls, func(o outcome) bool { return o.Source == "proactive" && o.Name == "gcs_get_boss_details" }) {
			t.Fatalf("a new screen ran no rules: %s", rb)
		}
		v := f.adminSession(t, s.ID)
		if v.Session.Screen == nil || v.Session.Screen.Name != "BossBattlePresenter" || !strings.Contains(v.Session.Screen.Injection, "Fire Knight") {
			t.Fatalf("screen not stored: %+v", v.Session.Screen)
		}
		// The same screen again runs nothing new.
		body["message"] = "and now?"
		resp, rb = f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: body})
		expect(t, resp, rb, http.StatusOK)
		r = decode[chatReply](t, rb)
		if r.Exchange != 2 || slices.ContainsFunc(r.ToolCalls, func(o outcome) bool { return o.Source == "proactive" }) {
			t.Fatalf("the same screen ran its rules again: %s", rb)
		}
	})

	t.Run("health", func(t *testing.T) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/healthz"})
		expect(t, resp, body, http.StatusOK)
		resp, body = f.do(t, request{method: http.MethodGet, path: "/readyz"})
		expect(t, resp, body, http.StatusOK)
	})
}

// TestOfflineFollowUpOnTheChosenOne: the champion a "which one" answer
// chose is stored with the reply in Redis, so "and her skills?" on the
// next request is about it, not a question back about the three.
func TestOfflineFollowUpOnTheChosenOne(t *testing.T) {
	t.Parallel()
	f := newFixture(t, appSetup{})
	s := f.newSession(t)
	f.chat(t, s, "compare Kaelith, Rakaix and Vorenyn")
	if r := f.chat(t, s, "which one is tankier?"); !strings.HasPrefix(r.Reply, "**Rakaix** is tankier") {
		t.Fatalf("\"which one is tankier?\": %q", r.Reply)
	}
	if r := f.chat(t, s, "and her skills?"); !strings.HasPrefix(r.Reply, "**Rakaix** has") {
		t.Errorf("\"and her skills?\" after the tankier one: %q", r.Reply)
	}
}
