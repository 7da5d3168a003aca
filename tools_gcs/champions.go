package toolsgcs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// Compile-time checks that every champion tool is a tool.Tool.
var (
	_ tool.Tool = (*ChampionDetails)(nil)
	_ tool.Tool = (*CharacterDetailsByID)(nil)
	_ tool.Tool = (*FindChampions)(nil)
	_ tool.Tool = (*CompareCharacters)(nil)
	_ tool.Tool = (*ChampionSkills)(nil)
	_ tool.Tool = (*ChampionsByFaction)(nil)
	_ tool.Tool = (*RecommendGear)(nil)
	_ tool.Tool = (*ChampionsByEffect)(nil)
)

const statsInstruction = "Quote stats, skill names and effects exactly as given; do not invent values that are not in the data."

// Stats are a champion's base stats as the tools report them.
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

// statList names the stats in display order, with accessors.
func statList() []struct {
	key string
	get func(Stats) int
} {
	return []struct {
		key string
		get func(Stats) int
	}{
		{"hp", func(s Stats) int { return s.HP }},
		{"atk", func(s Stats) int { return s.ATK }},
		{"def", func(s Stats) int { return s.DEF }},
		{"spd", func(s Stats) int { return s.SPD }},
		{"c_rate", func(s Stats) int { return s.CRate }},
		{"c_dmg", func(s Stats) int { return s.CDmg }},
		{"res", func(s Stats) int { return s.RES }},
		{"acc", func(s Stats) int { return s.ACC }},
	}
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

// loadChampion reads one champion; ok is false when the id is unknown.
func (b *base) loadChampion(ctx context.Context, id int64) (c Champion, ok bool, err error) {
	s := &c.Stats
	err = b.db.QueryRowContext(ctx, `SELECT c.id, c.name, c.rarity, c.affinity, c.role, c.hp, c.atk, c.def, c.spd,
		c.c_rate, c.c_dmg, c.res, c.acc, c.lore, f.id, f.name
		FROM champions c JOIN factions f ON f.id = c.faction_id WHERE c.id = ?`, id).
		Scan(&c.ID, &c.Name, &c.Rarity, &c.Affinity, &c.Role, &s.HP, &s.ATK, &s.DEF, &s.SPD,
			&s.CRate, &s.CDmg, &s.RES, &s.ACC, &c.Lore, &c.Faction.ID, &c.Faction.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, backendErr(fmt.Sprintf("champion %d", id), err)
	}
	c.Lore = clipRunes(c.Lore, 600)
	if c.Skills, err = b.skills(ctx, id, true); err != nil {
		return c, false, err
	}
	rows, err := b.db.QueryContext(ctx, `
		SELECT 's', b.id, b.name FROM champion_strong_against sa JOIN bosses b ON b.id = sa.boss_id WHERE sa.champion_id = ?1
		UNION ALL SELECT 'r', b.id, b.name FROM boss_counters bc JOIN bosses b ON b.id = bc.boss_id WHERE bc.champion_id = ?1
		UNION ALL SELECT 't', 0, tag FROM champion_tags WHERE champion_id = ?1
		UNION ALL SELECT 'n:' || locale, 0, name FROM display_names WHERE entity_id = ?1`, id)
	if err != nil {
		return c, false, backendErr(fmt.Sprintf("champion %d relations", id), err)
	}
	defer rows.Close()
	c.StrongAgainst, c.RecommendedAgainst, c.Names = []Ref{}, []Ref{}, map[string]string{}
	for rows.Next() {
		var k, name string
		var rid int64
		if err := rows.Scan(&k, &rid, &name); err != nil {
			return c, false, backendErr(fmt.Sprintf("champion %d relations", id), err)
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
		return c, false, backendErr(fmt.Sprintf("champion %d relations", id), err)
	}
	byID := func(rs []Ref) func(i, j int) bool { return func(i, j int) bool { return rs[i].ID < rs[j].ID } }
	sort.Slice(c.StrongAgainst, byID(c.StrongAgainst))
	sort.Slice(c.RecommendedAgainst, byID(c.RecommendedAgainst))
	sort.Strings(c.Tags)
	return c, true, nil
}

// skills reads a champion's skills in slot order.
func (b *base) skills(ctx context.Context, id int64, withDescription bool) ([]Skill, error) {
	rows, err := b.db.QueryContext(ctx, `SELECT s.slot, s.name, s.cooldown, s.description,
		coalesce((SELECT group_concat(e.effect, ',') FROM skill_effects e WHERE e.champion_id = s.champion_id AND e.slot = s.slot), '')
		FROM champion_skills s WHERE s.champion_id = ? ORDER BY s.slot`, id)
	if err != nil {
		return nil, backendErr(fmt.Sprintf("skills of %d", id), err)
	}
	defer rows.Close()
	out := []Skill{}
	for rows.Next() {
		var sk Skill
		var effects string
		if err := rows.Scan(&sk.Slot, &sk.Name, &sk.Cooldown, &sk.Description, &effects); err != nil {
			return nil, backendErr(fmt.Sprintf("skills of %d", id), err)
		}
		sk.Effects = []string{}
		if effects != "" {
			sk.Effects = strings.Split(effects, ",")
			sort.Strings(sk.Effects)
		}
		if !withDescription {
			sk.Description = ""
		}
		out = append(out, sk)
	}
	if err := rows.Err(); err != nil {
		return nil, backendErr(fmt.Sprintf("skills of %d", id), err)
	}
	return out, nil
}

// championByName resolves a champion name; r is set when the name is empty
// or unknown.
func (b *base) championByName(ctx context.Context, toolName, name string) (int64, *tool.Result, error) {
	return b.byNameOrID(ctx, kindChampion(), toolName, &name, nil)
}

// championArg reads the {"champion_name"} argument of a tool and resolves
// it; a bad argument or an unknown name is an envelope for the model.
func (b *base) championArg(ctx context.Context, args json.RawMessage) (int64, *tool.Result, error) {
	var a struct {
		ChampionName string `json:"champion_name"`
	}
	if r, ok := tool.DecodeArgs(b.spec.Name, args, &a); !ok {
		return 0, &r, nil
	}
	return b.championByName(ctx, b.spec.Name, a.ChampionName)
}

// ChampionDetails is gcs_get_champion_details: a champion by name.
type ChampionDetails struct{ base }

func (*ChampionDetails) toolName() string { return "gcs_get_champion_details" }

// Call looks the champion up by name, case-insensitively and in any locale.
func (t *ChampionDetails) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	id, r, err := t.championArg(ctx, args)
	if err != nil || r != nil {
		return deref(r), err
	}
	return t.championResult(ctx, id)
}

func deref(r *tool.Result) tool.Result {
	if r == nil {
		return tool.Result{}
	}
	return *r
}

func (b *base) championResult(ctx context.Context, id int64) (tool.Result, error) {
	c, ok, err := b.loadChampion(ctx, id)
	if err != nil {
		return tool.Result{}, err
	}
	if !ok {
		return unknownID(kindChampion(), id), nil
	}
	r := tool.Success(fmt.Sprintf("Details of %s (%s %s %s, %s).", c.Name, c.Rarity, c.Affinity, c.Role, c.Faction.Name), c)
	r.LLMInstruction = statsInstruction
	return r, nil
}

// CharacterDetailsByID is gcs_get_character_details_by_id: a champion by
// the config id the game client shows (screen rules call it).
type CharacterDetailsByID struct{ base }

func (*CharacterDetailsByID) toolName() string { return "gcs_get_character_details_by_id" }

// Call looks the champion up by id.
func (t *CharacterDetailsByID) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		CharacterID *int64 `json:"character_id"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	if a.CharacterID == nil {
		return tool.Failure("No character_id given.", "character_id is required",
			"Call "+t.spec.Name+" again with the champion's config id, e.g. 1001."), nil
	}
	return t.championResult(ctx, *a.CharacterID)
}

// ChampionSkills is gcs_get_champion_skills: the skills of a champion.
type ChampionSkills struct{ base }

func (*ChampionSkills) toolName() string { return "gcs_get_champion_skills" }

// Call returns the named champion's skills.
func (t *ChampionSkills) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	id, r, err := t.championArg(ctx, args)
	if err != nil || r != nil {
		return deref(r), err
	}
	var name string
	if err := t.db.QueryRowContext(ctx, `SELECT name FROM champions WHERE id = ?`, id).Scan(&name); err != nil {
		return tool.Result{}, backendErr(fmt.Sprintf("champion %d", id), err)
	}
	skills, err := t.skills(ctx, id, true)
	if err != nil {
		return tool.Result{}, err
	}
	res := tool.Success(fmt.Sprintf("%s has %d skills.", name, len(skills)),
		map[string]any{"id": id, "name": name, "skills": skills})
	res.LLMInstruction = statsInstruction + " Cooldown 0 means a default attack."
	return res, nil
}

// sortColumns maps sort_by values to SQL; the keys come from the schema.
func sortColumns() map[string]string {
	return map[string]string{
		"name": "c.name COLLATE NOCASE ASC", "rarity": rarityRankSQL + " DESC, c.name COLLATE NOCASE ASC",
		"hp": "c.hp DESC", "atk": "c.atk DESC", "def": "c.def DESC", "spd": "c.spd DESC",
		"c_rate": "c.c_rate DESC", "c_dmg": "c.c_dmg DESC", "res": "c.res DESC", "acc": "c.acc DESC",
	}
}

// FindChampions is gcs_find_champions: champions by filters.
type FindChampions struct{ base }

func (*FindChampions) toolName() string { return "gcs_find_champions" }

type findArgs struct {
	Faction  *string `json:"faction"`
	Rarity   *string `json:"rarity"`
	Affinity *string `json:"affinity"`
	Role     *string `json:"role"`
	MinHP    *int64  `json:"min_hp"`
	MinATK   *int64  `json:"min_atk"`
	MinDEF   *int64  `json:"min_def"`
	MinSPD   *int64  `json:"min_spd"`
	MinCRate *int64  `json:"min_c_rate"`
	MinCDmg  *int64  `json:"min_c_dmg"`
	MinRES   *int64  `json:"min_res"`
	MinACC   *int64  `json:"min_acc"`
	SortBy   *string `json:"sort_by"`
	Limit    *int    `json:"limit"`
}

// Call runs the search.
func (t *FindChampions) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a findArgs
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	var where []string
	var params []any
	if a.Faction != nil {
		fid, sugg, err := t.resolve(ctx, kindFaction(), *a.Faction)
		if err != nil {
			return tool.Result{}, err
		}
		if fid == 0 {
			return notFound(kindFaction(), t.spec.Name, *a.Faction, sugg), nil
		}
		where = append(where, "c.faction_id = ?")
		params = append(params, fid)
	}
	for _, f := range []struct {
		col string
		v   *string
	}{{"c.rarity", a.Rarity}, {"c.affinity", a.Affinity}, {"c.role", a.Role}} {
		if f.v != nil {
			where = append(where, "lower("+f.col+") = lower(?)")
			params = append(params, *f.v)
		}
	}
	for _, f := range []struct {
		col string
		v   *int64
	}{
		{"c.hp", a.MinHP},
		{"c.atk", a.MinATK},
		{"c.def", a.MinDEF},
		{"c.spd", a.MinSPD},
		{"c.c_rate", a.MinCRate},
		{"c.c_dmg", a.MinCDmg},
		{"c.res", a.MinRES},
		{"c.acc", a.MinACC},
	} {
		if f.v != nil {
			where = append(where, f.col+" >= ?")
			params = append(params, *f.v)
		}
	}
	sortBy := "rarity"
	if a.SortBy != nil {
		sortBy = *a.SortBy
	}
	order, ok := sortColumns()[sortBy]
	if !ok {
		return tool.Failure("Unknown sort_by "+quoted(sortBy)+".", "sort_by must be a stat or name or rarity",
			"Use one of: name, rarity, hp, atk, def, spd, c_rate, c_dmg, res, acc."), nil
	}
	limit := 10
	if a.Limit != nil {
		limit = *a.Limit
	}
	if limit < 1 || limit > 50 {
		return tool.Failure("limit must be between 1 and 50.", "limit out of range", "Call again with a limit from 1 to 50."), nil
	}
	q := `SELECT c.id, c.name, f.name, c.rarity, c.affinity, c.role, c.hp, c.atk, c.def, c.spd, c.c_rate, c.c_dmg, c.res, c.acc,
		count(*) OVER () FROM champions c JOIN factions f ON f.id = c.faction_id`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY " + order + ", c.id LIMIT ?"
	params = append(params, limit)
	list, total, err := t.summaries(ctx, q, params...)
	if err != nil {
		return tool.Result{}, err
	}
	data := map[string]any{"total": total, "returned": len(list), "sort_by": sortBy, "champions": list}
	if total == 0 {
		r := tool.Success("No champion matches these filters.", data)
		r.LLMInstruction = "Tell the player nothing matches and suggest relaxing a filter (for example a lower minimum stat)."
		return r, nil
	}
	r := tool.Success(fmt.Sprintf("%d champions match; showing %d sorted by %s.", total, len(list), sortBy), data)
	r.LLMInstruction = statsInstruction
	return r, nil
}

// summaries scans rows of (id, name, faction, rarity, affinity, role, 8
// stats, total).
func (b *base) summaries(ctx context.Context, q string, params ...any) ([]ChampionSummary, int, error) {
	rows, err := b.db.QueryContext(ctx, q, params...)
	if err != nil {
		return nil, 0, backendErr("find champions", err)
	}
	defer rows.Close()
	list := []ChampionSummary{}
	total := 0
	for rows.Next() {
		var c ChampionSummary
		var s Stats
		if err := rows.Scan(&c.ID, &c.Name, &c.Faction, &c.Rarity, &c.Affinity, &c.Role,
			&s.HP, &s.ATK, &s.DEF, &s.SPD, &s.CRate, &s.CDmg, &s.RES, &s.ACC, &total); err != nil {
			return nil, 0, backendErr("find champions", err)
		}
		c.Stats = &s
		list = append(list, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, backendErr("find champions", err)
	}
	return list, total, nil
}

// CompareCharacters is gcs_compare_characters: 2-5 champions side by side.
type CompareCharacters struct{ base }

func (*CompareCharacters) toolName() string { return "gcs_compare_characters" }

type compared struct {
	ID       int64   `json:"id"`
	Name     string  `json:"name"`
	Faction  string  `json:"faction"`
	Rarity   string  `json:"rarity"`
	Affinity string  `json:"affinity"`
	Role     string  `json:"role"`
	Stats    Stats   `json:"stats"`
	Skills   []Skill `json:"skills"`
}

type matchup struct {
	Attacker string `json:"attacker"`
	Defender string `json:"defender"`
	Result   string `json:"result"`
}

// Call compares the named champions.
func (t *CompareCharacters) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		Names []string `json:"names"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	if len(a.Names) < 2 || len(a.Names) > 5 {
		return tool.Failure("Give 2 to 5 champion names.", fmt.Sprintf("got %d names", len(a.Names)),
			"Call "+t.spec.Name+" again with between 2 and 5 names."), nil
	}
	var list []compared
	seen := map[int64]bool{}
	var unknown []string
	var hints []string
	for _, n := range a.Names {
		if strings.TrimSpace(n) == "" {
			return emptyName(t.spec.Name, "names entry"), nil
		}
		id, sugg, err := t.resolve(ctx, kindChampion(), n)
		if err != nil {
			return tool.Result{}, err
		}
		if id == 0 {
			unknown = append(unknown, quoted(n))
			if len(sugg) > 0 {
				hints = append(hints, quoted(n)+" → "+strings.Join(sugg, " / "))
			}
			continue
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		c, ok, err := t.loadChampion(ctx, id)
		if err != nil {
			return tool.Result{}, err
		}
		if !ok {
			continue
		}
		for i := range c.Skills {
			c.Skills[i].Description = ""
		}
		list = append(list, compared{c.ID, c.Name, c.Faction.Name, c.Rarity, c.Affinity, c.Role, c.Stats, c.Skills})
	}
	if len(unknown) > 0 {
		g := "Check the spelling or call cache_get_champions_list."
		if len(hints) > 0 {
			g = "Did you mean: " + strings.Join(hints, "; ") + "? Call " + t.spec.Name + " again with corrected names."
		}
		return tool.Failure("Unknown champion names: "+strings.Join(unknown, ", ")+".", "unknown champion name", g), nil
	}
	if len(list) < 2 {
		return tool.Failure("These names are all the same champion.", "need two different champions",
			"Call "+t.spec.Name+" again with at least two different champions."), nil
	}
	winners := map[string]string{}
	for _, st := range statList() {
		best, names := -1, []string{}
		for _, c := range list {
			switch v := st.get(c.Stats); {
			case v > best:
				best, names = v, []string{c.Name}
			case v == best:
				names = append(names, c.Name)
			}
		}
		if len(names) == len(list) {
			winners[st.key] = "tie"
		} else {
			winners[st.key] = strings.Join(names, ", ")
		}
	}
	matchups := []matchup{}
	for i, x := range list {
		for _, y := range list[i+1:] {
			switch affinityAdvantage(x.Affinity, y.Affinity) {
			case 1:
				matchups = append(matchups, matchup{x.Name, y.Name, x.Affinity + " has the advantage over " + y.Affinity})
			case -1:
				matchups = append(matchups, matchup{y.Name, x.Name, y.Affinity + " has the advantage over " + x.Affinity})
			default:
				matchups = append(matchups, matchup{x.Name, y.Name, "neutral (" + x.Affinity + " vs " + y.Affinity + ")"})
			}
		}
	}
	names := make([]string, len(list))
	for i, c := range list {
		names[i] = c.Name
	}
	r := tool.Success("Comparison of "+strings.Join(names, ", ")+".", map[string]any{
		"champions": list, "stat_winners": winners, "affinity_matchups": matchups,
	})
	r.LLMInstruction = statsInstruction + " Affinity: Magic beats Force, Force beats Spirit, Spirit beats Magic; Void is neutral."
	return r, nil
}

// ChampionsByFaction is gcs_list_champions_by_faction.
type ChampionsByFaction struct{ base }

func (*ChampionsByFaction) toolName() string { return "gcs_list_champions_by_faction" }

// Call lists the faction's champions, highest rarity first.
func (t *ChampionsByFaction) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		FactionName string  `json:"faction_name"`
		Rarity      *string `json:"rarity"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	fid, r, err := t.byNameOrID(ctx, kindFaction(), t.spec.Name, &a.FactionName, nil)
	if err != nil || r != nil {
		return deref(r), err
	}
	var fname string
	if err := t.db.QueryRowContext(ctx, `SELECT name FROM factions WHERE id = ?`, fid).Scan(&fname); err != nil {
		return tool.Result{}, backendErr("faction", err)
	}
	members, err := t.members(ctx, fid, a.Rarity)
	if err != nil {
		return tool.Result{}, err
	}
	res := tool.Success(fmt.Sprintf("%s has %d matching champions.", fname, len(members)),
		map[string]any{"faction": Ref{fid, fname}, "total": len(members), "champions": members})
	res.LLMInstruction = "List champion names exactly as given."
	return res, nil
}

// members lists a faction's champions, optionally of one rarity.
func (b *base) members(ctx context.Context, factionID int64, rarity *string) ([]ChampionSummary, error) {
	q := `SELECT c.id, c.name, f.name, c.rarity, c.affinity, c.role FROM champions c JOIN factions f ON f.id = c.faction_id
		WHERE c.faction_id = ?`
	params := []any{factionID}
	if rarity != nil {
		q += ` AND lower(c.rarity) = lower(?)`
		params = append(params, *rarity)
	}
	q += ` ORDER BY ` + rarityRankSQL + ` DESC, c.name`
	rows, err := b.db.QueryContext(ctx, q, params...)
	if err != nil {
		return nil, backendErr("faction members", err)
	}
	defer rows.Close()
	out := []ChampionSummary{}
	for rows.Next() {
		var c ChampionSummary
		if err := rows.Scan(&c.ID, &c.Name, &c.Faction, &c.Rarity, &c.Affinity, &c.Role); err != nil {
			return nil, backendErr("faction members", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, backendErr("faction members", err)
	}
	return out, nil
}

// ChampionsByEffect is gcs_find_champions_by_effect.
type ChampionsByEffect struct{ base }

func (*ChampionsByEffect) toolName() string { return "gcs_find_champions_by_effect" }

// normEffect turns "Decrease DEF" or "decrease-def" into "decrease_def".
func normEffect(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), "_")
}

// Call lists champions whose skills apply the effect.
func (t *ChampionsByEffect) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		Effect string `json:"effect"`
		Limit  *int   `json:"limit"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	effect := normEffect(a.Effect)
	if effect == "" {
		return emptyName(t.spec.Name, "effect"), nil
	}
	limit := 20
	if a.Limit != nil {
		limit = min(max(*a.Limit, 1), 50)
	}
	rows, err := t.db.QueryContext(ctx, `SELECT c.id, c.name, f.name, c.rarity, c.affinity, c.role,
		group_concat(s.name, ' / '), count(*) OVER ()
		FROM skill_effects e JOIN champions c ON c.id = e.champion_id JOIN factions f ON f.id = c.faction_id
		JOIN champion_skills s ON s.champion_id = e.champion_id AND s.slot = e.slot
		WHERE e.effect = ? GROUP BY c.id ORDER BY `+rarityRankSQL+` DESC, c.name LIMIT ?`, effect, limit)
	if err != nil {
		return tool.Result{}, backendErr("champions by effect", err)
	}
	defer rows.Close()
	type hit struct {
		ChampionSummary
		Skills string `json:"skills"`
	}
	list := []hit{}
	total := 0
	for rows.Next() {
		var h hit
		if err := rows.Scan(&h.ID, &h.Name, &h.Faction, &h.Rarity, &h.Affinity, &h.Role, &h.Skills, &total); err != nil {
			return tool.Result{}, backendErr("champions by effect", err)
		}
		list = append(list, h)
	}
	if err := rows.Err(); err != nil {
		return tool.Result{}, backendErr("champions by effect", err)
	}
	if total == 0 {
		known, err := t.strs(ctx, "effects", `SELECT DISTINCT effect FROM skill_effects ORDER BY effect`)
		if err != nil {
			return tool.Result{}, err
		}
		r := tool.Failure("No skill applies the effect "+quoted(a.Effect)+".", "unknown effect",
			"Use one of the known effects: "+strings.Join(known, ", ")+".")
		r.Data = map[string]any{"known_effects": known}
		return r, nil
	}
	r := tool.Success(fmt.Sprintf("%d champions apply %s; showing %d.", total, effect, len(list)),
		map[string]any{"effect": effect, "total": total, "champions": list})
	r.LLMInstruction = "Name the champions and the skills exactly as given."
	return r, nil
}

// RecommendGear is gcs_recommend_gear: gear sets for a champion.
type RecommendGear struct{ base }

func (*RecommendGear) toolName() string { return "gcs_recommend_gear" }

// statForRole is the stat a role scales with, as gear stat bonuses name it.
func statForRole(role string) string {
	switch role {
	case "Attack":
		return "ATK"
	case "Defense":
		return "DEF"
	case "HP", "Support":
		return "HP"
	}
	return ""
}

// Call ranks gear sets for the champion: sets made for its role first, then
// sets boosting the stat its role scales with, then speed.
func (t *RecommendGear) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	id, r, err := t.championArg(ctx, args)
	if err != nil || r != nil {
		return deref(r), err
	}
	var name, role string
	if err := t.db.QueryRowContext(ctx, `SELECT name, role FROM champions WHERE id = ?`, id).Scan(&name, &role); err != nil {
		return tool.Result{}, backendErr("champion", err)
	}
	rows, err := t.db.QueryContext(ctx, `SELECT g.id, g.name, g.pieces, g.bonus, g.stat_bonus, g.best_for,
		coalesce((SELECT group_concat(d.name, ', ') FROM dungeon_drops dd JOIN dungeons d ON d.id = dd.dungeon_id WHERE dd.gear_set_id = g.id), '')
		FROM gear_sets g ORDER BY g.id`)
	if err != nil {
		return tool.Result{}, backendErr("gear sets", err)
	}
	defer rows.Close()
	type rec struct {
		ID        int64  `json:"id"`
		Name      string `json:"name"`
		Pieces    int    `json:"pieces"`
		Bonus     string `json:"bonus"`
		StatBonus string `json:"stat_bonus"`
		FarmIn    string `json:"farm_in,omitempty"`
		Reason    string `json:"reason"`
		score     int
	}
	stat := statForRole(role)
	var recs []rec
	for rows.Next() {
		var g rec
		var bestFor string
		if err := rows.Scan(&g.ID, &g.Name, &g.Pieces, &g.Bonus, &g.StatBonus, &bestFor, &g.FarmIn); err != nil {
			return tool.Result{}, backendErr("gear sets", err)
		}
		var why []string
		if strings.EqualFold(bestFor, role) {
			g.score += 3
			why = append(why, "made for "+role+" champions")
		}
		upper := strings.ToUpper(g.StatBonus + " " + g.Bonus)
		if stat != "" && strings.Contains(upper, stat) {
			g.score += 2
			why = append(why, "boosts "+stat+", the stat a "+role+" champion scales with")
		}
		if strings.Contains(upper, "SPD") {
			g.score++
			why = append(why, "adds speed, useful on any champion")
		}
		if g.score == 0 {
			continue
		}
		g.Reason = strings.Join(why, "; ")
		recs = append(recs, g)
	}
	if err := rows.Err(); err != nil {
		return tool.Result{}, backendErr("gear sets", err)
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].score > recs[j].score })
	if len(recs) > 3 {
		recs = recs[:3]
	}
	msg := fmt.Sprintf("Gear recommendations for %s (%s).", name, role)
	if len(recs) == 0 {
		msg = fmt.Sprintf("No gear set is aimed at %s champions like %s.", role, name)
	}
	res := tool.Success(msg, map[string]any{"champion": Ref{id, name}, "role": role, "recommendations": nonNil(recs)})
	res.LLMInstruction = "Recommend these sets with their reasons; name the dungeons to farm exactly as given."
	return res, nil
}
