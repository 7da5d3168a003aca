package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/llm/llmtest"
)

// TestCacheHitsAgreeWithStats serves tool results from the session cache
// in each way there is (a webhook's screen rules, a chat turn's new screen,
// the LLM's own calls in a turn) and checks, after each step, that the
// admin cache table's hits per tool equal /admin/stats' cache_hits. One
// session in its own Redis, every entry still live: the two must match
// exactly.
func TestCacheHitsAgreeWithStats(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	redistest.EachFresh(t, testCacheHitsAgreeWithStats)
}

func testCacheHitsAgreeWithStats(t *testing.T, rs redistest.Backend) {
	fake := llmtest.New(t)
	f := newFixture(t, appSetup{llm: fake, redis: rs})
	s := f.newSession(t)

	boss := map[string]any{"name": "BossBattlePresenter", "data": map[string]any{
		"BossConfigId": 5001, "Phase": 1, "Team": []int{1001, 1002, 1003, 1004},
	}}
	team := map[string]any{"name": "TeamSetupPresenter", "data": map[string]any{
		"TargetBossId": 5001, "Slot": map[string]any{"Champion": map[string]any{"ConfigId": 1001}},
	}}
	webhook := func(t *testing.T, screen map[string]any) screenReply {
		t.Helper()
		resp, body := f.do(t, signedEvent(mustJSON(t, map[string]any{"session_id": s.ID, "screen": screen})))
		expect(t, resp, body, http.StatusOK)
		return decode[screenReply](t, body)
	}
	// sources counts a reply's calls by tool and source.
	sources := func(outs []outcome) map[string]int {
		n := map[string]int{}
		for _, o := range outs {
			n[o.Name+"/"+o.Source]++
		}
		return n
	}

	// 1. The boss screen, by webhook: its rules run every tool (cached at
	// exchange 0; the boss and counters lookups for one exchange).
	if got := sources(webhook(t, boss).Tools); got["gcs_get_boss_details/proactive"] != 1 || got["gcs_get_character_details_by_id/proactive"] != 4 {
		t.Fatalf("boss screen by webhook: %v", got)
	}
	agree(t, f, s, 0)

	// 2. The team setup screen, by webhook: the boss, its counters and
	// the slotted champion come from the cache.
	got := sources(webhook(t, team).Tools)
	for _, k := range []string{"gcs_get_boss_details/cache", "gcs_find_counters_for_boss/cache", "gcs_get_character_details_by_id/cache"} {
		if got[k] != 1 {
			t.Fatalf("team screen by webhook: %v, want one %s", got, k)
		}
	}
	agree(t, f, s, 3)

	// 3. A chat turn (exchange 1) back on the boss screen: its rules are
	// served from the cache, and so is the LLM's call for a team member;
	// the champion lookup runs.
	fake.Enqueue(
		llmtest.ToolCalls(
			llmtest.Call{ID: "call_1", Name: "gcs_get_character_details_by_id", Arguments: `{"character_id":1002}`},
			llmtest.Call{ID: "call_2", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Kaelith"}`},
		),
		llmtest.Text("Bring Kaelith."),
	)
	body := chatBody(s, "who should I bring?")
	body["screen"] = boss
	resp, raw := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: body})
	expect(t, resp, raw, http.StatusOK)
	r := decode[chatReply](t, raw)
	got = sources(r.ToolCalls)
	if r.Exchange != 1 || got["gcs_get_boss_details/cache"] != 1 || got["gcs_get_character_details_by_id/cache"] != 5 ||
		got["db_get_ux_details/cache"] != 1 || got["gcs_get_champion_details/executed"] != 1 {
		t.Fatalf("turn on the boss screen: exchange %d, calls %v", r.Exchange, got)
	}
	// 3 (webhook) + 7 (the boss screen's rules) + 1 (the LLM's call).
	agree(t, f, s, 11)
}

// agree compares the session's cache table with /admin/stats, tool by
// tool, after the app wrote its queued stats; wantTotal is the number of
// cache hits so far.
func agree(t *testing.T, f *fixture, s session, wantTotal int) {
	t.Helper()
	resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + s.ID + "/cache", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	var cache struct {
		Entries []struct {
			Tool string `json:"tool"`
			Hits int    `json:"hits"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(body, &cache); err != nil {
		t.Fatal(err)
	}
	table := map[string]int{}
	for _, e := range cache.Entries {
		table[e.Tool] += e.Hits
	}
	f.afterFlush(t, "cache table against stats", func() (bool, string) {
		resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/stats", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		var st struct {
			Tools []struct {
				Name      string `json:"name"`
				CacheHits int    `json:"cache_hits"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(body, &st); err != nil {
			t.Fatal(err)
		}
		stats := map[string]int{}
		total := 0
		for _, ts := range st.Tools {
			if ts.CacheHits > 0 {
				stats[ts.Name] = ts.CacheHits
				total += ts.CacheHits
			}
		}
		for tool, n := range table {
			if n == 0 {
				delete(table, tool)
			}
		}
		if !maps.Equal(table, stats) || total != wantTotal {
			names := slices.Sorted(maps.Keys(stats))
			return false, fmt.Sprintf("cache table hits %v, /admin/stats cache_hits %v (tools %v), want %d in all", table, stats, names, wantTotal)
		}
		return true, ""
	})
}
