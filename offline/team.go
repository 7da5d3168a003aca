package offline

import (
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/player"
)

// The team verdict: "is my team good enough (for this fight)?" judges each
// champion of the screen's team by where it stands in the boss's counter
// ranking (the game's one counter rule) and names the best swap.

// teamVerdict answers "is my team good enough for this boss": a verdict
// first, each member judged, then the best swap.
func (rd renderer) teamVerdict() reply {
	rk, failed, ok := rd.rankingOf()
	if !ok {
		return failed
	}
	var ss []standing
	in := map[string]bool{}
	for _, e := range rd.p.Team {
		ss = append(ss, rk.stand(e))
		in[e.ID] = true
	}
	var top, ranked, unranked int
	for _, s := range ss {
		switch {
		case s.top():
			top++
		case s.pos > 0:
			ranked++
		default:
			unranked++
		}
	}
	owned := map[string]player.Owned{}
	for _, o := range rd.p.Roster {
		owned[idString(o.ID)] = o
	}
	var rp reply
	switch {
	case unranked == 0 && ranked == 0:
		rp.lead = rd.l.s("team_yes", rk.boss, len(ss))
	case top+ranked > 0:
		rp.lead = rd.l.s("team_partly", rk.boss, top+ranked, len(ss), top)
	default:
		rp.lead = rd.l.s("team_no", rk.boss)
	}
	for _, s := range ss {
		line := rd.standLine(s, rk)
		if lv := rd.ownedLevel(owned[s.ent.ID]); lv != "" {
			name := bold(s.ent.Display(rd.l.loc))
			line = strings.Replace(line, name, name+lv, 1)
		}
		rp.facts = append(rp.facts, line)
	}
	if !rd.p.HasState {
		if swap, ok := bestSwap(ss, rk, in, nil); ok {
			rp.facts = append(rp.facts, rd.l.s("team_swap", bold(rd.counterName(rk.list[swap.in])), bold(swap.out.ent.Display(rd.l.loc)), swap.in+1))
		}
		if rd.p.Intent == IntentTeamCheck {
			rp.lead += " " + rd.l.s("no_roster")
		}
		return rp
	}
	mine := func(id string) bool { _, ok := owned[id]; return ok }
	if swap, ok := bestSwap(ss, rk, in, mine); ok {
		c := rk.list[swap.in]
		rp.facts = append(rp.facts, rd.l.s("team_swap_owned", bold(rd.counterName(c))+rd.ownedLevel(owned[idString(c.ID)]), bold(swap.out.ent.Display(rd.l.loc)), swap.in+1))
	}
	return rp
}

// ownedLevel is " (level 58, 6★)" for an owned champion, in the reply's
// language, "" when the state gives neither.
func (rd renderer) ownedLevel(o player.Owned) string {
	var parts []string
	if o.Level > 0 {
		parts = append(parts, rd.l.s("roster_level_word", o.Level))
	}
	if o.Stars > 0 {
		parts = append(parts, strconv.Itoa(o.Stars)+"★")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// swap is a team change: the ranking's counter at index in for out.
type swap struct {
	out standing
	in  int
}

// bestSwap replaces the weakest member (unranked first, else the lowest
// ranked) by the best-ranked counter not in the team (and, with allow, one
// allow accepts: the player's own), when that is an improvement.
func bestSwap(ss []standing, rk ranking, in map[string]bool, allow func(id string) bool) (swap, bool) {
	worst := -1
	for i, s := range ss {
		switch {
		case worst < 0:
			worst = i
		case s.pos == 0 && ss[worst].pos != 0:
			worst = i
		case s.pos > ss[worst].pos && ss[worst].pos != 0:
			worst = i
		}
	}
	if worst < 0 {
		return swap{}, false
	}
	for i, c := range rk.list {
		if in[idString(c.ID)] || allow != nil && !allow(idString(c.ID)) {
			continue
		}
		if ss[worst].pos == 0 || i+1 < ss[worst].pos {
			return swap{out: ss[worst], in: i}, true
		}
		break
	}
	return swap{}, false
}
