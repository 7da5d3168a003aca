package gcsdb

import (
	"fmt"

	"github.com/gameassist/gameassist/tool"
)

// The read model's views are tool results as they are: each says in one line
// what it holds (tool.Summarizer) and which entities it names (tool.Entities).
var (
	_ tool.Summarizer = Champion{}
	_ tool.Entities   = Champion{}
	_ tool.Summarizer = Boss{}
	_ tool.Entities   = Boss{}
	_ tool.Summarizer = Faction{}
	_ tool.Entities   = Faction{}
	_ tool.Summarizer = Dungeon{}
	_ tool.Entities   = Dungeon{}
	_ tool.Summarizer = GearSet{}
	_ tool.Entities   = GearSet{}
	_ tool.Summarizer = Mastery{}
	_ tool.Entities   = Mastery{}
)

func ref(k Kind, id int64, name string) tool.EntityRef {
	return tool.EntityRef{Kind: string(k), ID: id, Name: name}
}

func refsOf(k Kind, rs []Ref) []tool.EntityRef {
	out := make([]tool.EntityRef, len(rs))
	for i, r := range rs {
		out[i] = ref(k, r.ID, r.Name)
	}
	return out
}

// Summary implements tool.Summarizer.
func (c Champion) Summary() string {
	return fmt.Sprintf("%s is a %s %s %s champion of the %s.", c.Name, c.Rarity, c.Affinity, c.Role, c.Faction.Name)
}

// Entities implements tool.Entities: the champion, its faction, then the
// bosses it is strong or recommended against.
func (c Champion) Entities() []tool.EntityRef {
	out := []tool.EntityRef{ref(KindChampion, c.ID, c.Name), ref(KindFaction, c.Faction.ID, c.Faction.Name)}
	out = append(out, refsOf(KindBoss, c.StrongAgainst)...)
	return append(out, refsOf(KindBoss, c.RecommendedAgainst)...)
}

// Summary implements tool.Summarizer.
func (b Boss) Summary() string {
	s := fmt.Sprintf("%s is a %s boss of %s difficulty with %d HP", b.Name, b.Affinity, b.Difficulty, b.HP)
	if b.Dungeon != nil {
		s += ", found in " + b.Dungeon.Name
	}
	return s + "."
}

// Entities implements tool.Entities: the boss, its dungeon, then its
// recommended counters in rank order.
func (b Boss) Entities() []tool.EntityRef {
	out := []tool.EntityRef{ref(KindBoss, b.ID, b.Name)}
	if b.Dungeon != nil {
		out = append(out, ref(KindDungeon, b.Dungeon.ID, b.Dungeon.Name))
	}
	for _, c := range b.RecommendedCounters {
		out = append(out, ref(KindChampion, c.ID, c.Name))
	}
	return out
}

// Summary implements tool.Summarizer.
func (f Faction) Summary() string {
	return fmt.Sprintf("The %s (%s, from %s) has %d champions.", f.Name, f.Alignment, f.Homeland, f.MemberCount)
}

// Entities implements tool.Entities: the faction, then its members.
func (f Faction) Entities() []tool.EntityRef {
	out := []tool.EntityRef{ref(KindFaction, f.ID, f.Name)}
	for _, m := range f.Members {
		out = append(out, ref(KindChampion, m.ID, m.Name))
	}
	return out
}

// Summary implements tool.Summarizer.
func (d Dungeon) Summary() string {
	s := fmt.Sprintf("%s is a %s with %d stages costing %d energy", d.Name, d.Kind, d.Stages, d.EnergyCost)
	if d.Boss != nil {
		s += "; its boss is " + d.Boss.Name
	}
	return s + "."
}

// Entities implements tool.Entities: the dungeon, its boss, its drops.
func (d Dungeon) Entities() []tool.EntityRef {
	out := []tool.EntityRef{ref(KindDungeon, d.ID, d.Name)}
	if d.Boss != nil {
		out = append(out, ref(KindBoss, d.Boss.ID, d.Boss.Name))
	}
	for _, x := range d.Drops {
		out = append(out, ref(KindGearSet, x.ID, x.Name))
	}
	return out
}

// Summary implements tool.Summarizer.
func (g GearSet) Summary() string {
	return fmt.Sprintf("%s is a %d-piece gear set: %s.", g.Name, g.Pieces, g.Bonus)
}

// Entities implements tool.Entities: the gear set, then where it drops.
func (g GearSet) Entities() []tool.EntityRef {
	return append([]tool.EntityRef{ref(KindGearSet, g.ID, g.Name)}, refsOf(KindDungeon, g.DroppedIn)...)
}

// Summary implements tool.Summarizer.
func (m Mastery) Summary() string {
	return fmt.Sprintf("%s is a tier %d mastery of the %s tree: %s", m.Name, m.Tier, m.Tree, m.Description)
}

// Entities implements tool.Entities: the mastery, then the rest of its tree.
func (m Mastery) Entities() []tool.EntityRef {
	out := []tool.EntityRef{ref(KindMastery, m.ID, m.Name)}
	for _, n := range m.SameTree {
		out = append(out, ref(KindMastery, n.ID, n.Name))
	}
	return out
}
