package toolsgcs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/tool"
)

const statsInstruction = "Quote stats, skill names and effects exactly as given; do not invent values that are not in the data."

// ChampionArgs are the arguments of the tools about one champion by name.
type ChampionArgs struct {
	ChampionName string `json:"champion_name"`
}

// CharacterIDArgs are the arguments of gcs_get_character_details_by_id.
type CharacterIDArgs struct {
	CharacterID *int64 `json:"character_id"`
}

func (g *gcs) championResult(ctx context.Context, view gcsdb.View, id int64) (tool.Result, error) {
	c, ok, err := view.Champion(ctx, id)
	if err != nil {
		return tool.Result{}, backendErr(fmt.Sprintf("champion %d", id), err)
	}
	if !ok {
		return unknownID(gcsdb.KindChampion, id), nil
	}
	return tool.Success(fmt.Sprintf("Details of %s (%s %s %s, %s).", c.Name, c.Rarity, c.Affinity, c.Role, c.Faction.Name), c), nil
}

func (g *gcs) championDetails() tool.Tool {
	const name = "gcs_get_champion_details"
	return def(g, name,
		tool.DisplayNames{"en": "Champion", "fr": "Champion", "de": "Champion"},
		3, statsInstruction,
		"Exact data of one champion by name: faction, rarity, affinity, role, base stats, skills with effects, "+
			"bosses it is strong against, display names. Use for any question about a named champion's stats or kit.",
		func(ctx context.Context, a ChampionArgs) (tool.Result, error) {
			if err := refuseEmpty(gcsdb.KindChampion, name, a.ChampionName); err != nil {
				return tool.Result{}, err
			}
			// One data version check for the name and the data.
			view, err := g.game.View(ctx)
			if err != nil {
				return tool.Result{}, backendErr("champion", err)
			}
			id, err := resolveIn(view, gcsdb.KindChampion, name, a.ChampionName)
			if err != nil {
				return tool.Result{}, err
			}
			return g.championResult(ctx, view, id)
		})
}

func (g *gcs) characterDetailsByID() tool.Tool {
	const name = "gcs_get_character_details_by_id"
	return def(g, name,
		tool.DisplayNames{"en": "Champion", "fr": "Champion", "de": "Champion"},
		3, statsInstruction,
		"Exact data of one champion by config id (the id the game client shows, 1001-1999); same data as gcs_get_champion_details.",
		func(ctx context.Context, a CharacterIDArgs) (tool.Result, error) {
			if a.CharacterID == nil {
				return tool.Failure("No character_id given.", "character_id is required",
					"Call "+name+" again with the champion's config id, e.g. 1001."), nil
			}
			view, err := g.game.View(ctx)
			if err != nil {
				return tool.Result{}, backendErr("champion", err)
			}
			return g.championResult(ctx, view, *a.CharacterID)
		})
}

// ChampionSkills is the data of gcs_get_champion_skills.
type ChampionSkills struct {
	ID     int64         `json:"id"`
	Name   string        `json:"name"`
	Skills []gcsdb.Skill `json:"skills"`
}

// Summary implements tool.Summarizer.
func (s ChampionSkills) Summary() string {
	names := make([]string, len(s.Skills))
	for i, sk := range s.Skills {
		names[i] = sk.Name
	}
	return fmt.Sprintf("%s's skills: %s.", s.Name, strings.Join(names, ", "))
}

// Entities implements tool.Entities.
func (s ChampionSkills) Entities() []tool.EntityRef {
	return []tool.EntityRef{{Kind: string(gcsdb.KindChampion), ID: s.ID, Name: s.Name}}
}

func (g *gcs) championSkills() tool.Tool {
	const name = "gcs_get_champion_skills"
	return def(g, name,
		tool.DisplayNames{"en": "Skills", "fr": "Compétences", "de": "Fähigkeiten"},
		0, statsInstruction+" Cooldown 0 means a default attack.",
		"The skills of one champion by name: slot, cooldown, description and effects.",
		func(ctx context.Context, a ChampionArgs) (tool.Result, error) {
			id, err := g.resolveName(ctx, gcsdb.KindChampion, name, a.ChampionName)
			if err != nil {
				return tool.Result{}, err
			}
			cname, _, err := g.game.ChampionName(ctx, id)
			if err != nil {
				return tool.Result{}, backendErr("champion", err)
			}
			skills, err := g.game.Skills(ctx, id)
			if err != nil {
				return tool.Result{}, backendErr("skills", err)
			}
			return tool.Success(fmt.Sprintf("%s has %d skills.", cname, len(skills)), ChampionSkills{ID: id, Name: cname, Skills: skills}), nil
		})
}

// FindArgs are the filters of gcs_find_champions.
type FindArgs struct {
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
	// LowestFirst reverses SortBy's order: the slowest for "spd".
	LowestFirst *bool `json:"lowest_first"`
	Limit       *int  `json:"limit"`
	// OwnedOnly keeps the player's own champions (bound to the roster).
	OwnedOnly *bool `json:"owned_only"`
}

// ChampionList is the data of the champion searches: a page of champions
// with the total that matched.
type ChampionList struct {
	Champions []gcsdb.ChampionSummary `json:"champions"`
	Returned  int                     `json:"returned"`
	SortBy    string                  `json:"sort_by"`
	// LowestFirst is set when the order was reversed (lowest first).
	LowestFirst bool `json:"lowest_first,omitempty"`
	Total       int  `json:"total"`
	// OwnedOnly is set when only the player's own champions were searched.
	OwnedOnly bool `json:"owned_only,omitempty"`
}

// Entities implements tool.Entities: the champions in order.
func (l ChampionList) Entities() []tool.EntityRef { return summaryRefs(l.Champions) }

// Page implements tool.Pager: the first page of Total.
func (l ChampionList) Page() tool.Page {
	return tool.Page{Total: l.Total, Returned: len(l.Champions)}
}

func summaryRefs(cs []gcsdb.ChampionSummary) []tool.EntityRef {
	out := make([]tool.EntityRef, len(cs))
	for i, c := range cs {
		out[i] = tool.EntityRef{Kind: string(gcsdb.KindChampion), ID: c.ID, Name: c.Name}
	}
	return out
}

func (g *gcs) findChampions() tool.Tool {
	const name = "gcs_find_champions"
	return bindOwned(rosterBinding, def(g, name,
		tool.DisplayNames{"en": "Champion search", "fr": "Recherche de champions", "de": "Championsuche"},
		0, statsInstruction,
		"Search champions by faction, rarity, affinity, role and minimum base stats, sorted by a stat. "+
			"Use for questions like 'fastest Legendary Support', 'slowest champion' or 'Force champions with over 1500 ATK'.",
		func(ctx context.Context, a FindArgs) (tool.Result, error) {
			f := gcsdb.ChampionFilter{Rarity: a.Rarity, Affinity: a.Affinity, Role: a.Role, MinStats: map[string]int64{}, Limit: 10}
			if a.Faction != nil {
				fid, err := g.resolveName(ctx, gcsdb.KindFaction, name, *a.Faction)
				if err != nil {
					return tool.Result{}, err
				}
				f.FactionID = &fid
			}
			for k, v := range map[string]*int64{
				"hp": a.MinHP, "atk": a.MinATK, "def": a.MinDEF, "spd": a.MinSPD,
				"c_rate": a.MinCRate, "c_dmg": a.MinCDmg, "res": a.MinRES, "acc": a.MinACC,
			} {
				if v != nil {
					f.MinStats[k] = *v
				}
			}
			f.SortBy = "rarity"
			if a.SortBy != nil {
				f.SortBy = *a.SortBy
			}
			f.LowestFirst = a.LowestFirst != nil && *a.LowestFirst
			if a.Limit != nil {
				f.Limit = *a.Limit
			}
			if f.Limit < 1 || f.Limit > 50 {
				return tool.Failure("limit must be between 1 and 50.", "limit out of range", "Call again with a limit from 1 to 50."), nil
			}
			ids, scoped, asked := owned(ctx)
			if scoped {
				f.IDs = ids
			}
			list, total, err := g.game.FindChampions(ctx, f)
			if errors.Is(err, gcsdb.ErrBadSort) {
				return tool.Failure("Unknown sort_by "+quoted(f.SortBy)+".", "sort_by must be a stat or name or rarity",
					"Use one of: "+strings.Join(gcsdb.SortKeys(), ", ")+"."), nil
			}
			if err != nil {
				return tool.Result{}, backendErr("find champions", err)
			}
			data := ChampionList{Champions: list, Returned: len(list), SortBy: f.SortBy, LowestFirst: f.LowestFirst, Total: total, OwnedOnly: scoped}
			note := ""
			switch {
			case scoped:
				note = " Only the player's own champions are listed."
			case asked:
				note = unknownRoster
			}
			if total == 0 {
				r := tool.Success("No champion matches these filters."+note, data)
				r.LLMInstruction = "Tell the player nothing matches and suggest relaxing a filter (for example a lower minimum stat)."
				return r, nil
			}
			order := f.SortBy
			if f.LowestFirst {
				order += ", lowest first"
			}
			return tool.Success(fmt.Sprintf("%d champions match; showing %d sorted by %s.", total, len(list), order)+note, data), nil
		}))
}

// CompareArgs are the arguments of gcs_compare_characters.
type CompareArgs struct {
	Names []string `json:"names"`
}

// Compared is one champion in a comparison.
type Compared struct {
	ID       int64         `json:"id"`
	Name     string        `json:"name"`
	Faction  string        `json:"faction"`
	Rarity   string        `json:"rarity"`
	Affinity string        `json:"affinity"`
	Role     string        `json:"role"`
	Stats    gcsdb.Stats   `json:"stats"`
	Skills   []gcsdb.Skill `json:"skills"`
}

// Matchup is the affinity relation of two compared champions.
type Matchup struct {
	Attacker string `json:"attacker"`
	Defender string `json:"defender"`
	Result   string `json:"result"`
}

// Comparison is the data of gcs_compare_characters.
type Comparison struct {
	AffinityMatchups []Matchup         `json:"affinity_matchups"`
	Champions        []Compared        `json:"champions"`
	StatWinners      map[string]string `json:"stat_winners"`
}

// Entities implements tool.Entities: the compared champions.
func (c Comparison) Entities() []tool.EntityRef {
	out := make([]tool.EntityRef, len(c.Champions))
	for i, x := range c.Champions {
		out[i] = tool.EntityRef{Kind: string(gcsdb.KindChampion), ID: x.ID, Name: x.Name}
	}
	return out
}

// Summary implements tool.Summarizer: who wins which stat.
func (c Comparison) Summary() string {
	var parts []string
	for _, k := range gcsdb.StatKeys() {
		if w, ok := c.StatWinners[k]; ok && w != "tie" {
			parts = append(parts, strings.ToUpper(k)+": "+w)
		}
	}
	names := make([]string, len(c.Champions))
	for i, x := range c.Champions {
		names[i] = x.Name
	}
	return "Comparing " + strings.Join(names, ", ") + " — highest " + strings.Join(parts, ", ") + "."
}

func (g *gcs) compareCharacters() tool.Tool {
	const name = "gcs_compare_characters"
	return def(g, name,
		tool.DisplayNames{"en": "Comparison", "fr": "Comparaison", "de": "Vergleich"},
		0, statsInstruction+" Affinity: Magic beats Force, Force beats Spirit, Spirit beats Magic; Void is neutral.",
		"Compare 2-5 champions side by side: stats, who wins each stat, skill summaries and affinity matchups.",
		func(ctx context.Context, a CompareArgs) (tool.Result, error) {
			if len(a.Names) < 2 || len(a.Names) > 5 {
				return tool.Failure("Give 2 to 5 champion names.", fmt.Sprintf("got %d names", len(a.Names)),
					"Call "+name+" again with between 2 and 5 names."), nil
			}
			// One data version check for every name and champion, made
			// at the first name as before.
			var view gcsdb.View
			viewed := false
			var list []Compared
			seen := map[int64]bool{}
			var unknown, hints []string
			for _, n := range a.Names {
				if strings.TrimSpace(n) == "" {
					return emptyName(name, "names entry"), nil
				}
				if !viewed {
					v, err := g.game.View(ctx)
					if err != nil {
						return tool.Result{}, backendErr("resolve champion", err)
					}
					view, viewed = v, true
				}
				res := view.Resolve(gcsdb.KindChampion, tool.Clip(n, 200), toolNameRule)
				if !res.Found() {
					unknown = append(unknown, quoted(n))
					if len(res.Suggestions) > 0 {
						hints = append(hints, quoted(n)+" → "+strings.Join(res.Suggestions, " / "))
					}
					continue
				}
				if seen[res.ID] {
					continue
				}
				seen[res.ID] = true
				c, ok, err := view.Champion(ctx, res.ID)
				if err != nil {
					return tool.Result{}, backendErr("champion", err)
				}
				if !ok {
					continue
				}
				for i := range c.Skills {
					c.Skills[i].Description = ""
				}
				list = append(list, Compared{c.ID, c.Name, c.Faction.Name, c.Rarity, c.Affinity, c.Role, c.Stats, c.Skills})
			}
			if len(unknown) > 0 {
				guidance := "Check the spelling or call cache_get_champions_list."
				if len(hints) > 0 {
					guidance = "Did you mean: " + strings.Join(hints, "; ") + "? Call " + name + " again with corrected names."
				}
				return tool.Failure("Unknown champion names: "+strings.Join(unknown, ", ")+".", "unknown champion name", guidance), nil
			}
			if len(list) < 2 {
				return tool.Failure("These names are all the same champion.", "need two different champions",
					"Call "+name+" again with at least two different champions."), nil
			}
			cmp := Comparison{Champions: list, StatWinners: statWinners(list), AffinityMatchups: matchups(list)}
			names := make([]string, len(list))
			for i, c := range list {
				names[i] = c.Name
			}
			return tool.Success("Comparison of "+strings.Join(names, ", ")+".", cmp), nil
		})
}

// statWinners names, per stat, the champion(s) with the highest value, or "tie".
func statWinners(list []Compared) map[string]string {
	winners := map[string]string{}
	for _, k := range gcsdb.StatKeys() {
		best, names := -1, []string{}
		for _, c := range list {
			switch v := c.Stats.Get(k); {
			case v > best:
				best, names = v, []string{c.Name}
			case v == best:
				names = append(names, c.Name)
			}
		}
		if len(names) == len(list) {
			winners[k] = "tie"
		} else {
			winners[k] = strings.Join(names, ", ")
		}
	}
	return winners
}

// matchups relates every pair by affinity.
func matchups(list []Compared) []Matchup {
	out := []Matchup{}
	for i, x := range list {
		for _, y := range list[i+1:] {
			switch gamedata.AffinityAdvantage(x.Affinity, y.Affinity) {
			case 1:
				out = append(out, Matchup{x.Name, y.Name, x.Affinity + " has the advantage over " + y.Affinity})
			case -1:
				out = append(out, Matchup{y.Name, x.Name, y.Affinity + " has the advantage over " + x.Affinity})
			default:
				out = append(out, Matchup{x.Name, y.Name, "neutral (" + x.Affinity + " vs " + y.Affinity + ")"})
			}
		}
	}
	return out
}

// FactionMembersArgs are the arguments of gcs_list_champions_by_faction.
type FactionMembersArgs struct {
	FactionName string  `json:"faction_name"`
	Rarity      *string `json:"rarity"`
}

// FactionMembers is the data of gcs_list_champions_by_faction.
type FactionMembers struct {
	Champions []gcsdb.ChampionSummary `json:"champions"`
	Faction   gcsdb.Ref               `json:"faction"`
	Total     int                     `json:"total"`
}

// Entities implements tool.Entities: the faction, then its champions.
func (m FactionMembers) Entities() []tool.EntityRef {
	return append([]tool.EntityRef{{Kind: string(gcsdb.KindFaction), ID: m.Faction.ID, Name: m.Faction.Name}}, summaryRefs(m.Champions)...)
}

func (g *gcs) championsByFaction() tool.Tool {
	const name = "gcs_list_champions_by_faction"
	return def(g, name,
		tool.DisplayNames{"en": "Faction roster", "fr": "Champions de la faction", "de": "Champions der Fraktion"},
		0, "List champion names exactly as given.",
		"The champions of one faction by faction name, optionally of one rarity.",
		func(ctx context.Context, a FactionMembersArgs) (tool.Result, error) {
			fid, err := g.byNameOrID(ctx, gcsdb.KindFaction, name, &a.FactionName, nil)
			if err != nil {
				return tool.Result{}, err
			}
			fname, err := g.game.FactionName(ctx, fid)
			if err != nil {
				return tool.Result{}, backendErr("faction", err)
			}
			members, err := g.game.Members(ctx, fid, a.Rarity)
			if err != nil {
				return tool.Result{}, backendErr("faction members", err)
			}
			return tool.Success(fmt.Sprintf("%s has %d matching champions.", fname, len(members)),
				FactionMembers{Faction: gcsdb.Ref{ID: fid, Name: fname}, Total: len(members), Champions: members}), nil
		})
}

// EffectArgs are the arguments of gcs_find_champions_by_effect.
type EffectArgs struct {
	Effect string `json:"effect"`
	Limit  *int   `json:"limit"`
}

// EffectList is the data of gcs_find_champions_by_effect.
type EffectList struct {
	Champions []gcsdb.EffectHit `json:"champions"`
	Effect    string            `json:"effect"`
	Total     int               `json:"total"`
}

// Entities implements tool.Entities: the champions in order.
func (l EffectList) Entities() []tool.EntityRef {
	out := make([]tool.EntityRef, len(l.Champions))
	for i, c := range l.Champions {
		out[i] = tool.EntityRef{Kind: string(gcsdb.KindChampion), ID: c.ID, Name: c.Name}
	}
	return out
}

// Page implements tool.Pager: the first page of Total.
func (l EffectList) Page() tool.Page { return tool.Page{Total: l.Total, Returned: len(l.Champions)} }

// KnownEffects is the data of an unknown-effect error.
type KnownEffects struct {
	KnownEffects []string `json:"known_effects"`
}

// normEffect turns "Decrease DEF" or "decrease-def" into "decrease_def".
func normEffect(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), "_")
}

func (g *gcs) championsByEffect() tool.Tool {
	const name = "gcs_find_champions_by_effect"
	return def(g, name,
		tool.DisplayNames{"en": "Champions by effect", "fr": "Champions par effet", "de": "Champions nach Effekt"},
		0, "Name the champions and the skills exactly as given.",
		"Champions whose skills apply an effect such as decrease_def, stun, heal or poison.",
		func(ctx context.Context, a EffectArgs) (tool.Result, error) {
			effect := normEffect(a.Effect)
			if effect == "" {
				return emptyName(name, "effect"), nil
			}
			limit := 20
			if a.Limit != nil {
				limit = min(max(*a.Limit, 1), 50)
			}
			list, total, err := g.game.ChampionsByEffect(ctx, effect, limit)
			if err != nil {
				return tool.Result{}, backendErr("champions by effect", err)
			}
			if total == 0 {
				known, err := g.game.Effects(ctx)
				if err != nil {
					return tool.Result{}, backendErr("effects", err)
				}
				r := tool.Failure("No skill applies the effect "+quoted(a.Effect)+".", "unknown effect",
					"Use one of the known effects: "+strings.Join(known, ", ")+".")
				r.Data = KnownEffects{KnownEffects: known}
				return r, nil
			}
			return tool.Success(fmt.Sprintf("%d champions apply %s; showing %d.", total, effect, len(list)),
				EffectList{Effect: effect, Total: total, Champions: list}), nil
		})
}

// GearAdvice is the data of gcs_recommend_gear.
type GearAdvice struct {
	Champion        gcsdb.Ref                  `json:"champion"`
	Recommendations []gcsdb.GearRecommendation `json:"recommendations"`
	Role            string                     `json:"role"`
	// OwnedOnly is set when only sets the player owns are recommended.
	OwnedOnly bool `json:"owned_only,omitempty"`
}

// GearArgs are the arguments of gcs_recommend_gear.
type GearArgs struct {
	ChampionName string `json:"champion_name"`
	// OwnedOnly keeps the sets the player owns (bound to the player state).
	OwnedOnly *bool `json:"owned_only"`
}

// Entities implements tool.Entities: the champion, then the gear sets.
func (a GearAdvice) Entities() []tool.EntityRef {
	out := []tool.EntityRef{{Kind: string(gcsdb.KindChampion), ID: a.Champion.ID, Name: a.Champion.Name}}
	for _, r := range a.Recommendations {
		out = append(out, tool.EntityRef{Kind: string(gcsdb.KindGearSet), ID: r.ID, Name: r.Name})
	}
	return out
}

func (g *gcs) recommendGear() tool.Tool {
	const name = "gcs_recommend_gear"
	return bindOwned(gearBinding, def(g, name,
		tool.DisplayNames{"en": "Gear advice", "fr": "Conseils d'équipement", "de": "Ausrüstungstipps"},
		0, "Recommend these sets with their reasons; name the dungeons to farm exactly as given.",
		"Gear sets that suit one champion (by name), each with the reason and where to farm it.",
		func(ctx context.Context, a GearArgs) (tool.Result, error) {
			id, err := g.resolveName(ctx, gcsdb.KindChampion, name, a.ChampionName)
			if err != nil {
				return tool.Result{}, err
			}
			cname, role, err := g.game.ChampionName(ctx, id)
			if err != nil {
				return tool.Result{}, backendErr("champion", err)
			}
			recs, err := g.game.RecommendGear(ctx, role)
			if err != nil {
				return tool.Result{}, backendErr("gear sets", err)
			}
			msg := fmt.Sprintf("Gear recommendations for %s (%s).", cname, role)
			ids, scoped, asked := owned(ctx)
			if scoped {
				have := map[int64]bool{}
				for _, id := range ids {
					have[id] = true
				}
				mine := recs[:0:0]
				for _, rec := range recs {
					if have[rec.ID] {
						mine = append(mine, rec)
					}
				}
				recs = mine
				msg = fmt.Sprintf("Gear recommendations for %s (%s) among the sets the player owns.", cname, role)
			}
			if len(recs) == 0 {
				msg = fmt.Sprintf("No gear set is aimed at %s champions like %s.", role, cname)
				if scoped {
					msg = fmt.Sprintf("The player owns no gear set aimed at %s champions like %s.", role, cname)
				}
			}
			if asked && !scoped {
				msg += unknownRoster
			}
			return tool.Success(msg, GearAdvice{Champion: gcsdb.Ref{ID: id, Name: cname}, Role: role, Recommendations: nonNil(recs), OwnedOnly: scoped}), nil
		}))
}
