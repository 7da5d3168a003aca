package toolsgcs

import (
	"context"
	"fmt"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/tool"
)

const factsInstruction = "Quote names and numbers exactly as given; do not invent details that are not in the data."

// BossArgs are the arguments of gcs_get_boss_details.
type BossArgs struct {
	BossName *string `json:"boss_name"`
	BossID   *int64  `json:"boss_id"`
}

// CountersArgs are the arguments of gcs_find_counters_for_boss.
type CountersArgs struct {
	BossName  *string `json:"boss_name"`
	BossID    *int64  `json:"boss_id"`
	Limit     *int    `json:"limit"`
	OwnedOnly *bool   `json:"owned_only"`
}

// FactionArgs are the arguments of gcs_get_faction_details.
type FactionArgs struct {
	FactionName *string `json:"faction_name"`
	FactionID   *int64  `json:"faction_id"`
}

// DungeonArgs are the arguments of gcs_get_dungeon_details.
type DungeonArgs struct {
	DungeonName *string `json:"dungeon_name"`
	DungeonID   *int64  `json:"dungeon_id"`
}

// GearSetArgs are the arguments of gcs_get_gear_set_details.
type GearSetArgs struct {
	GearSetName *string `json:"gear_set_name"`
	GearSetID   *int64  `json:"gear_set_id"`
}

// MasteryArgs are the arguments of gcs_get_mastery_details.
type MasteryArgs struct {
	MasteryName *string `json:"mastery_name"`
	MasteryID   *int64  `json:"mastery_id"`
}

// details builds a {x_name | x_id} details tool over one read-model query.
func details[A any, V any](g *gcs, name string, names tool.DisplayNames, desc string, k gcsdb.Kind, pick func(A) (*string, *int64),
	load func(context.Context, int64) (V, bool, error), message func(V) string,
) tool.Tool {
	return def(g, name, names, 0, factsInstruction, desc, func(ctx context.Context, a A) (tool.Result, error) {
		n, i := pick(a)
		id, err := g.byNameOrID(ctx, k, name, n, i)
		if err != nil {
			return tool.Result{}, err
		}
		v, ok, err := load(ctx, id)
		if err != nil {
			return tool.Result{}, backendErr(fmt.Sprintf("%s %d", k.Noun(), id), err)
		}
		if !ok {
			return unknownID(k, id), nil
		}
		return tool.Success(message(v), v), nil
	})
}

func (g *gcs) bossDetails() tool.Tool {
	return details(g, "gcs_get_boss_details",
		tool.DisplayNames{"en": "Boss", "fr": "Boss", "de": "Boss"},
		"Exact data of one boss by name or id: affinity, HP, difficulty, phases, mechanics, weaknesses, "+
			"immunities, its dungeon and recommended counters.",
		gcsdb.KindBoss, func(a BossArgs) (*string, *int64) { return a.BossName, a.BossID }, g.game.Boss,
		func(b gcsdb.Boss) string {
			return fmt.Sprintf("Details of %s (%s, %s).", b.Name, b.Affinity, b.Difficulty)
		})
}

func (g *gcs) factionDetails() tool.Tool {
	return details(g, "gcs_get_faction_details",
		tool.DisplayNames{"en": "Faction", "fr": "Faction", "de": "Fraktion"},
		"One faction by name or id: alignment, homeland, description and its member champions.",
		gcsdb.KindFaction, func(a FactionArgs) (*string, *int64) { return a.FactionName, a.FactionID }, g.game.Faction,
		func(f gcsdb.Faction) string {
			return fmt.Sprintf("Details of the %s faction (%d champions).", f.Name, f.MemberCount)
		})
}

func (g *gcs) dungeonDetails() tool.Tool {
	return details(g, "gcs_get_dungeon_details",
		tool.DisplayNames{"en": "Dungeon", "fr": "Donjon", "de": "Dungeon"},
		"One dungeon or campaign area by name or id: kind, stages, energy cost, boss and the gear sets it drops.",
		gcsdb.KindDungeon, func(a DungeonArgs) (*string, *int64) { return a.DungeonName, a.DungeonID }, g.game.Dungeon,
		func(d gcsdb.Dungeon) string {
			return fmt.Sprintf("Details of %s (%s, %d stages).", d.Name, d.Kind, d.Stages)
		})
}

func (g *gcs) gearSetDetails() tool.Tool {
	return details(g, "gcs_get_gear_set_details",
		tool.DisplayNames{"en": "Gear set", "fr": "Set d'équipement", "de": "Ausrüstungsset"},
		"One gear set by name or id: pieces, set bonus, stat bonus, the role it suits and where it drops.",
		gcsdb.KindGearSet, func(a GearSetArgs) (*string, *int64) { return a.GearSetName, a.GearSetID }, g.game.GearSet,
		func(x gcsdb.GearSet) string {
			return fmt.Sprintf("Details of the %s gear set (%d pieces).", x.Name, x.Pieces)
		})
}

func (g *gcs) masteryDetails() tool.Tool {
	return details(g, "gcs_get_mastery_details",
		tool.DisplayNames{"en": "Masteries", "fr": "Maîtrises", "de": "Meisterschaften"},
		"One mastery by name or id: tree, tier, effect and the other masteries of its tree.",
		gcsdb.KindMastery, func(a MasteryArgs) (*string, *int64) { return a.MasteryName, a.MasteryID }, g.game.Mastery,
		func(m gcsdb.Mastery) string {
			return fmt.Sprintf("Details of the %s mastery (%s tree, tier %d).", m.Name, m.Tree, m.Tier)
		})
}

// CounterList is the data of gcs_find_counters_for_boss.
type CounterList struct {
	Boss     gcsdb.BossRef         `json:"boss"`
	Counters []gcsdb.RankedCounter `json:"counters"`
	Total    int                   `json:"total"`
	// OwnedOnly is set when Counters are the player's own, best first;
	// BestNotOwned is then the best counter the player lacks.
	OwnedOnly    bool                 `json:"owned_only,omitempty"`
	BestNotOwned *gcsdb.RankedCounter `json:"best_not_owned,omitempty"`
}

// Entities implements tool.Entities: the boss, then the counters best first.
func (l CounterList) Entities() []tool.EntityRef {
	out := []tool.EntityRef{{Kind: string(gcsdb.KindBoss), ID: l.Boss.ID, Name: l.Boss.Name}}
	for _, c := range l.Counters {
		out = append(out, tool.EntityRef{Kind: string(gcsdb.KindChampion), ID: c.ID, Name: c.Name})
	}
	return out
}

// Page implements tool.Pager: the best Returned of Total.
func (l CounterList) Page() tool.Page { return tool.Page{Total: l.Total, Returned: len(l.Counters)} }

// Summary implements tool.Summarizer.
func (l CounterList) Summary() string {
	if len(l.Counters) == 0 {
		return "No champion is known to counter " + l.Boss.Name + "."
	}
	return fmt.Sprintf("The best counter to %s is %s (%s).", l.Boss.Name, l.Counters[0].Name, l.Counters[0].Reason)
}

func (g *gcs) countersForBoss() tool.Tool {
	const name = "gcs_find_counters_for_boss"
	return bindOwned(rosterBinding, def(g, name,
		tool.DisplayNames{"en": "Counters", "fr": "Contres", "de": "Konter"},
		0, "Present the counters in this order with their reasons; do not add champions that are not listed.",
		"Champions that counter a boss (by name or id), ranked, each with the reason: recommended counter, "+
			"strong against it, skills applying its weaknesses, affinity advantage.",
		func(ctx context.Context, a CountersArgs) (tool.Result, error) {
			if a.BossID != nil {
				a.BossName = nil
			}
			limit := 5
			if a.Limit != nil {
				limit = min(max(*a.Limit, 1), gcsdb.MaxCounters)
			}
			id, err := g.byNameOrID(ctx, gcsdb.KindBoss, name, a.BossName, a.BossID)
			if err != nil {
				return tool.Result{}, err
			}
			if ids, scoped, _ := owned(ctx); scoped {
				list, boss, total, other, err := g.game.CountersAmong(ctx, id, ids, limit)
				if err != nil {
					return tool.Result{}, backendErr("counters", err)
				}
				msg := fmt.Sprintf("The player owns %d counters of %s; showing the best %d.", total, boss.Name, len(list))
				if total == 0 {
					msg = "The player owns no known counter of " + boss.Name + "."
				}
				if other != nil {
					msg += " The best counter they do not own is " + other.Name + "."
				}
				r := tool.Success(msg, CounterList{Boss: boss, Total: total, Counters: nonNil(list), OwnedOnly: true, BestNotOwned: other})
				r.LLMInstruction = "Recommend the player's own counters first, in this order with their reasons; then name best_not_owned as the one to get, saying they do not own it."
				return r, nil
			}
			_, _, asked := owned(ctx)
			list, boss, total, err := g.game.Counters(ctx, id, limit)
			if err != nil {
				return tool.Result{}, backendErr("counters", err)
			}
			msg := fmt.Sprintf("%d champions counter %s; showing the best %d.", total, boss.Name, len(list))
			if total == 0 {
				msg = "No champion is known to counter " + boss.Name + "."
			}
			if asked {
				msg += unknownRoster
			}
			return tool.Success(msg, CounterList{Boss: boss, Total: total, Counters: nonNil(list)}), nil
		}))
}
