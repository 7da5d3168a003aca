package offline

import (
	"context"
	"strings"

	"github.com/gameassist/gameassist/gcsdb"
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
	IntentOwned     Intent = "owned"      // do I own this champion
)

//nolint:misspell // French and German words, not misspelt English
var (
	wordsBring = phrases(`who should i bring|who do i bring|who should i take|who should i use|which of my champions|
		who do i take|who to take|who to bring|who should i pick|who to pick|best picks|best pick|
		which champions should i use|which champion should i use|what champions should i use|which champions do i use|
		what should i bring|what champions should i bring|which champions should i bring|who should i put in|who should i add|
		who to put in|
		qui dois je amener|qui dois je emmener|qui prendre|lesquels de mes champions|qui emmener|qui choisir|quels champions utiliser|
		quels champions dois je utiliser|qui mettre dans|quels champions emmener|qui devrais je amener|qui devrais je emmener|
		qui devrais je prendre|qui dois je prendre|
		wen soll ich mitnehmen|wen soll ich hier mitnehmen|wen nehme ich mit|wen nehme ich hier mit|welche meiner champions|
		wen soll ich nehmen|welche champions soll ich nehmen|welche champions soll ich verwenden|wen soll ich ins team`)
	wordsTeamCheck = phrases(`is my team good enough|is my team good|is my team strong enough|is my team ready|is my team enough|
		mon equipe est elle assez|mon equipe est elle suffisante|mon equipe suffit|est ce que mon equipe|
		ist mein team gut genug|reicht mein team|ist mein team stark genug`)
	wordsLevelNext = phrases(`level next|who should i level|which champion should i level|upgrade next|who should i upgrade|
		qui dois je monter|qui monter ensuite|wen soll ich leveln|wen soll ich als nachstes`)
	wordsMissing = phrases(`what am i missing|what do i lack|what do i need for|missing for|am i missing|
		que me manque t il|qu est ce qui me manque|ce qui me manque|was fehlt mir|was brauche ich fur`)
)

// wordsOwned ask about the player's own champions: "do I have any good
// counters", "who from my roster", "which legendary champions do I have".
//
//nolint:misspell // French and German words, not misspelt English
var wordsOwned = phrases(`do i have|do i own|i have|i own|my roster|from my roster|in my roster|my collection|of mine|my champions|
	ai je|est ce que j ai|j ai|mes champions|ma collection|mon roster|dans ma collection|
	habe ich|besitze ich|meine champions|meiner sammlung|meine sammlung|in meiner sammlung`)

// wordsOwnCheck ask whether the player owns a champion the message names.
//
//nolint:misspell // French and German words, not misspelt English
var wordsOwnCheck = phrases(`do i own|do i have|have i got|in my roster|in my collection|do i already have|do i already own|
	is she mine|is he mine|ai je|est ce que j ai|dans ma collection|
	habe ich|besitze ich|in meiner sammlung`)

// wordsSwap ask whom to change in the team.
//
//nolint:misspell // French and German words, not misspelt English
var wordsSwap = phrases(`swap|swap out|replace|who should i replace|who should i swap|who should i change|
	remplacer|echanger|qui changer|
	austauschen|ersetzen|auswechseln|tauschen`)

// wordsHaveTo make "do I have" an obligation, not a question of owning.
var wordsHaveTo = phrases(`have to|need to|dois je|muss ich`)

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
	case has(text, wordsTeamCheck) || has(text, wordsSwap):
		// "who should I swap out?": the team's verdict ends with the swap.
		intent = IntentTeamCheck
	case has(text, wordsMissing):
		intent = IntentMissing
	case has(text, wordsLevelNext):
		intent = IntentLevelNext
	case has(text, wordsBring) || has(text, wordsOwned) && has(text, wordsCounters):
		// "who should I bring?", "do I have any good counters for it?"
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
	case IntentOwned:
		return rd.owned(), true
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
		note = " " + rd.l.s("no_roster")
	}
	if rd.p.Intent == IntentTeamCheck {
		if len(rd.p.Team) == 0 {
			return reply{lead: rd.l.s("roster_no_team") + note}, true
		}
		return rd.teamVerdict(), true
	}
	if rd.p.Intent == IntentLevelNext && len(rd.p.Entities) == 0 {
		return rd.levelNextAny(owned, note), true
	}
	os := rd.by[toolCounters]
	if len(os) == 0 || !os[0].Result.OK() {
		return reply{lead: rd.l.s("roster_no_counters") + note}, true
	}
	list, _ := dataAs[toolsgcs.CounterList](os[0].Result)
	boss := rd.bossName(list.Boss)
	level := func(id int64) string { return rd.ownedLevel(owned[id]) }
	// line is a counter as a list item: its name, the player's level and
	// stars when owned, and its reason (English only: the data's words).
	line := func(c gcsdb.RankedCounter) string {
		out := bold(rd.counterName(c)) + level(c.ID)
		if why := rd.reason(c.Reason); why != "" {
			out += ": " + why
		}
		return out
	}
	lines := func(cs []gcsdb.RankedCounter) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = line(c)
		}
		return out
	}
	listed := rosterListed(rd.p, list)
	switch rd.p.Intent {
	case IntentBring:
		if !rd.p.HasState {
			return reply{lead: rd.l.s("roster_best_overall", boss), facts: lines(listed)}, true
		}
		if len(list.Counters) == 0 {
			rp := reply{lead: rd.l.s("roster_none_owned", boss)}
			if list.BestNotOwned != nil {
				rp.facts = append(rp.facts, rd.l.s("roster_best_to_get", line(*list.BestNotOwned)))
			}
			return rp, true
		}
		rp := reply{lead: rd.l.s("roster_bring", boss), facts: lines(listed)}
		if list.BestNotOwned != nil {
			rp.facts = append(rp.facts, rd.l.s("roster_best_not_owned", line(*list.BestNotOwned)))
		}
		return rp, true
	case IntentMissing:
		if !rd.p.HasState {
			return reply{lead: rd.l.s("roster_matter_most", boss), facts: lines(listed)}, true
		}
		var have []string
		for _, c := range list.Counters {
			if _, ok := owned[c.ID]; ok {
				have = append(have, rd.counterName(c))
			}
		}
		rp := reply{lead: rd.l.s("roster_lack", boss, len(list.Counters)-len(have), len(list.Counters))}
		rp.facts = append(rp.facts, lines(listed)...)
		if len(have) > 0 {
			rp.facts = append(rp.facts, rd.l.s("roster_have", strings.Join(have[:min(len(have), 5)], ", ")))
		}
		return rp, true
	case IntentLevelNext:
		c, ok := levelNextCounter(rd.p, list)
		switch {
		case ok && rd.p.HasState:
			return reply{lead: rd.l.s("roster_level_this", bold(rd.counterName(c))+level(c.ID), boss)}, true
		case ok:
			return reply{lead: rd.l.s("roster_level_general", boss, rd.counterName(c)) + note}, true
		}
		return reply{lead: rd.l.s("roster_level_top", boss)}, true
	}
	return reply{}, false
}

// owned answers "do I own Kaelith?" from the player's roster, for each
// champion the message names.
func (rd renderer) owned() reply {
	var lines []string
	for _, e := range rd.p.Entities {
		name := bold(e.Display(rd.l.loc))
		o, ok := player.Owned{}, false
		for _, r := range rd.p.Roster {
			if idString(r.ID) == e.ID {
				o, ok = r, true
				break
			}
		}
		switch {
		case !rd.p.HasState:
			lines = append(lines, rd.l.s("owned_unknown", name))
		case ok:
			lines = append(lines, rd.l.s("owned_yes", name+rd.ownedLevel(o)))
		default:
			lines = append(lines, rd.l.s("owned_no", name))
		}
	}
	if len(lines) == 0 {
		return reply{}
	}
	return reply{lead: lines[0], facts: lines[1:]}
}

// rosterListed returns the counters of list that a bring or missing
// answer lists, in its order: the best ones overall without a player
// state; with one, the owned ones (bring, whose list holds only those) or
// the ones not owned (missing). The answer's subjects are these, so "which
// one is tankier?" compares them.
func rosterListed(p Plan, list toolsgcs.CounterList) []gcsdb.RankedCounter {
	switch {
	case p.Intent == IntentBring && !p.HasState:
		return list.Counters[:min(len(list.Counters), 5)]
	case p.Intent == IntentBring:
		return list.Counters[:min(len(list.Counters), 4)]
	case p.Intent == IntentMissing && !p.HasState:
		return list.Counters[:min(len(list.Counters), 4)]
	case p.Intent == IntentMissing:
		owned := map[int64]bool{}
		for _, o := range p.Roster {
			owned[o.ID] = true
		}
		var out []gcsdb.RankedCounter
		for _, c := range list.Counters {
			if !owned[c.ID] && len(out) < 4 {
				out = append(out, c)
			}
		}
		return out
	}
	return nil
}

// maxLevel is the top level a champion reaches.
const maxLevel = 60

// levelNextCounter is the boss's counter a level-next answer names: the
// first one the player owns below the top level or, without a player
// state, the best one.
func levelNextCounter(p Plan, list toolsgcs.CounterList) (gcsdb.RankedCounter, bool) {
	if !p.HasState {
		if len(list.Counters) == 0 {
			return gcsdb.RankedCounter{}, false
		}
		return list.Counters[0], true
	}
	return firstBelowTop(p.Roster, list.Counters, func(c gcsdb.RankedCounter) int64 { return c.ID })
}

// levelNextOwned is the champion a level-next answer without a boss
// names: the first of list (the player's champions, highest rarity first)
// below the top level.
func levelNextOwned(p Plan, list toolsgcs.ChampionList) (gcsdb.ChampionSummary, bool) {
	if !p.HasState {
		return gcsdb.ChampionSummary{}, false
	}
	return firstBelowTop(p.Roster, list.Champions, func(c gcsdb.ChampionSummary) int64 { return c.ID })
}

// firstBelowTop returns the first of items that roster holds below the
// top level.
func firstBelowTop[T any](roster []player.Owned, items []T, id func(T) int64) (T, bool) {
	levels := make(map[int64]int, len(roster))
	for _, o := range roster {
		levels[o.ID] = o.Level
	}
	for _, it := range items {
		if lv, ok := levels[id(it)]; ok && lv < maxLevel {
			return it, true
		}
	}
	var zero T
	return zero, false
}

// rosterSubjects returns the champions a roster answer names, in its
// order: the ones a bring or missing answer lists (see rosterListed), the
// one a level-next answer picks.
func rosterSubjects(p Plan, outs []tool.Outcome) []Entity {
	champ := func(id int64, name string) Entity { return Entity{Kind: KindChampion, ID: idString(id), Name: name} }
	var out []Entity
	for _, o := range outs {
		switch o.Name {
		case toolCounters:
			list, ok := dataAs[toolsgcs.CounterList](o.Result)
			if !ok {
				continue
			}
			if p.Intent == IntentLevelNext {
				if c, ok := levelNextCounter(p, list); ok {
					out = append(out, champ(c.ID, c.Name))
				}
				continue
			}
			for _, c := range rosterListed(p, list) {
				out = append(out, champ(c.ID, c.Name))
			}
		case toolFind:
			list, ok := dataAs[toolsgcs.ChampionList](o.Result)
			if !ok || p.Intent != IntentLevelNext {
				continue
			}
			if c, ok := levelNextOwned(p, list); ok {
				out = append(out, champ(c.ID, c.Name))
			}
		}
	}
	return out
}

// levelNextAny picks, without a boss, the highest-rarity owned champion
// below the top level.
func (rd renderer) levelNextAny(owned map[int64]player.Owned, note string) reply {
	if !rd.p.HasState {
		return reply{lead: rd.l.s("roster_level_open_boss") + note}
	}
	os := rd.by[toolFind]
	if len(os) == 0 || !os[0].Result.OK() {
		return reply{lead: rd.l.s("roster_no_champions")}
	}
	list, _ := dataAs[toolsgcs.ChampionList](os[0].Result)
	if c, ok := levelNextOwned(rd.p, list); ok {
		return reply{lead: rd.l.s("roster_level_rarity", bold(c.Name), rd.l.word(c.Rarity), owned[c.ID].Level)}
	}
	return reply{lead: rd.l.s("roster_all_top")}
}

// wordsChampions name champions as such.
var wordsChampions = phrases(`champion|champions|hero|heroes|champ|champs|heros|helden`)

// wordsMy are the possessives of the player.
//
//nolint:misspell // French and German words, not misspelt English
var wordsMy = phrases(`my|mon|ma|mes|mein|meine|meinen|meiner|meinem`)

// wordsHowMany ask for a count.
//
//nolint:misspell // French and German words, not misspelt English
var wordsHowMany = phrases(`how many|combien|wie viele`)

// ownedList reports a question about the player's own champions as a
// whole ("who is my strongest champion?", "how many champions do I
// have?"), when the player's roster is known: a search of owned ones.
func ownedList(ctx context.Context, text string) bool {
	if _, known := rosterOf(ctx); !known || !(has(text, wordsOwned) || has(text, wordsMy)) || !has(text, wordsChampions) {
		return false
	}
	return has(text, wordsSuperlative) || has(text, wordsHowMany)
}
