package main

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/memory"
)

var updateBossSession = flag.Bool("update-boss-session", false, "rewrite memory/testdata/boss_session.json and economy_session.json from sessions played through the app")

// bossTurns is a 3-turn session on the sample game's Boss Battle screen:
// each turn's model calls one tool, then answers.
var bossTurns = []struct{ message, tool, args string }{
	{"who counters this boss?", "gcs_find_counters_for_boss", `{"boss_id":5001}`},
	{"what is this boss weak to?", "gcs_get_boss_details", `{"boss_id":5001}`},
	{"tell me about Aria on my team", "gcs_get_character_details_by_id", `{"character_id":1001}`},
}

// bossSession is what memory/testdata/boss_session.json holds: a session
// as the app stored it after bossTurns (the Go values, not their encoding),
// which memory's tests replay to measure Redis memory per session.
type bossSession struct {
	Meta      memory.Meta             `json:"meta"`
	History   []memory.Message        `json:"history"`
	Cache     []memory.CacheEntry     `json:"cache"`
	Exchanges map[int]memory.Exchange `json:"exchanges"`
}

// TestRedisMemoryPerSession plays bossTurns, then the 30-turn economy
// script, through the whole app and reports the Redis memory of each
// session (MEMORY USAGE summed over its keys) and of the shared payloads it
// references; with -update-boss-session it writes both sessions for
// memory's tests (testdata/boss_session.json, economy_session.json).
func TestRedisMemoryPerSession(t *testing.T) {
	var boss economyScript
	for _, turn := range bossTurns {
		step := map[string]any{
			"message": turn.message, "call": map[string]any{"name": turn.tool, "arguments": json.RawMessage(turn.args)},
			"screen": map[string]any{"name": "BossBattlePresenter", "data": map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1001, 1002, 1003, 1004}}},
		}
		raw, err := json.Marshal(map[string]any{"turns": []any{step}})
		if err != nil {
			t.Fatal(err)
		}
		var one economyScript
		if err := json.Unmarshal(raw, &one); err != nil {
			t.Fatal(err)
		}
		boss.Turns = append(boss.Turns, one.Turns...)
	}
	for _, tt := range []struct {
		name, file string
		script     economyScript
	}{
		{"boss screen, 3 turns", "boss_session.json", boss},
		{"economy script, 30 turns", "economy_session.json", loadEconomyScript(t)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			measureSessionMemory(t, tt.script, tt.file)
		})
	}
}

func measureSessionMemory(t *testing.T, script economyScript, file string) {
	ctx := context.Background()
	fake := llmtest.New(t)
	fake.SetResponder(scriptedModel(script))
	f := newFixture(t, appSetup{llm: fake})
	s := f.newSession(t)
	for _, turn := range script.Turns {
		body := chatBody(s, turn.Message)
		if turn.Screen != nil {
			body["screen"] = turn.Screen
		}
		resp, out := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: body})
		expect(t, resp, out, http.StatusOK)
		f.app.chat.Wait()
	}
	rdb := redisSrv.Client(t)
	keys, err := rdb.Keys(ctx, "*{"+s.ID+"}*").Result()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	var own, shared int64
	for _, k := range keys {
		n, err := rdb.MemoryUsage(ctx, k, 0).Result()
		if err != nil {
			t.Fatal(err)
		}
		own += n
		t.Logf("%-50s %6d bytes", k, n)
	}
	refs, err := rdb.HVals(ctx, "ga:{"+s.ID+"}:cache").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range refs {
		var ref struct{ R string }
		if json.Unmarshal([]byte(v), &ref) != nil || ref.R == "" {
			continue
		}
		n, err := rdb.MemoryUsage(ctx, "ga:pl:"+ref.R, 0).Result()
		if err != nil {
			t.Fatal(err)
		}
		shared += n
	}
	t.Logf("session after %d turns: %d bytes in %d keys; shared payloads it references: %d bytes (%d entries)", len(script.Turns), own, len(keys), shared, len(refs))
	if !*updateBossSession {
		return
	}
	var bs bossSession
	if bs.Meta, err = f.app.store.Session(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if bs.History, err = f.app.store.History(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if bs.Cache, err = f.app.store.Cache(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	ns := make([]int, len(script.Turns))
	for i := range ns {
		ns[i] = i + 1
	}
	if bs.Exchanges, err = f.app.store.Exchanges(ctx, s.ID, ns...); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(bs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "..", "memory", "testdata", file), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
