package wiki

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gameassist/gameassist/gamedata"
)

func championDoc(ix *index, c gamedata.Champion) Document {
	f := ix.factions[c.FactionID]
	effects := championEffects(c)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", c.Name)
	fmt.Fprintf(&b, "%s is %s %s %s %s champion of the %s.\n\n", c.Name, article(c.Rarity), c.Rarity, c.Affinity, c.Role, f.Name)

	b.WriteString("## Biography\n\n")
	b.WriteString(c.Lore + "\n\n")
	fmt.Fprintf(&b, "The %s call %s home; %s fights for them in the %s role.\n\n",
		f.Name, f.Homeland, c.Name, c.Role)

	b.WriteString("## Base Stats\n\n| Stat | Value |\n|---|---|\n")
	s := c.Stats
	for _, row := range []struct {
		k string
		v string
	}{
		{"HP", thousands(s.HP)},
		{"ATK", fmt.Sprint(s.ATK)},
		{"DEF", fmt.Sprint(s.DEF)},
		{"SPD", fmt.Sprint(s.SPD)},
		{"C.RATE", fmt.Sprintf("%d%%", s.CRate)},
		{"C.DMG", fmt.Sprintf("%d%%", s.CDmg)},
		{"RES", fmt.Sprint(s.RES)},
		{"ACC", fmt.Sprint(s.ACC)},
	} {
		fmt.Fprintf(&b, "| %s | %s |\n", row.k, row.v)
	}
	fmt.Fprintf(&b, "\n%s has %s base speed (%d SPD) and %s ATK for %s.\n\n", c.Name,
		speedWord(ix, s.SPD), s.SPD, attackWord(ix, s.ATK), article(c.Rarity)+" "+c.Rarity)

	b.WriteString("## Abilities\n\n")
	for _, sk := range c.Skills {
		kind := fmt.Sprintf("cooldown %d turns", sk.Cooldown)
		if sk.Cooldown == 0 {
			kind = "basic attack"
		}
		fmt.Fprintf(&b, "### %s (skill %d, %s)\n\n%s\n\n", sk.Name, sk.Slot, kind, sk.Description)
		if len(sk.Effects) > 0 {
			var es []string
			for _, e := range sk.Effects {
				es = append(es, effectText(e))
			}
			fmt.Fprintf(&b, "Effects: %s.\n\n", strings.Join(es, ", "))
		}
	}

	b.WriteString("## Recommended Gear\n\n")
	sets, why := gearFor(c, effects)
	for i, k := range sets {
		fmt.Fprintf(&b, "- **%s**: %s\n", ix.gearName(k), why[i])
	}
	tree, masteries := masteriesFor(c, effects)
	var ms []string
	for _, m := range masteries {
		ms = append(ms, ix.masteryName(m))
	}
	fmt.Fprintf(&b, "\nMasteries: take the %s tree, with %s.\n\n", tree, joinAnd(ms))

	b.WriteString("## Strengths and Weaknesses\n\n")
	var es []string
	for _, e := range effects {
		es = append(es, effectText(e))
	}
	if len(es) > 0 {
		fmt.Fprintf(&b, "- Brings %s.\n", joinAnd(es))
	} else {
		fmt.Fprintf(&b, "- Relies on raw damage: none of %s's skills place buffs or debuffs.\n", c.Name)
	}
	if c.Affinity == "Void" {
		b.WriteString("- Void affinity: never at an affinity disadvantage, but never at an advantage either.\n")
	} else {
		fmt.Fprintf(&b, "- %s affinity: strong against %s enemies, weak against %s enemies.\n", c.Affinity, beats(c.Affinity), beatenBy(c.Affinity))
	}
	var strong []string
	for _, id := range c.StrongAgainst {
		strong = append(strong, ix.bosses[id].Name)
	}
	if len(strong) > 0 {
		fmt.Fprintf(&b, "- Counters: %s.\n", joinAnd(strong))
	}
	var blocked []string
	for _, bo := range ix.g.Bosses {
		for _, e := range effects {
			if slices.Contains(bo.Immunities, e) && !gamedata.Counters(c, bo) {
				blocked = append(blocked, fmt.Sprintf("%s (immune to %s)", bo.Name, effectLabel(e)))
				break
			}
		}
	}
	if len(blocked) > 3 {
		blocked = blocked[:3]
	}
	if len(blocked) > 0 {
		fmt.Fprintf(&b, "- Struggles against %s.\n", joinAnd(blocked))
	}
	b.WriteString("\n## Tips\n\n")
	for _, t := range championTips(ix, c, effects) {
		fmt.Fprintf(&b, "- %s\n", t)
	}
	return newDoc(CategoryChampion, c.Key, c.Name, c.Name, c.ID, b.String())
}

func speedWord(ix *index, spd int) string {
	faster := 0
	for _, c := range ix.g.Champions {
		if c.Stats.SPD < spd {
			faster++
		}
	}
	p := faster * 100 / max(1, len(ix.g.Champions))
	switch {
	case p >= 80:
		return "very high"
	case p >= 55:
		return "above-average"
	case p >= 30:
		return "average"
	default:
		return "low"
	}
}

func attackWord(ix *index, atk int) string {
	below := 0
	for _, c := range ix.g.Champions {
		if c.Stats.ATK < atk {
			below++
		}
	}
	p := below * 100 / max(1, len(ix.g.Champions))
	switch {
	case p >= 75:
		return "top-tier"
	case p >= 40:
		return "solid"
	default:
		return "modest"
	}
}

func gearFor(c gamedata.Champion, effects []string) (sets []string, why []string) {
	add := func(k, w string) {
		if !slices.Contains(sets, k) {
			sets = append(sets, k)
			why = append(why, w)
		}
	}
	switch c.Role {
	case "Attack":
		add("warlord", "raises ATK, the stat all of "+c.Name+"'s damage scales from.")
		if c.Stats.CRate >= 20 {
			add("executioner", "critical hits land often enough to make C.DMG worth stacking.")
		} else {
			add("keen-edge", "lifts C.RATE towards the 100% that makes damage reliable.")
		}
		add("bloodfang", "lifesteal keeps "+c.Name+" alive in long boss fights.")
	case "Defense":
		add("ironbark", "DEF is what "+c.Name+"'s damage and survival scale from.")
		if slices.Contains(effects, "counterattack") || slices.Contains(effects, "provoke") {
			add("retaliation", "every hit taken becomes a chance to strike back.")
		} else {
			add("aegis", "a fresh shield each round soaks up the heaviest blows.")
		}
		add("runeward", "RES protects the team's anchor from stuns and freezes.")
	case "HP":
		add("vitality", "HP is the stat "+c.Name+"'s skills scale from.")
		add("everbloom", "steady regeneration turns "+c.Name+" into a wall in long fights.")
		add("cursebreaker", "removes a debuff every turn so "+c.Name+" keeps acting.")
	default:
		add("swiftwind", "SPD lets "+c.Name+" act first and set up the team.")
		if slices.Contains(effects, "heal") {
			add("mender", "boosts every heal "+c.Name+" casts.")
		} else {
			add("thunderclap", "extra chances to stun on every hit.")
		}
	}
	debuffs := 0
	for _, e := range effects {
		if ef, _ := gamedata.EffectByKey(e); ef.Debuff {
			debuffs++
		}
	}
	if debuffs >= 2 {
		add("precision", "ACC helps "+c.Name+"'s debuffs land on high-RES bosses.")
	}
	if slices.Contains(effects, "speed_up") || slices.Contains(effects, "turn_meter_fill") {
		add("swiftwind", "the faster "+c.Name+" acts, the sooner the team gets its speed boost.")
	}
	return sets, why
}

func masteriesFor(c gamedata.Champion, effects []string) (string, []string) {
	switch c.Role {
	case "Attack":
		if slices.Contains(effects, "extra_turn") {
			return "Offense", []string{"blade-discipline", "deadly-precision", "kill-streak", "warmaster"}
		}
		return "Offense", []string{"keen-strike", "heavy-blows", "flawless-execution", "giant-slayer"}
	case "Defense":
		return "Defense", []string{"tough-skin", "iron-skin", "unshakeable", "stoneguard"}
	case "HP":
		return "Defense", []string{"tough-skin", "resilience", "delay-death", "unbreakable-will"}
	default:
		if slices.Contains(effects, "heal") || slices.Contains(effects, "revive") {
			return "Support", []string{"pinpoint-accuracy", "healing-hands", "rapid-response", "timely-intervention"}
		}
		return "Support", []string{"fast-learner", "sniper", "master-hexer", "eagle-eye"}
	}
}

func championTips(ix *index, c gamedata.Champion, effects []string) []string {
	var tips []string
	for _, sk := range c.Skills {
		if sk.Cooldown == 0 {
			continue
		}
		for _, e := range sk.Effects {
			if ef, _ := gamedata.EffectByKey(e); ef.Debuff {
				tips = append(tips, fmt.Sprintf("Open with %s so %s is on the enemy before your damage dealers act.", sk.Name, effectLabel(e)))
				break
			}
		}
		if len(tips) > 0 {
			break
		}
	}
	if len(c.StrongAgainst) > 0 {
		bo := ix.bosses[c.StrongAgainst[0]]
		var why []string
		for _, e := range effects {
			if slices.Contains(bo.Weaknesses, e) {
				why = append(why, effectLabel(e))
			}
		}
		reason := joinAnd(why)
		if gamedata.AffinityAdvantage(c.Affinity, bo.Affinity) == 1 {
			if reason != "" {
				reason += " and "
			}
			reason += "affinity advantage"
		}
		tips = append(tips, fmt.Sprintf("Bring %s to the %s: %s match its weaknesses.", c.Name, bo.Name, reason))
	}
	switch {
	case slices.Contains(c.Tags, "healer"):
		tips = append(tips, "Keep "+c.Name+" alive first: the team's sustain depends on the heals.")
	case slices.Contains(c.Tags, "tank"):
		tips = append(tips, "Put "+c.Name+" in the lead slot and build RES so the front line is not stunned out of the fight.")
	case slices.Contains(c.Tags, "nuker"):
		tips = append(tips, "Let the team's debuffs land before "+c.Name+" fires the big skills.")
	case slices.Contains(c.Tags, "speed_booster"):
		tips = append(tips, "Make "+c.Name+" the fastest champion on the team so the speed boost comes first.")
	default:
		tips = append(tips, choose(c.Key, []string{
			"Level " + c.Name + "'s skills early: the cooldown reductions matter more than the damage.",
			c.Name + " pairs well with a Decrease DEF champion to make every hit count.",
			"Do not neglect ACC on " + c.Name + ": a debuff that misses is a wasted turn.",
			"In the campaign, " + c.Name + " is a reliable pick for farming early gear.",
		}))
	}
	return tips
}

func bossDoc(ix *index, bo gamedata.Boss) Document {
	d := ix.dungeons[bo.DungeonID]
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", bo.Name)
	b.WriteString("## Overview\n\n")
	fmt.Fprintf(&b, "The %s is a %s %s boss found in %s (%s, %d stages). It has %s HP and fights in %d phases. %s\n\n",
		bo.Name, bo.Difficulty, bo.Affinity, d.Name, d.Kind, d.Stages, thousands(bo.HP), len(bo.Phases), bo.Description)
	fmt.Fprintf(&b, "Also known as %s (French) and %s (German).\n\n", bo.Names["fr"], bo.Names["de"])
	b.WriteString("## Phases\n\n")
	for _, p := range bo.Phases {
		fmt.Fprintf(&b, "### Phase %d: %s (%s phase, from %d%% HP)\n\n%s\n\n", p.Number, p.Name, ordinal(p.Number), p.HPThreshold, p.Description)
	}
	b.WriteString("## Mechanics\n\n")
	for _, m := range bo.Mechanics {
		fmt.Fprintf(&b, "- %s\n", m)
	}
	var weak, imm []string
	for _, w := range bo.Weaknesses {
		weak = append(weak, effectText(w))
	}
	for _, w := range bo.Immunities {
		imm = append(imm, effectText(w))
	}
	fmt.Fprintf(&b, "\nWeak to: %s.\n\nImmune to: %s.\n\n", strings.Join(weak, ", "), strings.Join(imm, ", "))
	if bo.Affinity == "Void" {
		b.WriteString("Affinity: Void, so no affinity has an advantage or a disadvantage here.\n\n")
	} else {
		fmt.Fprintf(&b, "Affinity: %s. %s champions hit it with affinity advantage; %s champions are at a disadvantage.\n\n",
			bo.Affinity, beatenBy(bo.Affinity), beats(bo.Affinity))
	}
	b.WriteString("## Recommended Team\n\n")
	for _, id := range bo.RecommendedCounters {
		c := ix.champions[id]
		var why []string
		for _, e := range championEffects(c) {
			if slices.Contains(bo.Weaknesses, e) {
				why = append(why, effectLabel(e))
			}
		}
		reason := "brings " + joinAnd(why)
		if gamedata.AffinityAdvantage(c.Affinity, bo.Affinity) == 1 {
			reason += " with affinity advantage"
		}
		fmt.Fprintf(&b, "- **%s** (%s %s %s, %s): %s.\n", c.Name, c.Rarity, c.Affinity, c.Role, ix.factions[c.FactionID].Name, reason)
	}
	b.WriteString("\n## Tips\n\n")
	for _, t := range bossTips(bo) {
		fmt.Fprintf(&b, "- %s\n", t)
	}
	return newDoc(CategoryBoss, bo.Key, bo.Name, bo.Name, bo.ID, b.String())
}

func bossTips(bo gamedata.Boss) []string {
	tipFor := map[string]string{
		"decrease_def":      "Keep Decrease DEF (defence down) on it at all times; every damage window depends on it.",
		"decrease_atk":      "Decrease ATK (attack down) cuts its damage and keeps your healers ahead.",
		"decrease_spd":      "Decrease SPD (speed down) slows it enough for your team to take extra turns.",
		"weaken":            "Stack Weaken with your strongest attacks for the biggest damage turns.",
		"stun":              "Stuns interrupt its big turns; bring a second stunner in case the first misses.",
		"provoke":           "A Provoke from a sturdy tank keeps it off your damage dealers.",
		"poison":            "Poison deals damage based on max HP, which is ideal against this much HP.",
		"burn":              "HP Burn ticks through its defences every turn.",
		"block_buffs":       "Block Buffs keeps it from buffing itself.",
		"turn_meter_reduce": "Turn Meter Reduction (turn meter drain) delays its dangerous turns.",
		"heal":              "Bring a healer: the fight is long and the damage is constant.",
		"shield":            "Shields soak its heaviest attacks; keep them up before every big hit.",
		"revive":            "A reviver turns a lost champion into a short setback.",
		"cleanse":           "Cleanse your team regularly; its debuffs snowball if left alone.",
		"block_debuffs":     "Block Debuffs before its big turn stops the worst effects from landing.",
		"speed_up":          "Increase SPD on your team lets you act before it does.",
		"increase_def":      "Increase DEF on your team softens its heavy single-target blows.",
		"turn_meter_fill":   "Turn meter boosts keep your team acting despite its control.",
		"extra_turn":        "Extra turns let one champion act twice before it responds.",
		"counterattack":     "Counterattack buffs add free damage every time it hits your team.",
	}
	var tips []string
	for _, w := range bo.Weaknesses {
		if t, ok := tipFor[w]; ok {
			tips = append(tips, t)
		}
	}
	var imm []string
	for _, i := range bo.Immunities {
		imm = append(imm, effectLabel(i))
	}
	tips = append(tips, fmt.Sprintf("Do not bring champions whose main job is %s: it is immune.", joinAnd(imm)))
	switch bo.Difficulty {
	case "Normal":
		tips = append(tips, "A team of well-built Rare champions at level 50 can clear it.")
	case "Hard":
		tips = append(tips, "Aim for at least one Epic or Legendary counter and masteries on your damage dealers.")
	case "Brutal":
		tips = append(tips, "Expect to need full gear sets and speed tuning; test your team on lower stages first.")
	default:
		tips = append(tips, "This is end-game content: fully ascended champions, six-tier masteries and tuned speeds are expected.")
	}
	return tips
}

func dungeonDoc(ix *index, d gamedata.Dungeon) Document {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", d.Name)
	b.WriteString("## Overview\n\n")
	kind := map[string]string{"dungeon": "a dungeon", "campaign": "a campaign area", "raid": "a raid"}[d.Kind]
	fmt.Fprintf(&b, "%s is %s with %d stages. Each run costs %d energy. %s\n\n", d.Name, kind, d.Stages, d.EnergyCost, d.Description)
	fmt.Fprintf(&b, "Also known as %s (French) and %s (German).\n\n", d.Names["fr"], d.Names["de"])
	b.WriteString("## Boss\n\n")
	if bo, ok := ix.bosses[d.BossID]; ok {
		var counters []string
		for _, id := range bo.RecommendedCounters[:min(3, len(bo.RecommendedCounters))] {
			counters = append(counters, ix.champions[id].Name)
		}
		fmt.Fprintf(&b, "The final stage is guarded by the %s, a %s %s boss with %d phases. Good counters include %s; see the %s guide for the full team.\n\n",
			bo.Name, bo.Difficulty, bo.Affinity, len(bo.Phases), joinAnd(counters), bo.Name)
	} else {
		b.WriteString("This area has no boss: its stages are waves of regular enemies, which makes it a relaxed place to level champions.\n\n")
	}
	b.WriteString("## Rewards\n\n")
	for _, id := range d.Drops {
		s := ix.gear[id]
		fmt.Fprintf(&b, "- **%s** gear (%d-piece set, %s)\n", s.Name, s.Pieces, s.StatBonus)
	}
	b.WriteString("\nHigher stages drop gear of higher rarity and more stars.\n\n")
	b.WriteString("## Tips\n\n")
	switch d.Kind {
	case "campaign":
		fmt.Fprintf(&b, "- At %d energy per run, %s is an efficient place to level new champions.\n", d.EnergyCost, d.Name)
		b.WriteString("- Clear every stage on all difficulties for the one-time gem rewards.\n")
	case "raid":
		b.WriteString("- Raids also need a raid key, earned from daily quests, in addition to energy.\n")
		b.WriteString("- Bring a full team of six-tier mastery champions; retreating early keeps your key.\n")
	default:
		fmt.Fprintf(&b, "- Farm the lower stages of %s on auto once your team clears them reliably.\n", d.Name)
		b.WriteString("- Use the gear from the lower stages to clear the higher ones.\n")
	}
	return newDoc(CategoryDungeon, d.Key, d.Name, d.Name, d.ID, b.String())
}

func factionDoc(ix *index, f gamedata.Faction) Document {
	var members []gamedata.Champion
	for _, c := range ix.g.Champions {
		if c.FactionID == f.ID {
			members = append(members, c)
		}
	}
	sort.SliceStable(members, func(i, j int) bool {
		ri, rj := gamedata.RarityRank(members[i].Rarity), gamedata.RarityRank(members[j].Rarity)
		if ri != rj {
			return ri > rj
		}
		return members[i].ID < members[j].ID
	})
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", f.Name)
	b.WriteString("## Overview\n\n")
	fmt.Fprintf(&b, "%s\n\nAlignment: %s. Also known as %s (French) and %s (German).\n\n", f.Description, f.Alignment, f.Names["fr"], f.Names["de"])
	b.WriteString("## Homeland\n\n")
	fmt.Fprintf(&b, "The %s hail from %s. %s\n\n", f.Name, f.Homeland, choose(f.Key, []string{
		"Travellers say the land shapes its people as much as any training.",
		"Its borders have been contested for centuries, and every champion carries that memory.",
		"Few outsiders are welcome there, and fewer still leave unchanged.",
	}))
	b.WriteString("## Champions\n\n")
	for _, r := range []string{"Legendary", "Epic", "Rare", "Uncommon", "Common"} {
		var names []string
		for _, c := range members {
			if c.Rarity == r {
				names = append(names, c.Name)
			}
		}
		if len(names) > 0 {
			fmt.Fprintf(&b, "- %s: %s\n", r, strings.Join(names, ", "))
		}
	}
	b.WriteString("\n## Playstyle\n\n")
	aff, role := map[string]int{}, map[string]int{}
	for _, c := range members {
		aff[c.Affinity]++
		role[c.Role]++
	}
	fmt.Fprintf(&b, "The %s field %d champions, mostly %s affinity and most often in the %s role. %s\n",
		f.Name, len(members), top(aff, gamedata.Affinities()), top(role, gamedata.Roles()),
		"Faction crypts and faction wars reward a roster with several champions of the same faction.")
	return newDoc(CategoryFaction, f.Key, f.Name, f.Name, f.ID, b.String())
}

// top returns the key with the highest count, ties broken by order.
func top(counts map[string]int, order []string) string {
	best, n := "", -1
	for _, k := range order {
		if counts[k] > n {
			best, n = k, counts[k]
		}
	}
	return best
}
