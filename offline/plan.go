package offline

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/tool"
)

// Intent is what the player asked for.
type Intent string

// The intents the responder recognises.
const (
	IntentHelp       Intent = "help"        // nothing recognised: say what the assistant can do
	IntentGreeting   Intent = "greeting"    // hello, thanks, what can you do
	IntentOffTopic   Intent = "off_topic"   // not about the game: say politely what the assistant does
	IntentDetails    Intent = "details"     // champion, boss, faction, dungeon or gear set details
	IntentLore       Intent = "lore"        // story of an entity
	IntentSkills     Intent = "skills"      // a champion's skills
	IntentCompare    Intent = "compare"     // two or more champions side by side
	IntentCounters   Intent = "counters"    // who beats a boss, who to bring
	IntentWeakness   Intent = "weakness"    // what a boss is weak or immune to
	IntentPhases     Intent = "phases"      // a boss's phases and mechanics
	IntentMembers    Intent = "members"     // a faction's champions
	IntentMatchup    Intent = "matchup"     // is this champion (or my team) good against this boss
	IntentHowToBeat  Intent = "how_to_beat" // guide and FAQ for a boss, plus counters
	IntentGear       Intent = "gear"        // which gear a champion (or a role) should wear
	IntentMasteries  Intent = "masteries"   // which masteries a champion should take
	IntentFarm       Intent = "farm"        // where a gear set drops
	IntentCost       Intent = "cost"        // energy cost, stages and rewards of a dungeon
	IntentFind       Intent = "find"        // filters and superlatives over champions
	IntentEffect     Intent = "effect"      // champions whose skills apply an effect
	IntentList       Intent = "list"        // every boss, dungeon, faction or gear set
	IntentPatchNotes Intent = "patch_notes" // what changed
	IntentScreenHelp Intent = "screen_help" // how the current screen works
	IntentKnowledge  Intent = "knowledge"   // a game question naming no entity: search the docs
	IntentClarify    Intent = "clarify"     // a reference to nothing, or to several: ask which one
)

// Tool names the responder calls.
const (
	toolChampion      = "gcs_get_champion_details"
	toolCharacterByID = "gcs_get_character_details_by_id"
	toolSkills        = "gcs_get_champion_skills"
	toolBoss          = "gcs_get_boss_details"
	toolFaction       = "gcs_get_faction_details"
	toolDungeon       = "gcs_get_dungeon_details"
	toolGearSet       = "gcs_get_gear_set_details"
	toolCompare       = "gcs_compare_characters"
	toolCounters      = "gcs_find_counters_for_boss"
	toolFind          = "gcs_find_champions"
	toolMembers       = "gcs_list_champions_by_faction"
	toolByEffect      = "gcs_find_champions_by_effect"
	toolGear          = "gcs_recommend_gear"
	toolGearSets      = "cache_get_gear_sets_list"
	toolBosses        = "cache_get_bosses_list"
	toolLore          = "db_get_lore_details"
	toolUX            = "db_get_ux_details"
	toolChampionDocs  = "rag_get_champion_details"
	toolFAQ           = "rag_search_faq"
	toolMechanics     = "rag_get_game_mechanics"
	toolPatchNotes    = "rag_search_patch_notes"
	toolSearch        = "rag_semantic_search"
)

// maxDetails bounds how many entities one answer details.
const maxDetails = 3

// maxTokens bounds the words of a message searched for names.
const maxTokens = 400

// Plan is the responder's reading of a message: the intent, the entities
// and the tool calls that answer it.
type Plan struct {
	Intent   Intent
	Entities []Entity
	Calls    []tool.Call
	// Screen is the screen name used for screen help.
	Screen string
	// Locale is the locale the answer is written in.
	Locale string
	// FromScreen reports that the entities came from the player's screen.
	FromScreen bool
	// Filters are the gcs_find_champions arguments of a find intent.
	Filters map[string]any
	// Team are the champions of the player's team on the screen.
	Team []Entity
	// Unknown is the name an unknown-name question asks about.
	Unknown *UnknownName
	// Roster is the session player's roster, for the roster questions;
	// HasState reports whether the session has a player state at all.
	Roster   []player.Owned
	HasState bool
	// Clarify is set when the message refers back to a subject it cannot
	// pin down: the answer asks which one.
	Clarify *clarify
	// Price is the price of the offer on the screen (offer verdicts).
	Price string
	// Phase is the boss phase a phases question asks about (-1: the
	// last; 0: none, all of them).
	Phase int
	// Latest reports a question about the newest patch.
	Latest bool
	// toolDesc is the description of the studio's tool the plan chose.
	toolDesc string
	// text is the question text the intent was read from.
	text string
	// FollowUp reports that the entities came from the conversation.
	FollowUp bool
	// names are the game's names as read for this answer.
	names entities
	// lookup is the studio's lookup tool's declaration, when a lookup
	// answers.
	lookup *tool.Lookup
	// studioMiss is a name the studio's game lacks.
	studioMiss *studioMiss
	// message is the player's message as written.
	message string
	// studioAsk asks which thing of a kind "this" means.
	studioAsk *studioMiss
}

// plan reads req and chooses the tool calls that answer it.
func (r *Responder) plan(ctx context.Context, req Request) Plan {
	toks := tokens(req.Message)
	if len(toks) > maxTokens {
		toks = toks[:maxTokens]
	}
	text := " " + strings.Join(toks, " ") + " "
	names := r.entities(ctx)
	ents := names.Resolve(strings.Join(toks, " "))
	sc := screenContext(req, names)
	p := Plan{Screen: req.Screen, Locale: localeOf(req.Locale), names: names, message: req.Message}
	// A studio's lookups answer when the sample game's names say nothing
	// (its own game, or a tools file beside the sample game).
	if len(ents) == 0 && r.planStudio(&p, req, text) {
		return p
	}
	namedEnts := ents
	fu, isFollowUp := resolveFollowUp(req, toks, text, ents, names, sc)
	if isFollowUp {
		if fu.clarify != nil {
			p.Intent, p.Clarify = IntentClarify, fu.clarify
			return p
		}
		ents, text, p.FollowUp = fu.ents, fu.text, true
	}
	unknown, partial, named := names.unknownName(req.Message)
	if named && r.glossary.Covers(unknown.Name) {
		// A game term of the glossary ("Zugleiste": German capitalises
		// nouns) is no name.
		unknown, partial, named = UnknownName{}, nil, false
	}
	// Game words: the generic ones, and the game's own terms in its
	// glossary's languages ("jauge de tour", "Zugleiste").
	gameWords := has(text, wordsGame) || r.glossary.Contains(req.Message)
	gameQuestion := len(ents) > 0 || gameWords || has(text, wordsAsk) || has(text, wordsClear) || unknown.Kind != ""
	if named {
		// A word of a longer name the game lacks names nothing ("Shadow
		// Hydra" is not the Shadow Twins).
		ents = slices.DeleteFunc(ents, func(e Entity) bool { return slices.Contains(partial, e.ID) })
	}
	// Next to names the game has, the unknown one counts when it was read as
	// part of a real name, or when the question says a kind none of the
	// real ones is ("is Kaelith good against Zorblax?" asks about a boss).
	named = named && gameQuestion &&
		(len(ents) == 0 || len(partial) > 0 || unknown.Kind != "" && len(ofKind(ents, unknown.Kind)) == 0)
	p.text = text
	champs, bosses := ofKind(ents, KindChampion), ofKind(ents, KindBoss)
	factions, dungeons, sets := ofKind(ents, KindFaction), ofKind(ents, KindDungeon), ofKind(ents, KindGearSet)
	deictic := has(text, wordsDeictic)
	team := has(text, wordsTeam)
	hardest, extreme := bossExtreme(text)
	lk := listOf(text)

	// fill takes the screen's entity of kind when the message names none
	// of that kind and refers to the screen (or asks something that needs one).
	fill := func(kind Kind, named []Entity, need bool) []Entity {
		if len(named) > 0 || (!deictic && !need) {
			return named
		}
		if e, ok := sc.first(kind); ok {
			return []Entity{e}
		}
		return named
	}
	c := caller{r: r, p: &p, priors: req.Context}

	switch {
	case len(champs) == 0 && r.planPlayer(ctx, &p, text, func() (Entity, bool) {
		if bs := fill(KindBoss, bosses, true); len(bs) > 0 {
			return bs[0], true
		}
		return Entity{}, false
	}, sc.team(), c):
		// Who to bring, is my team good enough, who to level, what is
		// missing: answered from the player's roster.
	case len(ents) == 0 && has(text, wordsGreeting) && len(toks) <= 6 && !gameWords:
		p.Intent = IntentGreeting
	case named && has(text, wordsLore) && r.names[toolLore]:
		// "the story of the Ashen Crown": a lore topic that is no game
		// entity is looked up in the lore, not called unknown.
		p.Intent = IntentLore
		p.Unknown = &unknown
		c.add(toolLore, map[string]any{"query": tool.Clip(strings.TrimSpace(req.Message), 200)})
	case named:
		p.Intent = IntentUnknownName
		p.Unknown = &unknown
		if len(unknown.Suggestions) == 0 {
			if name, ok := listTools[unknown.Kind]; ok {
				c.add(name, map[string]any{"limit": maxFacts})
			}
		}
	case has(text, wordsPatch) && len(ents) == 0 && has(text, wordsLatest) && c.r.names[toolListDocs]:
		p.Intent, p.Latest = IntentPatchNotes, true
		args := map[string]any{"filters": map[string]any{"category": "patch_notes"}}
		if c.r.params[toolListDocs]["limit"] {
			args["limit"] = 200
		}
		c.add(toolListDocs, args)
	case has(text, wordsPatch):
		p.Intent = IntentPatchNotes
		q := strings.TrimSpace(req.Message)
		if len(ents) > 0 {
			q = ents[0].Name
		}
		c.add(toolPatchNotes, map[string]any{"query": tool.Clip(q, 200)})
	case len(champs) == 0 && asksPhases(text) && !has(text, wordsWhoAsk) && len(fill(KindBoss, bosses, true)) > 0:
		// Before lore: "que se passe-t-il dans la phase 2 ?" ("passé").
		p.Intent = IntentPhases
		b := fill(KindBoss, bosses, true)[0]
		p.Entities = []Entity{b}
		p.Phase = phaseAsked(text, screenPhase(req.ScreenData))
		c.entity(toolBoss, b)
	case has(text, wordsLore) && (len(ents) > 0 || sc.primary() != nil):
		p.Intent = IntentLore
		es := ents
		if len(es) == 0 {
			es = []Entity{*sc.primary()}
		}
		p.Entities = es[:1]
		c.add(toolLore, map[string]any{"query": es[0].Name})
	case has(text, wordsHowTo) && len(fill(KindBoss, bosses, true)) > 0:
		p.Intent = IntentHowToBeat
		b := fill(KindBoss, bosses, true)[0]
		p.Entities = []Entity{b}
		c.add(toolFAQ, map[string]any{"query": "How do I beat the " + b.Name + "?"})
		c.entity(toolCounters, b)
	case has(text, wordsFarm) && len(fill(KindGearSet, sets, false)) > 0:
		p.Intent = IntentFarm
		s := fill(KindGearSet, sets, false)[0]
		p.Entities = []Entity{s}
		c.entity(toolGearSet, s)
	case has(text, wordsCost) && len(fill(KindDungeon, dungeons, true)) > 0:
		p.Intent = IntentCost
		d := fill(KindDungeon, dungeons, true)[0]
		p.Entities = []Entity{d}
		c.entity(toolDungeon, d)
	case len(champs) == 0 && has(text, wordsWeakness) && !has(text, wordsWhoAsk) && len(fill(KindBoss, bosses, true)) > 0:
		p.Intent = IntentWeakness
		b := fill(KindBoss, bosses, true)[0]
		p.Entities = []Entity{b}
		c.entity(toolBoss, b)
	case len(bosses) == 0 && has(text, wordsOffer) && (has(text, wordsGood) || has(text, wordsCost)) && hasPrice(req) &&
		len(fill(KindChampion, champs, true)) > 0:
		p.Intent = IntentOfferVerdict
		p.Price, _ = screenPrice(req.ScreenData)
		ch := fill(KindChampion, champs, true)[0]
		p.Entities = []Entity{ch}
		c.entity(toolChampion, ch)
	case len(bosses) == 0 && has(text, wordsGood) && len(fill(KindGearSet, sets, true)) > 0 && len(fill(KindChampion, champs, true)) > 0:
		p.Intent = IntentSetVerdict
		ch := fill(KindChampion, champs, true)[0]
		p.Entities = []Entity{fill(KindGearSet, sets, true)[0], ch}
		c.add(toolGear, map[string]any{"champion_name": ch.Name})
	case has(text, wordsThisSet) && len(fill(KindGearSet, sets, true)) > 0:
		// "this set" is the screen's gear set, not its champion's gear.
		p.Intent = IntentDetails
		s := fill(KindGearSet, sets, true)[0]
		p.Entities = []Entity{s}
		c.entity(toolGearSet, s)
	case has(text, wordsGear) && roleOf(text) != "" && len(champs) == 0:
		p.Intent = IntentGear
		p.Filters = map[string]any{"best_for": roleOf(text)}
		c.add(toolGearSets, map[string]any{"best_for": roleOf(text)})
	case len(champs) == 0 && has(text, wordsEffectQ) && effectOf(text) != "":
		p.Intent = IntentEffect
		c.add(toolByEffect, map[string]any{"effect": effectOf(text), "limit": 10})
	case len(ents) == 0 && !team && extreme && !has(text, wordsHowTo) && !has(text, wordsCounters) && r.names[toolBosses]:
		// "which boss is the hardest?": the bosses of the highest
		// difficulty, from the list.
		p.Intent = IntentList
		p.Filters = map[string]any{"kind": string(KindBoss), "hardest": hardest, "extreme": true}
		c.add(toolBosses, map[string]any{"limit": listLimit})
	case len(ents) == 0 && !team && lk != nil && r.names[lk.tool]:
		// "list all bosses", "what dungeons are there?": the kind's list.
		p.Intent = IntentList
		p.Filters = map[string]any{"kind": string(lk.kind)}
		c.add(lk.tool, map[string]any{"limit": listLimit})
	case len(champs) == 0 && len(bosses) == 0 && !team && asksMembers(text) && len(fill(KindFaction, factions, true)) > 0 && r.names[toolMembers]:
		// "list the champions of the Emberguard Legion", "list its
		// champions" on its screen: all of them.
		p.Intent = IntentMembers
		f := fill(KindFaction, factions, true)[0]
		p.Entities = []Entity{f}
		args := map[string]any{"faction_name": f.Name}
		for _, rw := range rarityWords {
			if has(text, rw.words) {
				p.Filters = map[string]any{"rarity": rw.value}
				args["rarity"] = rw.value
				break
			}
		}
		c.add(toolMembers, args)
	case len(champs) == 0 && len(bosses) == 0 && (isFind(text) || has(text, wordsSuperlative) && !has(text, wordsLore) && len(fill(KindFaction, factions, false)) > 0 ||
		ownedList(ctx, text)):
		// "the fastest Epic champions", "the best champions of this
		// faction" (the screen's).
		p.Intent = IntentFind
		p.Filters = findFilters(text, fill(KindFaction, factions, false))
		if _, known := rosterOf(ctx); known && has(text, wordsOwned) || ownedList(ctx, text) {
			// "which legendary champions do I have?": the player's own.
			p.Filters["owned_only"] = true
		}
		c.add(toolFind, p.Filters)
	case len(champs) >= 1 && len(bosses) == 0 && has(text, wordsOwnCheck) && !has(text, wordsCounters) && !has(text, wordsHaveTo):
		// "do I own Kaelith?": the player's roster says.
		p.Intent = IntentOwned
		p.Entities = champs
		p.Roster, p.HasState = rosterOf(ctx)
	case len(champs) >= 2 && len(bosses) == 0:
		p.Intent = IntentCompare
		p.Entities = champs
		names := make([]string, 0, len(champs))
		for i, e := range champs {
			if i == 5 {
				break
			}
			names = append(names, e.Name)
		}
		c.add(toolCompare, map[string]any{"names": names})
	case has(text, wordsSkills) && len(fill(KindChampion, champs, true)) > 0 && len(bosses) == 0:
		p.Intent = IntentSkills
		ch := fill(KindChampion, champs, true)[0]
		p.Entities = []Entity{ch}
		c.add(toolSkills, map[string]any{"champion_name": ch.Name})
	case has(text, wordsMastery) && len(fill(KindChampion, champs, true)) > 0:
		p.Intent = IntentMasteries
		ch := fill(KindChampion, champs, true)[0]
		p.Entities = []Entity{ch}
		c.add(toolChampionDocs, map[string]any{"champion_name": ch.Name})
	case has(text, wordsGear) && len(sets) > 0:
		p.Intent = IntentDetails
		p.Entities = sets[:1]
		c.entity(toolGearSet, sets[0])
	case len(champs) == 0 && has(text, wordsPieces) && len(fill(KindGearSet, sets, true)) > 0:
		// "how many pieces do I need?" on a set's screen: its details.
		s := fill(KindGearSet, sets, true)[0]
		p.Intent = IntentDetails
		p.Entities = []Entity{s}
		c.entity(toolGearSet, s)
	case has(text, wordsGear) && len(bosses) == 0 && len(fill(KindChampion, champs, roleOf(text) == "")) > 0:
		p.Intent = IntentGear
		ch := fill(KindChampion, champs, true)[0]
		p.Entities = []Entity{ch}
		c.add(toolGear, map[string]any{"champion_name": ch.Name})
	case team && len(fill(KindBoss, bosses, true)) > 0 && len(sc.team()) > 0:
		p.Intent = IntentMatchup
		b := fill(KindBoss, bosses, true)[0]
		p.Team = sc.team()
		p.Roster, p.HasState = rosterOf(ctx)
		p.Entities = []Entity{b}
		c.ranking(b)
	case len(champs) >= 1 && len(fill(KindBoss, bosses, has(text, wordsCounters))) >= 1:
		p.Intent = IntentMatchup
		b := fill(KindBoss, bosses, true)[0]
		p.Entities = append(slices.Clone(champs[:min(len(champs), maxDetails)]), b)
		if len(champs) == 1 {
			// The champion's own data may name the boss (designer
			// recommendation, strong against).
			c.entity(toolChampion, champs[0])
		}
		c.ranking(b)
	case (len(bosses) > 0 || deictic || len(ents) == 0) && has(text, wordsCounters) && len(fill(KindBoss, bosses, true)) > 0:
		p.Intent = IntentCounters
		b := fill(KindBoss, bosses, true)[0]
		p.Entities = []Entity{b}
		c.entity(toolCounters, b)
	case len(bosses) == 0 && len(fill(KindChampion, champs, false)) == 1 && has(text, wordsGood) && !has(text, wordsCompare):
		p.Intent = IntentVerdict
		ch := fill(KindChampion, champs, false)[0]
		p.Entities = []Entity{ch}
		c.entity(toolChampion, ch)
	case len(ents) > 0:
		p.Intent = IntentDetails
		p.Entities = ents
		for i, e := range ents {
			if i == maxDetails {
				break
			}
			c.details(e)
		}
	case deictic && !has(text, wordsScreen) && sc.primary() != nil:
		p.Intent = IntentDetails
		e := *sc.primary()
		p.Entities = []Entity{e}
		c.details(e)
	case r.planTools(&p, req.Message):
		// A studio's own tools (a tools file) whose description fits.
	case has(text, wordsScreen) || (deictic && req.Screen != ""):
		p.Intent = IntentScreenHelp
		q := req.Screen
		if q == "" {
			q = tool.Clip(strings.TrimSpace(req.Message), 200)
		}
		c.reuseOr(toolUX, map[string]any{"query": q}, func(pr Prior) bool { return argString(pr.Arguments, "query") == q })
	case len(toks) >= 2 && gameWords:
		p.Intent = IntentKnowledge
		q := tool.Clip(strings.TrimSpace(req.Message), 300)
		c.add(toolFAQ, map[string]any{"query": q})
		c.add(toolMechanics, map[string]any{"topic": q})
	case (has(text, wordsAsk) || has(text, wordsList) || strings.HasSuffix(strings.TrimSpace(req.Message), "?")) && r.studioSearch(&p, req.Message):
		// A studio's question no tool answers: its documents may.
	case has(text, wordsAsk):
		p.Intent = IntentHelp
	case len(toks) > 0 && !has(text, wordsGreeting):
		p.Intent = IntentOffTopic
	default:
		p.Intent = IntentHelp
	}
	if p.Entities == nil && len(ents) > 0 && p.Intent != IntentFind && p.Intent != IntentEffect && p.Intent != IntentUnknownName {
		p.Entities = ents
	}
	for _, e := range p.Entities {
		if !contains1s(entityIDs(ents), e.ID) || (fu.fromScreen && !contains1s(entityIDs(namedEnts), e.ID)) {
			p.FromScreen = true
		}
	}
	return p
}

// caller adds calls to a plan, reusing the session's earlier calls.
type caller struct {
	r      *Responder
	p      *Plan
	priors []Prior
}

// add plans a call of name when the tool is registered.
func (c caller) add(name string, args any) {
	if c.r.names[name] {
		c.p.Calls = append(c.p.Calls, tool.Call{Name: name, Arguments: argsOf(args)})
	}
}

// reuseOr plans the first successful prior call of name that ok accepts,
// verbatim (so the runner serves it from the session cache), else a new
// call with args.
func (c caller) reuseOr(name string, args any, ok func(Prior) bool) {
	for _, pr := range c.priors {
		if pr.Name == name && pr.Result.OK() && ok(pr) {
			c.p.Calls = append(c.p.Calls, tool.Call{Name: pr.Name, Arguments: pr.Arguments})
			return
		}
	}
	c.add(name, args)
}

// entity plans name (a details or counters tool) for e, reusing a prior
// call about e when the session has one.
func (c caller) entity(name string, e Entity) {
	tools := []string{name}
	if name == toolChampion {
		tools = append(tools, toolCharacterByID)
	}
	for _, pr := range c.priors {
		if !pr.Result.OK() || !contains1s(tools, pr.Name) {
			continue
		}
		if ent, ok := priorEntity(pr); ok && ent.ID == e.ID {
			c.p.Calls = append(c.p.Calls, tool.Call{Name: pr.Name, Arguments: pr.Arguments})
			return
		}
	}
	param := map[string]string{
		toolChampion: "champion_name", toolBoss: "boss_name", toolFaction: "faction_name",
		toolDungeon: "dungeon_name", toolGearSet: "gear_set_name", toolCounters: "boss_name",
	}[name]
	c.add(name, map[string]any{param: e.Name})
}

// hasPrice reports a price on the player's screen.
func hasPrice(req Request) bool {
	_, ok := screenPrice(req.ScreenData)
	return ok
}

// ranking plans boss b's whole counter ranking, for a verdict on where
// champions stand in it.
func (c caller) ranking(b Entity) {
	args := map[string]any{"boss_name": b.Name}
	if c.r.params[toolCounters]["limit"] {
		args["limit"] = gcsdb.MaxCounters
	}
	c.add(toolCounters, args)
}

// details plans the details tool of e's kind.
func (c caller) details(e Entity) {
	switch e.Kind {
	case KindChampion:
		c.entity(toolChampion, e)
	case KindBoss:
		c.entity(toolBoss, e)
	case KindFaction:
		c.entity(toolFaction, e)
	case KindDungeon:
		c.entity(toolDungeon, e)
	case KindGearSet:
		c.entity(toolGearSet, e)
	}
}

func entityIDs(es []Entity) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func contains1s(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func argString(args json.RawMessage, key string) string {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	s, _ := m[key].(string)
	return s
}

func ofKind(es []Entity, k Kind) []Entity {
	var out []Entity
	for _, e := range es {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// localeOf reduces a session locale to one the responder writes.
func localeOf(l string) string {
	l = strings.ToLower(strings.TrimSpace(l))
	if i := strings.IndexAny(l, "-_"); i >= 0 {
		l = l[:i]
	}
	switch l {
	case "fr", "de":
		return l
	}
	return "en"
}
