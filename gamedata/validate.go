package gamedata

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Validate checks a Game read from outside (game.json is hostile input):
// ids unique and in their ranges, names present and unique per kind,
// enumerations known, and every cross reference resolvable. It returns all
// problems found, joined, or nil.
func Validate(g Game) error {
	v := &validator{ids: map[int]string{}}
	names := map[string]map[string]bool{}
	checkNames := func(kind string, id int, name string, n Names) {
		if strings.TrimSpace(name) == "" {
			v.addf("%s %d: empty name", kind, id)
		}
		if names[kind] == nil {
			names[kind] = map[string]bool{}
		}
		low := strings.ToLower(name)
		if names[kind][low] {
			v.addf("%s %d: duplicate name %q", kind, id, name)
		}
		names[kind][low] = true
		if strings.TrimSpace(n["en"]) == "" {
			v.addf("%s %d: missing en display name", kind, id)
		}
		for loc, s := range n {
			if !slices.Contains(Locales(), loc) {
				v.addf("%s %d: unknown locale %q in names", kind, id, loc)
			} else if strings.TrimSpace(s) == "" {
				v.addf("%s %d: empty %s display name", kind, id, loc)
			}
		}
	}

	factions := map[int]bool{}
	for _, f := range g.Factions {
		v.id("faction", f.ID, FactionIDMin, FactionIDMax)
		checkNames("faction", f.ID, f.Name, f.Names)
		factions[f.ID] = true
	}
	gear := map[int]bool{}
	for _, s := range g.GearSets {
		v.id("gear set", s.ID, GearSetIDMin, GearSetIDMax)
		checkNames("gear set", s.ID, s.Name, s.Names)
		if s.Pieces != 2 && s.Pieces != 4 {
			v.addf("gear set %d: pieces %d, want 2 or 4", s.ID, s.Pieces)
		}
		gear[s.ID] = true
	}
	for _, m := range g.Masteries {
		v.id("mastery", m.ID, MasteryIDMin, MasteryIDMax)
		checkNames("mastery", m.ID, m.Name, m.Names)
		v.enum("mastery", m.ID, "tree", m.Tree, MasteryTrees())
	}
	bosses := map[int]Boss{}
	for _, b := range g.Bosses {
		bosses[b.ID] = b
	}
	dungeons := map[int]Dungeon{}
	for _, d := range g.Dungeons {
		dungeons[d.ID] = d
	}
	champions := map[int]Champion{}
	for _, c := range g.Champions {
		champions[c.ID] = c
	}

	for _, c := range g.Champions {
		v.id("champion", c.ID, ChampionIDMin, ChampionIDMax)
		checkNames("champion", c.ID, c.Name, c.Names)
		if !factions[c.FactionID] {
			v.addf("champion %d: faction_id %d does not resolve", c.ID, c.FactionID)
		}
		v.enum("champion", c.ID, "rarity", c.Rarity, Rarities())
		v.enum("champion", c.ID, "affinity", c.Affinity, Affinities())
		v.enum("champion", c.ID, "role", c.Role, Roles())
		if len(c.Skills) == 0 {
			v.addf("champion %d: no skills", c.ID)
		}
		for _, s := range c.Skills {
			if strings.TrimSpace(s.Name) == "" || s.Slot < 1 || s.Slot > 4 || s.Cooldown < 0 {
				v.addf("champion %d: invalid skill in slot %d", c.ID, s.Slot)
			}
			for _, e := range s.Effects {
				if _, ok := EffectByKey(e); !ok {
					v.addf("champion %d: skill %q: unknown effect %q", c.ID, s.Name, e)
				}
			}
		}
		for _, b := range c.StrongAgainst {
			if _, ok := bosses[b]; !ok {
				v.addf("champion %d: strong_against boss %d does not resolve", c.ID, b)
			}
		}
	}
	for _, b := range g.Bosses {
		v.id("boss", b.ID, BossIDMin, BossIDMax)
		checkNames("boss", b.ID, b.Name, b.Names)
		v.enum("boss", b.ID, "affinity", b.Affinity, Affinities())
		v.enum("boss", b.ID, "difficulty", b.Difficulty, Difficulties())
		if d, ok := dungeons[b.DungeonID]; !ok {
			v.addf("boss %d: dungeon_id %d does not resolve", b.ID, b.DungeonID)
		} else if d.BossID != b.ID {
			v.addf("boss %d: dungeon %d names boss %d", b.ID, d.ID, d.BossID)
		}
		if len(b.Phases) < 1 {
			v.addf("boss %d: no phases", b.ID)
		}
		for _, e := range append(slices.Clone(b.Weaknesses), b.Immunities...) {
			if _, ok := EffectByKey(e); !ok {
				v.addf("boss %d: unknown effect %q", b.ID, e)
			}
		}
		for _, cid := range b.RecommendedCounters {
			if _, ok := champions[cid]; !ok {
				v.addf("boss %d: recommended counter %d does not resolve", b.ID, cid)
			}
		}
	}
	for _, d := range g.Dungeons {
		v.id("dungeon", d.ID, DungeonIDMin, DungeonIDMax)
		checkNames("dungeon", d.ID, d.Name, d.Names)
		v.enum("dungeon", d.ID, "kind", d.Kind, DungeonKinds())
		if d.BossID != 0 {
			if b, ok := bosses[d.BossID]; !ok {
				v.addf("dungeon %d: boss_id %d does not resolve", d.ID, d.BossID)
			} else if b.DungeonID != d.ID {
				v.addf("dungeon %d: boss %d lives in dungeon %d", d.ID, b.ID, b.DungeonID)
			}
		}
		for _, s := range d.Drops {
			if !gear[s] {
				v.addf("dungeon %d: drop %d is not a gear set", d.ID, s)
			}
		}
	}
	return errors.Join(v.errs...)
}

type validator struct {
	ids  map[int]string
	errs []error
}

func (v *validator) addf(format string, args ...any) {
	v.errs = append(v.errs, fmt.Errorf("gamedata: "+format, args...))
}

func (v *validator) id(kind string, id, lo, hi int) {
	if id < lo || id > hi {
		v.addf("%s id %d out of range %d-%d", kind, id, lo, hi)
	}
	if prev, ok := v.ids[id]; ok {
		v.addf("%s id %d already used by a %s", kind, id, prev)
	}
	v.ids[id] = kind
}

func (v *validator) enum(kind string, id int, field, val string, allowed []string) {
	if !slices.Contains(allowed, val) {
		v.addf("%s %d: %s %q not one of %s", kind, id, field, val, strings.Join(allowed, ", "))
	}
}
