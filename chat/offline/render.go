package offline

import (
	"context"
	"fmt"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// renderer writes one answer.
type renderer struct {
	ctx context.Context
	r   *Responder
	p   Plan
	l   lang
	by  map[string][]tool.Outcome
}

// render writes the answer for plan p from the tool outcomes.
func (r *Responder) render(ctx context.Context, p Plan, outs []tool.Outcome) string {
	if p.Intent == IntentTools {
		var b strings.Builder
		renderTools(&b, p, outs)
		if text := strings.TrimSpace(b.String()); text != "" {
			return text
		}
	}
	if !r.names[toolChampion] && (p.Intent == IntentHelp || p.Intent == IntentGreeting || len(outs) == 0) {
		// Not the sample game: offer only what its tools can answer.
		return r.toolsHelp(p)
	}
	rd := renderer{ctx: ctx, r: r, p: p, l: newLang(p.Locale), by: map[string][]tool.Outcome{}}
	for _, o := range outs {
		rd.by[o.Name] = append(rd.by[o.Name], o)
	}
	var rp reply
	switch p.Intent {
	case IntentGreeting:
		rp = rd.help(rd.l.t(mGreeting))
	case IntentOffTopic:
		rp = reply{lead: rd.l.t(mOffTopic) + " " + rd.l.t(mHelpIntro)}
	case IntentHelp:
		rp = rd.help(rd.l.t(mNotRecognised))
	default:
		if len(outs) == 0 {
			rp = rd.help(rd.l.t(mNotRecognised))
		} else {
			rp = rd.intent()
		}
	}
	text := rp.String()
	if text == "" {
		return rd.help(rd.l.t(mNotRecognised)).String()
	}
	return text
}

// intent renders the answer of an intent that ran tools.
func (rd renderer) intent() reply {
	switch rd.p.Intent {
	case IntentCounters:
		return rd.counters(rd.get(toolCounters))
	case IntentMatchup:
		if len(rd.p.Team) > 0 {
			return rd.team(rd.get(toolCounters))
		}
		return rd.matchup()
	case IntentHowToBeat:
		return rd.howTo()
	case IntentCompare:
		return rd.compare(rd.get(toolCompare))
	case IntentSkills:
		return rd.skills(rd.get(toolSkills))
	case IntentGear:
		if o, ok := rd.one(toolGear); ok {
			return rd.gear(o)
		}
		return rd.gearRole(rd.get(toolGearSets))
	case IntentFarm:
		return rd.farm(rd.get(toolGearSet))
	case IntentCost:
		return rd.dungeon(rd.get(toolDungeon), true)
	case IntentFind:
		return rd.find(rd.get(toolFind))
	case IntentEffect:
		return rd.effect(rd.get(toolByEffect))
	case IntentMasteries:
		rp := rd.docs(rd.get(toolChampionDocs), rd.l.t(mMasteriesLead, rd.name0()), "gear", "master")
		// The masteries line answers the question: it leads.
		for i, f := range rp.facts {
			if strings.Contains(strings.ToLower(f), "master") {
				rp.facts = append([]string{f}, append(rp.facts[:i:i], rp.facts[i+1:]...)...)
				break
			}
		}
		return rp
	case IntentLore:
		return rd.docs(rd.get(toolLore), rd.l.t(mLoreLead, rd.name0()), "biograph", "lore", "history", "story")
	case IntentPatchNotes:
		return rd.docs(rd.get(toolPatchNotes), rd.l.t(mPatchLead))
	case IntentScreenHelp:
		return rd.docs(rd.get(toolUX), rd.l.t(mScreenLead, rd.screenTitle()), "use", "see", "tips")
	case IntentKnowledge:
		return rd.knowledge()
	}
	// Details: one block per entity.
	var rp reply
	for _, o := range rd.all() {
		d := rd.details(o)
		if rp.lead == "" {
			rp.lead = d.lead
		} else if d.lead != "" {
			rp.facts = append(rp.facts, d.lead)
		}
		rp.facts = append(rp.facts, d.facts...)
	}
	return rp
}

func (rd renderer) all() []tool.Outcome {
	var out []tool.Outcome
	for _, os := range rd.by {
		out = append(out, os...)
	}
	// Keep call order: the plan's order.
	var ordered []tool.Outcome
	for _, c := range rd.p.Calls {
		for _, o := range out {
			if o.Name == c.Name && string(o.Arguments) == string(c.Arguments) {
				ordered = append(ordered, o)
				break
			}
		}
	}
	if len(ordered) == len(out) {
		return ordered
	}
	return out
}

func (rd renderer) get(name string) []tool.Outcome { return rd.by[name] }

func (rd renderer) one(name string) (tool.Outcome, bool) {
	if os := rd.by[name]; len(os) > 0 {
		return os[0], true
	}
	return tool.Outcome{}, false
}

// name0 is the plan's first entity, localized.
func (rd renderer) name0() string {
	if len(rd.p.Entities) == 0 {
		return ""
	}
	return rd.p.Entities[0].Display(rd.l.loc)
}

// display is an item's name in the reply's locale.
func (rd renderer) display(it item) string {
	if n := it.names[rd.l.loc]; n != "" {
		return n
	}
	if it.id != "" {
		if e, ok := rd.r.resolver.ByID(rd.ctx, it.id); ok {
			return e.Display(rd.l.loc)
		}
	}
	return it.name
}

func (rd renderer) displayAll(xs []item, n int) []string {
	var out []string
	for i, x := range xs {
		if i == n {
			break
		}
		out = append(out, rd.display(x))
	}
	return out
}

// failed is the reply for an error envelope.
func (rd renderer) failed(o tool.Outcome) reply {
	msg := strings.TrimSpace(o.Result.Message)
	if msg == "" || rd.l.loc != "en" {
		msg = rd.l.t(mUnavailable)
	}
	return reply{lead: msg}
}

// help says what the assistant can do, with names from the game.
func (rd renderer) help(intro string) reply {
	champ, champ2, boss, set := "Kaelith", "Kaelith", "the Fire Knight", "Swiftwind"
	ex := rd.r.resolver
	if cs := ex.Examples(rd.ctx, KindChampion, 2); len(cs) == 2 {
		champ, champ2 = cs[0].Display(rd.l.loc), cs[1].Display(rd.l.loc)
	}
	if bs := ex.Examples(rd.ctx, KindBoss, 1); len(bs) == 1 {
		boss = bs[0].Display(rd.l.loc)
	}
	if ss := ex.Examples(rd.ctx, KindGearSet, 1); len(ss) == 1 {
		set = ss[0].Display(rd.l.loc)
	}
	l := rd.l
	return reply{
		lead: intro + " " + l.t(mHelpIntro),
		facts: []string{
			l.t(mHelpDetails, champ), l.t(mHelpCompare, champ, champ2), l.t(mHelpCounters, boss),
			l.t(mHelpFind), l.t(mHelpFarm, set), l.t(mHelpScreen),
		},
	}
}

func (rd renderer) screenTitle() string {
	if rd.p.Screen != "" {
		return rd.p.Screen
	}
	return "?"
}

// counters renders a counters result: the ranked champions with reasons.
func (rd renderer) counters(os []tool.Outcome) reply {
	if len(os) == 0 {
		return reply{}
	}
	o := os[0]
	if !o.Result.OK() {
		return rd.failed(o)
	}
	v := decode(o.Result)
	m, _ := v.(map[string]any)
	boss := rd.bossName(m)
	cs := items(v, "counters", "champions", "recommended", "results")
	if len(cs) == 0 {
		return reply{lead: rd.l.t(mCountersNone, boss)}
	}
	names := rd.displayAll(cs, 3)
	rp := reply{lead: rd.l.t(mCountersLead, boss, rd.l.and(boldAll(names)))}
	for i, c := range cs {
		if i == 5 {
			break
		}
		f := bold(rd.display(c))
		if why := first(c.obj, "reason", "why", "explanation"); why != "" && rd.l.loc == "en" {
			f += ": " + rd.reason(why)
		} else if a := rd.attrs(c.obj); a != "" {
			f += " (" + a + ")"
		}
		rp.facts = append(rp.facts, f)
	}
	if b := obj(m, "boss"); b != nil {
		if ws := stringList(b["weaknesses"]); len(ws) > 0 {
			rp.facts = append(rp.facts, rd.l.t(mWeaknesses, strings.Join(ws, ", ")))
		}
	}
	return rp
}

// reason keeps a counter's reason short: its first clauses, in English
// only (the data's wording); other locales get the rank only.
func (rd renderer) reason(why string) string {
	parts := strings.Split(why, ";")
	if rd.l.loc != "en" {
		return strings.TrimSpace(parts[0])
	}
	var keep []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || strings.HasPrefix(p, "recommended counter #") {
			// The designers' own rank is one input of the tool's order; shown
			// next to the list it reads as the list being out of order.
			continue
		}
		keep = append(keep, p)
		if len(keep) == 3 {
			break
		}
	}
	return strings.Join(keep, "; ")
}

func (rd renderer) bossName(m map[string]any) string {
	if b := obj(m, "boss"); b != nil {
		return rd.display(itemOf(b))
	}
	if s := scalar(m["boss"]); s != "" {
		return s
	}
	for _, e := range rd.p.Entities {
		if e.Kind == KindBoss {
			return e.Display(rd.l.loc)
		}
	}
	return "?"
}

func boldAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = bold(x)
	}
	return out
}

// matchup answers "is champion good against boss".
func (rd renderer) matchup() reply {
	var champ, boss Entity
	for _, e := range rd.p.Entities {
		if e.Kind == KindChampion && champ.ID == "" {
			champ = e
		}
		if e.Kind == KindBoss && boss.ID == "" {
			boss = e
		}
	}
	co, ok := rd.one(toolCounters)
	if !ok || !co.Result.OK() {
		if ok {
			return rd.failed(co)
		}
		return reply{}
	}
	cs := items(decode(co.Result), "counters", "champions", "recommended", "results")
	hit := false
	for _, c := range cs {
		if c.id == champ.ID || strings.EqualFold(c.name, champ.Name) {
			hit = true
		}
	}
	if o, ok := rd.one(toolChampion); ok && o.Result.OK() && !hit {
		m := entityOf(decode(o.Result))
		for _, k := range []string{"recommended_against", "strong_against"} {
			for _, b := range namedList(m, k) {
				if b.id == boss.ID || strings.EqualFold(b.name, boss.Name) {
					hit = true
				}
			}
		}
	}
	cn, bn := champ.Display(rd.l.loc), boss.Display(rd.l.loc)
	var rp reply
	if hit {
		rp.lead = rd.l.t(mMatchYes, cn, bn)
	} else {
		rp.lead = rd.l.t(mMatchNo, cn, bn, rd.l.and(boldAll(rd.displayAll(cs, 3))))
	}
	for i, c := range cs {
		if i == 5 {
			break
		}
		rp.facts = append(rp.facts, bold(rd.display(c)))
	}
	return rp
}

// team answers "is my team good against this boss".
func (rd renderer) team(os []tool.Outcome) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	v := decode(os[0].Result)
	m, _ := v.(map[string]any)
	boss := rd.bossName(m)
	cs := items(v, "counters", "champions", "recommended", "results")
	in := map[string]bool{}
	for _, c := range cs {
		in[c.id] = true
	}
	var good []string
	var rp reply
	for _, e := range rd.p.Team {
		if in[e.ID] {
			good = append(good, bold(e.Display(rd.l.loc)))
		}
	}
	if len(good) == 0 {
		rp.lead = rd.l.t(mTeamNone, boss, rd.l.and(boldAll(rd.displayAll(cs, 3))))
	} else {
		rp.lead = rd.l.t(mTeamLead, boss, rd.l.and(good))
	}
	for i, c := range cs {
		if i == 5 {
			break
		}
		rp.facts = append(rp.facts, bold(rd.display(c)))
	}
	return rp
}

// howTo renders the guide passage, then the counters.
func (rd renderer) howTo() reply {
	var rp reply
	if o, ok := rd.one(toolFAQ); ok && o.Result.OK() {
		ps := passages(decode(o.Result))
		name := strings.ToLower(rd.p.Entities[0].Name)
		for _, p := range ps {
			if strings.Contains(strings.ToLower(p.title+" "+p.text), name) {
				bs := plainBlocks(p.text)
				if len(bs) > 0 {
					rp.lead, rp.facts = bs[0], bs[1:]
				}
				break
			}
		}
	}
	c := rd.counters(rd.get(toolCounters))
	if rp.lead == "" {
		rp.lead = rd.l.t(mHowToLead, rd.name0())
	}
	if c.lead != "" {
		rp.facts = append(rp.facts, c.lead)
	}
	return rp
}

// compare renders champions side by side and who leads each stat.
func (rd renderer) compare(os []tool.Outcome) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	v := decode(os[0].Result)
	chars := items(v, "characters", "champions", "comparison", "results")
	if len(chars) == 0 {
		return reply{}
	}
	var rp reply
	rp.lead = rd.l.t(mCompareLead, rd.l.and(boldAll(rd.displayAll(chars, 5))))
	m, _ := v.(map[string]any)
	winners := obj(m, "stat_winners")
	var leads []string
	for _, k := range statOrder {
		if w := scalar(winners[k]); w != "" {
			leads = append(leads, statLabel(k)+" "+w)
		}
	}
	if len(leads) > 0 {
		rp.lead += " " + rd.l.t(mStatLeader, strings.Join(leads, ", ")) + "."
	}
	for _, c := range chars {
		line := bold(rd.display(c)) + " (" + rd.attrs(c.obj) + ")"
		if s := rd.stats(obj(c.obj, "stats")); s != "" {
			line += ": " + s
		}
		rp.facts = append(rp.facts, line)
	}
	return rp
}

var statOrder = []string{"hp", "atk", "def", "spd", "c_rate", "c_dmg", "res", "acc"}

func statLabel(k string) string {
	switch k {
	case "c_rate":
		return "C.RATE"
	case "c_dmg":
		return "C.DMG"
	}
	return strings.ToUpper(k)
}

// stats renders a stats object in the locale's numbers.
func (rd renderer) stats(st map[string]any) string {
	var parts []string
	for _, k := range statOrder {
		v := scalar(st[k])
		if v == "" {
			continue
		}
		v = rd.l.num(v)
		if k == "c_rate" || k == "c_dmg" {
			v += "%"
		}
		parts = append(parts, statLabel(k)+" "+v)
	}
	return strings.Join(parts, ", ")
}

// attrs is "Legendary · Magic · Attack".
func (rd renderer) attrs(m map[string]any) string {
	var parts []string
	for _, k := range []string{"rarity", "affinity", "role"} {
		if s := scalar(m[k]); s != "" {
			parts = append(parts, rd.l.word(s))
		}
	}
	return strings.Join(parts, " · ")
}

// skills renders a champion's skills.
func (rd renderer) skills(os []tool.Outcome) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	sk := items(decode(os[0].Result), "skills")
	rp := reply{lead: rd.l.t(mSkillsLead, rd.name0(), rd.l.num(fmt.Sprint(len(sk))))}
	for _, s := range sk {
		rp.facts = append(rp.facts, rd.skillLine(s))
	}
	return rp
}

func (rd renderer) skillLine(s item) string {
	line := bold(s.name)
	if cd := scalar(s.obj["cooldown"]); cd != "" && cd != "0" {
		line += " (" + rd.l.t(mCooldown, cd) + ")"
	}
	if d := scalar(s.obj["description"]); d != "" {
		line += ": " + cutSentences(d, 200, 2)
	}
	return line
}

// gear renders gear recommendations in the tool's order.
func (rd renderer) gear(o tool.Outcome) reply {
	if !o.Result.OK() {
		return rd.failed(o)
	}
	sets := items(decode(o.Result), "recommendations", "gear_sets", "sets")
	if len(sets) == 0 {
		return reply{lead: rd.l.t(mNothingFound)}
	}
	rp := reply{lead: rd.l.t(mGearLead, rd.name0(), rd.l.and(boldAll(rd.displayAll(sets, 3))))}
	for i, s := range sets {
		if i == 4 {
			break
		}
		line := bold(rd.display(s))
		if bonus := scalar(s.obj["stat_bonus"]); bonus != "" {
			line += " (" + bonus + ")"
		}
		if why := scalar(s.obj["reason"]); why != "" && rd.l.loc == "en" {
			line += ": " + cutSentences(why, 140, 1)
		}
		if where := scalar(s.obj["farm_in"]); where != "" {
			line += " · " + where
		}
		rp.facts = append(rp.facts, line)
	}
	return rp
}

// gearRole renders the gear sets made for one role.
func (rd renderer) gearRole(os []tool.Outcome) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	sets := items(decode(os[0].Result), "gear_sets", "sets")
	role := scalar(rd.p.Filters["best_for"])
	if len(sets) == 0 {
		return reply{lead: rd.l.t(mNothingFound)}
	}
	rp := reply{lead: rd.l.t(mGearRoleLead, rd.l.word(role), rd.l.and(boldAll(rd.displayAll(sets, 4))))}
	for _, s := range sets {
		line := bold(rd.display(s))
		if bonus := scalar(s.obj["stat_bonus"]); bonus != "" {
			line += ": " + bonus
		}
		if n := scalar(s.obj["pieces"]); n != "" {
			line += " (" + rd.l.num(n) + ")"
		}
		rp.facts = append(rp.facts, line)
	}
	return rp
}

// farm names the places that drop a gear set.
func (rd renderer) farm(os []tool.Outcome) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	m := entityOf(decode(os[0].Result))
	set := rd.display(itemOf(m))
	where := namedList(m, "dropped_in")
	if len(where) == 0 {
		where = namedList(m, "drops_in")
	}
	if len(where) == 0 {
		return reply{lead: rd.l.t(mFarmNone, set)}
	}
	rp := reply{lead: rd.l.t(mFarmLead, set, rd.l.and(boldAll(rd.displayAll(where, 8))))}
	if b := scalar(m["stat_bonus"]); b != "" {
		rp.facts = append(rp.facts, b)
	}
	if b := scalar(m["best_for"]); b != "" {
		rp.facts = append(rp.facts, rd.l.t(mBestFor, rd.l.word(b)))
	}
	return rp
}

// dungeon renders a dungeon: energy cost first when asked.
func (rd renderer) dungeon(os []tool.Outcome, cost bool) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	m := entityOf(decode(os[0].Result))
	name := rd.display(itemOf(m))
	var rp reply
	if e := scalar(m["energy_cost"]); e != "" {
		rp.lead = rd.l.t(mCostLead, name, rd.l.num(e))
	} else {
		rp.lead = bold(name)
	}
	if !cost {
		if d := scalar(m["description"]); d != "" {
			rp.lead += " " + d
		}
	}
	if s := scalar(m["stages"]); s != "" {
		rp.facts = append(rp.facts, rd.l.t(mStages, rd.l.num(s)))
	}
	if b := obj(m, "boss"); b != nil {
		rp.facts = append(rp.facts, rd.l.t(mBoss, rd.display(itemOf(b))))
	}
	if ds := namedList(m, "drops"); len(ds) > 0 {
		rp.facts = append(rp.facts, rd.l.t(mDrops, strings.Join(rd.displayAll(ds, 6), ", ")))
	}
	return rp
}

// find renders a filtered, sorted champion list in the tool's order.
func (rd renderer) find(os []tool.Outcome) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	v := decode(os[0].Result)
	cs := items(v, "champions", "results")
	if len(cs) == 0 {
		return reply{lead: rd.l.t(mFindNone)}
	}
	sortKey := scalar(rd.p.Filters["sort_by"])
	var desc []string
	for _, k := range []string{"rarity", "affinity", "role"} {
		if s := scalar(rd.p.Filters[k]); s != "" {
			desc = append(desc, rd.l.word(s))
		}
	}
	if f := scalar(rd.p.Filters["faction"]); f != "" {
		desc = append(desc, f)
	}
	desc = append(desc, rd.l.word("champions"))
	label := strings.Join(desc, " ")
	if sortKey != "" && sortKey != "rarity" && sortKey != "name" {
		label += " (" + statLabel(sortKey) + ")"
	}
	var tops []string
	for i, c := range cs {
		if i == 3 {
			break
		}
		t := bold(rd.display(c))
		if sortKey != "" && sortKey != "rarity" && sortKey != "name" {
			if st := obj(c.obj, "stats"); st != nil {
				t += " (" + rd.l.num(scalar(st[sortKey])) + ")"
			}
		}
		tops = append(tops, t)
	}
	rp := reply{lead: rd.l.t(mFindLead, label, rd.l.and(tops))}
	for _, c := range cs {
		line := bold(rd.display(c)) + " (" + rd.attrs(c.obj) + ")"
		if sortKey != "" && sortKey != "rarity" && sortKey != "name" {
			if st := obj(c.obj, "stats"); st != nil {
				line += ": " + statLabel(sortKey) + " " + rd.l.num(scalar(st[sortKey]))
			}
		}
		rp.facts = append(rp.facts, line)
	}
	if m, ok := v.(map[string]any); ok {
		total, shown := number(m["total"]), float64(len(cs))
		if total > shown {
			rp.facts = append(rp.facts, rd.l.t(mOtherResults, rd.l.num(fmt.Sprint(int(total-shown)))))
		}
	}
	return rp
}

// effect renders champions whose skills apply an effect.
func (rd renderer) effect(os []tool.Outcome) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	cs := items(decode(os[0].Result), "champions", "results")
	if len(cs) == 0 {
		return reply{lead: rd.l.t(mFindNone)}
	}
	eff := strings.ReplaceAll(argString(os[0].Arguments, "effect"), "_", " ")
	rp := reply{lead: rd.l.t(mEffectLead, eff, rd.l.and(boldAll(rd.displayAll(cs, 3))))}
	for i, c := range cs {
		if i == 5 {
			break
		}
		rp.facts = append(rp.facts, bold(rd.display(c))+" ("+rd.attrs(c.obj)+")")
	}
	return rp
}

// docs renders RAG passages: the best passage first, sections matching
// prefer ahead of the others.
func (rd renderer) docs(os []tool.Outcome, lead string, prefer ...string) reply {
	var ps []passage
	for _, o := range os {
		if !o.Result.OK() {
			continue
		}
		ps = append(ps, passages(decode(o.Result))...)
	}
	if len(ps) == 0 {
		if len(os) > 0 && !os[0].Result.OK() {
			return rd.failed(os[0])
		}
		return reply{lead: rd.l.t(mNothingFound)}
	}
	var ordered []passage
	for _, want := range prefer {
		for _, p := range ps {
			if strings.Contains(strings.ToLower(p.section), want) && !containsPassage(ordered, p) {
				ordered = append(ordered, p)
			}
		}
	}
	for _, p := range ps {
		if !containsPassage(ordered, p) {
			ordered = append(ordered, p)
		}
	}
	rp := reply{lead: lead}
	for i, p := range ordered {
		if i == 2 {
			break
		}
		for _, bl := range plainBlocks(p.text) {
			// A block of one or two words ("None.") says nothing alone.
			if len(strings.Fields(bl)) > 2 {
				rp.facts = append(rp.facts, bl)
			}
		}
	}
	return rp
}

// knowledge answers a game question from the best passage of the FAQ and
// mechanics searches: its first sentences lead, the rest follow as facts.
func (rd renderer) knowledge() reply {
	var best passage
	bestScore := -1.0
	for _, name := range []string{toolFAQ, toolMechanics} {
		// FAQ answers are written for players' questions: a mechanics
		// passage must score clearly higher to be preferred.
		weight := 1.0
		if name == toolMechanics {
			weight = 1 / 1.2
		}
		for _, o := range rd.get(name) {
			if !o.Result.OK() {
				continue
			}
			for _, p := range passageScores(decode(o.Result)) {
				if p.score*weight > bestScore {
					best, bestScore = p.passage, p.score*weight
				}
			}
		}
	}
	if bestScore < 0 {
		return reply{lead: rd.l.t(mNothingFound)}
	}
	blocks := plainBlocks(best.text)
	if len(blocks) == 0 {
		return reply{lead: rd.l.t(mNothingFound)}
	}
	sents := sentences(blocks[0])
	n := min(2, len(sents))
	rp := reply{lead: strings.Join(sents[:n], " ")}
	rp.facts = append(rp.facts, sents[n:]...)
	rp.facts = append(rp.facts, blocks[1:]...)
	return rp
}

// sentences splits text after each sentence end.
func sentences(s string) []string {
	var out []string
	last := 0
	for _, e := range sentenceEnd.FindAllStringIndex(s, -1) {
		end := e[0] + len(string([]rune(s[e[0]:])[0]))
		if t := strings.TrimSpace(s[last:end]); t != "" {
			out = append(out, t)
		}
		last = end
	}
	if t := strings.TrimSpace(s[last:]); t != "" {
		out = append(out, t)
	}
	return out
}

func containsPassage(ps []passage, p passage) bool {
	for _, q := range ps {
		if q.doc == p.doc && q.section == p.section && q.text == p.text {
			return true
		}
	}
	return false
}

// details renders one details result (champion, boss, faction, dungeon,
// gear set).
func (rd renderer) details(o tool.Outcome) reply {
	if !o.Result.OK() {
		return rd.failed(o)
	}
	m := entityOf(decode(o.Result))
	if m == nil {
		return reply{}
	}
	it := itemOf(m)
	name := rd.display(it)
	l := rd.l
	var rp reply
	switch toolKinds[o.Name] {
	case KindChampion:
		faction := scalar(m["faction"])
		if f := obj(m, "faction"); f != nil {
			faction = rd.display(itemOf(f))
		}
		if faction != "" {
			rp.lead = l.t(mDetailsChampion, name, l.word(scalar(m["rarity"])), l.word(scalar(m["affinity"])), l.word(scalar(m["role"])), faction)
		} else {
			rp.lead = l.t(mDetailsChampionShort, name, l.word(scalar(m["rarity"])), l.word(scalar(m["affinity"])), l.word(scalar(m["role"])))
		}
		if s := rd.stats(obj(m, "stats")); s != "" {
			rp.facts = append(rp.facts, l.t(mStats, s))
		}
		for i, s := range items(m, "skills") {
			if i == 4 {
				break
			}
			rp.facts = append(rp.facts, rd.skillLine(s))
		}
		if bs := namedList(m, "recommended_against"); len(bs) > 0 {
			rp.facts = append(rp.facts, l.t(mStrongAgainst, strings.Join(rd.displayAll(bs, 5), ", ")))
		}
	case KindBoss:
		rp.lead = l.t(mDetailsBoss, name, l.word(scalar(m["difficulty"])), l.word(scalar(m["affinity"])), l.num(scalar(m["hp"])))
		if d := obj(m, "dungeon"); d != nil {
			rp.facts = append(rp.facts, l.t(mBossDungeon, rd.display(itemOf(d))))
		}
		if ws := stringList(m["weaknesses"]); len(ws) > 0 {
			rp.facts = append(rp.facts, l.t(mWeaknesses, strings.Join(ws, ", ")))
		}
		if ws := stringList(m["immunities"]); len(ws) > 0 {
			rp.facts = append(rp.facts, l.t(mImmunities, strings.Join(ws, ", ")))
		}
		var phases []string
		for _, ph := range items(m, "phases") {
			phases = append(phases, ph.name)
		}
		if len(phases) > 0 {
			rp.facts = append(rp.facts, l.t(mPhases, strings.Join(phases, ", ")))
		}
		if cs := rankOrder(namedList(m, "recommended_counters")); len(cs) > 0 {
			rp.facts = append(rp.facts, l.t(mCountersLead, name, l.and(rd.displayAll(cs, 3))))
		}
	case KindFaction:
		rp.lead = l.t(mDetailsFaction, name, scalar(m["homeland"]))
		if d := scalar(m["description"]); d != "" && l.loc == "en" {
			rp.lead += " " + d
		}
		for _, k := range []string{"champions", "members"} {
			if cs := namedList(m, k); len(cs) > 0 {
				rp.facts = append(rp.facts, l.t(mMembers, strings.Join(rd.displayAll(cs, 8), ", ")))
				break
			}
		}
	case KindDungeon:
		return rd.dungeon([]tool.Outcome{o}, false)
	case KindGearSet:
		rp.lead = l.t(mDetailsGearSet, name, l.num(scalar(m["pieces"])), scalar(m["stat_bonus"]))
		if b := scalar(m["best_for"]); b != "" {
			rp.facts = append(rp.facts, l.t(mBestFor, l.word(b)))
		}
		if where := namedList(m, "dropped_in"); len(where) > 0 {
			rp.facts = append(rp.facts, l.t(mFarmLead, name, l.and(rd.displayAll(where, 8))))
		}
	default:
		rp.lead = bold(name)
	}
	return rp
}
