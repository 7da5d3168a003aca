package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gameassist/gameassist/mcpserver"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

func readJSON(t *testing.T, cs *mcp.ClientSession, uri string, v any) {
	t.Helper()
	res, err := cs.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" || res.Contents[0].URI != uri {
		t.Fatalf("read %s: contents %+v", uri, res.Contents)
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), v); err != nil {
		t.Fatalf("read %s: %v in %s", uri, err, res.Contents[0].Text)
	}
}

func TestCatalogueAndRulesResources(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			h := newHarness(t, setup{})
			cs := tr.connect(t, h)
			list, err := cs.ListResources(testCtx(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			var uris []string
			for _, r := range list.Resources {
				uris = append(uris, r.URI)
			}
			slices.Sort(uris)
			if want := []string{mcpserver.ScreenRulesURI, mcpserver.ToolsURI}; !slices.Equal(uris, want) {
				t.Errorf("resources = %v, want %v", uris, want)
			}
			templates, err := cs.ListResourceTemplates(testCtx(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			var tmpls []string
			for _, rt := range templates.ResourceTemplates {
				tmpls = append(tmpls, rt.URITemplate)
			}
			slices.Sort(tmpls)
			if want := []string{mcpserver.SessionCacheURI, mcpserver.SessionHistoryURI, mcpserver.SessionPlayerURI, mcpserver.SessionScreenURI}; !slices.Equal(tmpls, want) {
				t.Errorf("templates = %v, want %v", tmpls, want)
			}

			var cat struct {
				Tools []struct {
					Name          string          `json:"name"`
					Category      string          `json:"category"`
					Parameters    json.RawMessage `json:"parameters"`
					CacheDuration int             `json:"cache_duration"`
				} `json:"tools"`
			}
			readJSON(t, cs, mcpserver.ToolsURI, &cat)
			want := h.reg.Specs(func(s tool.Spec) bool { return s.Category != tool.CategorySQL })
			if len(cat.Tools) != len(want) {
				t.Fatalf("catalogue has %d tools, want %d", len(cat.Tools), len(want))
			}
			for i, sp := range want {
				got := cat.Tools[i]
				if got.Name != sp.Name || got.Category != string(sp.Category) || got.CacheDuration != sp.CacheDuration || !sameJSON(t, got.Parameters, sp.Parameters) {
					t.Errorf("catalogue[%d] = %s/%s/%d, want %s/%s/%d with the same schema", i, got.Name, got.Category, got.CacheDuration, sp.Name, sp.Category, sp.CacheDuration)
				}
			}

			var rules map[string]any
			readJSON(t, cs, mcpserver.ScreenRulesURI, &rules)
			if !sameJSON(t, rules, json.RawMessage(h.rules.Document())) {
				t.Errorf("rules resource differs from the running rules")
			}
		})
	}
}

// seedSession creates a session the way a chat turn leaves it: a screen,
// two history messages and one cached tool result (whose stored envelope
// holds internal_info).
func seedSession(t *testing.T, h *harness) (string, tool.Result) {
	t.Helper()
	ctx := context.Background()
	id := uuid.NewString()
	if err := h.store.CreateSession(ctx, memory.Meta{ID: id, PlayerID: "player-7", Locale: "fr", TokenHash: "x"}); err != nil {
		t.Fatal(err)
	}
	screen := &memory.Screen{Name: "BossBattlePresenter", Data: json.RawMessage(`{"BossConfigId":5001,"Phase":2}`), Hash: "h", Injection: "The player fights Roi Noyé (phase 2)."}
	if err := h.store.SetScreen(ctx, id, screen); err != nil {
		t.Fatal(err)
	}
	turn, err := h.store.BeginTurn(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	call := tool.Call{Name: "gcs_get_boss_details", Arguments: json.RawMessage(`{"boss_id":5001}`)}
	r := h.exec.Execute(ctx, call)
	env, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(env), "internal_info") {
		t.Fatal("the stored envelope should hold internal_info for this test to mean anything")
	}
	err = h.store.FinishTurn(ctx, id, memory.Finish{
		Messages: []memory.Message{
			{Role: "user", Content: "who counters this boss?", Exchange: turn.Meta.Exchange},
			{Role: "assistant", Content: "Grimvar and Kaelith.", Exchange: turn.Meta.Exchange, Tools: []string{call.Name}},
		},
		Put: []memory.CacheEntry{{Key: "k1", Tool: call.Name, Parameters: call.Arguments, Result: env, CachedAt: turn.Meta.Exchange, Duration: 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return id, r
}

func TestSessionResources(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			h := newHarness(t, setup{})
			id, result := seedSession(t, h)
			cs := tr.connect(t, h)
			base := "gameassist://sessions/" + id

			var screen struct {
				Session struct {
					ID       string `json:"session_id"`
					PlayerID string `json:"player_id"`
					Locale   string `json:"locale"`
					Exchange int    `json:"exchange"`
				} `json:"session"`
				Screen struct {
					Name      string          `json:"name"`
					Data      json.RawMessage `json:"data"`
					Injection string          `json:"injection"`
				} `json:"screen"`
			}
			readJSON(t, cs, base+"/screen", &screen)
			meta, err := h.store.Session(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if screen.Session.ID != id || screen.Session.PlayerID != meta.PlayerID || screen.Session.Locale != meta.Locale || screen.Session.Exchange != meta.Exchange {
				t.Errorf("screen resource session = %+v, want %+v", screen.Session, meta)
			}
			if screen.Screen.Name != meta.Screen.Name || screen.Screen.Injection != meta.Screen.Injection || !sameJSON(t, screen.Screen.Data, meta.Screen.Data) {
				t.Errorf("screen = %+v, want %+v", screen.Screen, meta.Screen)
			}

			var hist struct {
				Messages []memory.Message `json:"messages"`
			}
			readJSON(t, cs, base+"/history", &hist)
			stored, err := h.store.History(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if len(hist.Messages) != len(stored) || len(stored) != 2 {
				t.Fatalf("history has %d messages, store %d", len(hist.Messages), len(stored))
			}
			for i := range stored {
				if hist.Messages[i].Role != stored[i].Role || hist.Messages[i].Content != stored[i].Content {
					t.Errorf("history[%d] = %+v, want %+v", i, hist.Messages[i], stored[i])
				}
			}

			res, err := cs.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: base + "/cache"})
			if err != nil {
				t.Fatal(err)
			}
			raw := res.Contents[0].Text
			if strings.Contains(raw, "internal_info") || strings.Contains(raw, "function_name") {
				t.Errorf("internal_info left the server: %s", raw)
			}
			var cache struct {
				Entries []struct {
					Tool               string          `json:"tool"`
					RemainingExchanges int             `json:"remaining_exchanges"`
					Result             json.RawMessage `json:"result"`
				} `json:"entries"`
			}
			if err := json.Unmarshal([]byte(raw), &cache); err != nil {
				t.Fatal(err)
			}
			if len(cache.Entries) != 1 || cache.Entries[0].Tool != "gcs_get_boss_details" || cache.Entries[0].RemainingExchanges != 2 {
				t.Fatalf("cache = %+v", cache.Entries)
			}
			if !sameJSON(t, cache.Entries[0].Result, json.RawMessage(result.ForLLM())) {
				t.Errorf("cached result = %s, want the LLM view %s", cache.Entries[0].Result, result.ForLLM())
			}
		})
	}
}

func TestSessionResourceNotFound(t *testing.T) {
	h := newHarness(t, setup{})
	cs := transports[1].connect(t, h)
	for _, uri := range []string{
		"gameassist://sessions/" + uuid.NewString() + "/screen",
		"gameassist://sessions/" + uuid.NewString() + "/history",
		"gameassist://sessions/not-a-session%00/cache",
		"gameassist://sessions/" + strings.Repeat("a", 300) + "/cache",
		"gameassist://sessions/" + uuid.NewString() + "/passwords",
		"gameassist://elsewhere",
	} {
		_, err := cs.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: uri})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("%.60s: err = %v, want resource not found", uri, err)
		}
	}
}
