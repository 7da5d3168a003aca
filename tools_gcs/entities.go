package toolsgcs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/tool"
)

// Compile-time checks that every entity tool is a tool.Tool.
var (
	_ tool.Tool = (*BossDetails)(nil)
	_ tool.Tool = (*CountersForBoss)(nil)
	_ tool.Tool = (*FactionDetails)(nil)
	_ tool.Tool = (*DungeonDetails)(nil)
	_ tool.Tool = (*GearSetDetails)(nil)
	_ tool.Tool = (*MasteryDetails)(nil)
)

const factsInstruction = "Quote names and numbers exactly as given; do not invent details that are not in the data."

// Phase is one phase of a boss fight.
type Phase struct {
	Number      int    `json:"number"`
	Name        string `json:"name"`
	HPThreshold int    `json:"hp_threshold"`
	Description string `json:"description,omitempty"`
}

// Counter is a recommended counter with its rank (1 = best).
type Counter struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Rank int    `json:"rank"`
}

// Boss is the full view of one boss.
type Boss struct {
	ID                  int64             `json:"id"`
	Name                string            `json:"name"`
	Names               map[string]string `json:"names,omitempty"`
	Affinity            string            `json:"affinity"`
	Difficulty          string            `json:"difficulty"`
	HP                  int64             `json:"hp"`
	Dungeon             *Ref              `json:"dungeon,omitempty"`
	Phases              []Phase           `json:"phases"`
	Mechanics           []string          `json:"mechanics"`
	Weaknesses          []string          `json:"weaknesses"`
	Immunities          []string          `json:"immunities"`
	RecommendedCounters []Counter         `json:"recommended_counters"`
	StrongChampions     []Ref             `json:"strong_champions"`
	Description         string            `json:"description,omitempty"`
}

// BossDetails is gcs_get_boss_details.
type BossDetails struct{ base }

func (*BossDetails) toolName() string { return "gcs_get_boss_details" }

type bossArgs struct {
	BossName *string `json:"boss_name"`
	BossID   *int64  `json:"boss_id"`
	Limit    *int    `json:"limit"`
}

// Call returns the boss by name or id.
func (t *BossDetails) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		BossName *string `json:"boss_name"`
		BossID   *int64  `json:"boss_id"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	id, r, err := t.byNameOrID(ctx, kindBoss(), t.spec.Name, a.BossName, a.BossID)
	if err != nil || r != nil {
		return deref(r), err
	}
	b, err := t.loadBoss(ctx, id)
	if err != nil {
		return tool.Result{}, err
	}
	res := tool.Success(fmt.Sprintf("Details of %s (%s, %s).", b.Name, b.Affinity, b.Difficulty), b)
	res.LLMInstruction = factsInstruction
	return res, nil
}

func (b *base) loadBoss(ctx context.Context, id int64) (Boss, error) {
	var x Boss
	var did sql.NullInt64
	var dname sql.NullString
	err := b.db.QueryRowContext(ctx, `SELECT b.id, b.name, b.affinity, b.difficulty, b.hp, b.description, d.id, d.name
		FROM bosses b LEFT JOIN dungeons d ON d.id = b.dungeon_id WHERE b.id = ?`, id).
		Scan(&x.ID, &x.Name, &x.Affinity, &x.Difficulty, &x.HP, &x.Description, &did, &dname)
	if err != nil {
		return x, backendErr(fmt.Sprintf("boss %d", id), err)
	}
	if did.Valid {
		x.Dungeon = &Ref{did.Int64, dname.String}
	}
	x.Phases, x.Mechanics, x.Weaknesses, x.Immunities = []Phase{}, []string{}, []string{}, []string{}
	x.RecommendedCounters, x.StrongChampions = []Counter{}, []Ref{}
	rows, err := b.db.QueryContext(ctx, `
		SELECT 'p', number, name, hp_threshold, description FROM boss_phases WHERE boss_id = ?1
		UNION ALL SELECT 'm', seq, mechanic, 0, '' FROM boss_mechanics WHERE boss_id = ?1
		UNION ALL SELECT 'w', 0, effect, 0, '' FROM boss_weaknesses WHERE boss_id = ?1
		UNION ALL SELECT 'i', 0, effect, 0, '' FROM boss_immunities WHERE boss_id = ?1
		UNION ALL SELECT 'c', c.id, c.name, bc.rank, '' FROM boss_counters bc JOIN champions c ON c.id = bc.champion_id WHERE bc.boss_id = ?1
		UNION ALL SELECT 's', c.id, c.name, 0, '' FROM champion_strong_against sa JOIN champions c ON c.id = sa.champion_id WHERE sa.boss_id = ?1
		UNION ALL SELECT 'n', 0, locale, 0, name FROM display_names WHERE entity_id = ?1`, id)
	if err != nil {
		return x, backendErr(fmt.Sprintf("boss %d details", id), err)
	}
	defer rows.Close()
	x.Names = map[string]string{}
	type mech struct {
		seq  int64
		text string
	}
	var mechs []mech
	for rows.Next() {
		var k, text, desc string
		var n int64
		var extra int
		if err := rows.Scan(&k, &n, &text, &extra, &desc); err != nil {
			return x, backendErr(fmt.Sprintf("boss %d details", id), err)
		}
		switch k {
		case "p":
			x.Phases = append(x.Phases, Phase{int(n), text, extra, desc})
		case "m":
			mechs = append(mechs, mech{n, text})
		case "w":
			x.Weaknesses = append(x.Weaknesses, text)
		case "i":
			x.Immunities = append(x.Immunities, text)
		case "c":
			x.RecommendedCounters = append(x.RecommendedCounters, Counter{n, text, extra})
		case "s":
			x.StrongChampions = append(x.StrongChampions, Ref{n, text})
		case "n":
			x.Names[text] = desc
		}
	}
	if err := rows.Err(); err != nil {
		return x, backendErr(fmt.Sprintf("boss %d details", id), err)
	}
	sort.Slice(mechs, func(i, j int) bool { return mechs[i].seq < mechs[j].seq })
	for _, m := range mechs {
		x.Mechanics = append(x.Mechanics, m.text)
	}
	sort.Slice(x.Phases, func(i, j int) bool { return x.Phases[i].Number < x.Phases[j].Number })
	sort.Slice(x.RecommendedCounters, func(i, j int) bool { return x.RecommendedCounters[i].Rank < x.RecommendedCounters[j].Rank })
	sort.Slice(x.StrongChampions, func(i, j int) bool { return x.StrongChampions[i].ID < x.StrongChampions[j].ID })
	sort.Strings(x.Weaknesses)
	sort.Strings(x.Immunities)
	return x, nil
}

// CountersForBoss is gcs_find_counters_for_boss. Rankings depend only on
// the database content, so they are kept in memory per boss until the data
// version changes.
type CountersForBoss struct {
	base
	mu      sync.Mutex
	version string
	ranked  map[int64]rankedCounters
}

type rankedCounters struct {
	list  []RankedCounter
	total int
}

// maxCounters is the largest limit the schema allows; rankings are kept at
// this length.
const maxCounters = 20

// ranking returns the boss's ranking from memory or the database.
func (t *CountersForBoss) ranking(ctx context.Context, id int64, bossName, bossAff string) (rankedCounters, error) {
	var version string
	if err := t.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'data_version'`).Scan(&version); err != nil &&
		!errors.Is(err, sql.ErrNoRows) {
		return rankedCounters{}, backendErr("data version", err)
	}
	t.mu.Lock()
	if t.version != version || t.ranked == nil {
		t.version, t.ranked = version, map[int64]rankedCounters{}
	}
	rc, ok := t.ranked[id]
	t.mu.Unlock()
	if ok {
		return rc, nil
	}
	list, total, err := t.rankCounters(ctx, id, bossName, bossAff, maxCounters)
	if err != nil {
		return rankedCounters{}, err
	}
	rc = rankedCounters{list: list, total: total}
	t.mu.Lock()
	if t.version == version {
		t.ranked[id] = rc
	}
	t.mu.Unlock()
	return rc, nil
}

func (*CountersForBoss) toolName() string { return "gcs_find_counters_for_boss" }

// RankedCounter is a champion suggested against a boss, with the reason.
type RankedCounter struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Faction  string `json:"faction"`
	Rarity   string `json:"rarity"`
	Affinity string `json:"affinity"`
	Role     string `json:"role"`
	Score    int    `json:"score"`
	Reason   string `json:"reason"`
}

// Call ranks champions against the boss: the designers' recommended
// counters first (by rank), then champions strong against it, then skills
// applying its weaknesses and affinity advantage.
func (t *CountersForBoss) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a bossArgs
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	if a.BossID != nil {
		a.BossName = nil
	}
	limit := 5
	if a.Limit != nil {
		limit = min(max(*a.Limit, 1), maxCounters)
	}
	id, r, err := t.byNameOrID(ctx, kindBoss(), t.spec.Name, a.BossName, a.BossID)
	if err != nil || r != nil {
		return deref(r), err
	}
	var bossName, bossAff string
	if err := t.db.QueryRowContext(ctx, `SELECT name, affinity FROM bosses WHERE id = ?`, id).Scan(&bossName, &bossAff); err != nil {
		return tool.Result{}, backendErr("boss", err)
	}
	rc, err := t.ranking(ctx, id, bossName, bossAff)
	if err != nil {
		return tool.Result{}, err
	}
	list, total := rc.list[:min(limit, len(rc.list))], rc.total
	msg := fmt.Sprintf("%d champions counter %s; showing the best %d.", total, bossName, len(list))
	if total == 0 {
		msg = "No champion is known to counter " + bossName + "."
	}
	res := tool.Success(msg, map[string]any{
		"boss": map[string]any{"id": id, "name": bossName, "affinity": bossAff}, "total": total, "counters": nonNil(list),
	})
	res.LLMInstruction = "Present the counters in this order with their reasons; do not add champions that are not listed."
	return res, nil
}

// rankCounters scores, in one query, every champion with a claim against
// the boss: designer rank (100 minus rank), strong against it (+40), each
// boss weakness its skills apply (+15), an effect the boss is immune to (-5),
// affinity advantage (+10) or disadvantage (-10). Ties go to higher rarity.
func (b *base) rankCounters(ctx context.Context, bossID int64, bossName, bossAff string, limit int) ([]RankedCounter, int, error) {
	var adv, dis []string
	for _, a := range gamedata.Affinities() {
		switch affinityAdvantage(a, bossAff) {
		case 1:
			adv = append(adv, a)
		case -1:
			dis = append(dis, a)
		}
	}
	advJSON, _ := json.Marshal(nonNil(adv))
	disJSON, _ := json.Marshal(nonNil(dis))
	rows, err := b.db.QueryContext(ctx, rankCountersSQL, bossID, string(advJSON), string(disJSON), limit)
	if err != nil {
		return nil, 0, backendErr("counters", err)
	}
	defer rows.Close()
	list := []RankedCounter{}
	total := 0
	for rows.Next() {
		var c RankedCounter
		var rank sql.NullInt64
		var strong bool
		var weak, immune string
		var adv int
		if err := rows.Scan(&c.ID, &c.Name, &c.Faction, &c.Rarity, &c.Affinity, &c.Role, &rank, &strong, &weak, &immune, &adv, &c.Score, &total); err != nil {
			return nil, 0, backendErr("counters", err)
		}
		var why []string
		if rank.Valid {
			why = append(why, fmt.Sprintf("recommended counter #%d", rank.Int64))
		}
		if strong {
			why = append(why, "strong against "+bossName)
		}
		if weak != "" {
			why = append(why, "skills apply "+sortedList(weak)+" (boss weakness)")
		}
		if immune != "" {
			why = append(why, "note: boss is immune to "+sortedList(immune))
		}
		switch adv {
		case 1:
			why = append(why, c.Affinity+" has the advantage over "+bossAff)
		case -1:
			why = append(why, c.Affinity+" is weak against "+bossAff)
		}
		c.Reason = strings.Join(why, "; ")
		list = append(list, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, backendErr("counters", err)
	}
	return list, total, nil
}

// rankCountersSQL scores counter candidates; see rankCounters.
const rankCountersSQL = `WITH
		r AS MATERIALIZED (SELECT champion_id AS id, rank FROM boss_counters WHERE boss_id = ?1),
		s AS MATERIALIZED (SELECT champion_id AS id FROM champion_strong_against WHERE boss_id = ?1),
		w AS MATERIALIZED (SELECT e.champion_id AS id, group_concat(DISTINCT e.effect) AS effects, count(DISTINCT e.effect) AS n
			FROM boss_weaknesses bw JOIN skill_effects e ON e.effect = bw.effect WHERE bw.boss_id = ?1 GROUP BY e.champion_id),
		i AS MATERIALIZED (SELECT e.champion_id AS id, group_concat(DISTINCT e.effect) AS effects
			FROM boss_immunities bi JOIN skill_effects e ON e.effect = bi.effect WHERE bi.boss_id = ?1 GROUP BY e.champion_id),
		cand AS (SELECT id FROM r UNION SELECT id FROM s UNION SELECT id FROM w),
		scored AS (SELECT c.id, c.name, f.name AS faction, c.rarity, c.affinity, c.role, r.rank, s.id IS NOT NULL AS strong,
			coalesce(w.effects, '') AS weak, coalesce(i.effects, '') AS immune,
			CASE WHEN c.affinity IN (SELECT value FROM json_each(?2)) THEN 1
			     WHEN c.affinity IN (SELECT value FROM json_each(?3)) THEN -1 ELSE 0 END AS adv,
			` + rarityRankSQL + ` AS rarity_rank,
			(CASE WHEN r.rank IS NULL THEN 0 ELSE 100 - min(r.rank, 50) END) + (CASE WHEN s.id IS NULL THEN 0 ELSE 40 END)
			+ 15 * coalesce(w.n, 0) - (CASE WHEN i.id IS NULL THEN 0 ELSE 5 END) AS base_score
			FROM cand JOIN champions c ON c.id = cand.id JOIN factions f ON f.id = c.faction_id
			LEFT JOIN r ON r.id = c.id LEFT JOIN s ON s.id = c.id LEFT JOIN w ON w.id = c.id LEFT JOIN i ON i.id = c.id)
		SELECT id, name, faction, rarity, affinity, role, rank, strong, weak, immune, adv, base_score + 10 * adv AS score, count(*) OVER ()
		FROM scored ORDER BY score DESC, rarity_rank DESC, id LIMIT ?4`

// sortedList turns "b,a" into "a, b".
func sortedList(csv string) string {
	xs := strings.Split(csv, ",")
	sort.Strings(xs)
	return strings.Join(xs, ", ")
}

// FactionDetails is gcs_get_faction_details.
type FactionDetails struct{ base }

func (*FactionDetails) toolName() string { return "gcs_get_faction_details" }

// Call returns the faction with its members.
func (t *FactionDetails) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		FactionName *string `json:"faction_name"`
		FactionID   *int64  `json:"faction_id"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	id, r, err := t.byNameOrID(ctx, kindFaction(), t.spec.Name, a.FactionName, a.FactionID)
	if err != nil || r != nil {
		return deref(r), err
	}
	var f struct {
		ID          int64             `json:"id"`
		Name        string            `json:"name"`
		Names       map[string]string `json:"names,omitempty"`
		Alignment   string            `json:"alignment"`
		Homeland    string            `json:"homeland"`
		Description string            `json:"description,omitempty"`
		MemberCount int               `json:"member_count"`
		Members     []ChampionSummary `json:"members"`
	}
	if err := t.db.QueryRowContext(ctx, `SELECT id, name, alignment, homeland, description FROM factions WHERE id = ?`, id).
		Scan(&f.ID, &f.Name, &f.Alignment, &f.Homeland, &f.Description); err != nil {
		return tool.Result{}, backendErr(fmt.Sprintf("faction %d", id), err)
	}
	if f.Members, err = t.members(ctx, id, nil); err != nil {
		return tool.Result{}, err
	}
	f.MemberCount = len(f.Members)
	if f.Names, err = t.names(ctx, id); err != nil {
		return tool.Result{}, err
	}
	res := tool.Success(fmt.Sprintf("Details of the %s faction (%d champions).", f.Name, f.MemberCount), f)
	res.LLMInstruction = factsInstruction
	return res, nil
}

// DungeonDetails is gcs_get_dungeon_details.
type DungeonDetails struct{ base }

func (*DungeonDetails) toolName() string { return "gcs_get_dungeon_details" }

// Call returns the dungeon with its boss and drops.
func (t *DungeonDetails) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		DungeonName *string `json:"dungeon_name"`
		DungeonID   *int64  `json:"dungeon_id"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	id, r, err := t.byNameOrID(ctx, kindDungeon(), t.spec.Name, a.DungeonName, a.DungeonID)
	if err != nil || r != nil {
		return deref(r), err
	}
	type drop struct {
		ID        int64  `json:"id"`
		Name      string `json:"name"`
		StatBonus string `json:"stat_bonus"`
		BestFor   string `json:"best_for"`
	}
	var d struct {
		ID          int64             `json:"id"`
		Name        string            `json:"name"`
		Names       map[string]string `json:"names,omitempty"`
		Kind        string            `json:"kind"`
		Stages      int               `json:"stages"`
		EnergyCost  int               `json:"energy_cost"`
		Boss        *Ref              `json:"boss,omitempty"`
		Drops       []drop            `json:"drops"`
		Description string            `json:"description,omitempty"`
	}
	var bid sql.NullInt64
	var bname sql.NullString
	if err := t.db.QueryRowContext(ctx, `SELECT d.id, d.name, d.kind, d.stages, d.energy_cost, d.description, b.id, b.name
		FROM dungeons d LEFT JOIN bosses b ON b.id = d.boss_id WHERE d.id = ?`, id).
		Scan(&d.ID, &d.Name, &d.Kind, &d.Stages, &d.EnergyCost, &d.Description, &bid, &bname); err != nil {
		return tool.Result{}, backendErr(fmt.Sprintf("dungeon %d", id), err)
	}
	if bid.Valid {
		d.Boss = &Ref{bid.Int64, bname.String}
	}
	rows, err := t.db.QueryContext(ctx, `SELECT g.id, g.name, g.stat_bonus, g.best_for FROM dungeon_drops dd
		JOIN gear_sets g ON g.id = dd.gear_set_id WHERE dd.dungeon_id = ? ORDER BY g.id`, id)
	if err != nil {
		return tool.Result{}, backendErr("dungeon drops", err)
	}
	defer rows.Close()
	d.Drops = []drop{}
	for rows.Next() {
		var x drop
		if err := rows.Scan(&x.ID, &x.Name, &x.StatBonus, &x.BestFor); err != nil {
			return tool.Result{}, backendErr("dungeon drops", err)
		}
		d.Drops = append(d.Drops, x)
	}
	if err := rows.Err(); err != nil {
		return tool.Result{}, backendErr("dungeon drops", err)
	}
	if d.Names, err = t.names(ctx, id); err != nil {
		return tool.Result{}, err
	}
	res := tool.Success(fmt.Sprintf("Details of %s (%s, %d stages).", d.Name, d.Kind, d.Stages), d)
	res.LLMInstruction = factsInstruction
	return res, nil
}

// GearSetDetails is gcs_get_gear_set_details.
type GearSetDetails struct{ base }

func (*GearSetDetails) toolName() string { return "gcs_get_gear_set_details" }

// Call returns the gear set and where it drops.
func (t *GearSetDetails) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		GearSetName *string `json:"gear_set_name"`
		GearSetID   *int64  `json:"gear_set_id"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	id, r, err := t.byNameOrID(ctx, kindGearSet(), t.spec.Name, a.GearSetName, a.GearSetID)
	if err != nil || r != nil {
		return deref(r), err
	}
	var g struct {
		ID          int64             `json:"id"`
		Name        string            `json:"name"`
		Names       map[string]string `json:"names,omitempty"`
		Pieces      int               `json:"pieces"`
		Bonus       string            `json:"bonus"`
		StatBonus   string            `json:"stat_bonus"`
		BestFor     string            `json:"best_for"`
		DroppedIn   []Ref             `json:"dropped_in"`
		Description string            `json:"description,omitempty"`
	}
	if err := t.db.QueryRowContext(ctx, `SELECT id, name, pieces, bonus, stat_bonus, best_for, description FROM gear_sets WHERE id = ?`, id).
		Scan(&g.ID, &g.Name, &g.Pieces, &g.Bonus, &g.StatBonus, &g.BestFor, &g.Description); err != nil {
		return tool.Result{}, backendErr(fmt.Sprintf("gear set %d", id), err)
	}
	if g.DroppedIn, err = t.refs(ctx, "gear set drops", `SELECT d.id, d.name FROM dungeon_drops dd JOIN dungeons d ON d.id = dd.dungeon_id
		WHERE dd.gear_set_id = ? ORDER BY d.id`, id); err != nil {
		return tool.Result{}, err
	}
	if g.Names, err = t.names(ctx, id); err != nil {
		return tool.Result{}, err
	}
	res := tool.Success(fmt.Sprintf("Details of the %s gear set (%d pieces).", g.Name, g.Pieces), g)
	res.LLMInstruction = factsInstruction
	return res, nil
}

// MasteryDetails is gcs_get_mastery_details.
type MasteryDetails struct{ base }

func (*MasteryDetails) toolName() string { return "gcs_get_mastery_details" }

// Call returns the mastery and the rest of its tree.
func (t *MasteryDetails) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		MasteryName *string `json:"mastery_name"`
		MasteryID   *int64  `json:"mastery_id"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	id, r, err := t.byNameOrID(ctx, kindMastery(), t.spec.Name, a.MasteryName, a.MasteryID)
	if err != nil || r != nil {
		return deref(r), err
	}
	type node struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		Tier int    `json:"tier"`
	}
	var m struct {
		ID          int64             `json:"id"`
		Name        string            `json:"name"`
		Names       map[string]string `json:"names,omitempty"`
		Tree        string            `json:"tree"`
		Tier        int               `json:"tier"`
		Description string            `json:"description"`
		SameTree    []node            `json:"same_tree"`
	}
	if err := t.db.QueryRowContext(ctx, `SELECT id, name, tree, tier, description FROM masteries WHERE id = ?`, id).
		Scan(&m.ID, &m.Name, &m.Tree, &m.Tier, &m.Description); err != nil {
		return tool.Result{}, backendErr(fmt.Sprintf("mastery %d", id), err)
	}
	rows, err := t.db.QueryContext(ctx, `SELECT id, name, tier FROM masteries WHERE tree = ? AND id <> ? ORDER BY tier, id LIMIT 30`, m.Tree, id)
	if err != nil {
		return tool.Result{}, backendErr("mastery tree", err)
	}
	defer rows.Close()
	m.SameTree = []node{}
	for rows.Next() {
		var n node
		if err := rows.Scan(&n.ID, &n.Name, &n.Tier); err != nil {
			return tool.Result{}, backendErr("mastery tree", err)
		}
		m.SameTree = append(m.SameTree, n)
	}
	if err := rows.Err(); err != nil {
		return tool.Result{}, backendErr("mastery tree", err)
	}
	if m.Names, err = t.names(ctx, id); err != nil {
		return tool.Result{}, err
	}
	res := tool.Success(fmt.Sprintf("Details of the %s mastery (%s tree, tier %d).", m.Name, m.Tree, m.Tier), m)
	res.LLMInstruction = factsInstruction
	return res, nil
}
