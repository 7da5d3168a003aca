package gamedata

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// GameVersion is the content version written into game.json; it matches the
// newest patch note of the sample wiki.
const GameVersion = "1.5.0"

// ChampionCount is how many champions Generate creates.
const ChampionCount = 160

// Generate builds the whole sample game from seed. It is deterministic: the
// same seed gives an identical Game (no clock, no map iteration order), so
// data/game.json can be checked against a fresh run.
func Generate(seed int64) Game {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	g := Game{Version: GameVersion, Seed: seed}
	g.Factions = genFactions()
	g.GearSets = genGearSets()
	g.Masteries = genMasteries()
	g.Dungeons, g.Bosses = genDungeonsAndBosses(rng, g.GearSets)
	g.Champions = genChampions(rng, g.Factions)
	linkCounters(rng, &g)
	addLore(rng, &g)
	return g
}

func names3(en, fr, de string) Names { return Names{"en": en, "fr": fr, "de": de} }

func genFactions() []Faction {
	var out []Faction
	for i, s := range factionSeeds() {
		out = append(out, Faction{
			ID: FactionIDMin + i, Key: s.key, Name: s.en, Names: names3(s.en, s.fr, s.de),
			Alignment: s.alignment, Homeland: s.homeland, Description: s.description,
		})
	}
	return out
}

func genGearSets() []GearSet {
	var out []GearSet
	for i, s := range gearSeeds() {
		out = append(out, GearSet{
			ID: GearSetIDMin + i, Key: s.key, Name: s.en, Names: names3(s.en, s.fr, s.de),
			Pieces: s.pieces, Bonus: s.bonus, StatBonus: s.statBonus, BestFor: s.bestFor,
			Description: fmt.Sprintf("The %s set grants %s for every %d pieces worn. %s Best suited to %s champions.",
				s.en, s.statBonus, s.pieces, s.bonus, s.bestFor),
		})
	}
	return out
}

func genMasteries() []Mastery {
	var out []Mastery
	for i, s := range masterySeeds() {
		out = append(out, Mastery{
			ID: MasteryIDMin + i, Key: s.key, Name: s.en, Names: names3(s.en, s.fr, s.de),
			Tree: s.tree, Tier: s.tier, Description: s.desc,
		})
	}
	return out
}

func genDungeonsAndBosses(rng *rand.Rand, gear []GearSet) ([]Dungeon, []Boss) {
	dseeds := dungeonSeeds()
	bseeds := bossSeeds()
	dungeonID := map[string]int{}
	for i, d := range dseeds {
		dungeonID[d.key] = DungeonIDMin + i
	}
	bossOf := map[string]int{}
	var bosses []Boss
	for i, b := range bseeds {
		id := BossIDMin + i
		bossOf[b.dungeon] = id
		var phases []BossPhase
		for j, p := range b.phases {
			phases = append(phases, BossPhase{Number: j + 1, Name: p.name, HPThreshold: p.threshold, Description: p.desc})
		}
		bosses = append(bosses, Boss{
			ID: id, Key: b.key, Name: b.en, Names: names3(b.en, b.fr, b.de),
			Affinity: b.affinity, DungeonID: dungeonID[b.dungeon], Difficulty: b.difficulty,
			HP: bossHP(rng, b.difficulty), Phases: phases,
			Mechanics:  slices.Clone(b.mechanics),
			Weaknesses: slices.Clone(b.weaknesses), Immunities: slices.Clone(b.immunities),
			Description: b.description,
		})
	}
	var twoPiece, fourPiece []int
	for _, s := range gear {
		if s.Pieces == 2 {
			twoPiece = append(twoPiece, s.ID)
		} else {
			fourPiece = append(fourPiece, s.ID)
		}
	}
	var dungeons []Dungeon
	for i, d := range dseeds {
		dg := Dungeon{
			ID: DungeonIDMin + i, Key: d.key, Name: d.en, Names: names3(d.en, d.fr, d.de),
			Kind: d.kind, BossID: bossOf[d.key], Description: d.description,
		}
		switch d.kind {
		case "campaign":
			dg.Stages = 7 + rng.IntN(6)
			dg.EnergyCost = 4 + rng.IntN(5)
			dg.Drops = pick(rng, twoPiece, 1+rng.IntN(2))
		case "raid":
			dg.Stages = 1 + rng.IntN(3)
			dg.EnergyCost = 20 + 2*rng.IntN(3)
			dg.Drops = pick(rng, fourPiece, 2+rng.IntN(2))
		default:
			dg.Stages = 20 + rng.IntN(6)
			dg.EnergyCost = 8 + rng.IntN(9)
			dg.Drops = append(pick(rng, twoPiece, 1+rng.IntN(2)), pick(rng, fourPiece, 1+rng.IntN(2))...)
			slices.Sort(dg.Drops)
		}
		dungeons = append(dungeons, dg)
	}
	return dungeons, bosses
}

func bossHP(rng *rand.Rand, difficulty string) int {
	lo, span := 800_000, 700_000
	switch difficulty {
	case "Hard":
		lo, span = 2_000_000, 2_000_000
	case "Brutal":
		lo, span = 5_000_000, 4_000_000
	case "Nightmare":
		lo, span = 15_000_000, 25_000_000
	}
	return (lo + rng.IntN(span)) / 10_000 * 10_000
}

// pick returns n distinct elements of from, sorted.
func pick(rng *rand.Rand, from []int, n int) []int {
	perm := rng.Perm(len(from))
	n = min(n, len(from))
	out := make([]int, 0, n)
	for _, i := range perm[:n] {
		out = append(out, from[i])
	}
	slices.Sort(out)
	return out
}

func genChampions(rng *rand.Rand, factions []Faction) []Champion {
	seeds := factionSeeds()
	used := map[string]bool{"kaelith": true}
	usedSkill := map[string]bool{}
	out := []Champion{kaelith(factions[0].ID)}
	for _, s := range out[0].Skills {
		usedSkill[s.Name] = true
	}
	// Spread factions evenly, then shuffle their order.
	factionOrder := make([]int, 0, ChampionCount)
	for i := 1; i < ChampionCount; i++ {
		factionOrder = append(factionOrder, i%len(factions))
	}
	rng.Shuffle(len(factionOrder), func(i, j int) { factionOrder[i], factionOrder[j] = factionOrder[j], factionOrder[i] })
	roles := Roles()
	for i := 1; i < ChampionCount; i++ {
		fi := factionOrder[i-1]
		name := champName(rng, used)
		c := Champion{
			ID: ChampionIDMin + i, Key: strings.ToLower(name), Name: name, Names: names3(name, name, name),
			FactionID: factions[fi].ID,
		}
		c.Rarity = rollRarity(rng)
		if rng.IntN(10) < 6 {
			fav := seeds[fi].affinities
			c.Affinity = fav[rng.IntN(len(fav))]
		} else {
			c.Affinity = Affinities()[rng.IntN(4)]
		}
		c.Role = roles[(i+rng.IntN(2))%len(roles)]
		if rng.IntN(5) == 0 {
			c.Role = roles[rng.IntN(len(roles))]
		}
		c.Stats = rollStats(rng, c.Role, c.Rarity)
		c.Skills = genSkills(rng, c, usedSkill)
		c.Tags = tagsOf(c)
		out = append(out, c)
	}
	return out
}

func rollRarity(rng *rand.Rand) string {
	r := rng.IntN(100)
	switch {
	case r < 15:
		return "Common"
	case r < 35:
		return "Uncommon"
	case r < 65:
		return "Rare"
	case r < 87:
		return "Epic"
	default:
		return "Legendary"
	}
}

func champName(rng *rand.Rand, used map[string]bool) string {
	on, mid, end := nameOnsets(), nameMiddles(), nameEndings()
	for {
		n := on[rng.IntN(len(on))] + mid[rng.IntN(len(mid))] + end[rng.IntN(len(end))]
		if len(n) < 4 || len(n) > 10 || !pronounceable(n) || used[strings.ToLower(n)] {
			continue
		}
		used[strings.ToLower(n)] = true
		return n
	}
}

func isVowel(b byte) bool { return strings.IndexByte("aeiouy", b|0x20) >= 0 }

// pronounceable rejects three vowels or three consonants in a row and
// awkward doubled letters.
func pronounceable(n string) bool {
	l := strings.ToLower(n)
	run, prevV := 0, false
	for i := 0; i < len(l); i++ {
		v := isVowel(l[i])
		if i > 0 && v == prevV {
			run++
		} else {
			run = 1
		}
		prevV = v
		if run >= 3 {
			return false
		}
		if i > 0 && l[i] == l[i-1] && strings.IndexByte("lnrs", l[i]) < 0 {
			return false
		}
	}
	return true
}

func rollStats(rng *rand.Rand, role, rarity string) Stats {
	rk := float64(RarityRank(rarity))
	scale := 1 + 0.08*rk
	jit := func(base float64, spread int) int {
		return int(base*scale) + rng.IntN(spread) - spread/2
	}
	hpM, atkM, defM := 1.0, 1.0, 1.0
	switch role {
	case "Attack":
		hpM, atkM, defM = 0.85, 1.3, 0.85
	case "Defense":
		hpM, atkM, defM = 1.0, 0.85, 1.35
	case "HP":
		hpM, atkM, defM = 1.3, 0.85, 0.95
	case "Support":
		hpM, atkM, defM = 0.95, 0.95, 1.0
	}
	s := Stats{
		HP:    jit(14000*hpM, 1500) / 15 * 15,
		ATK:   jit(850*atkM, 120),
		DEF:   jit(850*defM, 120),
		SPD:   92 + int(rk)*2 + rng.IntN(8),
		CRate: 15,
		CDmg:  50,
		RES:   30 + 5*rng.IntN(5),
		ACC:   5 * rng.IntN(3),
	}
	switch role {
	case "Attack":
		s.CRate = 15 + 5*rng.IntN(2)
		s.CDmg = 57 + 6*rng.IntN(2)
	case "Support":
		s.SPD += 5
		s.ACC += 10
	case "Defense":
		s.RES += 10
	}
	return s
}

// allyEffect reports whether an effect key benefits the champion's side.
func allyEffect(k string) bool {
	e, _ := EffectByKey(k)
	return !e.Debuff
}

func genSkills(rng *rand.Rand, c Champion, usedSkill map[string]bool) []Skill {
	n := 3
	if RarityRank(c.Rarity) >= 3 || (RarityRank(c.Rarity) == 2 && rng.IntN(2) == 0) {
		n = 4
	}
	pool := roleEffects(c.Role)
	have := map[string]bool{}
	draw := func() string {
		for range 20 {
			e := pool[rng.IntN(len(pool))]
			if !have[e] {
				have[e] = true
				return e
			}
		}
		return ""
	}
	var skills []Skill
	for slot := 1; slot <= n; slot++ {
		var effects []string
		cd := 0
		switch slot {
		case 1:
			var debuffs []string
			for _, e := range pool {
				if !allyEffect(e) && !have[e] {
					debuffs = append(debuffs, e)
				}
			}
			if len(debuffs) > 0 && rng.IntN(10) < 5 {
				e := debuffs[rng.IntN(len(debuffs))]
				have[e] = true
				effects = append(effects, e)
			}
		default:
			cd = 2 + slot + rng.IntN(2)
			k := 1 + rng.IntN(2)
			for range k {
				if e := draw(); e != "" {
					effects = append(effects, e)
				}
			}
		}
		slices.Sort(effects)
		name := skillName(rng, c, slot, usedSkill)
		skills = append(skills, Skill{
			Slot: slot, Name: name, Cooldown: cd,
			Description: skillDescription(rng, c, slot, effects), Effects: effects,
		})
	}
	return skills
}

func skillName(rng *rand.Rand, c Champion, slot int, used map[string]bool) string {
	adj := skillAdjectives(c.Affinity)
	nouns := skillNouns()
	if slot == 1 {
		nouns = basicNouns()
	}
	for range 60 {
		n := adj[rng.IntN(len(adj))] + " " + nouns[rng.IntN(len(nouns))]
		if !used[n] {
			used[n] = true
			return n
		}
	}
	n := c.Name + "'s " + nouns[rng.IntN(len(nouns))]
	for i := 2; used[n]; i++ {
		n = fmt.Sprintf("%s's %s %s", c.Name, nouns[rng.IntN(len(nouns))], roman(i))
	}
	used[n] = true
	return n
}

func roman(i int) string {
	r := []string{"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"}
	if i < len(r) {
		return r[i]
	}
	return fmt.Sprint(i)
}

func skillDescription(rng *rand.Rand, c Champion, slot int, effects []string) string {
	attacks := true
	if len(effects) > 0 && (c.Role == "Support" || c.Role == "HP") && slot > 1 {
		attacks = false
		for _, e := range effects {
			if !allyEffect(e) {
				attacks = true
			}
		}
	}
	var parts []string
	if attacks {
		targets := []string{"Attacks one enemy.", "Attacks all enemies.", "Attacks 1 enemy 2 times.", "Attacks 3 random enemies."}
		t := targets[0]
		if slot > 1 {
			t = targets[rng.IntN(len(targets))]
		} else if rng.IntN(3) == 0 {
			t = targets[2]
		}
		parts = append(parts, t)
	}
	chance := []int{50, 60, 75, 100}
	for _, e := range effects {
		ch := chance[rng.IntN(len(chance))]
		turns := 1 + rng.IntN(2)
		var s string
		switch e {
		case "decrease_def":
			s = fmt.Sprintf("Has a %d%% chance of placing a 60%% [Decrease DEF] debuff for %d turns.", ch, turns)
		case "decrease_atk":
			s = fmt.Sprintf("Has a %d%% chance of placing a 50%% [Decrease ATK] debuff for %d turns.", ch, turns)
		case "decrease_spd":
			s = fmt.Sprintf("Has a %d%% chance of placing a 30%% [Decrease SPD] debuff for %d turns.", ch, turns)
		case "weaken":
			s = fmt.Sprintf("Has a %d%% chance of placing a 25%% [Weaken] debuff for %d turns.", ch, turns)
		case "stun":
			s = fmt.Sprintf("Has a %d%% chance of placing a [Stun] debuff for 1 turn.", ch)
		case "freeze":
			s = fmt.Sprintf("Has a %d%% chance of placing a [Freeze] debuff for 1 turn.", ch)
		case "provoke":
			s = fmt.Sprintf("Places a [Provoke] debuff on the targets for %d turns.", turns)
		case "poison":
			s = fmt.Sprintf("Places two 5%% [Poison] debuffs for %d turns.", turns+1)
		case "burn":
			s = fmt.Sprintf("Has a %d%% chance of placing an [HP Burn] debuff for %d turns.", ch, turns+1)
		case "block_buffs":
			s = fmt.Sprintf("Places a [Block Buffs] debuff for %d turns.", turns)
		case "turn_meter_reduce":
			s = fmt.Sprintf("Decreases the target's Turn Meter by %d%%.", 15+5*rng.IntN(4))
		case "heal":
			s = fmt.Sprintf("Heals all allies by %d%% of this champion's MAX HP.", 10+5*rng.IntN(3))
		case "shield":
			s = fmt.Sprintf("Places a [Shield] on all allies equal to %d%% of this champion's MAX HP for 2 turns.", 15+5*rng.IntN(3))
		case "revive":
			s = fmt.Sprintf("Revives a dead ally with %d%% HP.", 30+10*rng.IntN(3))
		case "cleanse":
			s = "Removes all debuffs from all allies."
		case "block_debuffs":
			s = fmt.Sprintf("Places a [Block Debuffs] buff on all allies for %d turns.", turns)
		case "speed_up":
			s = fmt.Sprintf("Places a 30%% [Increase SPD] buff on all allies for %d turns.", turns+1)
		case "increase_atk":
			s = fmt.Sprintf("Places a 50%% [Increase ATK] buff on all allies for %d turns.", turns+1)
		case "increase_def":
			s = fmt.Sprintf("Places a 60%% [Increase DEF] buff on all allies for %d turns.", turns+1)
		case "turn_meter_fill":
			s = fmt.Sprintf("Fills the Turn Meter of all allies by %d%%.", 15+5*rng.IntN(4))
		case "extra_turn":
			s = "Grants an [Extra Turn] if this attack kills a target or lands a critical hit."
		case "counterattack":
			s = "Places a [Counterattack] buff on all allies for 2 turns."
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		parts = append(parts, "Attacks one enemy.")
	}
	if slot == 1 && len(effects) == 0 {
		parts = append(parts, "Deals bonus damage if the target is under a debuff.")
	}
	return strings.ReplaceAll(strings.Join(parts, " "), "for 1 turns", "for 1 turn")
}

func tagsOf(c Champion) []string {
	has := map[string]bool{}
	aoe := false
	for _, s := range c.Skills {
		for _, e := range s.Effects {
			has[e] = true
		}
		if strings.Contains(s.Description, "all enemies") {
			aoe = true
		}
	}
	debuffs := 0
	for _, e := range Effects() {
		if e.Debuff && has[e.Key] {
			debuffs++
		}
	}
	var tags []string
	if aoe {
		tags = append(tags, "aoe")
	}
	if debuffs >= 2 {
		tags = append(tags, "debuffer")
	}
	if has["heal"] {
		tags = append(tags, "healer")
	}
	if has["revive"] {
		tags = append(tags, "reviver")
	}
	if (c.Role == "Defense" || c.Role == "HP") && (has["provoke"] || has["shield"] || has["increase_def"]) {
		tags = append(tags, "tank")
	}
	if has["speed_up"] || has["turn_meter_fill"] {
		tags = append(tags, "speed_booster")
	}
	if c.Role == "Attack" && (has["extra_turn"] || has["increase_atk"]) {
		tags = append(tags, "nuker")
	}
	if has["stun"] || has["freeze"] || has["provoke"] {
		tags = append(tags, "crowd_control")
	}
	slices.Sort(tags)
	return tags
}

func kaelith(factionID int) Champion {
	c := Champion{
		ID: ChampionIDMin, Key: "kaelith", Name: "Kaelith", Names: names3("Kaelith", "Kaelith", "Kaelith"),
		FactionID: factionID, Rarity: "Legendary", Affinity: "Magic", Role: "Attack",
		Stats: Stats{HP: 15525, ATK: 1487, DEF: 934, SPD: 107, CRate: 20, CDmg: 63, RES: 40, ACC: 20},
		Skills: []Skill{
			{
				Slot: 1, Name: "Dawnblade Cut", Cooldown: 0,
				Description: "Attacks one enemy 2 times. Each hit has a 60% chance of placing a 60% [Decrease DEF] debuff for 2 turns.",
				Effects:     []string{"decrease_def"},
			},
			{
				Slot: 2, Name: "Emberwake", Cooldown: 3,
				Description: "Attacks all enemies. Has a 75% chance of placing an [HP Burn] debuff for 3 turns. Places a 50% [Increase ATK] buff on all allies for 2 turns.",
				Effects:     []string{"burn", "increase_atk"},
			},
			{
				Slot: 3, Name: "Veil of Cinders", Cooldown: 4,
				Description: "Attacks one enemy. Places a [Block Buffs] debuff for 2 turns. Grants an [Extra Turn] if this attack kills a target or lands a critical hit.",
				Effects:     []string{"block_buffs", "extra_turn"},
			},
			{
				Slot: 4, Name: "Starfall Verdict", Cooldown: 5,
				Description: "Attacks all enemies 3 times. Has a 75% chance of placing a 25% [Weaken] debuff and a 30% [Decrease SPD] debuff for 2 turns. Damage increases by 10% for each debuff on the target.",
				Effects:     []string{"decrease_spd", "weaken"},
			},
		},
		Lore: "Kaelith was the youngest blade-priest ever to tend the eternal forge of the Cinder Marches. " +
			"When the Fire Knight broke his oath and seized the forge-gate, she walked into the flames with nothing but the Dawnblade and came out carrying his shield-sigil. " +
			"The Emberguard Legion now follows her banner into every battle that matters.",
	}
	c.Tags = tagsOf(c)
	return c
}

// CounterFacts are what the game's one counter-scoring rule weighs about a
// champion against a boss. The generator knows only the fit (weaknesses,
// immunities, affinity, rarity); the read model (gcsdb) adds the designers'
// recommended rank and the strong-against list it stored.
type CounterFacts struct {
	// DesignerRank is the champion's place among the boss's recommended
	// counters, 1 being best; 0 when it is not one.
	DesignerRank int
	// StrongAgainst is set when the champion is listed strong against the boss.
	StrongAgainst bool
	// WeaknessHits counts boss weaknesses its skills apply that the boss is
	// not also immune to.
	WeaknessHits int
	// ImmuneHits counts effects of its skills the boss is immune to.
	ImmuneHits int
	// Advantage is AffinityAdvantage(champion, boss): 1, 0 or -1.
	Advantage int
	// RarityRank is RarityRank of the champion's rarity.
	RarityRank int
}

// Score is the one counter-scoring rule: a recommended counter gets 100
// minus its rank (rank capped at 50), strong-against 40, each weakness hit
// 10, affinity advantage 6 (disadvantage -6), rarity 2 per rank and each
// immune effect -3. Higher is better; ties go to higher rarity, then lower id.
func (f CounterFacts) Score() int {
	s := f.WeaknessHits*10 + f.Advantage*6 + f.RarityRank*2 - f.ImmuneHits*3
	if f.DesignerRank > 0 {
		s += 100 - min(f.DesignerRank, 50)
	}
	if f.StrongAgainst {
		s += 40
	}
	return s
}

// Fit returns the content facts of champion c against boss b (no designer
// rank, not strong-against: those are what Generate derives from the fit).
func Fit(c Champion, b Boss) CounterFacts {
	effects := map[string]bool{}
	for _, s := range c.Skills {
		for _, e := range s.Effects {
			effects[e] = true
		}
	}
	f := CounterFacts{Advantage: AffinityAdvantage(c.Affinity, b.Affinity), RarityRank: RarityRank(c.Rarity)}
	for _, w := range uniqStrings(b.Weaknesses) {
		if effects[w] && !contains(b.Immunities, w) {
			f.WeaknessHits++
		}
	}
	for _, im := range uniqStrings(b.Immunities) {
		if effects[im] {
			f.ImmuneHits++
		}
	}
	return f
}

func uniqStrings(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// CounterScore rates how well champion c fits against boss b by the one
// rule (CounterFacts.Score) on its fit alone, and returns how many of the
// boss's weaknesses it hits. Generate uses it for strong_against and
// recommended_counters.
func CounterScore(c Champion, b Boss) (score, matches int) {
	f := Fit(c, b)
	return f.Score(), f.WeaknessHits
}

// Counters reports whether champion c is a sensible counter to boss b: two
// matching weaknesses without an affinity disadvantage, or one with an
// affinity advantage.
func Counters(c Champion, b Boss) bool {
	_, m := CounterScore(c, b)
	adv := AffinityAdvantage(c.Affinity, b.Affinity)
	return (m >= 2 && adv >= 0) || (m >= 1 && adv == 1) || m >= 3
}

func linkCounters(rng *rand.Rand, g *Game) {
	for ci := range g.Champions {
		c := &g.Champions[ci]
		c.StrongAgainst = []int{}
		for _, b := range g.Bosses {
			if Counters(*c, b) {
				c.StrongAgainst = append(c.StrongAgainst, b.ID)
			}
		}
	}
	for bi := range g.Bosses {
		b := &g.Bosses[bi]
		type cand struct {
			id, score int
			role      string
		}
		var cs []cand
		for _, c := range g.Champions {
			if slices.Contains(c.StrongAgainst, b.ID) {
				s, _ := CounterScore(c, *b)
				cs = append(cs, cand{c.ID, s, c.Role})
			}
		}
		// Greedy picks; each champion of an already picked role counts
		// against the next of that role, so a team is not all supports.
		n := min(5+rng.IntN(4), len(cs))
		b.RecommendedCounters = []int{}
		roles := map[string]int{}
		for range n {
			best, bestScore := -1, 0
			for i, x := range cs {
				s := x.score - 7*roles[x.role]
				if best < 0 || s > bestScore || (s == bestScore && x.id < cs[best].id) {
					best, bestScore = i, s
				}
			}
			b.RecommendedCounters = append(b.RecommendedCounters, cs[best].id)
			roles[cs[best].role]++
			cs = slices.Delete(cs, best, best+1)
		}
	}
}

func addLore(rng *rand.Rand, g *Game) {
	faction := map[int]Faction{}
	for _, f := range g.Factions {
		faction[f.ID] = f
	}
	boss := map[int]Boss{}
	for _, b := range g.Bosses {
		boss[b.ID] = b
	}
	origins := loreOrigins()
	for i := range g.Champions {
		c := &g.Champions[i]
		if c.Lore != "" {
			continue
		}
		f := faction[c.FactionID]
		s1 := fmt.Sprintf(origins[rng.IntN(len(origins))], c.Name, f.Homeland, f.Name)
		roles := loreRoles(c.Role)
		weapons := weaponOf(c.Affinity)
		s2 := fmt.Sprintf(roles[rng.IntN(len(roles))], weapons[rng.IntN(len(weapons))])
		lore := s1 + " " + s2
		if len(c.StrongAgainst) > 0 && rng.IntN(10) < 6 {
			b := boss[c.StrongAgainst[rng.IntN(len(c.StrongAgainst))]]
			lore += fmt.Sprintf(" %s has sworn to bring down the %s one day.", c.Name, b.Name)
		}
		c.Lore = lore
	}
}
