package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gameassist/gameassist/gcsdb/resolve"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/tool"
)

// countingTool is a fake tool that counts its executions and answers with
// fn (or echoes its arguments).
type countingTool struct {
	spec tool.Spec
	fn   func(ctx context.Context, args map[string]any) (tool.Result, error)
	n    atomic.Int64
}

func (c *countingTool) Spec() tool.Spec { return c.spec }

func (c *countingTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	c.n.Add(1)
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	if c.fn != nil {
		return c.fn(ctx, m)
	}
	return tool.Success("ok", map[string]any{"tool": c.spec.Name, "args": m}), nil
}

func (c *countingTool) count() int { return int(c.n.Load()) }

func objSchema(props string, required ...string) json.RawMessage {
	req, _ := json.Marshal(required)
	if required == nil {
		req = []byte("[]")
	}
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{%s},"required":%s,"additionalProperties":false}`, props, req))
}

// toolbox is a registry of counting tools and its executor.
type toolbox struct {
	reg   *tool.Registry
	exec  *tool.Executor
	tools map[string]*countingTool
	// names resolves the toolbox's champions and bosses for the offline
	// responder, as *gcsdb.Game does for the real game.
	names gameNames
}

// gameNames is the real resolver over a slice of candidates, standing in
// for the game's read model.
type gameNames struct{ r *resolve.Resolver }

func (g gameNames) NameIndex(context.Context) (*resolve.Resolver, error) { return g.r, nil }

// offlineFallback is the offline responder as the service's Fallback, as
// cmd/gameassist wires it.
type offlineFallback struct{ r *offline.Responder }

// newOfflineFallback returns the offline responder over exec as a Fallback.
func newOfflineFallback(t testing.TB, exec offline.Executor, opts offline.Options) Fallback {
	t.Helper()
	r, err := offline.New(exec, opts)
	if err != nil {
		t.Fatal(err)
	}
	return offlineFallback{r: r}
}

func (f offlineFallback) Answer(ctx context.Context, t FallbackTurn, run RunFunc) FallbackAnswer {
	req := offline.Request{Message: t.Message, Locale: t.Locale, Screen: t.Screen, ScreenData: t.ScreenData, ScreenAt: t.ScreenAt}
	for _, ex := range t.History {
		e := offline.Exchange{Message: ex.Message, At: ex.At}
		for _, s := range ex.About {
			e.About = append(e.About, offline.Subject{Kind: s.Kind, ID: s.ID, Focus: s.Focus})
		}
		req.History = append(req.History, e)
	}
	for _, c := range t.Cached {
		req.Context = append(req.Context, offline.Prior{Name: c.Tool, Arguments: c.Arguments, Result: c.Result})
	}
	ans := f.r.Answer(ctx, req, offline.RunFunc(run))
	out := FallbackAnswer{Text: ans.Text, Outcomes: ans.Outcomes}
	for _, s := range ans.About {
		out.About = append(out.About, memory.Subject{Kind: s.Kind, ID: s.ID, Focus: s.Focus})
	}
	return out
}

// cannedFallback answers every turn with a fixed text and no tool call,
// for tests that never reach the fallback or do not look at its answer.
type cannedFallback string

func (c cannedFallback) Answer(context.Context, FallbackTurn, RunFunc) FallbackAnswer {
	return FallbackAnswer{Text: string(c)}
}

func (tb *toolbox) get(name string) *countingTool { return tb.tools[name] }

// newToolbox registers the fake game tools: lookups with cache durations,
// the offline responder's list and detail tools, and an sql tool.
func newToolbox(t testing.TB) *toolbox {
	t.Helper()
	return newToolboxOpts(t, false)
}

// newToolboxOpts is newToolbox; noCache sets every tool's cache duration to 0.
func newToolboxOpts(t testing.TB, noCache bool) *toolbox {
	t.Helper()
	champs := []map[string]any{
		{"id": 1001, "name": "Kaelith", "rarity": "Legendary", "affinity": "Magic", "role": "Attack"},
		{"id": 1002, "name": "Sylva", "rarity": "Rare", "affinity": "Spirit", "role": "Support"},
	}
	bossList := []map[string]any{{"id": 5001, "name": "Fire Knight"}}
	list := func(name, field string, items []map[string]any) *countingTool {
		return &countingTool{
			spec: tool.Spec{Name: name, Category: tool.CategoryCache},
			fn: func(context.Context, map[string]any) (tool.Result, error) {
				return tool.Success("ok", map[string]any{"total": len(items), "last_updated": "2024-01-01", field: items}), nil
			},
		}
	}
	champDetails := func(_ context.Context, a map[string]any) (tool.Result, error) {
		name, _ := a["champion_name"].(string)
		for _, c := range champs {
			if strings.EqualFold(c["name"].(string), name) {
				out := map[string]any{"stats": map[string]int{"hp": 15000, "atk": 1200}, "effects": []string{"decrease_def", "decrease_spd"}}
				for k, v := range c {
					out[k] = v
				}
				return tool.Success("ok", out), nil
			}
		}
		return tool.Failure("No champion named "+name+".", "not found", "Check the name with cache_get_champions_list."), nil
	}
	tools := []*countingTool{
		{
			spec: tool.Spec{
				Name: "gcs_get_champion_details", Category: tool.CategoryGCS, CacheDuration: 3,
				Parameters: objSchema(`"champion_name":{"type":"string","minLength":1}`, "champion_name"), Aliases: []string{"champion_details"},
				DisplayNames: tool.DisplayNames{"en": "Champion", "fr": "Fiche du champion"},
			},
			fn: champDetails,
		},
		{spec: tool.Spec{
			Name: "gcs_get_boss_details", Category: tool.CategoryGCS, CacheDuration: 0,
			Parameters: objSchema(`"boss_name":{"type":"string","minLength":1}`, "boss_name"),
		}},
		{
			spec: tool.Spec{
				Name: "gcs_find_counters_for_boss", Category: tool.CategoryGCS,
				Parameters: objSchema(`"boss_name":{"type":"string","minLength":1}`, "boss_name"),
			},
			fn: func(context.Context, map[string]any) (tool.Result, error) {
				return tool.Success("ok", map[string]any{"counters": []map[string]any{{"name": "Kaelith", "reason": "decreases DEF"}}}), nil
			},
		},
		{spec: tool.Spec{
			Name: "db_get_ux_details", Category: tool.CategoryRAG, CacheDuration: 2,
			Parameters: objSchema(`"query":{"type":"string","minLength":1}`, "query"),
		}},
		{spec: tool.Spec{
			Name: "db_get_lore_details", Category: tool.CategoryRAG, CacheDuration: 3,
			Parameters: objSchema(`"query":{"type":"string","minLength":1}`, "query"),
		}},
		{spec: tool.Spec{
			Name: "gcs_get_character_details_by_id", Category: tool.CategoryGCS, CacheDuration: 3,
			Parameters: objSchema(`"character_id":{"type":"integer","minimum":1}`, "character_id"),
		}},
		{
			spec: tool.Spec{
				Name: "gcs_broken", Category: tool.CategoryGCS, CacheDuration: 3,
				Parameters: objSchema(`"x":{"type":"integer"}`),
			},
			fn: func(context.Context, map[string]any) (tool.Result, error) {
				return tool.Failure("It broke.", "broken", "Do not retry."), nil
			},
		},
		{spec: tool.Spec{Name: "sql_query", Category: tool.CategorySQL, Parameters: objSchema(`"sql":{"type":"string"}`, "sql")}},
		list("cache_get_champions_list", "champions", champs),
		list("cache_get_bosses_list", "bosses", bossList),
	}
	var cands []resolve.Candidate
	for kind, items := range map[string][]map[string]any{"champion": champs, "boss": bossList} {
		for _, it := range items {
			cands = append(cands, resolve.Candidate{Kind: kind, ID: int64(it["id"].(int)), Name: it["name"].(string)})
		}
	}
	slices.SortFunc(cands, func(a, b resolve.Candidate) int { return cmp.Compare(a.ID, b.ID) })
	box := &toolbox{reg: tool.NewRegistry(), tools: map[string]*countingTool{}, names: gameNames{r: resolve.New(cands)}}
	for _, ct := range tools {
		if noCache {
			ct.spec.CacheDuration = 0
		}
		if err := box.reg.Register(ct); err != nil {
			t.Fatal(err)
		}
		box.tools[ct.spec.Name] = ct
	}
	exec, err := tool.NewExecutor(box.reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	box.exec = exec
	return box
}

// versions is a settable DataVersioner.
type versions struct {
	mu  sync.Mutex
	v   string
	err error
}

func (v *versions) DataVersion(context.Context) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.v, v.err
}

func (v *versions) set(s string, err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.v, v.err = s, err
}

func call(name, args string) tool.Call {
	return tool.Call{Name: name, Arguments: json.RawMessage(args)}
}

func sources(outs []tool.Outcome) string {
	s := make([]string, len(outs))
	for i, o := range outs {
		s[i] = string(o.Source)
	}
	return strings.Join(s, ",")
}
