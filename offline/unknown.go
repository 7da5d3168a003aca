package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/resolve"
)

// This file reads a question about a name the game does not have ("what do
// I get for clearing Dragon's Lair?", "who is Zorblax?"): the proper name
// the player wrote, the kind of entity the question's words say, and the
// game's real names closest to it. The name is player text: it is quoted in
// the reply as data, cleaned and capped, never read as an instruction.

// IntentUnknownName is a game question about a name the game does not have:
// the answer says so and offers the closest real names, or the list of that
// kind to browse.
const IntentUnknownName Intent = "unknown_name"

// KindMastery is the read model's mastery kind; masteries have no intents,
// but a question may name one the game lacks.
const KindMastery = gcsdb.KindMastery

// maxUnknownRunes caps the echoed name.
const maxUnknownRunes = 60

// maxSpans bounds the proper names read in one message, and maxSpanRunes
// the runes of each, so hostile input costs bounded time.
const (
	maxSpans     = 8
	maxSpanRunes = 200
)

// maxSuggestions bounds the "did you mean" names.
const maxSuggestions = 3

// UnknownName is a name a question asks about that the game's resolver does
// not find.
type UnknownName struct {
	// Name is the name as the player wrote it, control characters and
	// markup removed, at most 60 runes (cut with "…").
	Name string `json:"name"`
	// Kind is the kind the question's words say ("the dungeon X", "beat X"),
	// "" when they say none.
	Kind Kind `json:"kind,omitempty"`
	// Suggestions are the game's closest real names (of Kind when it is
	// known), nearest first; empty when no name is near.
	Suggestions []Entity `json:"suggestions,omitempty"`
}

// nameSpan is a run of the message that looks like a proper name.
type nameSpan struct {
	text  string // as written
	start int    // token index of the first word
	words []string
}

// word is one word of a message as written, with its position.
type word struct {
	text string
	cap  bool // starts with an upper-case letter
	// sentenceStart reports the first word of a sentence.
	sentenceStart bool
}

// messageWords splits msg into words as written: letters and digits, with
// apostrophes and hyphens inside a word; a French elision ("l'Antre") is
// dropped so the name's own capital counts.
func messageWords(msg string) []word {
	var out []word
	sentence := true
	begin := -1 // byte offset of the current word, -1 between words
	flush := func(end int) {
		if begin < 0 {
			return
		}
		w := strings.Trim(msg[begin:end], "'’-")
		begin = -1
		if i := strings.IndexAny(w, "'’"); i > 0 && i <= 3 && isElision(strings.ToLower(w[:i])) {
			if rest := strings.TrimLeft(w[i:], "'’"); rest != "" {
				w = rest
			}
		}
		if w == "" {
			return
		}
		r, _ := utf8.DecodeRuneInString(w)
		out = append(out, word{text: w, cap: unicode.IsUpper(r), sentenceStart: sentence})
		sentence = false
	}
	for i, r := range msg {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if begin < 0 {
				begin = i
			}
		case (r == '\'' || r == '’' || r == '-') && begin >= 0:
		default:
			flush(i)
			if r == '.' || r == '!' || r == '?' || r == '\n' || r == ':' {
				sentence = true
			}
		}
		if len(out) > maxTokens {
			return out
		}
	}
	flush(len(msg))
	return out
}

func isElision(s string) bool {
	for _, e := range elisions {
		if s == e {
			return true
		}
	}
	return false
}

// properNames returns the runs of msg that look like proper names: quoted
// text, and capitalised words (not a sentence's first word unless another
// capitalised word follows it) joined by the small words names hold ("of",
// "du", "der"). A run made only of the game's or the questions' vocabulary
// ("Decrease DEF", German nouns such as "Verlies") is no name, and a kind
// noun before it is not part of the name ("das Verlies Drachenhort" is
// "Drachenhort"); one-letter words ("I") start no run. In a message with no
// lower-case letter only quoted text counts.
func properNames(msg string, ws []word) []nameSpan {
	var out []nameSpan
	for _, q := range quoted(msg) {
		if len(out) == maxSpans {
			return out
		}
		q = clip(q, maxSpanRunes)
		if ws := tokens(q); len(ws) > 0 {
			out = append(out, nameSpan{text: q, start: -1, words: ws})
		}
	}
	if !hasLower(msg) {
		// A message in capitals says nothing about which words are names.
		return out
	}
	capital := func(i int) bool {
		return i < len(ws) && ws[i].cap && utf8.RuneCountInString(ws[i].text) > 1
	}
	inside := func(i int) bool { return capital(i) && !ws[i].sentenceStart }
	for i := 0; i < len(ws) && len(out) < maxSpans; i++ {
		if !capital(i) || ws[i].sentenceStart && (!inside(i+1) || inVocabulary(ws[i].text)) {
			continue
		}
		j := i + 1
		for j < len(ws) {
			if inside(j) {
				j++
				continue
			}
			// A small joining word counts when a capitalised word follows.
			if isConnector(ws[j].text) && inside(j+1) {
				j += 2
				continue
			}
			break
		}
		first, last := i, j-1
		for first <= last && isKindNoun(ws[first].text) {
			first++
		}
		for last >= first && isConnector(ws[last].text) {
			last--
		}
		next := j - 1
		if first > last {
			i = next
			continue
		}
		parts := make([]string, 0, last-first+1)
		for _, w := range ws[first : last+1] {
			parts = append(parts, w.text)
		}
		text := clip(strings.Join(parts, " "), maxSpanRunes)
		if !inVocabulary(text) {
			out = append(out, nameSpan{text: text, start: first, words: tokens(text)})
		}
		i = next
	}
	return out
}

// asciiKey is the comparison form of one plain ASCII word (letters and
// digits only), as tokens gives it, without tokens' work; ok is false for
// any other word.
func asciiKey(w string) (string, bool) {
	if w == "" {
		return "", false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return "", false
		}
	}
	return strings.ToLower(w), true
}

// hasLower reports whether s has a lower-case letter.
func hasLower(s string) bool {
	for _, r := range s {
		if unicode.IsLower(r) {
			return true
		}
	}
	return false
}

// isKindNoun reports a word naming a kind ("Verlies", "Boss", "dungeon").
func isKindNoun(w string) bool {
	f, ok := asciiKey(w)
	if !ok {
		f = strings.Join(tokens(w), " ")
	}
	for _, kn := range kindNouns {
		for _, p := range kn.words {
			if p == f {
				return true
			}
		}
	}
	return false
}

// quoted returns the texts between double quotes of any locale.
func quoted(msg string) []string {
	pairs := []struct{ open, close string }{{`"`, `"`}, {"“", "”"}, {"«", "»"}, {"„", "“"}, {"„", "”"}}
	var out []string
	for _, p := range pairs {
		rest := msg
		for {
			i := strings.Index(rest, p.open)
			if i < 0 {
				break
			}
			rest = rest[i+len(p.open):]
			j := strings.Index(rest, p.close)
			if j < 0 {
				break
			}
			if t := strings.TrimSpace(rest[:j]); t != "" {
				out = append(out, t)
				if len(out) == maxSpans {
					return out
				}
			}
			rest = rest[j+len(p.close):]
		}
	}
	return out
}

// connectors are the small words inside names ("Crypt of the Hollow Crown",
// "Antre du Dragon", "Hort der Drachen").
var connectors = map[string]bool{
	"of": true, "the": true, "de": true, "du": true, "des": true, "la": true, "le": true, "les": true,
	"der": true, "die": true, "das": true, "von": true, "vom": true, "zu": true, "zum": true, "zur": true,
}

func isConnector(w string) bool { return connectors[strings.ToLower(w)] }

// inVocabulary reports a word of the game's or the questions' vocabulary
// (every phrase list of words.go and the stop words), which names nothing by
// itself: "Boss", "Verlies", "Extra Turn", "HP".
func inVocabulary(w string) bool {
	if k, ok := asciiKey(w); ok {
		_, voc := vocabulary[k]
		return voc || isStopWord(k)
	}
	for _, t := range tokens(w) {
		if _, ok := vocabulary[t]; !ok && !isStopWord(t) {
			return false
		}
	}
	return true
}

var vocabulary = func() map[string]struct{} {
	m := map[string]struct{}{}
	lists := [][]string{
		wordsGreeting, wordsDeictic, wordsTeam, wordsLore, wordsSkills, wordsCompare, wordsCounters, wordsHowTo,
		wordsGear, wordsMastery, wordsFarm, wordsCost, wordsPatch, wordsScreen, wordsSuperlative, wordsAsk,
		wordsList, wordsEffectQ, wordsGame, wordsClear,
	}
	for _, ks := range kindNouns {
		lists = append(lists, ks.words)
	}
	for _, ks := range kindVerbs {
		lists = append(lists, ks.words)
	}
	for _, g := range [][]struct {
		key   string
		words []string
	}{statWords, effectWords} {
		for _, s := range g {
			lists = append(lists, s.words)
		}
	}
	for _, g := range [][]struct {
		value string
		words []string
	}{affinityWords, roleWords, rarityWords} {
		for _, s := range g {
			lists = append(lists, s.words)
		}
	}
	for _, l := range lists {
		for _, p := range l {
			for _, w := range strings.Fields(p) {
				m[w] = struct{}{}
			}
		}
	}
	return m
}()

// unknownName finds the first proper name of msg that the resolver does
// not know, whole or in part: no word of it resolves as a whole name, and
// the run itself is no name by any rule. A word of a longer name ("Shadow"
// of the Shadow Twins) or a near miss of another ("Hydra", one letter from
// the champion Hadra) does not make "Shadow Hydra" known. It returns the
// name with the kind the question says and the closest real names; partial
// lists the ids of entities matched only by a word of that name, which it
// names no more than the whole does.
func (e entities) unknownName(msg string) (u UnknownName, partial []string, ok bool) {
	if e.idx == nil || e.idx.Len() == 0 {
		// No names to compare with: every name would be unknown.
		return UnknownName{}, nil, false
	}
	ws := messageWords(msg)
	for _, s := range properNames(msg, ws) {
		known, ids := false, []string(nil)
		for _, m := range e.idx.FindAll("", s.text) {
			whole := strings.Join(tokens(m.Text), " ") == strings.Join(s.words, " ")
			if m.How == resolve.Exact || m.How == resolve.Folded || whole {
				known = true
				break
			}
			ids = append(ids, idString(m.ID))
		}
		if known {
			continue
		}
		// The whole run as part of a longer name ("Knight's Castle") or a
		// prefix of one; typos of the run are FindAll's, as for every name
		// the responder reads.
		if _, found := e.idx.LookupUpTo("", s.text, resolve.Partial); found {
			continue
		}
		folded := make([]string, len(ws))
		for i, w := range ws {
			folded[i] = strings.Join(tokens(w.text), " ")
		}
		u = UnknownName{Name: echoName(s.text), Kind: questionKind(folded, s.start)}
		u.Suggestions = e.suggestions(u.Kind, s.text)
		return u, ids, u.Name != ""
	}
	return UnknownName{}, nil, false
}

// kindNouns name a kind; the one nearest the name says what the player
// asked about ("le donjon Antre du Dragon").
//
//nolint:misspell // French and German words, not misspelt English
var kindNouns = []struct {
	kind  Kind
	words []string
}{
	{KindDungeon, phrases(`dungeon|dungeons|donjon|donjons|verlies|verliese|verlieses|dungeons`)},
	{KindBoss, phrases(`boss|bosses|raid boss|endboss|endgegner|bosse|bossen`)},
	{KindChampion, phrases(`champion|champions|hero|heroes|heros|held|helden|heldin`)},
	{KindFaction, phrases(`faction|factions|fraktion|fraktionen`)},
	{KindGearSet, phrases(`gear set|gear sets|set|sets|artifact set|ensemble|ensembles|panoplie|panoplies|ausrustungsset|ausrustungssets|ausruestungsset`)},
	{KindMastery, phrases(`mastery|masteries|maitrise|maitrises|meisterschaft|meisterschaften`)},
}

// kindVerbs say a kind when no noun does: one beats a boss, clears a
// dungeon, farms a set.
//
//nolint:misspell // French and German words, not misspelt English
var kindVerbs = []struct {
	kind  Kind
	words []string
}{
	{KindBoss, phrases(`beat|beating|defeat|defeating|kill|killing|counter|counters|against|contre|gegen|battre|vaincre|tuer|contrer|besiegen|besiege|besiegt|schlagen|schlage|schlagt|toten|kontern|kontert`)},
	{KindDungeon, phrases(`clear|clearing|cleared|clears|stages|energy|rewards|reward|loot|drop|drops|
		rapporte|rapportent|recompense|recompenses|butin|energie|
		abschliessen|belohnung|belohnungen|beute|stufen`)},
	{KindGearSet, phrases(`farm|farming|farmer|farmen`)},
}

// wordsClear are game verbs of progress, so "what do I get for clearing X"
// is a question about the game.
var wordsClear = phrases(`clear|clearing|cleared|rapporte|rapportent|abschliessen`)

// questionKind is the kind the question's words say about the name at token
// index at (-1 when unknown): the nearest kind noun, else a verb's kind.
func questionKind(toks []string, at int) Kind {
	best, bestDist := Kind(""), 1<<30
	for i := range toks {
		for _, kn := range kindNouns {
			for _, p := range kn.words {
				pw := strings.Fields(p)
				if i+len(pw) > len(toks) || strings.Join(toks[i:i+len(pw)], " ") != p {
					continue
				}
				d := 0 // no name position: the first noun
				switch {
				case at >= 0 && i+len(pw) <= at:
					d = at - (i + len(pw)) // a noun before the name reads first
				case at >= 0:
					d = i - at + 1
				}
				if d < bestDist {
					best, bestDist = kn.kind, d
				}
			}
		}
	}
	if best != "" {
		return best
	}
	text := " " + strings.Join(toks, " ") + " "
	for _, kv := range kindVerbs {
		if has(text, kv.words) {
			return kv.kind
		}
	}
	return ""
}

// suggestions are the game's names closest to name, of kind ("" for any),
// that are near enough to be what the player meant.
func (e entities) suggestions(kind Kind, name string) []Entity {
	if e.idx == nil {
		return nil
	}
	var out []Entity
	for _, n := range e.idx.Suggest(string(kind), name, 2*maxSuggestions) {
		c, ok := e.idx.LookupUpTo(string(kind), n, resolve.Folded)
		if !ok || !nearName(name, c.Candidate) {
			continue
		}
		out = append(out, suggestionOf(c.Candidate))
		if len(out) == maxSuggestions {
			break
		}
	}
	return out
}

// suggestionOf is c as an Entity, masteries included.
func suggestionOf(c resolve.Candidate) Entity {
	if ent, ok := entityOf(c); ok {
		return ent
	}
	ent := Entity{Kind: Kind(c.Kind), ID: idString(c.ID), Name: c.Name}
	for loc, n := range c.Display {
		if n != "" && n != c.Name {
			if ent.Names == nil {
				ent.Names = map[string]string{}
			}
			ent.Names[loc] = n
		}
	}
	return ent
}

// nearName reports whether one of c's names is near the name a player wrote:
// a few letters apart, the same start of a compound ("Schattendrachen",
// "Schattenzwillinge") or a shared word ("Shadow Hydra", "Shadow Twins").
func nearName(name string, c resolve.Candidate) bool {
	q := resolve.Fold(name)
	forms := []string{c.Name}
	for _, n := range c.Display {
		forms = append(forms, n)
	}
	for _, f := range forms {
		if nearFold(q, resolve.Fold(f)) {
			return true
		}
	}
	return false
}

func nearFold(q, f string) bool {
	if q == "" || f == "" {
		return false
	}
	qr, fr := []rune(q), []rune(f)
	if resolve.Distance(q, f) <= max(1, min(len(qr), len(fr))/4) {
		return true
	}
	p := 0
	for p < len(qr) && p < len(fr) && qr[p] == fr[p] && qr[p] != ' ' {
		p++
	}
	if p >= 5 {
		return true
	}
	for _, a := range strings.Fields(q) {
		if utf8.RuneCountInString(a) < 4 || connectors[a] {
			continue
		}
		for _, b := range strings.Fields(f) {
			if a == b {
				return true
			}
		}
	}
	return false
}

// echoName is player text made safe to quote: control and format
// characters (bidi overrides, zero-width), the reply's markup ("*", "`"),
// quotes and sentence ends removed, whitespace collapsed, at most
// maxUnknownRunes runes (a cut is marked with "…"). The reply is cut at
// sentence ends, so nothing in the quoted name may read as one: the French
// templates quote it as «%s», with no space after a final "…".
func echoName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r):
			return ' '
		case unicode.Is(unicode.Cf, r):
			return -1
		case r == '*' || r == '`' || r == '<' || r == '>' || r == '[' || r == ']' || r == '_':
			return -1
		case r == '"' || r == '“' || r == '”' || r == '«' || r == '»' || r == '„':
			return -1
		case r == '.' || r == '!' || r == '?' || r == '…':
			// No sentence ends inside the quoted name: the reply is cut
			// at sentence ends.
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > maxUnknownRunes {
		s = strings.TrimSpace(string([]rune(s)[:maxUnknownRunes-1])) + ellipsis
	}
	return s
}

// listTools are the list tool of each kind, to browse when no name is near.
var listTools = map[Kind]string{
	KindChampion: "cache_get_champions_list",
	KindBoss:     "cache_get_bosses_list",
	KindFaction:  "cache_get_factions_list",
	KindDungeon:  "cache_get_dungeons_list",
	KindGearSet:  "cache_get_gear_sets_list",
}
