package offline

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gameassist/gameassist/gcsdb/resolve"
	"github.com/gameassist/gameassist/tool"
)

// fakeTool answers with fn and counts its calls.
type fakeTool struct {
	spec tool.Spec
	fn   func(args map[string]any) tool.Result

	mu    sync.Mutex
	calls int
}

func (f *fakeTool) Spec() tool.Spec { return f.spec }

func (f *fakeTool) Call(_ context.Context, args json.RawMessage) (tool.Result, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	return f.fn(m), nil
}

func (f *fakeTool) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

type world struct {
	exec  *tool.Executor
	tools map[string]*fakeTool
	names gameNames

	mu        sync.Mutex
	stamp     string
	champions []map[string]any
}

func sampleChampions() []map[string]any {
	return []map[string]any{
		{"id": 1001, "name": "Kaelith", "rarity": "Legendary", "affinity": "Magic", "role": "Attack", "names": map[string]string{"en": "Kaelith", "fr": "Kaëlith"}},
		{"id": 1002, "name": "Morgrath the Bold", "rarity": "Epic", "affinity": "Force", "role": "Defense"},
		{"id": 1003, "name": "Sylva", "rarity": "Rare", "affinity": "Spirit", "role": "Support"},
		{"id": 1004, "name": "Ironhide", "rarity": "Epic", "affinity": "Force", "role": "HP"},
	}
}

func schema(props string, required ...string) json.RawMessage {
	req, _ := json.Marshal(required)
	if required == nil {
		req = []byte("[]")
	}
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{%s},"required":%s,"additionalProperties":false}`, props, req))
}

func newWorld(t testing.TB) *world {
	t.Helper()
	w := &world{tools: map[string]*fakeTool{}, stamp: "2024-01-01T00:00:00Z", champions: sampleChampions()}
	champions := w.champions
	bosses := []map[string]any{
		{"id": 5001, "name": "Fire Knight", "affinity": "Force"},
		{"id": 5002, "name": "Spider Queen", "affinity": "Magic"},
	}
	factions := []map[string]any{
		{"id": 101, "name": "Dawn Order"},
		{"id": 102, "name": "Shadowkin"},
	}
	list := func(name, field string, items func() []map[string]any) *fakeTool {
		return &fakeTool{spec: tool.Spec{Name: name, Category: tool.CategoryCache}, fn: func(map[string]any) tool.Result {
			w.mu.Lock()
			defer w.mu.Unlock()
			its := items()
			return tool.Success("ok", map[string]any{"total": len(its), "last_updated": w.stamp, field: its})
		}}
	}
	find := func(items []map[string]any, name any) map[string]any {
		s, _ := name.(string)
		for _, it := range items {
			if strings.EqualFold(it["name"].(string), s) {
				return it
			}
		}
		return nil
	}
	detail := func(name, param string, items []map[string]any, extra func(map[string]any) map[string]any) *fakeTool {
		return &fakeTool{
			spec: tool.Spec{Name: name, Category: tool.CategoryGCS, CacheDuration: 3, Parameters: schema(`"`+param+`":{"type":"string","minLength":1}`, param)},
			fn: func(args map[string]any) tool.Result {
				it := find(items, args[param])
				if it == nil {
					return tool.Failure(fmt.Sprintf("No %s named %v.", param, args[param]), "not found", "Check the name.")
				}
				return tool.Success("ok", extra(it))
			},
		}
	}
	champDetail := func(it map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range it {
			out[k] = v
		}
		out["stats"] = map[string]int{"hp": 15000, "atk": 1200, "def": 900, "spd": 101, "c_rate": 15, "c_dmg": 50}
		out["skills"] = []map[string]any{{"slot": 1, "name": "Arcane Bolt", "cooldown": 0, "description": "Attacks one enemy."}}
		out["faction"] = map[string]any{"id": 101, "name": "Dawn Order"}
		return out
	}
	tools := []*fakeTool{
		list("cache_get_champions_list", "champions", func() []map[string]any { return w.champions }),
		list("cache_get_bosses_list", "bosses", func() []map[string]any { return bosses }),
		list("cache_get_factions_list", "factions", func() []map[string]any { return factions }),
		detail("gcs_get_champion_details", "champion_name", champions, champDetail),
		detail("gcs_get_boss_details", "boss_name", bosses, func(it map[string]any) map[string]any {
			return map[string]any{"name": it["name"], "affinity": it["affinity"], "weaknesses": []string{"decrease_def"}, "description": "A knight of flame."}
		}),
		detail("gcs_get_faction_details", "faction_name", factions, func(it map[string]any) map[string]any {
			return map[string]any{"name": it["name"], "alignment": "Light", "description": "Guardians of the dawn."}
		}),
		detail("gcs_find_counters_for_boss", "boss_name", bosses, func(it map[string]any) map[string]any {
			return map[string]any{"boss": map[string]any{"name": it["name"]}, "counters": []map[string]any{
				{"name": "Kaelith", "reason": "decreases DEF, which the boss is weak to"},
				{"name": "Ironhide", "reason": "survives the burn"},
			}}
		}),
		{
			spec: tool.Spec{Name: "gcs_compare_characters", Category: tool.CategoryGCS, Parameters: schema(`"names":{"type":"array","items":{"type":"string"},"minItems":2}`, "names")},
			fn: func(args map[string]any) tool.Result {
				var cs []map[string]any
				for _, n := range args["names"].([]any) {
					if it := find(champions, n); it != nil {
						cs = append(cs, champDetail(it))
					}
				}
				return tool.Success("ok", map[string]any{"characters": cs})
			},
		},
		{
			spec: tool.Spec{Name: "db_get_lore_details", Category: tool.CategoryRAG, Parameters: schema(`"query":{"type":"string","minLength":1}`, "query")},
			fn: func(args map[string]any) tool.Result {
				return tool.Success("ok", map[string]any{"results": []map[string]any{{"title": fmt.Sprint(args["query"]), "text": "Long ago, " + fmt.Sprint(args["query"]) + " walked the dawn roads."}}})
			},
		},
		detail("gcs_recommend_gear", "champion_name", champions, func(it map[string]any) map[string]any {
			return map[string]any{"champion": map[string]any{"name": it["name"]}, "recommendations": []map[string]any{
				{"name": "Warlord", "stat_bonus": "ATK +15%", "reason": "made for Attack champions", "farm_in": "Fire Knight's Castle"},
			}}
		}),
		{
			spec: tool.Spec{
				Name: "rag_semantic_search", Category: tool.CategoryRAG,
				Parameters: schema(`"query":{"type":"string","minLength":1},"top_k":{"type":"integer"}`, "query"),
			},
			fn: func(args map[string]any) tool.Result {
				return tool.Success("ok", map[string]any{"passages": []map[string]any{{
					"document_id": "faq-what-is-affinity",
					"title":       "What does affinity do?", "section": "Answer", "text": "Magic beats Force, Force beats Spirit and Spirit beats Magic.",
				}}})
			},
		},
		{
			spec: tool.Spec{Name: "db_get_ux_details", Category: tool.CategoryRAG, Parameters: schema(`"query":{"type":"string","minLength":1}`, "query")},
			fn: func(args map[string]any) tool.Result {
				return tool.Success("ok", map[string]any{"results": []map[string]any{{"title": fmt.Sprint(args["query"]), "text": "This screen shows a champion's stats and skills."}}})
			},
		},
	}
	var cands []resolve.Candidate
	display := map[int64]map[string]string{}
	for kind, items := range map[string][]map[string]any{"champion": champions, "boss": bosses, "faction": factions} {
		for _, it := range items {
			c := resolve.Candidate{Kind: kind, ID: int64(it["id"].(int)), Name: it["name"].(string)}
			if ns, ok := it["names"].(map[string]string); ok {
				display[c.ID] = ns
				for _, n := range ns {
					c.Aliases = append(c.Aliases, n)
				}
			}
			cands = append(cands, c)
		}
	}
	slices.SortFunc(cands, func(a, b resolve.Candidate) int { return cmp.Compare(a.ID, b.ID) })
	w.names = gameNames{r: resolve.New(cands), display: display}
	reg := tool.NewRegistry()
	for _, ft := range tools {
		if err := reg.Register(ft); err != nil {
			t.Fatal(err)
		}
		w.tools[ft.spec.Name] = ft
	}
	exec, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.exec = exec
	return w
}

// run executes calls directly, as a session runner without a cache would.
func (w *world) run(ctx context.Context, calls []tool.Call) []tool.Outcome {
	outs := make([]tool.Outcome, len(calls))
	for i, c := range calls {
		r := w.exec.Execute(ctx, c)
		outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Source: tool.SourceExecuted, Status: r.Status, Result: r}
	}
	return outs
}

func newResponder(t *testing.T, w *world) *Responder {
	t.Helper()
	r, err := New(w.exec, Options{Names: w.names})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// gameNames is what the game's read model gives the responder, over the
// world's entities: the real resolver over a slice of candidates.
type gameNames struct {
	r       *resolve.Resolver
	display map[int64]map[string]string
}

func (g gameNames) FindNames(_ context.Context, text string) ([]resolve.Match, error) {
	return g.r.FindAll("", text), nil
}

func (g gameNames) NameByID(_ context.Context, id int64) (resolve.Candidate, bool, error) {
	c, ok := g.r.ByID("", id)
	return c, ok, nil
}

func (g gameNames) DisplayNames(_ context.Context, id int64) (map[string]string, error) {
	return g.display[id], nil
}

func (g gameNames) ExampleNames(_ context.Context, kind string, n int) ([]resolve.Candidate, error) {
	return g.r.OfKind(kind, n), nil
}

func TestAnswerToolError(t *testing.T) {
	w := newWorld(t)
	r := newResponder(t, w)
	// The index knows Kaelith, but the details tool says otherwise.
	w.tools["gcs_get_champion_details"].fn = func(map[string]any) tool.Result {
		return tool.Failure("The champion database is being updated.", "busy", "Try again later.")
	}
	a := r.Answer(context.Background(), Request{Message: "tell me about Kaelith"}, w.run)
	if !strings.Contains(a.Text, "being updated") {
		t.Errorf("answer does not pass on the tool's message:\n%s", a.Text)
	}
}

func TestNewRefusesNil(t *testing.T) {
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New(nil) succeeded")
	}
}

// FuzzPlan checks that no message, however odd, breaks planning.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{"Kaelith vs Sylva", "who counters the fire knigt", "", "'s ’s ''", "ǅ\u0000\xff", strings.Repeat("kaelith ", 200)} {
		f.Add(s)
	}
	w := newWorld(f)
	r, err := New(w.exec, Options{Names: w.names})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		p := r.Plan(context.Background(), msg, "Screen")
		for _, c := range p.Calls {
			if err := w.exec.Registry().ValidateArgs(c.Name, c.Arguments); err != nil {
				t.Errorf("planned call %s %s is invalid: %v", c.Name, c.Arguments, err)
			}
		}
		_ = r.render(context.Background(), p, w.run(context.Background(), p.Calls))
	})
}
