// Package toolsgcs holds the gcs_* tools: exact game data (champions,
// bosses, factions, dungeons, gear, masteries) read from the GCS SQLite
// database through a read-only handle, and the read-only SQL introspection
// tools (gcs_db_tables, gcs_db_schema, gcs_db_query).
package toolsgcs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-sqlite3"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/schemas"
	"github.com/gameassist/gameassist/tool"
)

// New returns every gcs_* tool over db, which must be the read-only handle
// from gcsdb.OpenReadOnly.
func New(db *sql.DB, logger *slog.Logger) ([]tool.Tool, error) {
	if db == nil {
		return nil, errors.New("toolsgcs: nil db")
	}
	if logger == nil {
		return nil, errors.New("toolsgcs: nil logger")
	}
	makers := []func(base) tool.Tool{
		func(b base) tool.Tool { return &ChampionDetails{b} },
		func(b base) tool.Tool { return &CharacterDetailsByID{b} },
		func(b base) tool.Tool { return &FindChampions{b} },
		func(b base) tool.Tool { return &CompareCharacters{b} },
		func(b base) tool.Tool { return &ChampionSkills{b} },
		func(b base) tool.Tool { return &BossDetails{b} },
		func(b base) tool.Tool { return &CountersForBoss{base: b} },
		func(b base) tool.Tool { return &FactionDetails{b} },
		func(b base) tool.Tool { return &ChampionsByFaction{b} },
		func(b base) tool.Tool { return &DungeonDetails{b} },
		func(b base) tool.Tool { return &GearSetDetails{b} },
		func(b base) tool.Tool { return &MasteryDetails{b} },
		func(b base) tool.Tool { return &RecommendGear{b} },
		func(b base) tool.Tool { return &ChampionsByEffect{b} },
		func(b base) tool.Tool { return &DBTables{b} },
		func(b base) tool.Tool { return &DBSchema{b} },
		func(b base) tool.Tool {
			return &DBQuery{base: b, queryTimeout: defaultQueryTimeout, rowCap: defaultRowCap}
		},
	}
	specs := specTable()
	out := make([]tool.Tool, 0, len(makers))
	shared := newStmtDB(db)
	for _, mk := range makers {
		t := mk(base{db: shared, log: logger})
		name := t.(named).toolName()
		s, ok := specs[name]
		if !ok {
			return nil, fmt.Errorf("toolsgcs: no spec for %s", name)
		}
		params, err := schemas.Tool(name)
		if err != nil {
			return nil, fmt.Errorf("toolsgcs: %w", err)
		}
		s.Name = name
		s.Parameters = params
		t.(specSetter).setSpec(s)
		out = append(out, t)
	}
	return out, nil
}

// named and specSetter let New fill each tool's spec from one table.
type named interface{ toolName() string }

type specSetter interface{ setSpec(tool.Spec) }

// base carries what every gcs tool needs.
type base struct {
	db   *stmtDB
	log  *slog.Logger
	spec tool.Spec
}

// Spec describes the tool to the registry and the LLM.
func (b *base) Spec() tool.Spec { return b.spec }

func (b *base) setSpec(s tool.Spec) { b.spec = s }

// specTable holds the descriptions, categories and cache durations.
func specTable() map[string]tool.Spec {
	gcs := func(desc string, cache int) tool.Spec {
		return tool.Spec{Description: desc, Category: tool.CategoryGCS, CacheDuration: cache}
	}
	sqlSpec := func(desc string) tool.Spec {
		return tool.Spec{Description: desc, Category: tool.CategorySQL}
	}
	return map[string]tool.Spec{
		"gcs_get_champion_details": gcs("Exact data of one champion by name: faction, rarity, affinity, role, base stats, skills with effects, "+
			"bosses it is strong against, display names. Use for any question about a named champion's stats or kit.", 3),
		"gcs_get_character_details_by_id": gcs("Exact data of one champion by config id (the id the game client shows, 1001-1999); "+
			"same data as gcs_get_champion_details.", 3),
		"gcs_find_champions": gcs("Search champions by faction, rarity, affinity, role and minimum base stats, sorted by a stat. "+
			"Use for questions like 'fastest Legendary Support' or 'Force champions with over 1500 ATK'.", 0),
		"gcs_compare_characters":  gcs("Compare 2-5 champions side by side: stats, who wins each stat, skill summaries and affinity matchups.", 0),
		"gcs_get_champion_skills": gcs("The skills of one champion by name: slot, cooldown, description and effects.", 0),
		"gcs_get_boss_details": gcs("Exact data of one boss by name or id: affinity, HP, difficulty, phases, mechanics, weaknesses, "+
			"immunities, its dungeon and recommended counters.", 0),
		"gcs_find_counters_for_boss": gcs("Champions that counter a boss (by name or id), ranked, each with the reason: recommended counter, "+
			"strong against it, skills applying its weaknesses, affinity advantage.", 0),
		"gcs_get_faction_details":       gcs("One faction by name or id: alignment, homeland, description and its member champions.", 0),
		"gcs_list_champions_by_faction": gcs("The champions of one faction by faction name, optionally of one rarity.", 0),
		"gcs_get_dungeon_details":       gcs("One dungeon or campaign area by name or id: kind, stages, energy cost, boss and the gear sets it drops.", 0),
		"gcs_get_gear_set_details":      gcs("One gear set by name or id: pieces, set bonus, stat bonus, the role it suits and where it drops.", 0),
		"gcs_get_mastery_details":       gcs("One mastery by name or id: tree, tier, effect and the other masteries of its tree.", 0),
		"gcs_recommend_gear":            gcs("Gear sets that suit one champion (by name), each with the reason and where to farm it.", 0),
		"gcs_find_champions_by_effect":  gcs("Champions whose skills apply an effect such as decrease_def, stun, heal or poison.", 0),
		"gcs_db_tables":                 sqlSpec("List the tables of the GCS game database with their row counts, optionally filtered by name."),
		"gcs_db_schema":                 sqlSpec("Columns of GCS database tables: type, primary key, nullability and foreign keys (column -> table.column)."),
		"gcs_db_query": sqlSpec("Run one read-only SELECT on the GCS game database with named parameters (:name). " +
			"Returns at most 50 rows in a numbered vertical format. Check gcs_db_schema first."),
	}
}

// backendErr wraps a database failure; busy and locked are worth a retry.
func backendErr(op string, err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked) {
		return tool.Transient(fmt.Errorf("toolsgcs: %s: %w", op, err))
	}
	return fmt.Errorf("toolsgcs: %s: %w", op, err)
}

// clipRunes shortens s to at most n runes, marking the cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// quoted renders user text for a message: clipped and quoted.
func quoted(s string) string { return fmt.Sprintf("%q", clipRunes(s, 60)) }

// Ref names another entity.
type Ref struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// kind names an entity table for lookups by name; table is never user input.
type kind struct {
	table    string
	noun     string
	listHint string
}

func kindChampion() kind { return kind{"champions", "champion", "cache_get_champions_list"} }
func kindBoss() kind     { return kind{"bosses", "boss", "cache_get_bosses_list"} }
func kindFaction() kind  { return kind{"factions", "faction", "cache_get_factions_list"} }
func kindDungeon() kind  { return kind{"dungeons", "dungeon", "cache_get_dungeons_list"} }
func kindGearSet() kind  { return kind{"gear_sets", "gear set", "cache_get_gear_sets_list"} }
func kindMastery() kind  { return kind{"masteries", "mastery", "gcs_db_query"} }

// resolve finds the id of the entity of kind k called name in any locale
// (case-insensitive). When none matches it returns 0 and up to three close
// names to suggest.
func (b *base) resolve(ctx context.Context, k kind, name string) (int64, []string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return 0, nil, nil
	}
	var id int64
	err := b.db.QueryRowContext(ctx, `SELECT id FROM `+k.table+` WHERE lower(name) = lower(?1)
		UNION ALL SELECT id FROM `+k.table+` WHERE key = ?2 LIMIT 1`, name, strings.ToLower(name)).Scan(&id)
	if err == nil {
		return id, nil, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, nil, backendErr("resolve "+k.noun, err)
	}
	err = b.db.QueryRowContext(ctx, `SELECT t.id FROM display_names d JOIN `+k.table+` t ON t.id = d.entity_id
		WHERE lower(d.name) = lower(?) ORDER BY d.locale = 'en' DESC, t.id LIMIT 1`, name).Scan(&id)
	if err == nil {
		return id, nil, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, nil, backendErr("resolve "+k.noun, err)
	}
	return b.fuzzy(ctx, k, name)
}

// fuzzy matches name against every name of kind k with Unicode case folding
// (SQLite's lower() folds ASCII only) and otherwise ranks suggestions.
func (b *base) fuzzy(ctx context.Context, k kind, name string) (int64, []string, error) {
	rows, err := b.db.QueryContext(ctx, `SELECT t.id, t.name, coalesce(d.name, t.name) FROM `+k.table+` t
		LEFT JOIN display_names d ON d.entity_id = t.id`)
	if err != nil {
		return 0, nil, backendErr("list "+k.noun+" names", err)
	}
	defer rows.Close()
	type cand struct {
		canonical string
		d         int
	}
	best := map[string]int{}
	q := strings.ToLower(clipRunes(name, 100))
	for rows.Next() {
		var id int64
		var canonical, alias string
		if err := rows.Scan(&id, &canonical, &alias); err != nil {
			return 0, nil, backendErr("list "+k.noun+" names", err)
		}
		if strings.EqualFold(alias, name) || strings.EqualFold(canonical, name) {
			return id, nil, nil
		}
		a := strings.ToLower(alias)
		d := tool.Levenshtein(q, a)
		if strings.HasPrefix(a, q) || (len(q) >= 3 && strings.Contains(a, q)) {
			d = d / 3
		}
		if old, ok := best[canonical]; !ok || d < old {
			best[canonical] = d
		}
	}
	if err := rows.Err(); err != nil {
		return 0, nil, backendErr("list "+k.noun+" names", err)
	}
	cs := make([]cand, 0, len(best))
	for n, d := range best {
		cs = append(cs, cand{n, d})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].canonical < cs[j].canonical
	})
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].canonical)
	}
	return 0, out, nil
}

// notFound is the envelope for a name that matches nothing.
func notFound(k kind, toolName, name string, suggestions []string) tool.Result {
	guidance := "Check the spelling, or call " + k.listHint + " to see every " + k.noun + "."
	if len(suggestions) > 0 {
		guidance = "Did you mean: " + strings.Join(suggestions, ", ") + "? Call " + toolName +
			" again with one of these names, or call " + k.listHint + " to see every " + k.noun + "."
	}
	r := tool.Failure("No "+k.noun+" is called "+quoted(name)+".", "unknown "+k.noun+" name", guidance)
	r.Data = map[string]any{"suggestions": nonNil(suggestions)}
	return r
}

// unknownID is the envelope for an id that matches nothing.
func unknownID(k kind, id int64) tool.Result {
	return tool.Failure(fmt.Sprintf("No %s has id %d.", k.noun, id), "unknown "+k.noun+" id",
		"Check the id, or call "+k.listHint+" to see every "+k.noun+" with its id.")
}

func emptyName(toolName, field string) tool.Result {
	return tool.Failure("The "+field+" is empty.", field+" must name something",
		"Call "+toolName+" again with a non-empty "+field+".")
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// byNameOrID resolves the {x_name | x_id} argument pair shared by the
// details tools; exactly one of them is set by the schema.
func (b *base) byNameOrID(ctx context.Context, k kind, toolName string, name *string, id *int64) (int64, *tool.Result, error) {
	if id != nil {
		var found int64
		err := b.db.QueryRowContext(ctx, `SELECT id FROM `+k.table+` WHERE id = ?`, *id).Scan(&found)
		if errors.Is(err, sql.ErrNoRows) {
			r := unknownID(k, *id)
			return 0, &r, nil
		}
		if err != nil {
			return 0, nil, backendErr("find "+k.noun, err)
		}
		return found, nil, nil
	}
	if name == nil {
		r := tool.Failure("No "+k.noun+" given.", "give a name or an id",
			"Call "+toolName+" again with the "+k.noun+"'s name or its id.")
		return 0, &r, nil
	}
	if strings.TrimSpace(*name) == "" {
		r := emptyName(toolName, strings.ReplaceAll(k.noun, " ", "_")+"_name")
		return 0, &r, nil
	}
	found, sugg, err := b.resolve(ctx, k, *name)
	if err != nil {
		return 0, nil, err
	}
	if found == 0 {
		r := notFound(k, toolName, *name, sugg)
		return 0, &r, nil
	}
	return found, nil, nil
}

// names returns the display names of an entity by locale.
func (b *base) names(ctx context.Context, id int64) (map[string]string, error) {
	rows, err := b.db.QueryContext(ctx, `SELECT locale, name FROM display_names WHERE entity_id = ?`, id)
	if err != nil {
		return nil, backendErr("display names", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var l, n string
		if err := rows.Scan(&l, &n); err != nil {
			return nil, backendErr("display names", err)
		}
		out[l] = n
	}
	if err := rows.Err(); err != nil {
		return nil, backendErr("display names", err)
	}
	return out, nil
}

// refs runs a query returning (id, name) rows.
func (b *base) refs(ctx context.Context, op, query string, args ...any) ([]Ref, error) {
	rows, err := b.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, backendErr(op, err)
	}
	defer rows.Close()
	out := []Ref{}
	for rows.Next() {
		var r Ref
		if err := rows.Scan(&r.ID, &r.Name); err != nil {
			return nil, backendErr(op, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, backendErr(op, err)
	}
	return out, nil
}

// strs runs a query returning one text column.
func (b *base) strs(ctx context.Context, op, query string, args ...any) ([]string, error) {
	rows, err := b.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, backendErr(op, err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, backendErr(op, err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, backendErr(op, err)
	}
	return out, nil
}

// rarityRank orders rarities from Legendary (5) down to Common (1) in SQL.
const rarityRankSQL = `CASE c.rarity WHEN 'Legendary' THEN 5 WHEN 'Epic' THEN 4 WHEN 'Rare' THEN 3 WHEN 'Uncommon' THEN 2 WHEN 'Common' THEN 1 ELSE 0 END`

// affinityAdvantage reports whether affinity a beats b (1), loses to it
// (-1) or neither (0), by the game's rules.
func affinityAdvantage(a, b string) int { return gamedata.AffinityAdvantage(a, b) }
