package gcsdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gameassist/gameassist/gamedata"
)

// Phase is one phase of a boss fight.
type Phase struct {
	Number      int    `json:"number"`
	Name        string `json:"name"`
	HPThreshold int    `json:"hp_threshold"`
	Description string `json:"description,omitempty"`
}

// Counter is a designer-recommended counter with its rank (1 = best).
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

// Boss reads one boss; ok is false when no boss has id.
func (g *Game) Boss(ctx context.Context, id int64) (x Boss, ok bool, err error) {
	var did sql.NullInt64
	var dname sql.NullString
	err = g.db.QueryRowContext(ctx, `SELECT b.id, b.name, b.affinity, b.difficulty, b.hp, b.description, d.id, d.name
		FROM bosses b LEFT JOIN dungeons d ON d.id = b.dungeon_id WHERE b.id = ?`, id).
		Scan(&x.ID, &x.Name, &x.Affinity, &x.Difficulty, &x.HP, &x.Description, &did, &dname)
	if errors.Is(err, sql.ErrNoRows) {
		return x, false, nil
	}
	if err != nil {
		return x, false, fmt.Errorf("gcsdb: boss %d: %w", id, err)
	}
	if did.Valid {
		x.Dungeon = &Ref{did.Int64, dname.String}
	}
	x.Phases, x.Mechanics, x.Weaknesses, x.Immunities = []Phase{}, []string{}, []string{}, []string{}
	x.RecommendedCounters, x.StrongChampions = []Counter{}, []Ref{}
	rows, err := g.db.QueryContext(ctx, `
		SELECT 'p', number, name, hp_threshold, description FROM boss_phases WHERE boss_id = ?1
		UNION ALL SELECT 'm', seq, mechanic, 0, '' FROM boss_mechanics WHERE boss_id = ?1
		UNION ALL SELECT 'w', 0, effect, 0, '' FROM boss_weaknesses WHERE boss_id = ?1
		UNION ALL SELECT 'i', 0, effect, 0, '' FROM boss_immunities WHERE boss_id = ?1
		UNION ALL SELECT 'c', c.id, c.name, bc.rank, '' FROM boss_counters bc JOIN champions c ON c.id = bc.champion_id WHERE bc.boss_id = ?1
		UNION ALL SELECT 's', c.id, c.name, 0, '' FROM champion_strong_against sa JOIN champions c ON c.id = sa.champion_id WHERE sa.boss_id = ?1
		UNION ALL SELECT 'n', 0, locale, 0, name FROM display_names WHERE entity_id = ?1`, id)
	if err != nil {
		return x, false, fmt.Errorf("gcsdb: boss %d details: %w", id, err)
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
			return x, false, fmt.Errorf("gcsdb: boss %d details: %w", id, err)
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
		return x, false, fmt.Errorf("gcsdb: boss %d details: %w", id, err)
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
	return x, true, nil
}

// BossRef is a boss as a counter ranking names it.
type BossRef struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Affinity string `json:"affinity"`
}

// RankedCounter is a champion suggested against a boss, with its score by
// the one rule (gamedata.CounterFacts.Score) and the reason in words.
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

// MaxCounters is the longest ranking Counters returns.
const MaxCounters = 20

// Counters ranks the champions with a claim against a boss (a designer
// recommendation, strong against it, or a skill applying one of its
// weaknesses) by gamedata.CounterFacts.Score, best first, ties to higher
// rarity then lower id; it returns at most limit (1..MaxCounters) of them,
// the boss and how many there are in all. The SQL gathers the facts only;
// the weights live in gamedata, the one place. Rankings are kept in memory
// until the data version changes.
func (g *Game) Counters(ctx context.Context, bossID int64, limit int) ([]RankedCounter, BossRef, int, error) {
	if _, _, err := g.fresh(ctx); err != nil {
		return nil, BossRef{}, 0, err
	}
	var boss BossRef
	err := g.db.QueryRowContext(ctx, `SELECT id, name, affinity FROM bosses WHERE id = ?`, bossID).Scan(&boss.ID, &boss.Name, &boss.Affinity)
	if err != nil {
		return nil, BossRef{}, 0, fmt.Errorf("gcsdb: boss %d: %w", bossID, err)
	}
	limit = min(max(limit, 1), MaxCounters)
	g.mu.Lock()
	all, ok := g.ranked[bossID]
	g.mu.Unlock()
	if !ok {
		if all, err = g.rankCounters(ctx, boss); err != nil {
			return nil, BossRef{}, 0, err
		}
		g.mu.Lock()
		if g.ranked != nil {
			g.ranked[bossID] = all
		}
		g.mu.Unlock()
	}
	return all[:min(limit, len(all))], boss, len(all), nil
}

// counterFactsSQL gathers, per candidate champion, the facts the one
// counter-scoring rule weighs.
const counterFactsSQL = `WITH
		r AS MATERIALIZED (SELECT champion_id AS id, rank FROM boss_counters WHERE boss_id = ?1),
		s AS MATERIALIZED (SELECT champion_id AS id FROM champion_strong_against WHERE boss_id = ?1),
		w AS MATERIALIZED (SELECT e.champion_id AS id, group_concat(DISTINCT e.effect) AS effects, count(DISTINCT e.effect) AS n
			FROM boss_weaknesses bw JOIN skill_effects e ON e.effect = bw.effect
			WHERE bw.boss_id = ?1 AND bw.effect NOT IN (SELECT effect FROM boss_immunities WHERE boss_id = ?1)
			GROUP BY e.champion_id),
		i AS MATERIALIZED (SELECT e.champion_id AS id, group_concat(DISTINCT e.effect) AS effects, count(DISTINCT e.effect) AS n
			FROM boss_immunities bi JOIN skill_effects e ON e.effect = bi.effect WHERE bi.boss_id = ?1 GROUP BY e.champion_id),
		cand AS (SELECT id FROM r UNION SELECT id FROM s UNION SELECT id FROM w)
		SELECT c.id, c.name, f.name, c.rarity, c.affinity, c.role, coalesce(r.rank, 0), s.id IS NOT NULL,
			coalesce(w.effects, ''), coalesce(w.n, 0), coalesce(i.effects, ''), coalesce(i.n, 0)
		FROM cand JOIN champions c ON c.id = cand.id JOIN factions f ON f.id = c.faction_id
		LEFT JOIN r ON r.id = c.id LEFT JOIN s ON s.id = c.id LEFT JOIN w ON w.id = c.id LEFT JOIN i ON i.id = c.id`

func (g *Game) rankCounters(ctx context.Context, boss BossRef) ([]RankedCounter, error) {
	rows, err := g.db.QueryContext(ctx, counterFactsSQL, boss.ID)
	if err != nil {
		return nil, fmt.Errorf("gcsdb: counters of %d: %w", boss.ID, err)
	}
	defer rows.Close()
	type scored struct {
		RankedCounter
		rarity int
	}
	var list []scored
	for rows.Next() {
		var c RankedCounter
		var f gamedata.CounterFacts
		var weak, immune string
		if err := rows.Scan(&c.ID, &c.Name, &c.Faction, &c.Rarity, &c.Affinity, &c.Role, &f.DesignerRank, &f.StrongAgainst,
			&weak, &f.WeaknessHits, &immune, &f.ImmuneHits); err != nil {
			return nil, fmt.Errorf("gcsdb: counters of %d: %w", boss.ID, err)
		}
		f.Advantage = gamedata.AffinityAdvantage(c.Affinity, boss.Affinity)
		f.RarityRank = gamedata.RarityRank(c.Rarity)
		c.Score = f.Score()
		c.Reason = counterReason(f, c.Affinity, boss, weak, immune)
		list = append(list, scored{c, f.RarityRank})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gcsdb: counters of %d: %w", boss.ID, err)
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.rarity != b.rarity {
			return a.rarity > b.rarity
		}
		return a.ID < b.ID
	})
	out := make([]RankedCounter, len(list))
	for i, s := range list {
		out[i] = s.RankedCounter
	}
	return out, nil
}

// counterReason says in words why a champion counters the boss.
func counterReason(f gamedata.CounterFacts, affinity string, boss BossRef, weak, immune string) string {
	var why []string
	if f.DesignerRank > 0 {
		why = append(why, fmt.Sprintf("recommended counter #%d", f.DesignerRank))
	}
	if f.StrongAgainst {
		why = append(why, "strong against "+boss.Name)
	}
	if weak != "" {
		why = append(why, "skills apply "+effectLabels(weak)+" (boss weakness)")
	}
	if immune != "" {
		why = append(why, "note: boss is immune to "+effectLabels(immune))
	}
	switch f.Advantage {
	case 1:
		why = append(why, affinity+" has the advantage over "+boss.Affinity)
	case -1:
		why = append(why, affinity+" is weak against "+boss.Affinity)
	}
	return strings.Join(why, "; ")
}

// sortedList turns "b,a" into "a, b".
// effectLabels is a comma-separated list of effect keys as players read
// them ("Decrease DEF, Stun"), in key order.
func effectLabels(csv string) string {
	xs := strings.Split(csv, ",")
	sort.Strings(xs)
	for i, x := range xs {
		xs[i] = gamedata.EffectLabel(strings.TrimSpace(x), "en")
	}
	return strings.Join(xs, ", ")
}

// Faction is the full view of one faction.
type Faction struct {
	ID          int64             `json:"id"`
	Name        string            `json:"name"`
	Names       map[string]string `json:"names,omitempty"`
	Alignment   string            `json:"alignment"`
	Homeland    string            `json:"homeland"`
	Description string            `json:"description,omitempty"`
	MemberCount int               `json:"member_count"`
	Members     []ChampionSummary `json:"members"`
}

// Faction reads one faction with its members; ok is false when no faction has id.
func (g *Game) Faction(ctx context.Context, id int64) (f Faction, ok bool, err error) {
	err = g.db.QueryRowContext(ctx, `SELECT id, name, alignment, homeland, description FROM factions WHERE id = ?`, id).
		Scan(&f.ID, &f.Name, &f.Alignment, &f.Homeland, &f.Description)
	if errors.Is(err, sql.ErrNoRows) {
		return f, false, nil
	}
	if err != nil {
		return f, false, fmt.Errorf("gcsdb: faction %d: %w", id, err)
	}
	if f.Members, err = g.Members(ctx, id, nil); err != nil {
		return f, false, err
	}
	f.MemberCount = len(f.Members)
	if f.Names, err = g.DisplayNames(ctx, id); err != nil {
		return f, false, err
	}
	return f, true, nil
}

// FactionName returns a faction's name.
func (g *Game) FactionName(ctx context.Context, id int64) (string, error) {
	var name string
	if err := g.db.QueryRowContext(ctx, `SELECT name FROM factions WHERE id = ?`, id).Scan(&name); err != nil {
		return "", fmt.Errorf("gcsdb: faction %d: %w", id, err)
	}
	return name, nil
}

// Drop is a gear set a dungeon drops.
type Drop struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	StatBonus string `json:"stat_bonus"`
	BestFor   string `json:"best_for"`
}

// Dungeon is the full view of one dungeon or campaign area.
type Dungeon struct {
	ID          int64             `json:"id"`
	Name        string            `json:"name"`
	Names       map[string]string `json:"names,omitempty"`
	Kind        string            `json:"kind"`
	Stages      int               `json:"stages"`
	EnergyCost  int               `json:"energy_cost"`
	Boss        *Ref              `json:"boss,omitempty"`
	Drops       []Drop            `json:"drops"`
	Description string            `json:"description,omitempty"`
}

// Dungeon reads one dungeon with its boss and drops; ok is false when no
// dungeon has id.
func (g *Game) Dungeon(ctx context.Context, id int64) (d Dungeon, ok bool, err error) {
	var bid sql.NullInt64
	var bname sql.NullString
	err = g.db.QueryRowContext(ctx, `SELECT d.id, d.name, d.kind, d.stages, d.energy_cost, d.description, b.id, b.name
		FROM dungeons d LEFT JOIN bosses b ON b.id = d.boss_id WHERE d.id = ?`, id).
		Scan(&d.ID, &d.Name, &d.Kind, &d.Stages, &d.EnergyCost, &d.Description, &bid, &bname)
	if errors.Is(err, sql.ErrNoRows) {
		return d, false, nil
	}
	if err != nil {
		return d, false, fmt.Errorf("gcsdb: dungeon %d: %w", id, err)
	}
	if bid.Valid {
		d.Boss = &Ref{bid.Int64, bname.String}
	}
	rows, err := g.db.QueryContext(ctx, `SELECT g.id, g.name, g.stat_bonus, g.best_for FROM dungeon_drops dd
		JOIN gear_sets g ON g.id = dd.gear_set_id WHERE dd.dungeon_id = ? ORDER BY g.id`, id)
	if err != nil {
		return d, false, fmt.Errorf("gcsdb: dungeon drops: %w", err)
	}
	defer rows.Close()
	d.Drops = []Drop{}
	for rows.Next() {
		var x Drop
		if err := rows.Scan(&x.ID, &x.Name, &x.StatBonus, &x.BestFor); err != nil {
			return d, false, fmt.Errorf("gcsdb: dungeon drops: %w", err)
		}
		d.Drops = append(d.Drops, x)
	}
	if err := rows.Err(); err != nil {
		return d, false, fmt.Errorf("gcsdb: dungeon drops: %w", err)
	}
	if d.Names, err = g.DisplayNames(ctx, id); err != nil {
		return d, false, err
	}
	return d, true, nil
}

// GearSet is the full view of one gear set.
type GearSet struct {
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

// GearSet reads one gear set and where it drops; ok is false when no gear
// set has id.
func (g *Game) GearSet(ctx context.Context, id int64) (x GearSet, ok bool, err error) {
	err = g.db.QueryRowContext(ctx, `SELECT id, name, pieces, bonus, stat_bonus, best_for, description FROM gear_sets WHERE id = ?`, id).
		Scan(&x.ID, &x.Name, &x.Pieces, &x.Bonus, &x.StatBonus, &x.BestFor, &x.Description)
	if errors.Is(err, sql.ErrNoRows) {
		return x, false, nil
	}
	if err != nil {
		return x, false, fmt.Errorf("gcsdb: gear set %d: %w", id, err)
	}
	if x.DroppedIn, err = g.refs(ctx, "gear set drops", `SELECT d.id, d.name FROM dungeon_drops dd JOIN dungeons d ON d.id = dd.dungeon_id
		WHERE dd.gear_set_id = ? ORDER BY d.id`, id); err != nil {
		return x, false, err
	}
	if x.Names, err = g.DisplayNames(ctx, id); err != nil {
		return x, false, err
	}
	return x, true, nil
}

// GearRecommendation is a gear set suggested for a champion.
type GearRecommendation struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Pieces    int    `json:"pieces"`
	Bonus     string `json:"bonus"`
	StatBonus string `json:"stat_bonus"`
	FarmIn    string `json:"farm_in,omitempty"`
	Reason    string `json:"reason"`
	score     int
}

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

// RecommendGear ranks gear sets for a champion of role: sets made for the
// role (+3), sets boosting the stat the role scales with (+2), speed (+1);
// the best three, with reasons and where to farm them.
func (g *Game) RecommendGear(ctx context.Context, role string) ([]GearRecommendation, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT g.id, g.name, g.pieces, g.bonus, g.stat_bonus, g.best_for,
		coalesce((SELECT group_concat(d.name, ', ') FROM dungeon_drops dd JOIN dungeons d ON d.id = dd.dungeon_id WHERE dd.gear_set_id = g.id), '')
		FROM gear_sets g ORDER BY g.id`)
	if err != nil {
		return nil, fmt.Errorf("gcsdb: gear sets: %w", err)
	}
	defer rows.Close()
	stat := statForRole(role)
	recs := []GearRecommendation{}
	for rows.Next() {
		var x GearRecommendation
		var bestFor string
		if err := rows.Scan(&x.ID, &x.Name, &x.Pieces, &x.Bonus, &x.StatBonus, &bestFor, &x.FarmIn); err != nil {
			return nil, fmt.Errorf("gcsdb: gear sets: %w", err)
		}
		var why []string
		if strings.EqualFold(bestFor, role) {
			x.score += 3
			why = append(why, "made for "+role+" champions")
		}
		upper := strings.ToUpper(x.StatBonus + " " + x.Bonus)
		if stat != "" && strings.Contains(upper, stat) {
			x.score += 2
			why = append(why, "boosts "+stat+", the stat a "+role+" champion scales with")
		}
		if strings.Contains(upper, "SPD") {
			x.score++
			why = append(why, "adds speed, useful on any champion")
		}
		if x.score == 0 {
			continue
		}
		x.Reason = strings.Join(why, "; ")
		recs = append(recs, x)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gcsdb: gear sets: %w", err)
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].score > recs[j].score })
	return recs[:min(3, len(recs))], nil
}

// MasteryNode is another mastery of the same tree.
type MasteryNode struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Tier int    `json:"tier"`
}

// Mastery is the full view of one mastery.
type Mastery struct {
	ID          int64             `json:"id"`
	Name        string            `json:"name"`
	Names       map[string]string `json:"names,omitempty"`
	Tree        string            `json:"tree"`
	Tier        int               `json:"tier"`
	Description string            `json:"description"`
	SameTree    []MasteryNode     `json:"same_tree"`
}

// Mastery reads one mastery and the rest of its tree; ok is false when no
// mastery has id.
func (g *Game) Mastery(ctx context.Context, id int64) (m Mastery, ok bool, err error) {
	err = g.db.QueryRowContext(ctx, `SELECT id, name, tree, tier, description FROM masteries WHERE id = ?`, id).
		Scan(&m.ID, &m.Name, &m.Tree, &m.Tier, &m.Description)
	if errors.Is(err, sql.ErrNoRows) {
		return m, false, nil
	}
	if err != nil {
		return m, false, fmt.Errorf("gcsdb: mastery %d: %w", id, err)
	}
	rows, err := g.db.QueryContext(ctx, `SELECT id, name, tier FROM masteries WHERE tree = ? AND id <> ? ORDER BY tier, id LIMIT 30`, m.Tree, id)
	if err != nil {
		return m, false, fmt.Errorf("gcsdb: mastery tree: %w", err)
	}
	defer rows.Close()
	m.SameTree = []MasteryNode{}
	for rows.Next() {
		var n MasteryNode
		if err := rows.Scan(&n.ID, &n.Name, &n.Tier); err != nil {
			return m, false, fmt.Errorf("gcsdb: mastery tree: %w", err)
		}
		m.SameTree = append(m.SameTree, n)
	}
	if err := rows.Err(); err != nil {
		return m, false, fmt.Errorf("gcsdb: mastery tree: %w", err)
	}
	if m.Names, err = g.DisplayNames(ctx, id); err != nil {
		return m, false, err
	}
	return m, true, nil
}

// CountersAmong is Counters restricted to the champions in owned (the
// player's roster), best first, up to limit, with how many of the boss's
// counters are owned and the best-ranked counter that is not (nil when
// the player owns every one).
func (g *Game) CountersAmong(ctx context.Context, bossID int64, owned []int64, limit int) ([]RankedCounter, BossRef, int, *RankedCounter, error) {
	_, boss, _, err := g.Counters(ctx, bossID, 1)
	if err != nil {
		return nil, BossRef{}, 0, nil, err
	}
	g.mu.Lock()
	all, ok := g.ranked[bossID]
	g.mu.Unlock()
	if !ok {
		// The ranking was dropped by a data version change in between.
		if all, err = g.rankCounters(ctx, boss); err != nil {
			return nil, BossRef{}, 0, nil, err
		}
	}
	have := make(map[int64]bool, len(owned))
	for _, id := range owned {
		have[id] = true
	}
	limit = min(max(limit, 1), MaxCounters)
	var list []RankedCounter
	var other *RankedCounter
	total := 0
	for i, c := range all {
		if !have[c.ID] {
			if other == nil {
				other = &all[i]
			}
			continue
		}
		total++
		if len(list) < limit {
			list = append(list, c)
		}
	}
	if other != nil {
		o := *other
		other = &o
	}
	return list, boss, total, other, nil
}
