package offline

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gameassist/gameassist/tool"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

// Exchange is one earlier exchange of the session, oldest first in
// Request.History.
type Exchange struct {
	// Message is the player's message (player text: data only).
	Message string
	// About are the subjects the reply was about, in order.
	About []Subject
	// At is when the exchange was recorded.
	At time.Time
}

// Subject is an entity an exchange was about, as the session stores it:
// the entity's kind and id, nothing the player typed.
type Subject struct {
	Kind string
	ID   string
	// Focus marks the subject the reply singled out among several: the
	// champion that "which one is tankier?" chose. A singular reference
	// to that exchange ("and her skills?") means it; the list keeps its
	// order for "the first one".
	Focus bool
}

// The words by which a message leans on the conversation (en, fr, de),
// matched as whole words after normalisation.
//
//nolint:misspell // French and German words, not misspelt English
var (
	// wordsHeShe refer to one person: a champion first, a boss next.
	wordsHeShe = phrases(`he|she|him|her|his|hers|himself|herself|
		il|elle|lui|son|sa|ses|celui ci|celle ci|celui la|celle la|
		er|ihn|ihm|sein|seine|seinen|seiner|seinem|ihre|ihren|ihrer|ihrem|
		this champion|that champion|this hero|ce champion|cette championne|dieser champion|diesen champion|diesem champion`)
	// wordsIt refer to one thing: a boss, dungeon, set or faction first.
	wordsIt = phrases(`it|its|this one|that one|celui ci|celle ci|dieser hier|das da`)
	// wordsThey refer to the subjects together.
	wordsThey = phrases(`they|them|their|both|both of them|the two|the two of them|
		ils|elles|eux|leur|leurs|les deux|tous les deux|toutes les deux|
		beide|beiden|die beiden|die zwei`)
	// wordsWhichOne ask to choose among the subjects.
	wordsWhichOne = phrases(`which one|which of them|which of the two|who of them|which is|who is better|
		lequel|laquelle|lequel des deux|laquelle des deux|qui est le meilleur|
		welcher|welche von beiden|welcher von beiden|wer von beiden|wer von ihnen`)
	// wordsInterrogative open a question.
	wordsInterrogative = phrases(`what|which|who|where|how|when|why|
		quel|quelle|quels|quelles|qui|ou|comment|quand|pourquoi|que|qu est ce que|
		was|welche|welcher|welches|wer|wo|wie|wann|warum|woher`)
	// wordsOpener start a follow-up that borrows the last question or subject.
	wordsOpener = phrases(`and|and what about|what about|how about|and how about|also|
		et|et pour|et avec|et contre|et qu en est il de|quid de|
		und|und was ist mit|was ist mit|und wie sieht es mit|wie sieht es mit|und mit|und gegen`)
	// wordsOne name a subject by what sets it apart ("the tankier one").
	wordsOne = phrases(`one|ones`)
	// wordsPersonal are the pronouns of wordsHeShe that also mean "the",
	// "it" or "they" elsewhere, so alone they are no reference: French
	// "la", "le" and German "sie", "ihr".
	wordsSie = phrases(`sie|ihr`)
)

// ordinals map the ordinal words to an index into the subjects.
//
//nolint:misspell // French and German words, not misspelt English
var ordinals = []struct {
	i     int
	words []string
}{
	{0, phrases(`the first|the first one|first one|le premier|la premiere|du premier|de la premiere|der erste|die erste|das erste|den ersten|dem ersten|des ersten|vom ersten|der ersten`)},
	{1, phrases(`the second|the second one|second one|le deuxieme|la deuxieme|du deuxieme|de la deuxieme|le second|la seconde|du second|der zweite|die zweite|das zweite|den zweiten|dem zweiten|des zweiten|vom zweiten|der zweiten`)},
	{2, phrases(`the third|the third one|le troisieme|la troisieme|du troisieme|der dritte|die dritte|den dritten`)},
	{-1, phrases(`the last|the last one|le dernier|la derniere|der letzte|die letzte|den letzten`)},
	// French "l'autre" reads "autre" once its elision is dropped.
	{ordOther, phrases(`the other|the other one|other one|l autre|et autre|de autre|pour autre|a autre|avec autre|contre autre|sur autre|
		der andere|die andere|das andere|den anderen|dem anderen|des anderen|vom anderen|der anderen`)},
}

// ordOther is the ordinal of "the other one": of two subjects, the one
// the last answer did not single out (see Subject.Focus), else the second.
const ordOther = -3

// firstFew map the words for the first few subjects ("the first two",
// "les trois premiers") to how many they take.
//
//nolint:misspell // French and German words, not misspelt English
var firstFew = []struct {
	n     int
	words []string
}{
	{2, phrases(`the first two|first two|the top two|top two|the first 2|first 2|the top 2|top 2|
		les deux premiers|les deux premieres|les 2 premiers|les 2 premieres|
		die ersten zwei|die ersten beiden|die ersten 2|die top 2`)},
	{3, phrases(`the first three|first three|the top three|top three|the first 3|first 3|the top 3|top 3|
		les trois premiers|les trois premieres|les 3 premiers|les 3 premieres|
		die ersten drei|die ersten 3|die top 3`)},
}

// wordsQuestion are the words that make a question of their own: a
// follow-up with none of them ("and the second?") asks the last question
// again about a new subject.
var wordsQuestion = [][]string{
	wordsSkills, wordsGear, wordsLore, wordsCost, wordsFarm, wordsMastery, wordsCounters, wordsCompare,
	wordsHowTo, wordsPatch, wordsAsk, wordsGood, wordsSuperlative, wordsWhichOne, wordsPhase, wordsMechanic, wordsOwnCheck,
}

// reference is how a message leans on the conversation.
type reference struct {
	one, it, they, which, opener bool
	ordinal                      int // -2: none
	first                        int // the first few subjects (0: none)
}

func (rf reference) any() bool {
	return rf.one || rf.it || rf.they || rf.which || rf.ordinal != -2 || rf.first > 0
}

// readReference finds the words of text (normalized, " "-padded) that
// refer back to earlier subjects.
func readReference(text string, toks []string) reference {
	rf := reference{ordinal: -2}
	rf.one = has(text, wordsHeShe)
	rf.it = has(text, wordsIt)
	rf.they = has(text, wordsThey)
	rf.which = has(text, wordsWhichOne)
	for _, f := range firstFew {
		if has(text, f.words) && !ordinalOfThing(text, f.words) {
			rf.first = f.n
			break
		}
	}
	for _, o := range ordinals {
		if rf.first == 0 && has(text, o.words) && !ordinalOfThing(text, o.words) {
			rf.ordinal = o.i
			break
		}
	}
	if !rf.one && has(text, wordsSie) && len(toks) <= 8 {
		// German "sie"/"ihr" in a short question is "she"/"her" (or
		// "they"): resolved like "she".
		rf.one = true
	}
	head := " " + strings.Join(toks[:min(4, len(toks))], " ") + " "
	for _, o := range wordsOpener {
		rf.opener = rf.opener || strings.HasPrefix(head, " "+o+" ")
	}
	return rf
}

// wordsThing are nouns an ordinal may count that are no subject of the
// conversation: "the last patch", "le premier niveau", "die zweite Runde".
//
//nolint:misspell // French and German words, not misspelt English
var wordsThing = phrases(`patch|update|stage|stages|turn|turns|chapter|level|phase|round|wave|time|step|page|piece|slot|skill|
	mise|niveau|etape|tour|chapitre|vague|fois|competence|
	runde|stufe|kapitel|welle|mal|seite|fahigkeit`)

// ordinalOfThing reports an ordinal (one of ws) followed by a noun that
// is no subject: it counts something else.
func ordinalOfThing(text string, ws []string) bool {
	for _, w := range ws {
		i := strings.Index(text, " "+w+" ")
		if i < 0 {
			continue
		}
		rest := strings.Fields(text[i+len(w)+1:])
		if len(rest) > 0 && has(" "+rest[0]+" ", wordsThing) {
			return true
		}
	}
	return false
}

// followUp is a message read against the conversation.
type followUp struct {
	// ents replace the entities named in the message (nil: no change).
	ents []Entity
	// text is the question text to read the intent from (" "-padded).
	text string
	// clarify is set when a reference finds no antecedent, or several.
	clarify *clarify
	// fromScreen reports that the antecedent came from the screen.
	fromScreen bool
}

// clarify asks the player which subject they mean.
type clarify struct {
	// Options are the candidates (none: nothing to refer to).
	Options []Entity
	// ScreenChanged reports that the screen changed since the exchange
	// the candidates partly come from.
	ScreenChanged bool
}

// antecedents returns the subjects a reference may point at: the newer of
// the screen's entities and the last exchange's subjects. changed reports
// that the screen changed after that exchange and both had subjects.
func antecedents(req Request, names entities, sc screenCtx) (conv []Entity, screen []Entity, screenNewer bool) {
	var last *Exchange
	for i := len(req.History) - 1; i >= 0; i-- {
		if len(req.History[i].About) > 0 {
			last = &req.History[i]
			break
		}
	}
	if last != nil {
		for _, s := range last.About {
			if e, ok := names.ByID(s.ID); ok && string(e.Kind) == s.Kind {
				conv = append(conv, e)
			}
		}
	}
	screen = sc.ents
	screenNewer = len(screen) > 0 && (last == nil || req.ScreenAt.IsZero() && len(req.History) == 0 || req.ScreenAt.After(last.At))
	return conv, screen, screenNewer
}

// focused narrows options, the subjects a singular reference could mean,
// to the one the last exchange with subjects singled out (see
// Subject.Focus) when it is among them; amb reports that it did not.
func focused(req Request, options []Entity) (pick []Entity, amb bool) {
	for i := len(req.History) - 1; i >= 0; i-- {
		if len(req.History[i].About) == 0 {
			continue
		}
		for _, s := range req.History[i].About {
			if !s.Focus {
				continue
			}
			if j := slices.IndexFunc(options, func(e Entity) bool { return e.ID == s.ID && string(e.Kind) == s.Kind }); j >= 0 {
				return options[j : j+1], false
			}
		}
		break
	}
	return options, true
}

// chosenLookback is how many exchanges back "the tankier one" finds the
// answer that chose it.
const chosenLookback = 4

// chosenBy returns the champion that one of the last few exchanges chose
// by the stat of text's comparative ("which one is tankier?" for "the
// tankier one"): its focused subject; for the comparative from the other
// side ("the squishier one") of a pair, the other champion.
func chosenBy(req Request, names entities, text string) (Entity, bool) {
	key, low := comparativeOf(text)
	for i := len(req.History) - 1; i >= max(0, len(req.History)-chosenLookback); i-- {
		ex := req.History[i]
		for _, s := range ex.About {
			if !s.Focus || s.Kind != string(KindChampion) {
				continue
			}
			k, l := comparativeOf(normalized(ex.Message))
			if k != key {
				return Entity{}, false
			}
			if l == low {
				e, ok := names.ByID(s.ID)
				return e, ok && e.Kind == KindChampion
			}
			return otherOfPair(ex.About, s, names)
		}
	}
	return Entity{}, false
}

// otherOfPair returns the champion of subjects that is not focus, when
// they are two champions.
func otherOfPair(subjects []Subject, focus Subject, names entities) (Entity, bool) {
	var other []Entity
	for _, s := range subjects {
		if e, ok := names.ByID(s.ID); ok && e.Kind == KindChampion && s.Kind == string(KindChampion) {
			if s.ID != focus.ID {
				other = append(other, e)
			}
		} else {
			return Entity{}, false
		}
	}
	if len(other) != 1 {
		return Entity{}, false
	}
	return other[0], true
}

// lastPair returns the champions of the most recent exchange about two or
// more of them; failing that, the champions of the last two exchanges
// about one each ("tell me about Rakaix", "and Kaelith?", "which one is
// tankier?").
func lastPair(req Request, names entities) []Entity {
	var recent []Entity // the last exchanges' champions, newest first
	for i := len(req.History) - 1; i >= 0; i-- {
		var cs []Entity
		for _, s := range req.History[i].About {
			if e, ok := names.ByID(s.ID); ok && e.Kind == KindChampion && string(e.Kind) == s.Kind {
				cs = append(cs, e)
			}
		}
		if len(cs) >= 2 {
			return cs
		}
		if len(cs) == 1 && len(recent) < 2 && !slices.ContainsFunc(recent, func(e Entity) bool { return e.ID == cs[0].ID }) {
			recent = append(recent, cs[0])
		}
	}
	if len(recent) == 2 {
		return []Entity{recent[1], recent[0]}
	}
	return nil
}

// lastQuestion returns the most recent player message that asked a
// question of its own (not a bare "and the second?"), normalized.
func lastQuestion(req Request) string {
	for i := len(req.History) - 1; i >= 0; i-- {
		if text := normalized(req.History[i].Message); ownQuestion(text) || asksOwn(text) {
			return text
		}
	}
	return ""
}

// normalized is a message as the planner reads it: its first maxTokens
// tokens, " "-padded.
func normalized(msg string) string {
	toks := tokens(msg)
	if len(toks) > maxTokens {
		toks = toks[:maxTokens]
	}
	return " " + strings.Join(toks, " ") + " "
}

// asksOwn reports a question of its own words that names no known
// question ("which faction is she from?", "what does she do?"): a
// question word, no opener ("what about her?" borrows the last question)
// and more than a pronoun to ask about.
func asksOwn(text string) bool {
	return has(text, wordsInterrogative) && !has(text, wordsOpener) && len(strings.Fields(text)) >= 4
}

// ownQuestion reports whether text asks something by its own words.
func ownQuestion(text string) bool {
	for _, ws := range wordsQuestion {
		if has(text, ws) {
			return true
		}
	}
	return false
}

// resolveFollowUp reads the message (toks, text) naming named against the
// conversation and the screen. It returns ok false when the message stands
// on its own.
func resolveFollowUp(req Request, toks []string, text string, named []Entity, names entities, sc screenCtx) (followUp, bool) {
	rf := readReference(text, toks)
	if has(text, wordsTeam) {
		// "mon équipe est-elle prête ?": the pronoun is the team.
		return followUp{}, false
	}
	for kind, ps := range wordsThisKind {
		if _, on := sc.first(kind); on && has(text, ps) {
			// "and what gear for this champion?": the screen's champion,
			// whatever the conversation was about.
			return followUp{}, false
		}
	}
	// "what's my fastest champion?", "the fastest champion", "the
	// slowest Legendary Support": a search of its own, not a choice among
	// the last answer's champions.
	ownSet := has(text, wordsSuperlative) && (has(text, wordsChampions) || namesFilter(text))
	if _, ok := bossExtreme(text); ok && len(named) == 0 && !rf.one && !rf.it {
		// "welcher Boss ist am schwersten?": the game's bosses.
		return followUp{}, false
	}
	comparative := !rf.any() && len(named) == 0 && comparativeStat(text) != "" && !ownSet
	if !rf.any() && !rf.opener && !comparative {
		return followUp{}, false
	}
	conv, screen, screenNewer := antecedents(req, names, sc)
	if comparative && !screenNewer && (asksAbout(text) || has(text, wordsOne)) {
		// "what gear should the tankier one use?" after "which one is
		// tankier?": the one that answer chose.
		if e, ok := chosenBy(req, names, text); ok {
			return followUp{ents: []Entity{e}, text: text}, true
		}
	}
	if comparative && (len(ofKind(conv, KindChampion)) >= 2 || screenNewer && len(ofKind(screen, KindChampion)) >= 2) &&
		!(statSuperlative(text) && statSuperlative(lastQuestion(req))) {
		// "who hits harder?", "and faster?" after two or more champions:
		// which of them ("and the tankiest?" after a search is a search).
		rf.which = true
	}
	if !rf.any() && !rf.opener {
		return followUp{}, false
	}
	if rf.opener && !rf.any() {
		if len(conv) == 0 {
			return followUp{}, false
		}
		if len(named) == 0 && statSuperlative(text) && statSuperlative(lastQuestion(req)) {
			// "and the tankiest?" after "who is the fastest champion?": a
			// search of its own, not a question about one of the last
			// answer's champions; after "my fastest champion", of the
			// player's own.
			if last := lastQuestion(req); has(last, wordsOwned) || has(last, wordsMy) {
				return followUp{text: text + "my champions "}, true
			}
			return followUp{}, false
		}
		if len(named) == 0 {
			// "and the gear?": the last subject, a new question.
			pick, amb := pickOne(conv, rf)
			if amb && !has(text, wordsOne) {
				// "and the gear?" after "which one is tankier?": the one
				// chosen ("and the slower one?" is not).
				pick, amb = focused(req, pick)
			}
			if amb {
				return followUp{clarify: &clarify{Options: pick}}, true
			}
			fu := followUp{ents: pick, text: text}
			if !ownQuestion(text) {
				fu.text = lastQuestion(req) + strings.TrimSpace(text) + " "
			}
			return fu, true
		}
		// "and against the Frost Wyrm?", "what about Kaelith?": the last
		// question, the named subject in place of the one of its kind.
		merged := slices.Clone(conv)
		for _, n := range named {
			if i := slices.IndexFunc(merged, func(e Entity) bool { return e.Kind == n.Kind }); i >= 0 {
				merged[i] = n
				// Drop other subjects of that kind: a compared pair
				// followed by "what about Eira?" is about Eira.
				merged = slices.DeleteFunc(merged, func(e Entity) bool { return e.Kind == n.Kind && e.ID != n.ID })
			} else {
				merged = append(merged, n)
			}
		}
		if ownQuestion(strings.ReplaceAll(text, " against ", " ")) && !onlyAgainst(text) {
			// "and Kaelith's skills?" asks its own question about the subjects.
			return followUp{ents: merged, text: text}, true
		}
		return followUp{ents: merged, text: lastQuestion(req) + strings.TrimSpace(text) + " "}, true
	}
	// A reference: the newer of the screen and the conversation holds its
	// antecedents.
	cands := conv
	if screenNewer {
		cands = screen
	} else if (rf.they || rf.which) && len(ofKind(conv, KindChampion)) < 2 {
		// "both" after a question about one of a pair: the last pair.
		if pair := lastPair(req, names); len(pair) >= 2 {
			cands = pair
		}
	}
	k, ok := neededKind(text)
	if !ok && rf.it && !rf.one && !rf.they && !rf.which && has(text, wordsCounters) {
		// "who counters it?" on a dungeon's screen: its boss.
		k, ok = KindBoss, true
	}
	if ok {
		// A question only one kind of subject answers takes its subject
		// of that kind, from the screen or the conversation, whichever
		// has one: "quelles sont ses faiblesses ?" is the boss's, "where
		// do I farm it?" after gear advice is the screen's set.
		other := screen
		if screenNewer {
			other = conv
		}
		if of := ofKind(cands, k); len(of) > 0 {
			cands = of
		} else if of := ofKind(other, k); len(of) > 0 {
			cands = of
		} else if e, found := sc.first(k); found {
			// A dungeon screen's boss, from the dungeon's row.
			cands = []Entity{e}
		}
	}
	if len(named) > 0 {
		// "is she good against the Spider Queen?", "are both good against
		// it?": the reference is a champion the message does not name.
		if len(ofKind(named, KindChampion)) > 0 {
			if thing, ok := thingReferred(cands, rf); ok && len(ofKind(named, thing.Kind)) == 0 {
				// "is it good for Kaelith?" after a set: "it" is the set.
				return followUp{ents: append(slices.Clone(named), thing), text: text, fromScreen: screenNewer}, true
			}
			// "his" in "Kaelith and his skills": the named subject.
			return followUp{}, false
		}
		cands = ofKind(cands, KindChampion)
		if len(cands) == 0 && screenNewer {
			cands = ofKind(conv, KindChampion)
		}
		if len(cands) == 0 {
			return followUp{}, false
		}
	}
	if len(cands) == 0 {
		if len(named) > 0 {
			return followUp{}, false
		}
		if rf.it && !rf.one && !rf.they && !rf.which && rf.ordinal == -2 {
			// "it" alone is too common a word to ask back about.
			return followUp{}, false
		}
		if !ownQuestion(text) && !has(text, wordsGood) && !has(text, wordsGame) {
			// "quel temps fait-il ?": a pronoun, but no question about
			// the game to ask back about.
			return followUp{}, false
		}
		return followUp{clarify: &clarify{}}, true
	}
	changed := screenNewer && len(conv) > 0
	var pick []Entity
	switch {
	case rf.first > 0:
		// "compare the first two": the first few of the listed subjects.
		list := cands
		if cs := ofKind(cands, KindChampion); len(cs) >= 2 {
			list = cs
		}
		if len(list) < 2 {
			return followUp{clarify: &clarify{Options: list, ScreenChanged: changed}}, true
		}
		pick = list[:min(rf.first, len(list))]
	case rf.ordinal != -2:
		list := cands
		if cs := ofKind(cands, KindChampion); len(cs) >= 2 {
			list = cs
		}
		i := rf.ordinal
		switch {
		case i == ordOther:
			// Of two, the one the last answer did not choose.
			i = 1
			if f, amb := focused(req, list); len(list) == 2 && !amb && f[0].ID == list[1].ID && f[0].Kind == list[1].Kind {
				i = 0
			}
		case i < 0:
			i = len(list) - 1
		}
		if i >= len(list) {
			return followUp{clarify: &clarify{Options: list, ScreenChanged: changed}}, true
		}
		pick = []Entity{list[i]}
	case rf.they || rf.which:
		pick = cands
		if cs := ofKind(cands, KindChampion); len(cs) >= 2 {
			pick = cs
		}
		if rf.which && len(pick) < 2 {
			pick = cands
		}
	default:
		var amb bool
		pick, amb = pickOne(cands, rf)
		if amb && !screenNewer {
			// "and her skills?" after "which one is tankier?": the one
			// the answer chose.
			pick, amb = focused(req, pick)
		}
		if amb {
			return followUp{clarify: &clarify{Options: pick, ScreenChanged: changed}}, true
		}
	}
	ents := append(slices.Clone(pick), named...)
	if len(named) == 0 && (rf.one || rf.it) && !rf.they && !rf.which {
		// "is she good against it?": keep the other subjects of the last
		// exchange (a boss) when the question needs them.
		for _, e := range cands {
			if e.Kind != pick[0].Kind && has(text, wordsCounters) && e.Kind == KindBoss {
				ents = append(ents, e)
				break
			}
		}
	}
	fu := followUp{ents: ents, text: text, fromScreen: screenNewer}
	if !ownQuestion(text) && !has(text, wordsGood) && !asksOwn(text) {
		fu.text = lastQuestion(req) + strings.TrimSpace(text) + " "
	}
	return fu, true
}

// statSuperlative reports a question that only asks for the champions
// best at a stat ("the tankiest?", "who is the fastest champion?"), with
// no other question of its own (gear, counters, skills...).
func statSuperlative(text string) bool {
	if !has(text, wordsSuperlative) || !namesStat(text) {
		return false
	}
	return !asksAbout(text) && !has(text, wordsCompare)
}

// asksAbout reports a question about one subject's skills, gear, lore,
// cost, farming, masteries, counters, how to play or patches.
func asksAbout(text string) bool {
	for _, ws := range [][]string{wordsSkills, wordsGear, wordsLore, wordsCost, wordsFarm, wordsMastery, wordsCounters, wordsHowTo, wordsPatch} {
		if has(text, ws) {
			return true
		}
	}
	return false
}

// neededKind is the one kind of subject a question can be about: a boss
// for what it is weak or immune to, a gear set for where it drops.
func neededKind(text string) (Kind, bool) {
	switch {
	case has(text, wordsWeakness) && !has(text, wordsWhoAsk):
		return KindBoss, true
	case has(text, wordsFarm):
		return KindGearSet, true
	}
	return "", false
}

// thingReferred returns the one thing (a boss, dungeon, gear set or
// faction, not a champion) among cands that a message's lone "it" refers
// to, when it has no person pronoun nor other reference.
func thingReferred(cands []Entity, rf reference) (Entity, bool) {
	if !rf.it || rf.one || rf.they || rf.which || rf.ordinal != -2 || rf.first > 0 {
		return Entity{}, false
	}
	for _, k := range []Kind{KindGearSet, KindBoss, KindDungeon, KindFaction} {
		if of := ofKind(cands, k); len(of) == 1 {
			return of[0], true
		}
	}
	return Entity{}, false
}

// onlyAgainst reports a follow-up whose only question word is "against"
// (or its fr/de forms): it keeps the last question.
func onlyAgainst(text string) bool {
	t := text
	for _, w := range []string{" against ", " contre ", " gegen ", " vs ", " versus "} {
		t = strings.ReplaceAll(t, w, " ")
	}
	return !ownQuestion(t)
}

// pickOne picks the one subject a singular reference means: a person
// pronoun a champion (else a boss), "it" a thing. amb reports several
// equally likely ones, returned as the options.
func pickOne(cands []Entity, rf reference) (pick []Entity, amb bool) {
	order := []Kind{KindChampion, KindBoss, KindDungeon, KindGearSet, KindFaction}
	if rf.it && !rf.one {
		order = []Kind{KindBoss, KindDungeon, KindGearSet, KindFaction, KindChampion}
	}
	for _, k := range order {
		of := ofKind(cands, k)
		switch {
		case len(of) == 1:
			return of, false
		case len(of) > 1:
			return of, true
		}
	}
	return cands, len(cands) > 1
}

// subjectsOf records entities as subjects.
func subjectsOf(es []Entity) []Subject {
	out := make([]Subject, 0, len(es))
	seen := map[string]bool{}
	for _, e := range es {
		k := string(e.Kind) + "/" + e.ID
		if e.ID == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, Subject{Kind: string(e.Kind), ID: e.ID})
	}
	return out
}

// about is what an answer was about, for the session to record: the plan's
// entities, then (for a list answer) the listed ones in order, so "the
// first one" picks from the list; a question back records its options.
func about(p Plan, outs []tool.Outcome) []Subject {
	if p.Clarify != nil {
		return subjectsOf(p.Clarify.Options)
	}
	es := slices.Clone(p.Entities)
	es = append(es, p.Team...)
	switch p.Intent {
	case IntentBring, IntentMissing, IntentLevelNext:
		es = append(es, rosterSubjects(p, outs)...)
	case IntentCompare:
		if w, ok := compareLeader(p, outs); ok {
			return focusOn(subjectsOf(es), w)
		}
	case IntentCounters, IntentFind, IntentEffect, IntentMembers:
		listed := len(es)
		for _, o := range outs {
			n := 0
			for _, ref := range o.Result.Facts().Entities {
				k, ok := kindOf(ref.Kind)
				if !ok || ref.ID == 0 || k != KindChampion {
					continue
				}
				if n == 5 {
					break
				}
				n++
				es = append(es, Entity{Kind: k, ID: idString(ref.ID), Name: ref.Name})
			}
		}
		if len(es) > listed && has(p.text, wordsSuperlative) {
			// "who is the fastest?", "the best counters": the list is
			// ranked, and its first is the one the answer singles out.
			return focusOn(subjectsOf(es), es[listed].ID)
		}
	}
	return subjectsOf(es)
}

// focusOn marks the champion id among subjects as the answer's focus.
func focusOn(subjects []Subject, id string) []Subject {
	for i := range subjects {
		subjects[i].Focus = subjects[i].Kind == string(KindChampion) && subjects[i].ID == id
	}
	return subjects
}

// compareLeader returns the id of the champion a comparison answered
// with (see compareVerdict): the one ahead on the stat the question
// named (behind, for "slower"), when it is alone there.
func compareLeader(p Plan, outs []tool.Outcome) (string, bool) {
	key, low := comparativeOf(p.text)
	if key == "" || len(outs) == 0 || !outs[0].Result.OK() {
		return "", false
	}
	cmp, ok := dataAs[toolsgcs.Comparison](outs[0].Result)
	if !ok {
		return "", false
	}
	best, tie := statLeader(cmp, key, low)
	if best < 0 || tie || cmp.Champions[best].ID == 0 {
		return "", false
	}
	return idString(cmp.Champions[best].ID), true
}

// clarifyText asks which subject the player means.
func (rd renderer) clarifyText(c *clarify) reply {
	if len(c.Options) == 0 {
		return reply{lead: rd.l.s("clarify_none")}
	}
	names := make([]string, len(c.Options))
	for i, e := range c.Options {
		names[i] = bold(e.Display(rd.l.loc))
	}
	if c.ScreenChanged {
		return reply{lead: rd.l.s("clarify_screen", rd.l.or(names))}
	}
	return reply{lead: rd.l.s("clarify_which", rd.l.or(names))}
}

// convoText holds the sentences of follow-ups and verdicts, by locale.
var convoText = map[string]map[string]string{
	"en": {
		"clarify_none":           "Who or what do you mean? Name the champion, boss or dungeon you're asking about.",
		"clarify_which":          "Which one do you mean: %s?",
		"clarify_screen":         "You've changed screens since we last talked: do you mean %s?",
		"rank_of":                "It ranks #%d of the %d champions the game rates against it",
		"match_low":              "**%s** can work against **%s** but is not among its best counters: it ranks #%d of %d. Better picks are %s.",
		"stand_none":             "%s: not a ranked counter",
		"stand_beyond":           "%s: not in the top %d of %d",
		"match_beyond":           "**%s** is not among the recommended counters for **%s**: it is not in the top %d of the %d champions the game ranks. Better picks are %s.",
		"stand_rank":             "%s: #%d of %d",
		"pick_none":              "%s: neither is among the counters the game ranks for **%s**; better picks are %s.",
		"pick_best":              "**%s** is the better pick against **%s**: it ranks #%d of %d counters.",
		"all_good":               "Yes: %s are all good picks against **%s**.",
		"none_good":              "No: %s are not among the best counters for **%s**; better picks are %s.",
		"some_good":              "Against **%s**: %s is a good pick, %s is not among its best counters.",
		"champ_good":             "**%s** is a good pick against %s: the game recommends it there.",
		"champ_unrated":          "The game rates **%s** against bosses, and recommends it against none; ask whether it is good against a boss.",
		"no_overall":             "The game rates champions against a boss, not overall: ask who is better against a boss. Side by side:",
		"stat_best":              "**%s** is %s: %s %s.",
		"stat_tie":               "They are level on %s: %s.",
		"cmp_spd":                "faster",
		"cmp_hp":                 "tankier",
		"cmp_def":                "better defended",
		"cmp_atk":                "the harder hitter",
		"cmp_res":                "more resistant",
		"cmp_acc":                "more accurate",
		"cmp_spd_low":            "slower",
		"cmp_hp_low":             "squishier",
		"cmp_def_low":            "less defended",
		"cmp_atk_low":            "the softer hitter",
		"cmp_res_low":            "less resistant",
		"cmp_acc_low":            "less accurate",
		"patch_latest":           "The latest patch is **%s**:",
		"set_yes":                "Yes, **%s** suits **%s**: it is #%d of the %d sets the game recommends for %s champions.",
		"set_no":                 "No, **%s** is not among the sets the game recommends for **%s** (%s); better: %s.",
		"set_unknown":            "The game recommends no sets for **%s**'s role, so the data cannot say whether **%s** suits it.",
		"offer_yes":              "Worth it if those fights are yours: for %s you get **%s**, whom the game recommends against %s. The data has no price list to compare the price with.",
		"offer_no":               "Probably not: for %s you get **%s**, whom the game recommends against no boss. The data has no price list to compare the price with.",
		"patch_latest_date":      "The latest patch is **%s**, released %s:",
		"team_yes":               "Yes, your team is good enough for **%s**: all %d are among the counters the game ranks for it.",
		"team_partly":            "Partly: against **%s**, %d of your %d champions are ranked counters (%d among its best).",
		"team_no":                "No: none of your team is among the counters the game ranks for **%s**.",
		"team_swap":              "Best swap: %s in for %s (#%d).",
		"team_swap_owned":        "Best swap from your roster: %s in for %s (#%d).",
		"roster_level_word":      "level %d",
		"roster_no_team":         "I can't see your team on this screen; open the team selection and ask again.",
		"roster_no_counters":     "I couldn't read the counters of this boss.",
		"roster_best_overall":    "I don't know your roster here, so these are the best counters to **%s** overall:",
		"roster_none_owned":      "You own none of the known counters of **%s**.",
		"roster_best_to_get":     "The best one to get: %s.",
		"roster_bring":           "From your roster, bring these against **%s**:",
		"roster_best_not_owned":  "Best counter you don't own: %s.",
		"roster_matter_most":     "I don't know your roster here, so these are the counters that matter most against **%s**:",
		"roster_lack":            "Against **%s** you lack %d of the %d best counters.",
		"roster_have":            "You already have: %s.",
		"roster_level_this":      "Level %s next: it is one of your best counters to **%s**.",
		"roster_level_general":   "Against **%s**, **%s** is the counter most worth levelling.",
		"roster_level_top":       "Your counters to **%s** are already at the top level; level the counter you get next.",
		"roster_level_open_boss": "Level the champions you use most against the bosses you are stuck on; open a boss and ask again.",
		"roster_no_champions":    "I couldn't read your champions.",
		"roster_level_rarity":    "Level %s next: your highest-rarity champion (%s) below the top level, now level %d.",
		"roster_all_top":         "Your champions are all at the top level.",
		"no_roster":              "I don't know your roster here, so this is general advice.",
		"weak_to":                "**%s** is weak to %s.",
		"immune_to":              "**%s** is immune to %s.",
		"weak_none":              "The game data lists no weaknesses for **%s**.",
		"members_lead":           "%s has %d champions: %s.",
		"owned_count":            "You have %d champions%.0s; the best: %s.",
		"owned_count_of":         "%[2]s: %[1]d; the best: %[3]s.",
		"dungeon_drops":          "%s drops %s.",
		"dungeon_boss":           "The boss of %s is %s.",
		"dungeon_stages":         "%s has %s stages.",
		"members_lead_rarity":    "%s has %d %s champions: %s.",
		"members_none":           "%s has no champions of that kind.",
		"phases_lead":            "**%s** fights in %d phases:",
		"phase_line":             "%d. **%s** (from %s%% HP)",
		"phase_one":              "Phase %d of **%s** is **%s**, from %s%% HP.",
		"phase_missing":          "**%s** has %d phases, so there is no phase %d:",
		"phases_none":            "The game data lists no phases for **%s**.",
		"mechanics_lead":         "**%s**'s mechanics:",
		"your_list":              "Your %s",
		"owned_yes":              "Yes: %s is in your roster.",
		"owned_no":               "No: %s is not in your roster.",
		"owned_unknown":          "I can't see your roster here, so I can't tell whether you own %s.",
	},
	"fr": {
		"clarify_none":           "De qui ou de quoi parlez-vous ? Nommez le champion, le boss ou le donjon.",
		"clarify_which":          "Duquel parlez-vous : %s ?",
		"clarify_screen":         "Vous avez changé d'écran depuis : parlez-vous de %s ?",
		"rank_of":                "Il est classé n°%d sur les %d champions que le jeu évalue contre lui",
		"match_low":              "**%s** peut servir contre **%s** mais ne fait pas partie de ses meilleurs contres : n°%d sur %d. Meilleurs choix : %s.",
		"stand_none":             "%s : pas un contre classé",
		"stand_beyond":           "%s : hors des %d premiers sur %d",
		"match_beyond":           "**%s** ne fait pas partie des contres recommandés de **%s** : il n'est pas dans les %d premiers des %d champions classés. Meilleurs choix : %s.",
		"stand_rank":             "%s : n°%d sur %d",
		"pick_none":              "%s : aucun ne fait partie des contres classés pour **%s** ; meilleurs choix : %s.",
		"pick_best":              "**%s** est le meilleur choix contre **%s** : n°%d sur %d contres.",
		"all_good":               "Oui : %s sont de bons choix contre **%s**.",
		"none_good":              "Non : %s ne font pas partie des meilleurs contres de **%s** ; meilleurs choix : %s.",
		"some_good":              "Contre **%s** : %s est un bon choix, %s ne fait pas partie de ses meilleurs contres.",
		"champ_good":             "**%s** est un bon choix contre %s : le jeu le recommande.",
		"champ_unrated":          "Le jeu évalue **%s** contre des boss et ne le recommande contre aucun ; demandez s'il est bon contre un boss.",
		"no_overall":             "Le jeu évalue les champions contre un boss, pas dans l'absolu : demandez lequel est meilleur contre un boss. Côte à côte :",
		"stat_best":              "**%s** est %s : %s %s.",
		"stat_tie":               "Ils sont à égalité en %s : %s.",
		"cmp_spd":                "plus rapide",
		"cmp_hp":                 "plus résistant",
		"cmp_def":                "mieux défendu",
		"cmp_atk":                "celui qui frappe le plus fort",
		"cmp_res":                "plus résistant aux effets",
		"cmp_acc":                "plus précis",
		"cmp_spd_low":            "plus lent",
		"cmp_hp_low":             "plus fragile",
		"cmp_def_low":            "moins bien défendu",
		"cmp_atk_low":            "celui qui frappe le moins fort",
		"cmp_res_low":            "moins résistant aux effets",
		"cmp_acc_low":            "moins précis",
		"patch_latest":           "Le dernier patch est **%s** :",
		"set_yes":                "Oui, **%s** convient à **%s** : n°%d des %d ensembles que le jeu recommande pour les champions %s.",
		"set_no":                 "Non, **%s** ne fait pas partie des ensembles recommandés pour **%s** (%s) ; mieux : %s.",
		"set_unknown":            "Le jeu ne recommande aucun ensemble pour le rôle de **%s** : les données ne permettent pas de juger **%s**.",
		"offer_yes":              "Intéressant si ces combats sont les vôtres : pour %s vous obtenez **%s**, recommandé contre %s. Les données n'ont pas de grille de prix pour comparer.",
		"offer_no":               "Probablement pas : pour %s vous obtenez **%s**, que le jeu ne recommande contre aucun boss. Les données n'ont pas de grille de prix pour comparer.",
		"patch_latest_date":      "Le dernier patch est **%s**, sorti le %s :",
		"team_yes":               "Oui, votre équipe est prête pour **%s** : les %d font partie des contres classés.",
		"team_partly":            "En partie : contre **%s**, %d de vos %d champions sont des contres classés (%d parmi les meilleurs).",
		"team_no":                "Non : aucun membre de votre équipe ne fait partie des contres classés de **%s**.",
		"team_swap":              "Meilleur échange : %s à la place de %s (n°%d).",
		"team_swap_owned":        "Meilleur échange dans votre collection : %s à la place de %s (n°%d).",
		"roster_level_word":      "niveau %d",
		"roster_no_team":         "Je ne vois pas votre équipe sur cet écran ; ouvrez la sélection d'équipe et reposez la question.",
		"roster_no_counters":     "Je n'ai pas pu lire les contres de ce boss.",
		"roster_best_overall":    "Je ne connais pas votre collection ici : voici les meilleurs contres de **%s** en général :",
		"roster_none_owned":      "Vous n'avez aucun des contres connus de **%s**.",
		"roster_best_to_get":     "Le meilleur à obtenir : %s.",
		"roster_bring":           "Dans votre collection, emmenez ceux-ci contre **%s** :",
		"roster_best_not_owned":  "Meilleur contre que vous n'avez pas : %s.",
		"roster_matter_most":     "Je ne connais pas votre collection ici : voici les contres qui comptent le plus contre **%s** :",
		"roster_lack":            "Contre **%s**, il vous manque %d des %d meilleurs contres.",
		"roster_have":            "Vous avez déjà : %s.",
		"roster_level_this":      "Montez %s en priorité : c'est l'un de vos meilleurs contres de **%s**.",
		"roster_level_general":   "Contre **%s**, **%s** est le contre qui mérite le plus d'être monté.",
		"roster_level_top":       "Vos contres de **%s** sont déjà au niveau maximum ; montez le prochain contre que vous obtiendrez.",
		"roster_level_open_boss": "Montez les champions que vous utilisez le plus contre les boss qui vous bloquent ; ouvrez un boss et reposez la question.",
		"roster_no_champions":    "Je n'ai pas pu lire vos champions.",
		"roster_level_rarity":    "Montez %s en priorité : votre champion de plus haute rareté (%s) sous le niveau maximum, actuellement niveau %d.",
		"roster_all_top":         "Vos champions sont tous au niveau maximum.",
		"no_roster":              "Je ne connais pas votre collection ici : ce conseil est général.",
		"weak_to":                "**%s** est faible contre : %s.",
		"immune_to":              "**%s** est insensible à : %s.",
		"weak_none":              "Les données du jeu n'indiquent aucune faiblesse pour **%s**.",
		"members_lead":           "%s compte %d champions : %s.",
		"owned_count":            "Vous avez %d champions%.0s ; les meilleurs : %s.",
		"owned_count_of":         "%[2]s : %[1]d ; les meilleurs : %[3]s.",
		"dungeon_drops":          "%s donne : %s.",
		"dungeon_boss":           "Le boss de %s est %s.",
		"dungeon_stages":         "%s compte %s niveaux.",
		"members_lead_rarity":    "%s compte %d champions (%s) : %s.",
		"members_none":           "%s ne compte aucun champion de ce genre.",
		"phases_lead":            "**%s** combat en %d phases :",
		"phase_line":             "%d. **%s** (à partir de %s %% PV)",
		"phase_one":              "La phase %d de **%s** est **%s**, à partir de %s %% PV.",
		"phase_missing":          "**%s** a %d phases, il n'y a donc pas de phase %d :",
		"phases_none":            "Les données du jeu n'indiquent aucune phase pour **%s**.",
		"mechanics_lead":         "Mécaniques de **%s** :",
		"your_list":              "Vos %s",
		"owned_yes":              "Oui : %s est dans votre collection.",
		"owned_no":               "Non : %s n'est pas dans votre collection.",
		"owned_unknown":          "Je ne vois pas votre collection ici : je ne peux pas dire si vous avez %s.",
	},
	"de": {
		"clarify_none":           "Wen oder was meinst du? Nenne den Champion, Boss oder das Verlies.",
		"clarify_which":          "Welchen meinst du: %s?",
		"clarify_screen":         "Du hast seitdem den Bildschirm gewechselt: meinst du %s?",
		"rank_of":                "Platz %d von %d Champions, die das Spiel gegen ihn bewertet",
		"match_low":              "**%s** taugt gegen **%s**, gehört aber nicht zu den besten Kontern: Platz %d von %d. Besser sind %s.",
		"stand_none":             "%s: kein bewerteter Konter",
		"stand_beyond":           "%s: nicht unter den besten %d von %d",
		"match_beyond":           "**%s** gehört nicht zu den empfohlenen Kontern für **%s**: nicht unter den besten %d der %d bewerteten Champions. Besser sind %s.",
		"stand_rank":             "%s: Platz %d von %d",
		"pick_none":              "%s: keiner gehört zu den bewerteten Kontern für **%s**; besser sind %s.",
		"pick_best":              "**%s** ist gegen **%s** die bessere Wahl: Platz %d von %d Kontern.",
		"all_good":               "Ja: %s sind gegen **%s** alle gute Wahlen.",
		"none_good":              "Nein: %s gehören nicht zu den besten Kontern für **%s**; besser sind %s.",
		"some_good":              "Gegen **%s**: %s ist eine gute Wahl, %s gehört nicht zu den besten Kontern.",
		"champ_good":             "**%s** ist eine gute Wahl gegen %s: das Spiel empfiehlt ihn dort.",
		"champ_unrated":          "Das Spiel bewertet **%s** gegen Bosse und empfiehlt ihn gegen keinen; frag, ob er gegen einen Boss gut ist.",
		"no_overall":             "Das Spiel bewertet Champions gegen einen Boss, nicht allgemein: frag, wer gegen einen Boss besser ist. Im Vergleich:",
		"stat_best":              "**%s** ist %s: %s %s.",
		"stat_tie":               "Bei %s sind sie gleichauf: %s.",
		"cmp_spd":                "schneller",
		"cmp_hp":                 "zäher",
		"cmp_def":                "besser verteidigt",
		"cmp_atk":                "der härtere Schläger",
		"cmp_res":                "widerstandsfähiger",
		"cmp_acc":                "genauer",
		"cmp_spd_low":            "langsamer",
		"cmp_hp_low":             "zerbrechlicher",
		"cmp_def_low":            "schlechter verteidigt",
		"cmp_atk_low":            "der schwächere Schläger",
		"cmp_res_low":            "weniger widerstandsfähig",
		"cmp_acc_low":            "ungenauer",
		"patch_latest":           "Der neueste Patch ist **%s**:",
		"set_yes":                "Ja, **%s** passt zu **%s**: Platz %d der %d Sets, die das Spiel für %s-Champions empfiehlt.",
		"set_no":                 "Nein, **%s** gehört nicht zu den Sets, die das Spiel für **%s** (%s) empfiehlt; besser: %s.",
		"set_unknown":            "Das Spiel empfiehlt keine Sets für die Rolle von **%s**; ob **%s** passt, lässt sich aus den Daten nicht sagen.",
		"offer_yes":              "Lohnt sich, wenn das deine Kämpfe sind: für %s bekommst du **%s**, empfohlen gegen %s. Die Daten haben keine Preisliste zum Vergleich.",
		"offer_no":               "Eher nicht: für %s bekommst du **%s**, den das Spiel gegen keinen Boss empfiehlt. Die Daten haben keine Preisliste zum Vergleich.",
		"patch_latest_date":      "Der neueste Patch ist **%s**, erschienen am %s:",
		"team_yes":               "Ja, dein Team reicht für **%s**: alle %d sind bewertete Konter.",
		"team_partly":            "Teilweise: gegen **%s** sind %d deiner %d Champions bewertete Konter (%d unter den besten).",
		"team_no":                "Nein: niemand aus deinem Team gehört zu den bewerteten Kontern für **%s**.",
		"team_swap":              "Bester Tausch: %s statt %s (Platz %d).",
		"team_swap_owned":        "Bester Tausch aus deiner Sammlung: %s statt %s (Platz %d).",
		"roster_level_word":      "Stufe %d",
		"roster_no_team":         "Ich sehe dein Team auf diesem Bildschirm nicht; öffne die Teamauswahl und frag noch einmal.",
		"roster_no_counters":     "Ich konnte die Konter dieses Bosses nicht lesen.",
		"roster_best_overall":    "Ich kenne deine Sammlung hier nicht, daher die besten Konter gegen **%s** allgemein:",
		"roster_none_owned":      "Du hast keinen der bekannten Konter gegen **%s**.",
		"roster_best_to_get":     "Der beste, den du holen solltest: %s.",
		"roster_bring":           "Aus deiner Sammlung nimm diese gegen **%s** mit:",
		"roster_best_not_owned":  "Bester Konter, den du nicht hast: %s.",
		"roster_matter_most":     "Ich kenne deine Sammlung hier nicht, daher die wichtigsten Konter gegen **%s**:",
		"roster_lack":            "Gegen **%s** fehlen dir %d der %d besten Konter.",
		"roster_have":            "Du hast schon: %s.",
		"roster_level_this":      "Level als Nächstes %s: einer deiner besten Konter gegen **%s**.",
		"roster_level_general":   "Gegen **%s** lohnt es sich am meisten, **%s** zu leveln.",
		"roster_level_top":       "Deine Konter gegen **%s** sind schon auf der höchsten Stufe; level den nächsten Konter, den du bekommst.",
		"roster_level_open_boss": "Level die Champions, die du gegen die Bosse nutzt, an denen du hängst; öffne einen Boss und frag noch einmal.",
		"roster_no_champions":    "Ich konnte deine Champions nicht lesen.",
		"roster_level_rarity":    "Level als Nächstes %s: dein seltenster Champion (%s) unter der höchsten Stufe, jetzt Stufe %d.",
		"roster_all_top":         "Deine Champions sind alle auf der höchsten Stufe.",
		"no_roster":              "Ich kenne deine Sammlung hier nicht, daher ist das ein allgemeiner Rat.",
		"weak_to":                "**%s** ist schwach gegen: %s.",
		"immune_to":              "**%s** ist immun gegen: %s.",
		"weak_none":              "Die Spieldaten nennen keine Schwächen für **%s**.",
		"members_lead":           "%s hat %d Champions: %s.",
		"owned_count":            "Du hast %d Champions%.0s; die besten: %s.",
		"owned_count_of":         "%[2]s: %[1]d; die besten: %[3]s.",
		"dungeon_drops":          "%s lässt fallen: %s.",
		"dungeon_boss":           "Der Boss von %s ist %s.",
		"dungeon_stages":         "%s hat %s Stufen.",
		"members_lead_rarity":    "%s hat %d Champions (%s): %s.",
		"members_none":           "%s hat keine solchen Champions.",
		"phases_lead":            "**%s** kämpft in %d Phasen:",
		"phase_line":             "%d. **%s** (ab %s %% LP)",
		"phase_one":              "Phase %d von **%s** ist **%s**, ab %s %% LP.",
		"phase_missing":          "**%s** hat %d Phasen, eine Phase %d gibt es also nicht:",
		"phases_none":            "Die Spieldaten nennen keine Phasen für **%s**.",
		"mechanics_lead":         "Mechaniken von **%s**:",
		"your_list":              "Deine %s",
		"owned_yes":              "Ja: %s ist in deiner Sammlung.",
		"owned_no":               "Nein: %s ist nicht in deiner Sammlung.",
		"owned_unknown":          "Ich sehe deine Sammlung hier nicht und kann nicht sagen, ob du %s besitzt.",
	},
}

// s fills the follow-up or verdict sentence key of the locale.
func (l lang) s(key string, args ...any) string {
	f, ok := convoText[l.loc][key]
	if !ok {
		f = convoText["en"][key]
	}
	return fmt.Sprintf(f, args...)
}
