package gcsdb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// Stats are a champion's base stats.
type Stats struct {
	HP    int `json:"hp"`
	ATK   int `json:"atk"`
	DEF   int `json:"def"`
	SPD   int `json:"spd"`
	CRate int `json:"c_rate"`
	CDmg  int `json:"c_dmg"`
	RES   int `json:"res"`
	ACC   int `json:"acc"`
}

// StatKeys names the stats in display order.
func StatKeys() []string { return []string{"hp", "atk", "def", "spd", "c_rate", "c_dmg", "res", "acc"} }

// Get returns the stat named key (see StatKeys), 0 for an unknown key.
func (s Stats) Get(key string) int {
	switch key {
	case "hp":
		return s.HP
	case "atk":
		return s.ATK
	case "def":
		return s.DEF
	case "spd":
		return s.SPD
	case "c_rate":
		return s.CRate
	case "c_dmg":
		return s.CDmg
	case "res":
		return s.RES
	case "acc":
		return s.ACC
	}
	return 0
}

// Skill is one skill of a champion.
type Skill struct {
	Slot        int      `json:"slot"`
	Name        string   `json:"name"`
	Cooldown    int      `json:"cooldown"`
	Description string   `json:"description,omitempty"`
	Effects     []string `json:"effects"`
}

// Champion is the full view of one champion.
type Champion struct {
	ID                 int64             `json:"id"`
	Name               string            `json:"name"`
	Names              map[string]string `json:"names,omitempty"`
	Faction            Ref               `json:"faction"`
	Rarity             string            `json:"rarity"`
	Affinity           string            `json:"affinity"`
	Role               string            `json:"role"`
	Stats              Stats             `json:"stats"`
	Skills             []Skill           `json:"skills"`
	StrongAgainst      []Ref             `json:"strong_against"`
	RecommendedAgainst []Ref             `json:"recommended_against"`
	Tags               []string          `json:"tags,omitempty"`
	Lore               string            `json:"lore,omitempty"`
}

// ChampionSummary is the short view used in lists.
type ChampionSummary struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Faction  string `json:"faction"`
	Rarity   string `json:"rarity"`
	Affinity string `json:"affinity"`
	Role     string `json:"role"`
	Stats    *Stats `json:"stats,omitempty"`
}

// maxLoreRunes bounds the lore a champion view carries.
const maxLoreRunes = 600

// Champion reads one champion; ok is false when no champion has id. A
// champion's view is read from the database once per data version (the
// version is checked on every call); each call gets its own copy.
func (g *Game) Champion(ctx context.Context, id int64) (Champion, bool, error) {
	v, err := g.View(ctx)
	if err != nil {
		return Champion{}, false, err
	}
	return v.Champion(ctx, id)
}

// Champion is Game.Champion as of the view's data version: the view kept
// for it, or one read now and kept while the version is still current.
func (v View) Champion(ctx context.Context, id int64) (Champion, bool, error) {
	g := v.g
	g.mu.Lock()
	var c Champion
	ok := false
	if g.version == v.version {
		c, ok = g.champions[id]
	}
	g.mu.Unlock()
	if ok {
		return c.clone(), true, nil
	}
	c, ok, err := g.readChampion(ctx, id)
	if err != nil || !ok {
		return c, ok, err
	}
	g.mu.Lock()
	// A view read while another call saw a new version is not kept: it
	// may be of the old data.
	if g.version == v.version && g.champions != nil && len(g.champions) < maxChampionViews {
		g.champions[id] = c.clone()
	}
	g.mu.Unlock()
	return c, true, nil
}

// clone returns a copy of c that shares nothing mutable with it.
func (c Champion) clone() Champion {
	c.Names = maps.Clone(c.Names)
	c.StrongAgainst = slices.Clone(c.StrongAgainst)
	c.RecommendedAgainst = slices.Clone(c.RecommendedAgainst)
	c.Tags = slices.Clone(c.Tags)
	skills := slices.Clone(c.Skills)
	for i := range skills {
		skills[i].Effects = slices.Clone(skills[i].Effects)
	}
	c.Skills = skills
	return c
}

// readChampion reads one champion from the database.
func (g *Game) readChampion(ctx context.Context, id int64) (c Champion, ok bool, err error) {
	s := &c.Stats
	err = g.db.QueryRowContext(ctx, `SELECT c.id, c.name, c.rarity, c.affinity, c.role, c.hp, c.atk, c.def, c.spd,
		c.c_rate, c.c_dmg, c.res, c.acc, c.lore, f.id, f.name
		FROM champions c JOIN factions f ON f.id = c.faction_id WHERE c.id = ?`, id).
		Scan(&c.ID, &c.Name, &c.Rarity, &c.Affinity, &c.Role, &s.HP, &s.ATK, &s.DEF, &s.SPD,
			&s.CRate, &s.CDmg, &s.RES, &s.ACC, &c.Lore, &c.Faction.ID, &c.Faction.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("gcsdb: champion %d: %w", id, err)
	}
	c.Lore = tool.Clip(c.Lore, maxLoreRunes)
	if c.Skills, err = g.Skills(ctx, id); err != nil {
		return c, false, err
	}
	rows, err := g.db.QueryContext(ctx, `
		SELECT 's', b.id, b.name FROM champion_strong_against sa JOIN bosses b ON b.id = sa.boss_id WHERE sa.champion_id = ?1
		UNION ALL SELECT 'r', b.id, b.name FROM boss_counters bc JOIN bosses b ON b.id = bc.boss_id WHERE bc.champion_id = ?1
		UNION ALL SELECT 't', 0, tag FROM champion_tags WHERE champion_id = ?1
		UNION ALL SELECT 'n:' || locale, 0, name FROM display_names WHERE entity_id = ?1`, id)
	if err != nil {
		return c, false, fmt.Errorf("gcsdb: champion %d relations: %w", id, err)
	}
	defer rows.Close()
	c.StrongAgainst, c.RecommendedAgainst, c.Names = []Ref{}, []Ref{}, map[string]string{}
	for rows.Next() {
		var k, name string
		var rid int64
		if err := rows.Scan(&k, &rid, &name); err != nil {
			return c, false, fmt.Errorf("gcsdb: champion %d relations: %w", id, err)
		}
		switch {
		case k == "s":
			c.StrongAgainst = append(c.StrongAgainst, Ref{rid, name})
		case k == "r":
			c.RecommendedAgainst = append(c.RecommendedAgainst, Ref{rid, name})
		case k == "t":
			c.Tags = append(c.Tags, name)
		case strings.HasPrefix(k, "n:"):
			c.Names[k[2:]] = name
		}
	}
	if err := rows.Err(); err != nil {
		return c, false, fmt.Errorf("gcsdb: champion %d relations: %w", id, err)
	}
	byID := func(rs []Ref) func(i, j int) bool { return func(i, j int) bool { return rs[i].ID < rs[j].ID } }
	sort.Slice(c.StrongAgainst, byID(c.StrongAgainst))
	sort.Slice(c.RecommendedAgainst, byID(c.RecommendedAgainst))
	sort.Strings(c.Tags)
	return c, true, nil
}

// Skills reads a champion's skills in slot order, effects sorted.
func (g *Game) Skills(ctx context.Context, id int64) ([]Skill, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT s.slot, s.name, s.cooldown, s.description,
		coalesce((SELECT group_concat(e.effect, ',') FROM skill_effects e WHERE e.champion_id = s.champion_id AND e.slot = s.slot), '')
		FROM champion_skills s WHERE s.champion_id = ? ORDER BY s.slot`, id)
	if err != nil {
		return nil, fmt.Errorf("gcsdb: skills of %d: %w", id, err)
	}
	defer rows.Close()
	out := []Skill{}
	for rows.Next() {
		var sk Skill
		var effects string
		if err := rows.Scan(&sk.Slot, &sk.Name, &sk.Cooldown, &sk.Description, &effects); err != nil {
			return nil, fmt.Errorf("gcsdb: skills of %d: %w", id, err)
		}
		sk.Effects = []string{}
		if effects != "" {
			sk.Effects = strings.Split(effects, ",")
			sort.Strings(sk.Effects)
		}
		out = append(out, sk)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gcsdb: skills of %d: %w", id, err)
	}
	return out, nil
}

// ChampionName returns a champion's name and role.
func (g *Game) ChampionName(ctx context.Context, id int64) (name, role string, err error) {
	if err := g.db.QueryRowContext(ctx, `SELECT name, role FROM champions WHERE id = ?`, id).Scan(&name, &role); err != nil {
		return "", "", fmt.Errorf("gcsdb: champion %d: %w", id, err)
	}
	return name, role, nil
}

// rarityRankSQL orders rarities from Legendary (5) down to Common (1) in SQL,
// as gamedata.RarityRank does in Go.
const rarityRankSQL = `CASE c.rarity WHEN 'Legendary' THEN 5 WHEN 'Epic' THEN 4 WHEN 'Rare' THEN 3 WHEN 'Uncommon' THEN 2 WHEN 'Common' THEN 1 ELSE 0 END`

// SortKeys are the orders FindChampions accepts.
func SortKeys() []string {
	return []string{"name", "rarity", "hp", "atk", "def", "spd", "c_rate", "c_dmg", "res", "acc"}
}

// sortColumns gives each sort key its ORDER BY: [0] the search's own
// order (name A to Z, rarest first, a stat's highest first), [1] its
// reverse (ChampionFilter.LowestFirst).
func sortColumns() map[string][2]string {
	m := map[string][2]string{
		"name":   {"c.name COLLATE NOCASE ASC", "c.name COLLATE NOCASE DESC"},
		"rarity": {rarityRankSQL + " DESC, c.name COLLATE NOCASE ASC", rarityRankSQL + " ASC, c.name COLLATE NOCASE ASC"},
	}
	for _, k := range StatKeys() {
		// k comes from StatKeys, a fixed list of column names.
		m[k] = [2]string{"c." + k + " DESC", "c." + k + " ASC"}
	}
	return m
}

// ChampionFilter is a filtered champion search; nil fields do not filter.
type ChampionFilter struct {
	FactionID              *int64
	Rarity, Affinity, Role *string
	MinStats               map[string]int64 // by StatKeys key
	SortBy                 string           // a SortKeys value; "" means rarity
	// LowestFirst reverses SortBy's order: a stat's lowest first (the
	// slowest for "spd"), the commonest first, names Z to A.
	LowestFirst bool
	Limit       int
	// IDs, when not nil, keeps only these champions (the player's roster);
	// an empty non-nil list matches none.
	IDs []int64
}

// ErrBadSort means a sort key outside SortKeys.
var ErrBadSort = errors.New("gcsdb: unknown sort key")

// FindChampions runs a filtered search and returns one page with the total.
func (g *Game) FindChampions(ctx context.Context, f ChampionFilter) ([]ChampionSummary, int, error) {
	var where []string
	var params []any
	if f.FactionID != nil {
		where = append(where, "c.faction_id = ?")
		params = append(params, *f.FactionID)
	}
	for _, x := range []struct {
		col string
		v   *string
	}{{"c.rarity", f.Rarity}, {"c.affinity", f.Affinity}, {"c.role", f.Role}} {
		if x.v != nil {
			where = append(where, "lower("+x.col+") = lower(?)")
			params = append(params, *x.v)
		}
	}
	for _, k := range StatKeys() {
		if v, ok := f.MinStats[k]; ok {
			// k comes from StatKeys, a fixed list of column names.
			where = append(where, "c."+k+" >= ?")
			params = append(params, v)
		}
	}
	if f.IDs != nil {
		ids, err := json.Marshal(f.IDs)
		if err != nil {
			return nil, 0, fmt.Errorf("gcsdb: find champions: %w", err)
		}
		where = append(where, "c.id IN (SELECT value FROM json_each(?))")
		params = append(params, string(ids))
	}
	sortBy := f.SortBy
	if sortBy == "" {
		sortBy = "rarity"
	}
	orders, ok := sortColumns()[sortBy]
	if !ok {
		return nil, 0, fmt.Errorf("%w %q", ErrBadSort, sortBy)
	}
	order := orders[0]
	if f.LowestFirst {
		order = orders[1]
	}
	q := `SELECT c.id, c.name, f.name, c.rarity, c.affinity, c.role, c.hp, c.atk, c.def, c.spd, c.c_rate, c.c_dmg, c.res, c.acc,
		count(*) OVER () FROM champions c JOIN factions f ON f.id = c.faction_id`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY " + order + ", c.id LIMIT ?"
	params = append(params, f.Limit)
	rows, err := g.db.QueryContext(ctx, q, params...)
	if err != nil {
		return nil, 0, fmt.Errorf("gcsdb: find champions: %w", err)
	}
	defer rows.Close()
	list := []ChampionSummary{}
	total := 0
	for rows.Next() {
		var c ChampionSummary
		var s Stats
		if err := rows.Scan(&c.ID, &c.Name, &c.Faction, &c.Rarity, &c.Affinity, &c.Role,
			&s.HP, &s.ATK, &s.DEF, &s.SPD, &s.CRate, &s.CDmg, &s.RES, &s.ACC, &total); err != nil {
			return nil, 0, fmt.Errorf("gcsdb: find champions: %w", err)
		}
		c.Stats = &s
		list = append(list, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("gcsdb: find champions: %w", err)
	}
	return list, total, nil
}

// Members lists a faction's champions, optionally of one rarity, highest
// rarity first.
func (g *Game) Members(ctx context.Context, factionID int64, rarity *string) ([]ChampionSummary, error) {
	q := `SELECT c.id, c.name, f.name, c.rarity, c.affinity, c.role FROM champions c JOIN factions f ON f.id = c.faction_id
		WHERE c.faction_id = ?`
	params := []any{factionID}
	if rarity != nil {
		q += ` AND lower(c.rarity) = lower(?)`
		params = append(params, *rarity)
	}
	q += ` ORDER BY ` + rarityRankSQL + ` DESC, c.name`
	rows, err := g.db.QueryContext(ctx, q, params...)
	if err != nil {
		return nil, fmt.Errorf("gcsdb: faction members: %w", err)
	}
	defer rows.Close()
	out := []ChampionSummary{}
	for rows.Next() {
		var c ChampionSummary
		if err := rows.Scan(&c.ID, &c.Name, &c.Faction, &c.Rarity, &c.Affinity, &c.Role); err != nil {
			return nil, fmt.Errorf("gcsdb: faction members: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gcsdb: faction members: %w", err)
	}
	return out, nil
}

// EffectHit is a champion whose skills apply an effect.
type EffectHit struct {
	ChampionSummary
	// Skills names the skills applying it, " / " separated.
	Skills string `json:"skills"`
}

// ChampionsByEffect lists champions whose skills apply effect (normalized,
// e.g. "decrease_def"), highest rarity first, with the total.
func (g *Game) ChampionsByEffect(ctx context.Context, effect string, limit int) ([]EffectHit, int, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT c.id, c.name, f.name, c.rarity, c.affinity, c.role,
		group_concat(s.name, ' / '), count(*) OVER ()
		FROM skill_effects e JOIN champions c ON c.id = e.champion_id JOIN factions f ON f.id = c.faction_id
		JOIN champion_skills s ON s.champion_id = e.champion_id AND s.slot = e.slot
		WHERE e.effect = ? GROUP BY c.id ORDER BY `+rarityRankSQL+` DESC, c.name LIMIT ?`, effect, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("gcsdb: champions by effect: %w", err)
	}
	defer rows.Close()
	list := []EffectHit{}
	total := 0
	for rows.Next() {
		var h EffectHit
		if err := rows.Scan(&h.ID, &h.Name, &h.Faction, &h.Rarity, &h.Affinity, &h.Role, &h.Skills, &total); err != nil {
			return nil, 0, fmt.Errorf("gcsdb: champions by effect: %w", err)
		}
		list = append(list, h)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("gcsdb: champions by effect: %w", err)
	}
	return list, total, nil
}

// Effects lists every effect some skill applies.
func (g *Game) Effects(ctx context.Context) ([]string, error) {
	return g.strs(ctx, "effects", `SELECT DISTINCT effect FROM skill_effects ORDER BY effect`)
}
