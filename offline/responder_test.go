package offline

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/resolve"
	"github.com/gameassist/gameassist/tool"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
	toolsrag "github.com/gameassist/gameassist/tools_rag"
)

// fakeTool answers with fn.
type fakeTool struct {
	spec tool.Spec
	fn   func(args map[string]any) tool.Result
}

func (f *fakeTool) Spec() tool.Spec { return f.spec }

func (f *fakeTool) Call(_ context.Context, args json.RawMessage) (tool.Result, error) {
	var m map[string]any
	_ = json.Unmarshal(args, &m)
	return f.fn(m), nil
}

type world struct {
	exec  *tool.Executor
	tools map[string]*fakeTool
	names gameNames
}

func schema(props string, required ...string) json.RawMessage {
	req, _ := json.Marshal(required)
	if required == nil {
		req = []byte("[]")
	}
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{%s},"required":%s,"additionalProperties":false}`, props, req))
}

// newWorld is a small game whose tools answer with the real tools' result
// types, and whose names the real resolver finds.
func newWorld(t testing.TB) *world {
	t.Helper()
	w := &world{tools: map[string]*fakeTool{}}
	dawn := gcsdb.Ref{ID: 101, Name: "Dawn Order"}
	champions := []gcsdb.Champion{
		{ID: 1001, Name: "Kaelith", Names: map[string]string{"en": "Kaelith", "fr": "Kaëlith"}, Rarity: "Legendary", Affinity: "Magic", Role: "Attack", Faction: dawn},
		{ID: 1002, Name: "Morgrath the Bold", Rarity: "Epic", Affinity: "Force", Role: "Defense", Faction: dawn},
		{ID: 1003, Name: "Sylva", Rarity: "Rare", Affinity: "Spirit", Role: "Support", Faction: dawn},
		{ID: 1004, Name: "Ironhide", Rarity: "Epic", Affinity: "Force", Role: "HP", Faction: dawn},
	}
	for i := range champions {
		champions[i].Stats = gcsdb.Stats{HP: 15000, ATK: 1200, DEF: 900, SPD: 101, CRate: 15, CDmg: 50}
		champions[i].Skills = []gcsdb.Skill{{Slot: 1, Name: "Arcane Bolt", Description: "Attacks one enemy."}}
	}
	bosses := []gcsdb.Boss{
		{ID: 5001, Name: "Fire Knight", Affinity: "Force", Weaknesses: []string{"decrease_def"}, Description: "A knight of flame."},
		{ID: 5002, Name: "Spider Queen", Affinity: "Magic"},
	}
	factions := []gcsdb.Faction{
		{ID: 101, Name: "Dawn Order", Alignment: "Light", Description: "Guardians of the dawn."},
		{ID: 102, Name: "Shadowkin", Alignment: "Dark"},
	}
	champion := func(name any) (gcsdb.Champion, bool) {
		s, _ := name.(string)
		for _, c := range champions {
			if strings.EqualFold(c.Name, s) {
				return c, true
			}
		}
		return gcsdb.Champion{}, false
	}
	boss := func(name any) (gcsdb.Boss, bool) {
		s, _ := name.(string)
		for _, b := range bosses {
			if strings.EqualFold(b.Name, s) {
				return b, true
			}
		}
		return gcsdb.Boss{}, false
	}
	notFound := func(what string, name any) tool.Result {
		return tool.Failure(fmt.Sprintf("No %s named %v.", what, name), "not found", "Check the name.")
	}
	byName := func(name, param string) tool.Spec {
		return tool.Spec{Name: name, Category: tool.CategoryGCS, CacheDuration: 3, Parameters: schema(`"`+param+`":{"type":"string","minLength":1}`, param)}
	}
	query := func(name string) tool.Spec {
		return tool.Spec{Name: name, Category: tool.CategoryRAG, Parameters: schema(`"query":{"type":"string","minLength":1},"top_k":{"type":"integer"}`, "query")}
	}
	tools := []*fakeTool{
		{spec: byName("gcs_get_champion_details", "champion_name"), fn: func(a map[string]any) tool.Result {
			if c, ok := champion(a["champion_name"]); ok {
				return tool.Success("ok", c)
			}
			return notFound("champion", a["champion_name"])
		}},
		{spec: byName("gcs_get_boss_details", "boss_name"), fn: func(a map[string]any) tool.Result {
			if b, ok := boss(a["boss_name"]); ok {
				return tool.Success("ok", b)
			}
			return notFound("boss", a["boss_name"])
		}},
		{spec: byName("gcs_get_faction_details", "faction_name"), fn: func(a map[string]any) tool.Result {
			for _, f := range factions {
				if strings.EqualFold(f.Name, fmt.Sprint(a["faction_name"])) {
					return tool.Success("ok", f)
				}
			}
			return notFound("faction", a["faction_name"])
		}},
		{spec: byName("gcs_find_counters_for_boss", "boss_name"), fn: func(a map[string]any) tool.Result {
			b, ok := boss(a["boss_name"])
			if !ok {
				return notFound("boss", a["boss_name"])
			}
			return tool.Success("ok", toolsgcs.CounterList{Boss: gcsdb.BossRef{ID: b.ID, Name: b.Name, Affinity: b.Affinity}, Total: 2, Counters: []gcsdb.RankedCounter{
				{ID: 1001, Name: "Kaelith", Reason: "decreases DEF, which the boss is weak to"},
				{ID: 1004, Name: "Ironhide", Reason: "survives the burn"},
			}})
		}},
		{
			spec: tool.Spec{Name: "gcs_compare_characters", Category: tool.CategoryGCS, Parameters: schema(`"names":{"type":"array","items":{"type":"string"},"minItems":2}`, "names")},
			fn: func(a map[string]any) tool.Result {
				var cmp toolsgcs.Comparison
				for _, n := range a["names"].([]any) {
					if c, ok := champion(n); ok {
						cmp.Champions = append(cmp.Champions, toolsgcs.Compared{ID: c.ID, Name: c.Name, Rarity: c.Rarity, Affinity: c.Affinity, Role: c.Role, Stats: c.Stats})
					}
				}
				return tool.Success("ok", cmp)
			},
		},
		{spec: query("db_get_lore_details"), fn: func(a map[string]any) tool.Result {
			q := fmt.Sprint(a["query"])
			return tool.Success("ok", toolsrag.SearchPassages{Query: q, Passages: []toolsrag.Passage{{Title: q, Section: "Lore", Text: "Long ago, " + q + " walked the dawn roads."}}})
		}},
		{spec: byName("gcs_recommend_gear", "champion_name"), fn: func(a map[string]any) tool.Result {
			c, ok := champion(a["champion_name"])
			if !ok {
				return notFound("champion", a["champion_name"])
			}
			return tool.Success("ok", toolsgcs.GearAdvice{Champion: gcsdb.Ref{ID: c.ID, Name: c.Name}, Role: c.Role, Recommendations: []gcsdb.GearRecommendation{
				{ID: 7001, Name: "Warlord", StatBonus: "ATK +15%", Reason: "made for Attack champions", FarmIn: "Fire Knight's Castle"},
			}})
		}},
		{spec: query("rag_semantic_search"), fn: func(a map[string]any) tool.Result {
			return tool.Success("ok", toolsrag.SearchPassages{Query: fmt.Sprint(a["query"]), Passages: []toolsrag.Passage{{
				DocumentID: "faq-what-is-affinity", Title: "What does affinity do?", Section: "Answer",
				Text: "Magic beats Force, Force beats Spirit and Spirit beats Magic.",
			}}})
		}},
		{spec: query("db_get_ux_details"), fn: func(a map[string]any) tool.Result {
			q := fmt.Sprint(a["query"])
			return tool.Success("ok", toolsrag.SearchPassages{Query: q, Passages: []toolsrag.Passage{{Title: q, Text: "This screen shows a champion's stats and skills."}}})
		}},
	}
	var cands []resolve.Candidate
	for _, c := range champions {
		cands = append(cands, resolve.Candidate{Kind: "champion", ID: c.ID, Name: c.Name, Aliases: slices.Collect(maps.Values(c.Names)), Display: c.Names})
	}
	for _, b := range bosses {
		cands = append(cands, resolve.Candidate{Kind: "boss", ID: b.ID, Name: b.Name})
	}
	for _, f := range factions {
		cands = append(cands, resolve.Candidate{Kind: "faction", ID: f.ID, Name: f.Name})
	}
	w.names = gameNames{r: resolve.New(cands)}
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
type gameNames struct{ r *resolve.Resolver }

func (g gameNames) NameIndex(context.Context) (*resolve.Resolver, error) { return g.r, nil }

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

// TestAnswerReadsTypedResults answers from the tools' typed results: lists
// in the tool's order, a comparison's champions, a faction's description, a
// matchup decided from the counters list, French names from the game's
// display names.
func TestAnswerReadsTypedResults(t *testing.T) {
	w := newWorld(t)
	r := newResponder(t, w)
	tests := []struct {
		name, msg, locale string
		want              []string
	}{
		{name: "counters in order", msg: "who counters the fire knigt?", want: []string{"**Kaelith** and **Ironhide**", "decreases DEF"}},
		{name: "compare", msg: "compare Kaelith and Sylva", want: []string{"**Kaelith**", "**Sylva**", "SPD 101"}},
		{name: "faction", msg: "tell me about the Dawn Order", want: []string{"Guardians of the dawn."}},
		{name: "matchup", msg: "is Ironhide good against the Fire Knight?", want: []string{"Ironhide", "Fire Knight"}},
		{name: "gear", msg: "what gear should sylva wear?", want: []string{"**Warlord**", "Fire Knight's Castle"}},
		{name: "localized name", msg: "parle-moi de Kaelith", locale: "fr", want: []string{"**Kaëlith**"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := r.Answer(context.Background(), Request{Message: tc.msg, Locale: tc.locale}, w.run)
			for _, want := range tc.want {
				if !strings.Contains(a.Text, want) {
					t.Errorf("answer (%s) lacks %q:\n%s", a.Plan.Intent, want, a.Text)
				}
			}
		})
	}
}

func TestNewRefusesNil(t *testing.T) {
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New(nil) succeeded")
	}
}

// FuzzPlan checks that no message, however odd, breaks planning.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{"Kaelith vs Sylva", "who counters the fire knigt", "", "'s ’s ''", "ǅ\u0000\xff", strings.Repeat("kaelith ", 200),
		"who is \"Zor\u202eblax\x07\"?", "how do I beat the Shadow Hydra?", strings.Repeat("\"A\" ", 300), "das Verlies „Drachen“ der Boss"} {
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
		_ = r.render(p, w.run(context.Background(), p.Calls))
	})
}
