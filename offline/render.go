package offline

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/tool"
	toolscache "github.com/gameassist/gameassist/tools_cache"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

// renderer writes one answer.
type renderer struct {
	p  Plan
	l  lang
	by map[string][]tool.Outcome
}

// render writes the answer for plan p from the tool outcomes.
func (r *Responder) render(p Plan, outs []tool.Outcome) string {
	if p.Intent == IntentTools {
		var b strings.Builder
		renderTools(&b, p, outs)
		if text := strings.TrimSpace(b.String()); text != "" {
			return text
		}
	}
	if !r.names[toolChampion] && p.Intent != IntentClarify && (p.Intent == IntentHelp || p.Intent == IntentGreeting || len(outs) == 0) {
		// Not the sample game: offer only what its tools can answer.
		return r.toolsHelp(p)
	}
	rd := renderer{p: p, l: newLang(p.Locale), by: map[string][]tool.Outcome{}}
	for _, o := range outs {
		rd.by[o.Name] = append(rd.by[o.Name], o)
	}
	if rp, ok := rd.renderPlayer(); ok {
		return rp.String()
	}
	var rp reply
	switch p.Intent {
	case IntentGreeting:
		rp = rd.help(rd.l.t(mGreeting))
	case IntentOffTopic:
		rp = reply{lead: rd.l.t(mOffTopic) + " " + rd.l.t(mHelpIntro)}
	case IntentHelp:
		rp = rd.help(rd.l.t(mNotRecognised))
	case IntentUnknownName:
		rp = rd.unknown()
	case IntentClarify:
		rp = rd.clarifyText(rd.p.Clarify)
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
			return rd.teamVerdict()
		}
		return rd.verdicts()
	case IntentVerdict:
		return rd.champVerdict()
	case IntentWeakness:
		return rd.weakness(rd.get(toolBoss))
	case IntentPhases:
		return rd.phases(rd.get(toolBoss))
	case IntentMembers:
		return rd.members(rd.get(toolMembers))
	case IntentSetVerdict:
		return rd.setVerdict()
	case IntentOfferVerdict:
		return rd.offerVerdict()
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
	case IntentList:
		if ext, _ := rd.p.Filters["extreme"].(bool); ext {
			hardest, _ := rd.p.Filters["hardest"].(bool)
			return rd.bossExtreme(rd.get(toolBosses), hardest)
		}
		kind, _ := rd.p.Filters["kind"].(string)
		for _, lk := range listKinds {
			if string(lk.kind) == kind {
				return rd.list(rd.get(lk.tool), lk.kind)
			}
		}
		return reply{}
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
		name := rd.name0()
		if name == "" && rd.p.Unknown != nil {
			name = rd.p.Unknown.Name // a lore topic that is no entity
		}
		return rd.docs(rd.get(toolLore), rd.l.t(mLoreLead, name), "biograph", "lore", "history", "story")
	case IntentPatchNotes:
		if rd.p.Latest {
			return rd.latestPatchReply()
		}
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

// weakness answers "what is this boss weak to?" (or immune to): that
// leads, then the rest of the boss's details.
func (rd renderer) weakness(os []tool.Outcome) reply {
	return rd.withBoss(os, rd.weaknessOf)
}

// withBoss answers with f from the boss details of os's first outcome;
// an outcome with no boss is answered as its details.
func (rd renderer) withBoss(os []tool.Outcome, f func(tool.Outcome, gcsdb.Boss) reply) reply {
	if len(os) == 0 {
		return reply{}
	}
	o := os[0]
	b, ok := dataAs[gcsdb.Boss](o.Result)
	if !o.Result.OK() || !ok {
		return rd.details(o)
	}
	return f(o, b)
}

func (rd renderer) weaknessOf(o tool.Outcome, b gcsdb.Boss) reply {
	name := rd.display(b.ID, b.Name, b.Names)
	ws, im := effectWordsOf(b.Weaknesses, rd.l.loc), effectWordsOf(b.Immunities, rd.l.loc)
	var rp reply
	var said string // the details' fact the lead says
	switch {
	case has(rd.p.text, wordsImmune) && len(im) > 0:
		rp.lead, said = rd.l.s("immune_to", name, rd.l.and(im)), rd.l.t(mImmunities, strings.Join(im, ", "))
	case len(ws) > 0:
		rp.lead, said = rd.l.s("weak_to", name, rd.l.and(ws)), rd.l.t(mWeaknesses, strings.Join(ws, ", "))
	default:
		rp.lead = rd.l.s("weak_none", name)
	}
	for _, f := range rd.details(o).facts {
		if f != said {
			rp.facts = append(rp.facts, f)
		}
	}
	return rp
}

// champion is the answer's champion details: by name or, served from a
// screen's call, by config id (the same data).
func (rd renderer) champion() (tool.Outcome, bool) {
	if o, ok := rd.one(toolChampion); ok {
		return o, true
	}
	return rd.one(toolCharacterByID)
}

// name0 is the plan's first entity, localized.
func (rd renderer) name0() string {
	if len(rd.p.Entities) == 0 {
		return ""
	}
	return rd.p.Entities[0].Display(rd.l.loc)
}

// display is an entity's name in the reply's locale: its own localized
// names, else the game's display names for its id, else name.
func (rd renderer) display(id int64, name string, names map[string]string) string {
	if n := names[rd.l.loc]; n != "" {
		return n
	}
	if id != 0 {
		if e, ok := rd.p.names.ByID(idString(id)); ok {
			return e.Display(rd.l.loc)
		}
	}
	return name
}

// ref is a referenced entity's name in the reply's locale.
func (rd renderer) ref(r gcsdb.Ref) string { return rd.display(r.ID, r.Name, nil) }

func displayAll[T any](xs []T, n int, name func(T) string) []string {
	var out []string
	for i, x := range xs {
		if i == n {
			break
		}
		out = append(out, name(x))
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
	ex := rd.p.names
	if cs := ex.Examples(KindChampion, 2); len(cs) == 2 {
		champ, champ2 = cs[0].Display(rd.l.loc), cs[1].Display(rd.l.loc)
	}
	if bs := ex.Examples(KindBoss, 1); len(bs) == 1 {
		boss = bs[0].Display(rd.l.loc)
	}
	if ss := ex.Examples(KindGearSet, 1); len(ss) == 1 {
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

// unknown says the game has no entity by the name asked about: the closest
// real names when some are near, else the list of that kind to browse
// (else what the assistant can do). The name is quoted as the player wrote it.
func (rd renderer) unknown() reply {
	u := rd.p.Unknown
	if u == nil {
		return rd.help(rd.l.t(mNotRecognised))
	}
	m, ok := map[Kind]msg{
		KindChampion: mNoChampion, KindBoss: mNoBoss, KindFaction: mNoFaction,
		KindDungeon: mNoDungeon, KindGearSet: mNoGearSet, KindMastery: mNoMastery,
	}[u.Kind]
	if !ok {
		m = mNoName
	}
	lead := rd.l.t(m, u.Name)
	if len(u.Suggestions) > 0 {
		names := displayAll(u.Suggestions, maxSuggestions, func(e Entity) string { return bold(e.Display(rd.l.loc)) })
		return reply{lead: lead + " " + rd.l.t(mDidYouMean, rd.l.or(names))}
	}
	o, ok := rd.one(listTools[u.Kind])
	if !ok || !o.Result.OK() {
		return rd.help(lead)
	}
	f := o.Result.Facts()
	rp := reply{lead: lead + " " + rd.l.t(mBrowse, rd.l.kindPlural(u.Kind))}
	for _, e := range f.Entities {
		if len(rp.facts) == maxFacts-1 {
			break
		}
		rp.facts = append(rp.facts, bold(rd.display(e.ID, e.Name, nil)))
	}
	if f.Page != nil && f.Page.Total > len(rp.facts) {
		rp.facts = append(rp.facts, rd.l.t(mOtherResults, rd.l.num(strconv.Itoa(f.Page.Total-len(rp.facts)))))
	}
	return rp
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
	list, ok := dataAs[toolsgcs.CounterList](o.Result)
	if !ok {
		return reply{}
	}
	boss := rd.bossName(list.Boss)
	cs := list.Counters
	if len(cs) == 0 {
		return reply{lead: rd.l.t(mCountersNone, boss)}
	}
	names := displayAll(cs, 3, rd.counterName)
	rp := reply{lead: rd.l.t(mCountersLead, boss, rd.l.and(boldAll(names)))}
	for i, c := range cs {
		if i == 5 {
			break
		}
		f := bold(rd.counterName(c))
		if c.Reason != "" && rd.l.loc == "en" {
			f += ": " + rd.reason(c.Reason)
		} else if a := rd.attrs(c.Rarity, c.Affinity, c.Role); a != "" {
			f += " (" + a + ")"
		}
		rp.facts = append(rp.facts, f)
	}
	return rp
}

func (rd renderer) counterName(c gcsdb.RankedCounter) string { return rd.display(c.ID, c.Name, nil) }

// reason keeps a counter's reason short: its first clauses, in English
// only (the data's wording); other locales get the rank only.
func (rd renderer) reason(why string) string {
	parts := strings.Split(why, ";")
	if rd.l.loc != "en" {
		// The ranking's reasons are English sentences: a French or
		// German reply keeps to the names and ranks.
		return ""
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

func (rd renderer) bossName(b gcsdb.BossRef) string {
	if b.Name != "" {
		return rd.display(b.ID, b.Name, nil)
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

// howTo renders the guide passage, then the counters.
func (rd renderer) howTo() reply {
	var rp reply
	if o, ok := rd.one(toolFAQ); ok && o.Result.OK() {
		ps := passagesOf(o.Result)
		name := strings.ToLower(rd.p.Entities[0].Name)
		for _, p := range ps {
			if strings.Contains(strings.ToLower(p.Title+" "+p.Text), name) {
				bs := plainBlocks(p.Text)
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
	cmp, ok := dataAs[toolsgcs.Comparison](os[0].Result)
	if !ok || len(cmp.Champions) == 0 {
		return reply{}
	}
	name := func(c toolsgcs.Compared) string { return rd.display(c.ID, c.Name, nil) }
	var rp reply
	rp.lead = rd.l.t(mCompareLead, rd.l.and(boldAll(displayAll(cmp.Champions, 5, name))))
	if v := rd.compareVerdict(cmp); v != "" {
		rp.lead = v
	}
	var leads []string
	for _, k := range gcsdb.StatKeys() {
		if w := cmp.StatWinners[k]; w != "" {
			leads = append(leads, statLabel(k)+" "+w)
		}
	}
	if len(leads) > 0 {
		rp.lead += " " + rd.l.t(mStatLeader, strings.Join(leads, ", ")) + "."
	}
	for _, c := range cmp.Champions {
		line := bold(name(c)) + " (" + rd.attrs(c.Rarity, c.Affinity, c.Role) + ")"
		if s := rd.stats(c.Stats); s != "" {
			line += ": " + s
		}
		rp.facts = append(rp.facts, line)
	}
	return rp
}

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
func (rd renderer) stats(st gcsdb.Stats) string {
	var parts []string
	for _, k := range gcsdb.StatKeys() {
		v := rd.l.num(strconv.Itoa(st.Get(k)))
		if k == "c_rate" || k == "c_dmg" {
			v += "%"
		}
		parts = append(parts, statLabel(k)+" "+v)
	}
	return strings.Join(parts, ", ")
}

// attrs is "Legendary · Magic · Attack".
func (rd renderer) attrs(rarity, affinity, role string) string {
	var parts []string
	for _, s := range []string{rarity, affinity, role} {
		if s != "" {
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
	sk, _ := dataAs[toolsgcs.ChampionSkills](os[0].Result)
	rp := reply{lead: rd.l.t(mSkillsLead, rd.name0(), rd.l.num(strconv.Itoa(len(sk.Skills))))}
	for _, s := range sk.Skills {
		rp.facts = append(rp.facts, rd.skillLine(s))
	}
	return rp
}

func (rd renderer) skillLine(s gcsdb.Skill) string {
	line := bold(s.Name)
	if s.Cooldown != 0 {
		line += " (" + rd.l.t(mCooldown, strconv.Itoa(s.Cooldown)) + ")"
	}
	// The description in the session's language; where a sentence has no
	// form in it, the skill's effects by their localized labels instead
	// of English text.
	if desc, ok := gamedata.SkillText(s.Description, rd.l.loc); ok && desc != "" {
		line += ": " + cutSentences(desc, 200, 2)
	} else if !ok && len(s.Effects) > 0 {
		labels := make([]string, 0, len(s.Effects))
		for _, e := range s.Effects {
			if l := gamedata.EffectLabel(e, rd.l.loc); !slices.Contains(labels, l) {
				labels = append(labels, l)
			}
		}
		line += ": " + strings.Join(labels, ", ")
	}
	return line
}

// gear renders gear recommendations in the tool's order.
func (rd renderer) gear(o tool.Outcome) reply {
	if !o.Result.OK() {
		return rd.failed(o)
	}
	adv, _ := dataAs[toolsgcs.GearAdvice](o.Result)
	sets := adv.Recommendations
	if len(sets) == 0 {
		return reply{lead: rd.l.t(mNothingFound)}
	}
	name := func(g gcsdb.GearRecommendation) string { return rd.display(g.ID, g.Name, nil) }
	rp := reply{lead: rd.l.t(mGearLead, rd.name0(), rd.l.and(boldAll(displayAll(sets, 3, name))))}
	for i, s := range sets {
		if i == 4 {
			break
		}
		line := bold(name(s))
		if s.StatBonus != "" {
			line += " (" + s.StatBonus + ")"
		}
		if s.Reason != "" && rd.l.loc == "en" {
			line += ": " + cutSentences(s.Reason, 140, 1)
		}
		if s.FarmIn != "" {
			line += " · " + s.FarmIn
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
	list, _ := dataAs[toolscache.GearSetList](os[0].Result)
	sets := list.GearSets
	role, _ := rd.p.Filters["best_for"].(string)
	if len(sets) == 0 {
		return reply{lead: rd.l.t(mNothingFound)}
	}
	name := func(g toolscache.GearSetEntry) string { return rd.display(g.ID, g.Name, g.Names) }
	rp := reply{lead: rd.l.t(mGearRoleLead, rd.l.word(role), rd.l.and(boldAll(displayAll(sets, 4, name))))}
	for _, s := range sets {
		line := bold(name(s))
		if s.StatBonus != "" {
			line += ": " + s.StatBonus
		}
		if s.Pieces != 0 {
			line += " (" + rd.l.num(strconv.Itoa(s.Pieces)) + ")"
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
	g, ok := dataAs[gcsdb.GearSet](os[0].Result)
	if !ok {
		return reply{}
	}
	set := rd.display(g.ID, g.Name, g.Names)
	if len(g.DroppedIn) == 0 {
		return reply{lead: rd.l.t(mFarmNone, set)}
	}
	rp := reply{lead: rd.l.t(mFarmLead, set, rd.l.and(boldAll(displayAll(g.DroppedIn, 8, rd.ref))))}
	if g.StatBonus != "" {
		rp.facts = append(rp.facts, g.StatBonus)
	}
	if g.BestFor != "" {
		rp.facts = append(rp.facts, rd.l.t(mBestFor, rd.l.word(g.BestFor)))
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
	d, ok := dataAs[gcsdb.Dungeon](os[0].Result)
	if !ok {
		return reply{}
	}
	name := rd.display(d.ID, d.Name, d.Names)
	var rp reply
	if d.EnergyCost != 0 {
		rp.lead = rd.l.t(mCostLead, name, rd.l.num(strconv.Itoa(d.EnergyCost)))
	} else {
		rp.lead = bold(name)
	}
	if !cost && d.Description != "" {
		rp.lead += " " + d.Description
	}
	drop := func(x gcsdb.Drop) string { return rd.display(x.ID, x.Name, nil) }
	// A question about one of its facts leads with that fact.
	text := rd.p.text
	switch {
	case d.Stages != 0 && has(text, wordsStages):
		rp.lead = rd.l.s("dungeon_stages", bold(name), rd.l.num(strconv.Itoa(d.Stages)))
	case len(d.Drops) > 0 && has(text, wordsDrops):
		rp.lead = rd.l.s("dungeon_drops", bold(name), rd.l.and(boldAll(displayAll(d.Drops, 6, drop))))
	case cost:
	case d.Boss != nil && has(text, wordsBossWord) && has(text, wordsInterrogative):
		rp.lead = rd.l.s("dungeon_boss", bold(name), bold(rd.ref(*d.Boss)))
	}
	if d.Stages != 0 {
		rp.facts = append(rp.facts, rd.l.t(mStages, rd.l.num(strconv.Itoa(d.Stages))))
	}
	if d.Boss != nil {
		rp.facts = append(rp.facts, rd.l.t(mBoss, rd.ref(*d.Boss)))
	}
	if len(d.Drops) > 0 {
		rp.facts = append(rp.facts, rd.l.t(mDrops, strings.Join(displayAll(d.Drops, 6, drop), ", ")))
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
	list, _ := dataAs[toolsgcs.ChampionList](os[0].Result)
	cs := list.Champions
	if len(cs) == 0 {
		return reply{lead: rd.l.t(mFindNone)}
	}
	sortKey, _ := rd.p.Filters["sort_by"].(string)
	var desc []string
	for _, k := range []string{"rarity", "affinity", "role"} {
		if s, _ := rd.p.Filters[k].(string); s != "" {
			desc = append(desc, rd.l.word(s))
		}
	}
	if f, _ := rd.p.Filters["faction"].(string); f != "" {
		desc = append(desc, f)
	}
	desc = append(desc, rd.l.word("champions"))
	label := strings.Join(desc, " ")
	if owned, _ := rd.p.Filters["owned_only"].(bool); owned {
		label = rd.l.s("your_list", label)
	}
	var mins []string
	for _, k := range gcsdb.StatKeys() {
		if n, ok := rd.p.Filters["min_"+k].(int64); ok {
			mins = append(mins, statLabel(k)+" ≥ "+rd.l.num(strconv.FormatInt(n, 10)))
		}
	}
	if len(mins) > 0 {
		label += " " + rd.l.t(mWith, strings.Join(mins, ", "))
	}
	byStat := sortKey != "" && sortKey != "rarity" && sortKey != "name"
	if byStat {
		label += " (" + statLabel(sortKey) + ")"
	}
	name := func(c gcsdb.ChampionSummary) string { return rd.display(c.ID, c.Name, nil) }
	var tops []string
	for i, c := range cs {
		if i == 3 {
			break
		}
		t := bold(name(c))
		if byStat && c.Stats != nil {
			t += " (" + rd.l.num(strconv.Itoa(c.Stats.Get(sortKey))) + ")"
		}
		tops = append(tops, t)
	}
	lead := mFindLead
	if low, _ := rd.p.Filters["lowest_first"].(bool); low && byStat {
		lead = mFindLeadLow
	}
	rp := reply{lead: rd.l.t(lead, label, rd.l.and(tops))}
	if owned, _ := rd.p.Filters["owned_only"].(bool); owned && has(rd.p.text, wordsHowMany) {
		// "how many champions do I have?": the count first.
		total := len(cs)
		if pg := os[0].Result.Facts().Page; pg != nil && pg.Total > total {
			total = pg.Total
		}
		key := "owned_count"
		for _, k := range []string{"rarity", "affinity", "role", "faction"} {
			if _, ok := rd.p.Filters[k]; ok {
				key = "owned_count_of"
			}
		}
		rp.lead = rd.l.s(key, total, label, rd.l.and(tops))
	}
	for _, c := range cs {
		line := bold(name(c)) + " (" + rd.attrs(c.Rarity, c.Affinity, c.Role) + ")"
		if byStat && c.Stats != nil {
			line += ": " + statLabel(sortKey) + " " + rd.l.num(strconv.Itoa(c.Stats.Get(sortKey)))
		}
		rp.facts = append(rp.facts, line)
	}
	// How many more matched: the page the result declared (tool.Pager).
	if pg := os[0].Result.Facts().Page; pg != nil && pg.Total > len(cs) {
		rp.facts = append(rp.facts, rd.l.t(mOtherResults, rd.l.num(strconv.Itoa(pg.Total-len(cs)))))
	}
	return rp
}

// members renders a faction's champions: every name in the lead, the
// first few with their attributes.
func (rd renderer) members(os []tool.Outcome) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	m, ok := dataAs[toolsgcs.FactionMembers](os[0].Result)
	if !ok {
		return reply{}
	}
	faction := bold(rd.display(m.Faction.ID, m.Faction.Name, nil))
	if len(m.Champions) == 0 {
		return reply{lead: rd.l.s("members_none", faction)}
	}
	name := func(c gcsdb.ChampionSummary) string { return bold(rd.display(c.ID, c.Name, nil)) }
	names := rd.l.and(displayAll(m.Champions, len(m.Champions), name))
	rp := reply{lead: rd.l.s("members_lead", faction, len(m.Champions), names)}
	if r, _ := rd.p.Filters["rarity"].(string); r != "" {
		rp.lead = rd.l.s("members_lead_rarity", faction, len(m.Champions), rd.l.word(r), names)
	}
	for _, c := range m.Champions {
		rp.facts = append(rp.facts, name(c)+" ("+rd.attrs(c.Rarity, c.Affinity, c.Role)+")")
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
	list, _ := dataAs[toolsgcs.EffectList](os[0].Result)
	cs := list.Champions
	if len(cs) == 0 {
		return reply{lead: rd.l.t(mFindNone)}
	}
	eff := gamedata.EffectLabel(argString(os[0].Arguments, "effect"), rd.l.loc)
	name := func(c gcsdb.EffectHit) string { return rd.display(c.ID, c.Name, nil) }
	rp := reply{lead: rd.l.t(mEffectLead, eff, rd.l.and(boldAll(displayAll(cs, 3, name))))}
	for i, c := range cs {
		if i == 5 {
			break
		}
		rp.facts = append(rp.facts, bold(name(c))+" ("+rd.attrs(c.Rarity, c.Affinity, c.Role)+")")
	}
	return rp
}

// bossExtreme renders the bosses of the highest difficulty (hardest) or
// the lowest, from the boss list, in the game's order of difficulties.
func (rd renderer) bossExtreme(os []tool.Outcome, hardest bool) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	list, _ := dataAs[toolscache.BossList](os[0].Result)
	order := gamedata.Difficulties()
	best := -1
	for _, b := range list.Bosses {
		i := slices.Index(order, b.Difficulty)
		if i >= 0 && (best < 0 || hardest && i > best || !hardest && i < best) {
			best = i
		}
	}
	if best < 0 {
		return reply{lead: rd.l.t(mBossExtremeNone)}
	}
	var names []string
	for _, b := range list.Bosses {
		if b.Difficulty == order[best] {
			names = append(names, bold(rd.display(b.ID, b.Name, b.Names)))
		}
	}
	key := mEasiestBosses
	if hardest {
		key = mHardestBosses
	}
	levels := make([]string, len(order))
	for i, d := range order {
		levels[i] = rd.l.difficulty(d)
	}
	rp := reply{lead: rd.l.t(key, levels[best], rd.l.and(names))}
	rp.facts = append(rp.facts, rd.l.t(mDifficulties, rd.l.and(levels)))
	return rp
}

// list renders a kind's list (a list tool's entities): how many the game
// has, then every name.
func (rd renderer) list(os []tool.Outcome, k Kind) reply {
	if len(os) == 0 {
		return reply{}
	}
	if !os[0].Result.OK() {
		return rd.failed(os[0])
	}
	if k == KindChampion {
		return rd.championCount(os[0])
	}
	f := os[0].Result.Facts()
	names := make([]string, 0, len(f.Entities))
	for _, e := range f.Entities {
		names = append(names, bold(rd.display(e.ID, e.Name, nil)))
	}
	total := len(names)
	if f.Page != nil && f.Page.Total > total {
		total = f.Page.Total
	}
	rp := reply{lead: rd.l.t(mListLead, rd.l.num(strconv.Itoa(total)), rd.l.kindPlural(k))}
	// The names, a few to a line, each line within a fact's length.
	line := ""
	for _, n := range names {
		if line != "" && utf8.RuneCountInString(line)+2+utf8.RuneCountInString(n) > maxFactRunes {
			rp.facts = append(rp.facts, line)
			line = ""
		}
		if line != "" {
			line += ", "
		}
		line += n
	}
	if line != "" {
		rp.facts = append(rp.facts, line)
	}
	if total > len(names) {
		rp.facts = append(rp.facts, rd.l.t(mOtherResults, rd.l.num(strconv.Itoa(total-len(names)))))
	}
	return rp
}

// championCount renders the champion list as counts: how many the game
// has, then how many of each rarity and of each affinity.
func (rd renderer) championCount(o tool.Outcome) reply {
	list, _ := dataAs[toolscache.ChampionList](o.Result)
	total := max(list.Total, len(list.Champions))
	rp := reply{lead: rd.l.t(mListLead, rd.l.num(strconv.Itoa(total)), rd.l.kindPlural(KindChampion))}
	if len(list.Champions) < total {
		return rp
	}
	for _, by := range []struct {
		values []string
		of     func(toolscache.ChampionEntry) string
	}{
		{gamedata.Rarities(), func(c toolscache.ChampionEntry) string { return c.Rarity }},
		{gamedata.Affinities(), func(c toolscache.ChampionEntry) string { return c.Affinity }},
	} {
		var parts []string
		for _, v := range by.values {
			n := 0
			for _, c := range list.Champions {
				if by.of(c) == v {
					n++
				}
			}
			if n > 0 {
				parts = append(parts, rd.l.num(strconv.Itoa(n))+" "+rd.l.word(v))
			}
		}
		if len(parts) > 0 {
			rp.facts = append(rp.facts, strings.Join(parts, ", "))
		}
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
		ps = append(ps, textPassages(o.Result)...)
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
			if strings.Contains(strings.ToLower(p.Section), want) && !containsPassage(ordered, p) {
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
		for _, bl := range plainBlocks(p.Text) {
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
			for _, p := range textPassages(o.Result) {
				if score := max(p.Score, 0) * weight; score > bestScore {
					best, bestScore = p, score
				}
			}
		}
	}
	if bestScore < 0 {
		return reply{lead: rd.l.t(mNothingFound)}
	}
	blocks := plainBlocks(best.Text)
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
		if q.DocumentID == p.DocumentID && q.Section == p.Section && q.Text == p.Text {
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
	l := rd.l
	var rp reply
	switch toolKinds[o.Name] {
	case KindChampion:
		c, ok := dataAs[gcsdb.Champion](o.Result)
		if !ok {
			return reply{}
		}
		name := rd.display(c.ID, c.Name, c.Names)
		if c.Faction.Name != "" {
			rp.lead = l.t(mDetailsChampion, name, l.word(c.Rarity), l.word(c.Affinity), l.word(c.Role), rd.ref(c.Faction))
		} else {
			rp.lead = l.t(mDetailsChampionShort, name, l.word(c.Rarity), l.word(c.Affinity), l.word(c.Role))
		}
		if s := rd.stats(c.Stats); s != "" {
			rp.facts = append(rp.facts, l.t(mStats, s))
		}
		for i, s := range c.Skills {
			if i == 4 {
				break
			}
			rp.facts = append(rp.facts, rd.skillLine(s))
		}
		if len(c.RecommendedAgainst) > 0 {
			rp.facts = append(rp.facts, l.t(mStrongAgainst, strings.Join(displayAll(c.RecommendedAgainst, 5, rd.ref), ", ")))
		}
	case KindBoss:
		b, ok := dataAs[gcsdb.Boss](o.Result)
		if !ok {
			return reply{}
		}
		name := rd.display(b.ID, b.Name, b.Names)
		rp.lead = l.t(mDetailsBoss, name, l.word(b.Difficulty), l.word(b.Affinity), l.num(strconv.FormatInt(b.HP, 10)))
		if b.Dungeon != nil {
			rp.facts = append(rp.facts, l.t(mBossDungeon, rd.ref(*b.Dungeon)))
		}
		if ws := effectWordsOf(b.Weaknesses, l.loc); len(ws) > 0 {
			rp.facts = append(rp.facts, l.t(mWeaknesses, strings.Join(ws, ", ")))
		}
		if ws := effectWordsOf(b.Immunities, l.loc); len(ws) > 0 {
			rp.facts = append(rp.facts, l.t(mImmunities, strings.Join(ws, ", ")))
		}
		var phases []string
		for _, ph := range b.Phases {
			phases = append(phases, ph.Name)
		}
		if len(phases) > 0 {
			rp.facts = append(rp.facts, l.t(mPhases, strings.Join(phases, ", ")))
		}
		if len(b.RecommendedCounters) > 0 {
			cs := slices.Clone(b.RecommendedCounters)
			slices.SortStableFunc(cs, func(x, y gcsdb.Counter) int { return cmp.Compare(x.Rank, y.Rank) })
			name := func(c gcsdb.Counter) string { return rd.display(c.ID, c.Name, nil) }
			rp.facts = append(rp.facts, l.t(mCountersLead, rd.display(b.ID, b.Name, b.Names), l.and(displayAll(cs, 3, name))))
		}
	case KindFaction:
		f, ok := dataAs[gcsdb.Faction](o.Result)
		if !ok {
			return reply{}
		}
		rp.lead = l.t(mDetailsFaction, rd.display(f.ID, f.Name, f.Names), f.Homeland)
		if f.Description != "" && l.loc == "en" {
			rp.lead += " " + f.Description
		}
		if len(f.Members) > 0 {
			name := func(c gcsdb.ChampionSummary) string { return rd.display(c.ID, c.Name, nil) }
			rp.facts = append(rp.facts, l.t(mMembers, strings.Join(displayAll(f.Members, 8, name), ", ")))
		}
	case KindDungeon:
		return rd.dungeon([]tool.Outcome{o}, false)
	case KindGearSet:
		g, ok := dataAs[gcsdb.GearSet](o.Result)
		if !ok {
			return reply{}
		}
		name := rd.display(g.ID, g.Name, g.Names)
		rp.lead = l.t(mDetailsGearSet, name, l.num(strconv.Itoa(g.Pieces)), g.StatBonus)
		if g.BestFor != "" {
			rp.facts = append(rp.facts, l.t(mBestFor, l.word(g.BestFor)))
		}
		if len(g.DroppedIn) > 0 {
			rp.facts = append(rp.facts, l.t(mFarmLead, name, l.and(displayAll(g.DroppedIn, 8, rd.ref))))
		}
	default:
		if s := o.Result.Facts().Summary; s != "" {
			rp.lead = s
		}
	}
	return rp
}

// words lists identifiers as words ("decrease_def" is "decrease def").
// effectWordsOf names effect keys for players in locale.
func effectWordsOf(xs []string, locale string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if x != "" {
			out = append(out, gamedata.EffectLabel(x, locale))
		}
	}
	return out
}
