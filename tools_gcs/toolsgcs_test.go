package toolsgcs_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/tool"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

func newExecutor(tb testing.TB, db *sql.DB) *tool.Executor {
	tb.Helper()
	tools, err := toolsgcs.New(db, slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	reg := tool.NewRegistry()
	if err := reg.Register(tools...); err != nil {
		tb.Fatalf("Register: %v", err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{MaxAttempts: 1, MaxResultChars: 20000})
	if err != nil {
		tb.Fatal(err)
	}
	return ex
}

type tcase struct {
	name string
	tool string
	args string
	// ok is the expected status; want are substrings of the LLM view;
	// notWant must not appear.
	ok      bool
	want    []string
	notWant []string
}

func run(t *testing.T, ex *tool.Executor, tests []tcase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.tool+"/"+tt.name, func(t *testing.T) {
			r := ex.Execute(context.Background(), tool.Call{Name: tt.tool, Arguments: json.RawMessage(tt.args)})
			out := unescape(r.ForLLM())
			if r.OK() != tt.ok {
				t.Fatalf("status = %s, want ok=%v; result: %.600s", r.Status, tt.ok, out)
			}
			if !r.OK() && (r.Guidance == "" || r.Message == "") {
				t.Fatalf("error envelope without message or guidance: %.600s", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("result lacks %q: %.1500s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("result contains %q: %.1500s", w, out)
				}
			}
		})
	}
}

// unescape undoes encoding/json's HTML escaping so cases can name "->".
func unescape(s string) string {
	return strings.NewReplacer(`\u003e`, ">", `\u003c`, "<", `\u0026`, "&").Replace(s)
}

// hostile returns argument strings every name-taking tool must survive.
func hostile(field string) []tcase {
	big := strings.Repeat("a", 100*1024)
	return []tcase{
		{name: "empty string", args: `{"` + field + `": ""}`},
		{name: "100 KB string", args: `{"` + field + `": "` + big + `"}`},
		{name: "injection quote", args: `{"` + field + `": "' OR '1'='1"}`},
		{name: "injection drop", args: `{"` + field + `": "x'; DROP TABLE champions; --"}`},
		{name: "unicode nonsense", args: `{"` + field + `": "魔法使い 🐉"}`},
		{name: "wrong type", args: `{"` + field + `": 42}`},
		{name: "unknown field", args: `{"` + field + `": "Kaelith", "evil": 1}`},
		{name: "not json", args: `{"` + field + `": `},
		{name: "array", args: `[1, 2]`},
	}
}

func withTool(name string, cs []tcase) []tcase {
	for i := range cs {
		cs[i].tool = name
	}
	return cs
}

func TestNewRefusesNilDeps(t *testing.T) {
	db := gcsdbtest.Open(t, gcsdbtest.Game())
	tests := []struct {
		name string
		db   *sql.DB
		log  *slog.Logger
	}{
		{"nil db", nil, slog.New(slog.DiscardHandler)},
		{"nil logger", db, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := toolsgcs.New(tt.db, tt.log); err == nil {
				t.Fatal("New succeeded")
			}
		})
	}
}

func TestSpecs(t *testing.T) {
	db := gcsdbtest.Open(t, gcsdbtest.Game())
	tools, err := toolsgcs.New(db, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	gcsCount, sqlCount := 0, 0
	for _, tl := range tools {
		s := tl.Spec()
		switch s.Category {
		case tool.CategoryGCS:
			gcsCount++
		case tool.CategorySQL:
			sqlCount++
		default:
			t.Errorf("%s: category %q", s.Name, s.Category)
		}
		want := 0
		if s.Name == "gcs_get_champion_details" || s.Name == "gcs_get_character_details_by_id" {
			want = 3
		}
		if s.CacheDuration != want {
			t.Errorf("%s: cache duration %d, want %d", s.Name, s.CacheDuration, want)
		}
		if !strings.HasPrefix(s.Name, "gcs_") || s.Description == "" || len(s.Parameters) == 0 {
			t.Errorf("incomplete spec %+v", s)
		}
	}
	if gcsCount < 13 || sqlCount != 3 {
		t.Fatalf("gcs tools = %d (want >= 13), sql tools = %d (want 3)", gcsCount, sqlCount)
	}
}

func TestChampionTools(t *testing.T) {
	ex := newExecutor(t, gcsdbtest.Open(t, gcsdbtest.Game()))
	tests := []tcase{
		{
			name: "exact", tool: "gcs_get_champion_details", args: `{"champion_name": "Kaelith"}`, ok: true,
			want: []string{`"id":1001`, `"name":"Kaelith"`, `"atk":1500`, `"Solar Flare"`, `"decrease_def"`, `"Drowned King"`, `"llm_cache_duration":3`, "Quote stats"},
		},
		{name: "case-insensitive", tool: "gcs_get_champion_details", args: `{"champion_name": "  kAELITH "}`, ok: true, want: []string{`"id":1001`}},
		{name: "unicode name", tool: "gcs_get_champion_details", args: `{"champion_name": "Éloïse"}`, ok: true, want: []string{`"id":1003`, `"provoke"`}},
		{name: "unicode case fold", tool: "gcs_get_champion_details", args: `{"champion_name": "ÉLOÏSE"}`, ok: true, want: []string{`"id":1003`}},
		{name: "french display name", tool: "gcs_get_champion_details", args: `{"champion_name": "éloïse la brave"}`, ok: true, want: []string{`"id":1003`}},
		{
			name: "did you mean", tool: "gcs_get_champion_details", args: `{"champion_name": "Kaelit"}`, ok: false,
			want: []string{"Did you mean: Kaelith", `"suggestions":["Kaelith"`, `"llm_cache_duration":0`},
		},
		{name: "missing field", tool: "gcs_get_champion_details", args: `{}`, ok: false, want: []string{"champion_name"}},
		{
			name: "by id", tool: "gcs_get_character_details_by_id", args: `{"character_id": 1002}`, ok: true,
			want: []string{`"name":"Mirelle"`, `"Mending Hymn"`, `"llm_cache_duration":3`, `"Ember Wyrm"`},
		},
		{name: "unknown id", tool: "gcs_get_character_details_by_id", args: `{"character_id": 1999}`, ok: false, want: []string{"No champion has id 1999"}},
		{name: "boss id is not a champion", tool: "gcs_get_character_details_by_id", args: `{"character_id": 5001}`, ok: false},
		{name: "string id", tool: "gcs_get_character_details_by_id", args: `{"character_id": "1001"}`, ok: false},
		{name: "float id", tool: "gcs_get_character_details_by_id", args: `{"character_id": 1001.5}`, ok: false},
		{name: "huge id", tool: "gcs_get_character_details_by_id", args: `{"character_id": 1e300}`, ok: false},
		{name: "missing id", tool: "gcs_get_character_details_by_id", args: `{}`, ok: false},
		{
			name: "skills", tool: "gcs_get_champion_skills", args: `{"champion_name": "grimvar"}`, ok: true,
			want: []string{`"Hollow Bite"`, `"poison"`, `"Night Tide"`, `"cooldown":4`},
		},
		{name: "skills unknown", tool: "gcs_get_champion_skills", args: `{"champion_name": "Grimvor"}`, ok: false, want: []string{"Grimvar"}},
		{
			name: "gear for attacker", tool: "gcs_recommend_gear", args: `{"champion_name": "Kaelith"}`, ok: true,
			want: []string{`"Savage"`, "made for Attack", "Sunken Halls"}, notWant: []string{`"Grace"`},
		},
		{name: "gear for support", tool: "gcs_recommend_gear", args: `{"champion_name": "Mirelle"}`, ok: true, want: []string{`"Grace"`, "Ash Peak"}},
		{
			name: "by faction", tool: "gcs_list_champions_by_faction", args: `{"faction_name": "sunguard"}`, ok: true,
			want: []string{`"total":3`, "Kaelith", "Mirelle", "Tamsin"}, notWant: []string{"Grimvar"},
		},
		{
			name: "by faction and rarity", tool: "gcs_list_champions_by_faction", args: `{"faction_name": "Sonnenwacht", "rarity": "Epic"}`, ok: true,
			want: []string{`"total":1`, "Mirelle"},
		},
		{name: "by faction bad rarity", tool: "gcs_list_champions_by_faction", args: `{"faction_name": "Sunguard", "rarity": "Mythic"}`, ok: false},
		{name: "by faction unknown", tool: "gcs_list_champions_by_faction", args: `{"faction_name": "Sunguards"}`, ok: false, want: []string{"Sunguard"}},
		{
			name: "by effect", tool: "gcs_find_champions_by_effect", args: `{"effect": "Decrease DEF"}`, ok: true,
			want: []string{`"total":1`, "Kaelith", "Dawn Strike"},
		},
		{
			name: "by effect unknown", tool: "gcs_find_champions_by_effect", args: `{"effect": "teleport"}`, ok: false,
			want: []string{"known_effects", "decrease_def"},
		},
		{name: "by effect limit too big", tool: "gcs_find_champions_by_effect", args: `{"effect": "heal", "limit": 51}`, ok: false},
	}
	run(t, ex, tests)
	for _, name := range []string{"gcs_get_champion_details", "gcs_get_champion_skills", "gcs_recommend_gear"} {
		run(t, ex, withTool(name, hostile("champion_name")))
	}
	run(t, ex, withTool("gcs_list_champions_by_faction", hostile("faction_name")))
	run(t, ex, withTool("gcs_find_champions_by_effect", hostile("effect")))
}

func TestFindChampions(t *testing.T) {
	ex := newExecutor(t, gcsdbtest.Open(t, gcsdbtest.Game()))
	tests := []tcase{
		{name: "no filters sorted by rarity", args: `{}`, ok: true, want: []string{`"total":5`, `"champions":[{"id":1001`}},
		{name: "faction by name", args: `{"faction": "hollow court"}`, ok: true, want: []string{`"total":2`, "Grimvar", "Éloïse"}, notWant: []string{"Kaelith"}},
		{name: "faction by french name", args: `{"faction": "Cour Creuse"}`, ok: true, want: []string{`"total":2`}},
		{name: "unknown faction", args: `{"faction": "Hollow Curt"}`, ok: false, want: []string{"Hollow Court"}},
		{name: "rarity", args: `{"rarity": "Epic"}`, ok: true, want: []string{`"total":2`, "Mirelle", "Grimvar"}},
		{name: "affinity and role", args: `{"affinity": "Magic", "role": "Support"}`, ok: true, want: []string{`"total":1`, "Mirelle"}},
		{name: "min stats", args: `{"min_atk": 1500, "min_c_dmg": 60}`, ok: true, want: []string{`"total":2`, "Kaelith", "Grimvar"}},
		{
			name: "every min stat", args: `{"min_hp": 1, "min_atk": 1, "min_def": 1, "min_spd": 1, "min_c_rate": 1, "min_c_dmg": 1, "min_res": 1, "min_acc": 1}`, ok: true,
			want: []string{`"total":3`},
		},
		{name: "sort by spd", args: `{"sort_by": "spd", "limit": 2}`, ok: true, want: []string{`"total":5`, `"returned":2`, `"champions":[{"id":1002`}},
		{name: "sort by name", args: `{"sort_by": "name"}`, ok: true, want: []string{`"champions":[{"id":1004`}},
		{name: "slowest first", args: `{"sort_by": "spd", "lowest_first": true, "limit": 2}`, ok: true, want: []string{`"total":5`, `"champions":[{"id":1005`, `"lowest_first":true`, "sorted by spd, lowest first"}},
		{name: "least hp first", args: `{"sort_by": "hp", "lowest_first": true}`, ok: true, want: []string{`"champions":[{"id":1004`}},
		{name: "lowest first false", args: `{"sort_by": "spd", "lowest_first": false}`, ok: true, want: []string{`"champions":[{"id":1002`}, notWant: []string{"lowest_first"}},
		{name: "lowest first not a bool", args: `{"sort_by": "spd", "lowest_first": "yes"}`, ok: false},
		{name: "nothing matches", args: `{"min_hp": 9000000}`, ok: true, want: []string{`"total":0`, "relax"}},
		{name: "bad enum", args: `{"rarity": "legendaryy"}`, ok: false},
		{name: "bad sort", args: `{"sort_by": "name; DROP TABLE champions"}`, ok: false},
		{name: "limit too big", args: `{"limit": 51}`, ok: false},
		{name: "limit zero", args: `{"limit": 0}`, ok: false},
		{name: "negative stat", args: `{"min_hp": -1}`, ok: false},
		{name: "wrong stat type", args: `{"min_hp": "100"}`, ok: false},
		{name: "unknown filter", args: `{"color": "red"}`, ok: false},
		{name: "injection faction", args: `{"faction": "' OR '1'='1"}`, ok: false},
		{name: "100 KB faction", args: `{"faction": "` + strings.Repeat("x", 100*1024) + `"}`, ok: false},
	}
	run(t, ex, withTool("gcs_find_champions", tests))
}

func TestCompareCharacters(t *testing.T) {
	ex := newExecutor(t, gcsdbtest.Open(t, gcsdbtest.Game()))
	tests := []tcase{
		{
			name: "two", args: `{"names": ["Kaelith", "mirelle"]}`, ok: true,
			want: []string{`"atk":"Kaelith"`, `"hp":"Mirelle"`, `"spd":"Mirelle"`, "Magic has the advantage over Force", `"Solar Flare"`},
		},
		{name: "tie", args: `{"names": ["Kaelith", "Tamsin", "Mirelle"]}`, ok: true, want: []string{`"c_rate":"Kaelith"`, `"def":"Mirelle"`}},
		{name: "all tie", args: `{"names": ["Mirelle", "Éloïse"]}`, ok: true, want: []string{`"c_dmg":"tie"`}},
		{name: "void is neutral", args: `{"names": ["Grimvar", "Kaelith"]}`, ok: true, want: []string{"neutral (Void vs Force)"}},
		{name: "duplicate names", args: `{"names": ["Kaelith", "KAELITH"]}`, ok: false, want: []string{"same champion"}},
		{name: "unknown name", args: `{"names": ["Kaelith", "Mirele"]}`, ok: false, want: []string{"Mirelle"}},
		{name: "one name", args: `{"names": ["Kaelith"]}`, ok: false},
		{name: "six names", args: `{"names": ["a", "b", "c", "d", "e", "f"]}`, ok: false},
		{name: "not an array", args: `{"names": "Kaelith, Mirelle"}`, ok: false},
		{name: "empty entry", args: `{"names": ["Kaelith", ""]}`, ok: false},
		{name: "injection", args: `{"names": ["Kaelith", "'; DROP TABLE champions; --"]}`, ok: false},
		{name: "100 KB", args: `{"names": ["Kaelith", "` + strings.Repeat("é", 50*1024) + `"]}`, ok: false},
		{name: "missing", args: `{}`, ok: false},
	}
	run(t, ex, withTool("gcs_compare_characters", tests))
}

func TestEntityTools(t *testing.T) {
	ex := newExecutor(t, gcsdbtest.Open(t, gcsdbtest.Game()))
	tests := []tcase{
		{
			name: "boss by name", tool: "gcs_get_boss_details", args: `{"boss_name": "drowned king"}`, ok: true,
			want: []string{`"id":5001`, `"Undertow"`, `"decrease_def"`, `"stun"`, `"Sunken Halls"`, `"rank":1`, "Grimvar", "Cleanses debuffs"},
		},
		{name: "boss by id", tool: "gcs_get_boss_details", args: `{"boss_id": 5002}`, ok: true, want: []string{"Ember Wyrm", "Mirelle"}},
		{name: "boss by german name", tool: "gcs_get_boss_details", args: `{"boss_name": "Glutwurm"}`, ok: true, want: []string{`"id":5002`}},
		{name: "boss both", tool: "gcs_get_boss_details", args: `{"boss_name": "x", "boss_id": 5001}`, ok: false},
		{name: "boss none", tool: "gcs_get_boss_details", args: `{}`, ok: false},
		{name: "boss unknown id", tool: "gcs_get_boss_details", args: `{"boss_id": 1001}`, ok: false, want: []string{"No boss has id 1001"}},
		{name: "boss did you mean", tool: "gcs_get_boss_details", args: `{"boss_name": "Drowned Kong"}`, ok: false, want: []string{"Drowned King"}},
		{
			name: "counters", tool: "gcs_find_counters_for_boss", args: `{"boss_name": "Drowned King"}`, ok: true,
			want: []string{`"counters":[{"id":1001`, "recommended counter #1", "recommended counter #2", "strong against Drowned King", "Poison (boss weakness)", "immune to Stun", "Force is weak against Magic"},
		},
		{
			name: "counters by id with limit", tool: "gcs_find_counters_for_boss", args: `{"boss_id": 5002, "limit": 1}`, ok: true,
			want: []string{`"total":2`, `"counters":[{"id":1002`}, notWant: []string{`"id":1003`},
		},
		{
			name: "counters affinity advantage", tool: "gcs_find_counters_for_boss", args: `{"boss_id": 5002}`, ok: true,
			want: []string{"Magic has the advantage over Force", "Spirit is weak against Force"},
		},
		{name: "counters no boss", tool: "gcs_find_counters_for_boss", args: `{"limit": 3}`, ok: false},
		{name: "counters bad limit", tool: "gcs_find_counters_for_boss", args: `{"boss_id": 5001, "limit": 100}`, ok: false},
		{name: "counters unknown", tool: "gcs_find_counters_for_boss", args: `{"boss_name": "Nobody"}`, ok: false},
		{
			name: "faction", tool: "gcs_get_faction_details", args: `{"faction_name": "Sunguard"}`, ok: true,
			want: []string{`"member_count":3`, `"Aurelia"`, "Kaelith", `"fr":"Garde Solaire"`},
		},
		{name: "faction by id", tool: "gcs_get_faction_details", args: `{"faction_id": 102}`, ok: true, want: []string{"Hollow Court", "Grimvar"}},
		{name: "faction unknown id", tool: "gcs_get_faction_details", args: `{"faction_id": 999}`, ok: false},
		{
			name: "dungeon", tool: "gcs_get_dungeon_details", args: `{"dungeon_name": "sunken halls"}`, ok: true,
			want: []string{`"stages":20`, `"energy_cost":16`, "Drowned King", "Savage", "Bulwark"},
		},
		{name: "dungeon by id", tool: "gcs_get_dungeon_details", args: `{"dungeon_id": 7002}`, ok: true, want: []string{"Ash Peak", "Grace"}},
		{name: "dungeon unknown", tool: "gcs_get_dungeon_details", args: `{"dungeon_name": "Sunken Hall"}`, ok: false, want: []string{"Sunken Halls"}},
		{
			name: "gear set", tool: "gcs_get_gear_set_details", args: `{"gear_set_name": "savage"}`, ok: true,
			want: []string{`"pieces":4`, "ATK +15%", "Sunken Halls"},
		},
		{name: "gear set french", tool: "gcs_get_gear_set_details", args: `{"gear_set_name": "GRÂCE"}`, ok: true, want: []string{`"id":8003`}},
		{name: "gear set by id", tool: "gcs_get_gear_set_details", args: `{"gear_set_id": 8002}`, ok: true, want: []string{"Bulwark"}},
		{
			name: "mastery", tool: "gcs_get_mastery_details", args: `{"mastery_name": "Blade Disciple"}`, ok: true,
			want: []string{`"tree":"Offense"`, "+8% damage"},
		},
		{name: "mastery by id", tool: "gcs_get_mastery_details", args: `{"mastery_id": 9002}`, ok: true, want: []string{"Iron Skin"}},
		{name: "mastery unknown", tool: "gcs_get_mastery_details", args: `{"mastery_name": "Iron Skn"}`, ok: false, want: []string{"Iron Skin"}},
	}
	run(t, ex, tests)
	for tl, field := range map[string]string{
		"gcs_get_boss_details": "boss_name", "gcs_find_counters_for_boss": "boss_name", "gcs_get_faction_details": "faction_name",
		"gcs_get_dungeon_details": "dungeon_name", "gcs_get_gear_set_details": "gear_set_name", "gcs_get_mastery_details": "mastery_name",
	} {
		run(t, ex, withTool(tl, hostile(field)))
	}
}

func TestToolsLeaveDatabaseIntact(t *testing.T) {
	path := gcsdbtest.Prepare(t, gcsdbtest.Game())
	ro, err := gcsdb.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ex := newExecutor(t, ro)
	for _, c := range hostile("champion_name") {
		ex.Execute(context.Background(), tool.Call{Name: "gcs_get_champion_details", Arguments: json.RawMessage(c.args)})
	}
	var n int
	if err := ro.QueryRow(`SELECT count(*) FROM champions`).Scan(&n); err != nil || n != 5 {
		t.Fatalf("champions = %d, %v after hostile calls", n, err)
	}
}

func TestClosedDatabaseIsABackendFailure(t *testing.T) {
	db := gcsdbtest.Open(t, gcsdbtest.Game())
	tools, err := toolsgcs.New(db, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	calls := map[string]string{
		"gcs_get_champion_details": `{"champion_name": "Kaelith"}`, "gcs_get_character_details_by_id": `{"character_id": 1001}`,
		"gcs_find_champions": `{}`, "gcs_compare_characters": `{"names": ["Kaelith", "Mirelle"]}`,
		"gcs_get_boss_details": `{"boss_id": 5001}`, "gcs_find_counters_for_boss": `{"boss_id": 5001}`,
		"gcs_get_faction_details": `{"faction_id": 101}`, "gcs_list_champions_by_faction": `{"faction_name": "Sunguard"}`,
		"gcs_get_dungeon_details": `{"dungeon_id": 7001}`, "gcs_get_gear_set_details": `{"gear_set_id": 8001}`,
		"gcs_get_mastery_details": `{"mastery_id": 9001}`, "gcs_recommend_gear": `{"champion_name": "Kaelith"}`,
		"gcs_find_champions_by_effect": `{"effect": "stun"}`, "gcs_get_champion_skills": `{"champion_name": "Kaelith"}`,
		"gcs_db_tables": `{}`, "gcs_db_schema": `{"tables": ["champions"]}`, "gcs_db_query": `{"sql": "SELECT 1"}`,
	}
	if len(calls) != len(tools) {
		t.Fatalf("test covers %d tools, New returns %d", len(calls), len(tools))
	}
	for _, tl := range tools {
		name := tl.Spec().Name
		t.Run(name, func(t *testing.T) {
			args, ok := calls[name]
			if !ok {
				t.Fatalf("no call for %s", name)
			}
			if _, err := tl.Call(context.Background(), json.RawMessage(args)); err == nil {
				t.Fatal("call on a closed database returned no error")
			}
		})
	}
}

// TestLargeGame checks ordering and limits over many champions.
func TestLargeGame(t *testing.T) {
	g := gcsdbtest.Game()
	for i := range 120 {
		c := g.Champions[i%len(g.Champions)]
		c.ID = 1100 + i
		c.Key = c.Key + "_" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + string(rune('a'+i/26))
		c.Name = c.Name + " " + c.Key
		c.Names = gamedata.Names{"en": c.Name}
		c.Stats.SPD = 90 + i
		g.Champions = append(g.Champions, c)
	}
	ex := newExecutor(t, gcsdbtest.Open(t, g))
	run(t, ex, []tcase{
		{
			name: "limit 50", tool: "gcs_find_champions", args: `{"limit": 50, "sort_by": "spd"}`, ok: true,
			want: []string{`"total":125`, `"returned":50`, `"spd":209`},
		},
		{name: "effect limit", tool: "gcs_find_champions_by_effect", args: `{"effect": "stun", "limit": 5}`, ok: true, want: []string{`"total":25`}},
	})
}

func TestCountersFollowDataChanges(t *testing.T) {
	ctx := context.Background()
	path := gcsdbtest.Prepare(t, gcsdbtest.Game())
	ro, err := gcsdb.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ex := newExecutor(t, ro)
	changed := gcsdbtest.Game()
	changed.Bosses[0].RecommendedCounters = []int{1005}
	changed.Bosses[0].Weaknesses = nil
	changed.Champions[0].StrongAgainst = nil
	steps := []struct {
		name  string
		game  *gamedata.Game
		first string
	}{
		{"initial", nil, `"counters":[{"id":1001`},
		{"memoized", nil, `"counters":[{"id":1001`},
		{"after reload", &changed, `"counters":[{"id":1005`},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.game != nil {
				if _, err := gcsdb.Prepare(ctx, path, *st.game, slog.New(slog.DiscardHandler)); err != nil {
					t.Fatal(err)
				}
			}
			r := ex.Execute(ctx, tool.Call{Name: "gcs_find_counters_for_boss", Arguments: json.RawMessage(`{"boss_id": 5001}`)})
			if out := r.ForLLM(); !strings.Contains(out, st.first) {
				t.Fatalf("want %s in %s", st.first, out)
			}
		})
	}
}
