package offline

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/tool"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

// Intents answered from the player's state (what they own), or in general
// terms, said once, when the session has none.
const (
	IntentBring     Intent = "bring"      // who should I bring here: owned counters first
	IntentTeamCheck Intent = "team_check" // is my team good enough: each member judged, a swap proposed
	IntentLevelNext Intent = "level_next" // who should I level next
	IntentMissing   Intent = "missing"    // what am I missing for this boss
)

//nolint:misspell // French and German words, not misspelt English
var (
	wordsBring = phrases(`who should i bring|who do i bring|who should i take|who should i use|which of my champions|
		qui dois je amener|qui dois je emmener|qui prendre|lesquels de mes champions|
		wen soll ich mitnehmen|wen nehme ich mit|welche meiner champions`)
	wordsTeamCheck = phrases(`is my team good enough|is my team good|is my team strong enough|is my team ready|is my team enough|
		mon equipe est elle assez|mon equipe suffit|est ce que mon equipe|
		ist mein team gut genug|reicht mein team|ist mein team stark genug`)
	wordsLevelNext = phrases(`level next|who should i level|which champion should i level|upgrade next|who should i upgrade|
		qui dois je monter|qui monter ensuite|wen soll ich leveln|wen soll ich als nachstes`)
	wordsMissing = phrases(`what am i missing|what do i lack|what do i need for|missing for|am i missing|
		que me manque t il|qu est ce qui me manque|ce qui me manque|was fehlt mir|was brauche ich fur`)
)

// maxRosterCounters bounds the counters read to judge a roster.
const maxRosterCounters = 20

// rosterOf returns the roster of the session's player state, and whether
// the session has a state at all.
func rosterOf(ctx context.Context) ([]player.Owned, bool) {
	p, ok := tool.PlayerFrom(ctx)
	if !ok {
		return nil, false
	}
	return player.RosterOf(p.Data()), true
}

// planPlayer plans the roster questions; it reports false when the message
// is none of them (or names no boss where one is needed).
func (r *Responder) planPlayer(ctx context.Context, p *Plan, text string, boss func() (Entity, bool), team []Entity, c caller) bool {
	var intent Intent
	switch {
	case has(text, wordsTeamCheck):
		intent = IntentTeamCheck
	case has(text, wordsMissing):
		intent = IntentMissing
	case has(text, wordsLevelNext):
		intent = IntentLevelNext
	case has(text, wordsBring):
		intent = IntentBring
	default:
		return false
	}
	roster, known := rosterOf(ctx)
	p.Roster, p.HasState = roster, known
	b, hasBoss := boss()
	if !hasBoss && intent != IntentLevelNext {
		return false
	}
	p.Intent = intent
	if hasBoss {
		p.Entities = []Entity{b}
		args := map[string]any{"boss_name": b.Name, "limit": maxRosterCounters}
		if intent == IntentBring && known {
			args["owned_only"] = true
		}
		c.add(toolCounters, args)
	} else if known {
		c.add(toolFind, map[string]any{"owned_only": true, "sort_by": "rarity", "limit": 50})
	}
	if intent == IntentTeamCheck {
		p.Team = team
	}
	return true
}

// renderPlayer writes the roster answers; ok is false for other intents.
func (rd renderer) renderPlayer() (reply, bool) {
	switch rd.p.Intent {
	case IntentBring, IntentTeamCheck, IntentLevelNext, IntentMissing:
	default:
		return reply{}, false
	}
	owned := map[int64]player.Owned{}
	for _, o := range rd.p.Roster {
		owned[o.ID] = o
	}
	var note string
	if !rd.p.HasState {
		note = " I don't know your roster here, so this is general advice."
	}
	if rd.p.Intent == IntentTeamCheck {
		if len(rd.p.Team) == 0 {
			return reply{lead: "I can't see your team on this screen; open the team selection and ask again." + note}, true
		}
		return rd.teamVerdict(), true
	}
	if rd.p.Intent == IntentLevelNext && len(rd.p.Entities) == 0 {
		return rd.levelNextAny(owned, note), true
	}
	os := rd.by[toolCounters]
	if len(os) == 0 || !os[0].Result.OK() {
		return reply{lead: "I couldn't read the counters of this boss." + note}, true
	}
	list, _ := dataAs[toolsgcs.CounterList](os[0].Result)
	boss := list.Boss.Name
	level := func(id int64) string {
		o, ok := owned[id]
		if !ok {
			return ""
		}
		var parts []string
		if o.Level > 0 {
			parts = append(parts, "level "+strconv.Itoa(o.Level))
		}
		if o.Stars > 0 {
			parts = append(parts, strconv.Itoa(o.Stars)+"★")
		}
		if len(parts) == 0 {
			return ""
		}
		return " (" + strings.Join(parts, ", ") + ")"
	}
	switch rd.p.Intent {
	case IntentBring:
		if !rd.p.HasState {
			rp := reply{lead: "I don't know your roster here, so these are the best counters to **" + boss + "** overall:"}
			for _, c := range list.Counters[:min(len(list.Counters), 5)] {
				rp.facts = append(rp.facts, "**"+c.Name+"**: "+c.Reason)
			}
			return rp, true
		}
		if len(list.Counters) == 0 {
			rp := reply{lead: "You own none of the known counters of **" + boss + "**."}
			if list.BestNotOwned != nil {
				rp.facts = append(rp.facts, "The best one to get: **"+list.BestNotOwned.Name+"** ("+list.BestNotOwned.Reason+").")
			}
			return rp, true
		}
		rp := reply{lead: "From your roster, bring these against **" + boss + "**:"}
		for _, c := range list.Counters[:min(len(list.Counters), 4)] {
			rp.facts = append(rp.facts, "**"+c.Name+"**"+level(c.ID)+": "+c.Reason)
		}
		if list.BestNotOwned != nil {
			rp.facts = append(rp.facts, "Best counter you don't own: **"+list.BestNotOwned.Name+"** ("+list.BestNotOwned.Reason+").")
		}
		return rp, true
	case IntentMissing:
		var missing, have []string
		for _, c := range list.Counters {
			if _, ok := owned[c.ID]; ok {
				have = append(have, c.Name)
			} else if len(missing) < 4 {
				missing = append(missing, "**"+c.Name+"** ("+c.Reason+")")
			}
		}
		if !rd.p.HasState {
			rp := reply{lead: "I don't know your roster here, so these are the counters that matter most against **" + boss + "**:"}
			for _, c := range list.Counters[:min(len(list.Counters), 4)] {
				rp.facts = append(rp.facts, "**"+c.Name+"**: "+c.Reason)
			}
			return rp, true
		}
		rp := reply{lead: fmt.Sprintf("Against **%s** you lack %d of the %d best counters.", boss, len(list.Counters)-len(have), len(list.Counters))}
		rp.facts = append(rp.facts, missing...)
		if len(have) > 0 {
			rp.facts = append(rp.facts, "You already have: "+strings.Join(have[:min(len(have), 5)], ", ")+".")
		}
		return rp, true
	case IntentLevelNext:
		for _, c := range list.Counters {
			if o, ok := owned[c.ID]; ok && o.Level < 60 {
				return reply{lead: "Level **" + c.Name + "**" + level(c.ID) + " next: it is one of your best counters to **" + boss + "** (" + c.Reason + ")."}, true
			}
		}
		if !rd.p.HasState && len(list.Counters) > 0 {
			return reply{lead: "Against **" + boss + "**, **" + list.Counters[0].Name + "** is the counter most worth levelling." + note}, true
		}
		return reply{lead: "Your counters to **" + boss + "** are already at the top level; level the counter you get next."}, true
	}
	return reply{}, false
}

// levelNextAny picks, without a boss, the highest-rarity owned champion
// below the top level.
func (rd renderer) levelNextAny(owned map[int64]player.Owned, note string) reply {
	if !rd.p.HasState {
		return reply{lead: "Level the champions you use most against the bosses you are stuck on; open a boss and ask again." + note}
	}
	os := rd.by[toolFind]
	if len(os) == 0 || !os[0].Result.OK() {
		return reply{lead: "I couldn't read your champions."}
	}
	list, _ := dataAs[toolsgcs.ChampionList](os[0].Result)
	for _, c := range list.Champions {
		if o, ok := owned[c.ID]; ok && o.Level < 60 {
			return reply{lead: fmt.Sprintf("Level **%s** next: your highest-rarity champion (%s) below the top level, now level %d.", c.Name, c.Rarity, o.Level)}
		}
	}
	return reply{lead: "Your champions are all at the top level."}
}
