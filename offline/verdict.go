package offline

import (
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/gcsdb"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

// Verdicts judge by the game's own rule: gcsdb ranks a boss's counters by
// the one counter score (designer rank, strong-against, weaknesses hit,
// affinity), and a champion among the first topCounters of that ranking is
// a recommended pick. The responder asks for the whole ranking
// (gcsdb.MaxCounters) so it can say where any champion stands.

// topCounters is how many of a boss's ranked counters count as its
// recommended ones: the list the counters tool returns by default.
const topCounters = 5

// IntentVerdict asks whether a champion is good in general.
const IntentVerdict Intent = "verdict"

// standing is where a champion stands in a boss's counter ranking.
type standing struct {
	ent     Entity
	pos     int // 1-based; 0: not ranked
	counter gcsdb.RankedCounter
}

func (s standing) top() bool { return s.pos > 0 && s.pos <= topCounters }

// ranking is a boss's counter ranking as a counters result holds it.
type ranking struct {
	boss  string
	list  []gcsdb.RankedCounter
	total int
}

// rankingOf reads the counters outcome of the answer.
func (rd renderer) rankingOf() (ranking, reply, bool) {
	co, ok := rd.one(toolCounters)
	if !ok {
		return ranking{}, reply{}, false
	}
	if !co.Result.OK() {
		return ranking{}, rd.failed(co), false
	}
	list, _ := dataAs[toolsgcs.CounterList](co.Result)
	total := max(list.Total, len(list.Counters))
	return ranking{boss: rd.bossName(list.Boss), list: list.Counters, total: total}, reply{}, true
}

// stand finds e in the ranking.
func (rk ranking) stand(e Entity) standing {
	for i, c := range rk.list {
		if idString(c.ID) == e.ID || strings.EqualFold(c.Name, e.Name) {
			return standing{ent: e, pos: i + 1, counter: c}
		}
	}
	return standing{ent: e}
}

// better lists the best-ranked counters not in skip, as bold names.
func (rd renderer) better(rk ranking, n int, skip map[string]bool) []string {
	var out []string
	for _, c := range rk.list {
		if len(out) == n {
			break
		}
		if !skip[idString(c.ID)] {
			out = append(out, bold(rd.counterName(c)))
		}
	}
	return out
}

// standLine says where s stands, with the rule's reason.
func (rd renderer) standLine(s standing, rk ranking) string {
	name := bold(s.ent.Display(rd.l.loc))
	if s.pos == 0 {
		if rk.total > len(rk.list) {
			return rd.l.s("stand_beyond", name, len(rk.list), rk.total)
		}
		return rd.l.s("stand_none", name)
	}
	line := rd.l.s("stand_rank", name, s.pos, rk.total)
	if why := rd.reason(s.counter.Reason); why != "" && rd.l.loc == "en" {
		line += " (" + why + ")"
	}
	return line
}

// verdicts answers "is X good against B", "X or Y against B", "are both
// good against B": a verdict first, then where each stands.
func (rd renderer) verdicts() reply {
	rk, failed, ok := rd.rankingOf()
	if !ok {
		return failed
	}
	champs := ofKind(rd.p.Entities, KindChampion)
	if len(champs) == 0 {
		return rd.counters(rd.get(toolCounters))
	}
	var ss []standing
	skip := map[string]bool{}
	for _, c := range champs {
		ss = append(ss, rk.stand(c))
		skip[c.ID] = true
	}
	alts := rd.l.and(rd.better(rk, 3, skip))
	var rp reply
	if len(ss) == 1 {
		s := ss[0]
		name := s.ent.Display(rd.l.loc)
		switch {
		case s.top() || rd.namesBoss(s.ent, rk):
			rp.lead = rd.l.t(mMatchYes, name, rk.boss)
			if s.pos > 0 {
				rp.lead += " " + rd.l.s("rank_of", s.pos, rk.total) + "."
			}
		case s.pos == 0 && rk.total > len(rk.list):
			rp.lead = rd.l.s("match_beyond", name, rk.boss, len(rk.list), rk.total, alts)
		case s.pos > 0:
			rp.lead = rd.l.s("match_low", name, rk.boss, s.pos, rk.total, alts)
		default:
			rp.lead = rd.l.t(mMatchNo, name, rk.boss, alts)
		}
		if why := rd.reason(s.counter.Reason); why != "" && s.pos > 0 && rd.l.loc == "en" {
			rp.facts = append(rp.facts, why)
		}
		rp.facts = append(rp.facts, rd.better(rk, 5, skip)...)
		return rp
	}
	best := -1
	for i, s := range ss {
		if s.pos > 0 && (best < 0 || s.pos < ss[best].pos) {
			best = i
		}
	}
	choice := has(rd.p.text, wordsCompare) || has(rd.p.text, wordsWhichOne) || has(rd.p.text, wordsSuperlative)
	switch {
	case best < 0:
		names := make([]string, len(ss))
		for i, s := range ss {
			names[i] = bold(s.ent.Display(rd.l.loc))
		}
		rp.lead = rd.l.s("pick_none", rd.l.and(names), rk.boss, alts)
	case choice:
		b := ss[best]
		rp.lead = rd.l.s("pick_best", b.ent.Display(rd.l.loc), rk.boss, b.pos, rk.total)
	default:
		var good, weak []string
		for _, s := range ss {
			if s.top() {
				good = append(good, bold(s.ent.Display(rd.l.loc)))
			} else {
				weak = append(weak, bold(s.ent.Display(rd.l.loc)))
			}
		}
		switch {
		case len(weak) == 0:
			rp.lead = rd.l.s("all_good", rd.l.and(good), rk.boss)
		case len(good) == 0:
			rp.lead = rd.l.s("none_good", rd.l.and(weak), rk.boss, alts)
		default:
			rp.lead = rd.l.s("some_good", rk.boss, rd.l.and(good), rd.l.and(weak))
		}
	}
	for _, s := range ss {
		rp.facts = append(rp.facts, rd.standLine(s, rk))
	}
	return rp
}

// namesBoss reports whether the champion's own data (its details, when the
// answer fetched them) recommends e against the ranking's boss.
func (rd renderer) namesBoss(e Entity, rk ranking) bool {
	o, ok := rd.champion()
	if !ok {
		return false
	}
	c, ok := dataAs[gcsdb.Champion](o.Result)
	if !ok || idString(c.ID) != e.ID {
		return false
	}
	boss := ofKind(rd.p.Entities, KindBoss)
	for _, b := range append(append([]gcsdb.Ref(nil), c.RecommendedAgainst...), c.StrongAgainst...) {
		for _, x := range boss {
			if idString(b.ID) == x.ID {
				return true
			}
		}
	}
	return false
}

// champVerdict answers "is X any good?" with no boss: the game rates
// champions against bosses, so the verdict is the bosses the data names
// it for, or that the data cannot say.
func (rd renderer) champVerdict() reply {
	o, ok := rd.champion()
	if !ok {
		return reply{}
	}
	if !o.Result.OK() {
		return rd.failed(o)
	}
	c, ok := dataAs[gcsdb.Champion](o.Result)
	if !ok {
		return rd.details(o)
	}
	name := rd.display(c.ID, c.Name, nil)
	bosses := rd.bossesFor(c)
	var rp reply
	if len(bosses) > 0 {
		rp.lead = rd.l.s("champ_good", name, rd.l.and(bosses))
	} else {
		rp.lead = rd.l.s("champ_unrated", name)
	}
	rp.facts = append(rp.facts, bold(name)+" ("+rd.attrs(c.Rarity, c.Affinity, c.Role)+")")
	if s := rd.stats(c.Stats); s != "" {
		rp.facts = append(rp.facts, rd.l.t(mStats, s))
	}
	return rp
}

// compareVerdict leads a comparison with the answer to "which one is
// faster/tankier/stronger" (or slower, squishier, weaker), or says the
// game has no overall rating.
func (rd renderer) compareVerdict(cmp toolsgcs.Comparison) string {
	key, low := comparativeOf(rd.p.text)
	if key == "" {
		if has(rd.p.text, wordsGood) || has(rd.p.text, wordsWhichOne) {
			return rd.l.s("no_overall")
		}
		return ""
	}
	best, tie := statLeader(cmp, key, low)
	if best < 0 {
		return ""
	}
	var vals []string
	for _, c := range cmp.Champions {
		vals = append(vals, rd.display(c.ID, c.Name, nil)+" "+rd.l.num(strconv.Itoa(c.Stats.Get(key))))
	}
	if tie {
		return rd.l.s("stat_tie", statLabel(key), strings.Join(vals, ", "))
	}
	word := "cmp_" + key
	if low {
		word += "_low"
	}
	w := cmp.Champions[best]
	return rd.l.s("stat_best", rd.display(w.ID, w.Name, nil), rd.l.s(word), statLabel(key), strings.Join(vals, ", "))
}

// statLeader returns the index of the compared champion with the highest
// stat key (with low, the lowest; -1 when none was compared), and whether
// another has as much.
func statLeader(cmp toolsgcs.Comparison, key string, low bool) (best int, tie bool) {
	best, bestV := -1, 0
	for i, c := range cmp.Champions {
		v := c.Stats.Get(key)
		switch {
		case best < 0 || v > bestV && !low || v < bestV && low:
			best, bestV, tie = i, v, false
		case v == bestV:
			tie = true
		}
	}
	return best, tie
}

// comparatives map "tankier", "faster" and their fr/de forms to a stat,
// and "squishier", "slower" (lower) to the same stat taken from below.
//
//nolint:misspell // French and German words, not misspelt English
var comparatives = []struct {
	key          string
	words, lower []string
}{
	{"spd", phrases(`faster|quicker|fastest|more speed|plus rapide|plus vite|schneller|am schnellsten`),
		phrases(`slower|slowest|less speed|less fast|plus lent|plus lente|moins rapide|langsamer|am langsamsten`)},
	{"hp", phrases(`tankier|tankiest|more hp|more health|sturdier|more durable|tougher|beefier|more tanky|plus resistant|plus resistante|plus de pv|plus solide|zaher|robuster|mehr lp|mehr leben|
		am robustesten|robusteste|robustesten|am zahesten|zaheste|die meisten lp|die meisten lebenspunkte`),
		phrases(`squishier|squishiest|less hp|less health|less tanky|frailer|more fragile|moins de pv|moins resistant|moins resistante|plus fragile|weniger lp|weniger leben|zerbrechlicher`)},
	{"def", phrases(`more defense|more def|plus de defense|mehr verteidigung`),
		phrases(`less defense|less def|moins de defense|weniger verteidigung`)},
	{"atk", phrases(`hits harder|hit harder|stronger|more attack|more damage|plus fort|plus forte|plus de degats|starker|mehr schaden|mehr angriff|
		hits hardest|hardest hitting|frappe le plus fort|am starksten|den meisten schaden`),
		phrases(`hits softer|hits less hard|weaker|less attack|less damage|moins fort|moins forte|plus faible|moins de degats|schwacher|weniger schaden|weniger angriff`)},
	{"res", phrases(`more resistance|plus de resistance|mehr widerstand`),
		phrases(`less resistance|moins de resistance|weniger widerstand`)},
	{"acc", phrases(`more accuracy|more accurate|plus de precision|mehr genauigkeit`),
		phrases(`less accuracy|less accurate|moins de precision|weniger genauigkeit`)},
}

// comparativeStat is the stat a comparative of text names, from above or
// below ("" when none).
func comparativeStat(text string) string {
	key, _ := comparativeOf(text)
	return key
}

// comparativeOf is the stat a comparative of text names, and low when it
// asks for less of it ("slower", "squishier").
func comparativeOf(text string) (key string, low bool) {
	for _, c := range comparatives {
		if has(text, c.words) {
			return c.key, false
		}
		if has(text, c.lower) {
			return c.key, true
		}
	}
	return "", false
}

// bossesFor names, in bold and once each, the bosses a champion is
// recommended against, then those it is strong against.
func (rd renderer) bossesFor(c gcsdb.Champion) []string {
	var bosses []string
	seen := map[int64]bool{}
	for _, b := range append(append([]gcsdb.Ref(nil), c.RecommendedAgainst...), c.StrongAgainst...) {
		if !seen[b.ID] {
			seen[b.ID] = true
			bosses = append(bosses, bold(rd.display(b.ID, b.Name, nil)))
		}
	}
	return bosses
}
