package offline

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"

	"github.com/gameassist/gameassist/editdist"
	"github.com/gameassist/gameassist/tool"
)

// A studio's own game has no champions: its names come from its lookup
// tools (a tools file's tools that find one thing by name, with the names
// they accept), its rows from the screen rules' calls and its prose from
// its documents.

// studioKindPrefix marks a subject found by a studio's lookup tool:
// "file:" and the tool's name.
const studioKindPrefix = "file:"

// studioMiss is a name the player gave that no lookup of its kind has,
// with the closest names the game has.
type studioMiss struct {
	Kind    string
	Name    string
	Closest []string
}

// lookups returns the studio's lookup tools.
func (r *Responder) lookups() []tool.Spec {
	reg := r.exec.Registry()
	var out []tool.Spec
	for _, name := range reg.Group(tool.GroupFile) {
		if spec, ok := reg.Spec(name); ok && spec.Lookup != nil && len(spec.Lookup.Names) > 0 {
			out = append(out, spec)
		}
	}
	return out
}

// studioHit is a name of the game the message gives, with its tool.
type studioHit struct {
	spec  tool.Spec
	name  string
	score int // words matched; a whole name scores above a part of one
}

// findStudioName returns the best name of a lookup the message gives: a
// whole name ("Marlow Finch"), else a capitalised word of a longer name
// ("Marlow"). Ties go to the tool whose description shares most words
// with the message.
func findStudioName(message string, specs []tool.Spec) (studioHit, bool) {
	toks := tokens(message)
	capital := capitalisedWords(message)
	words := contentWords(message)
	var best studioHit
	bestVocab := -1
	for _, spec := range specs {
		vocab := vocabScore(words, spec)
		for _, n := range spec.Lookup.Names {
			nt := tokens(n)
			if len(nt) == 0 {
				continue
			}
			score := 0
			if containsRun(toks, nt) {
				score = 10 * len(nt)
			} else if len(nt) > 1 {
				for _, w := range nt {
					if len(w) >= 3 && capital[w] && !toolStopWords[w] {
						score = 1
						break
					}
				}
			}
			if score == 0 {
				continue
			}
			if score > best.score || score == best.score && vocab > bestVocab {
				best, bestVocab = studioHit{spec: spec, name: n, score: score}, vocab
			}
		}
	}
	return best, best.score > 0
}

// capitalisedWords returns the lower-cased words of message written with a
// capital past its first word.
func capitalisedWords(message string) map[string]bool {
	out := map[string]bool{}
	for i, f := range strings.FieldsFunc(message, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' && r != '-'
	}) {
		r := []rune(f)
		if i > 0 && len(r) > 1 && unicode.IsUpper(r[0]) {
			for _, t := range tokens(f) {
				out[t] = true
			}
		}
	}
	return out
}

// containsRun reports whether run appears in toks as consecutive words.
func containsRun(toks, run []string) bool {
	for i := 0; i+len(run) <= len(toks); i++ {
		if slices.Equal(toks[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// vocabScore counts the message's words in the tool's name and
// description.
func vocabScore(words []string, spec tool.Spec) int {
	vocab := contentWords(spec.Name + " " + spec.Description)
	n := 0
	for _, w := range words {
		if slices.Contains(vocab, w) {
			n++
		}
	}
	return n
}

// planStudio answers from a studio's lookup tools: a name the game has
// (looked up with that name only), the screen's already-fetched row for
// "this …", the subject of the last exchange for "it", and a name the
// game lacks with its closest names. It reports false when none applies.
func (r *Responder) planStudio(p *Plan, req Request, text string) bool {
	specs := r.lookups()
	if len(specs) == 0 {
		return false
	}
	reg := r.exec.Registry()
	lookup := func(spec tool.Spec, name string) bool {
		// The question's other arguments (an enum value, a number) stay.
		m := map[string]any{}
		if raw, _, ok := fillArgs(spec, req.Message); ok {
			_ = json.Unmarshal(raw, &m)
		}
		m[spec.Lookup.Param] = name
		args := argsOf(m)
		if reg.ValidateArgs(spec.Name, args) != nil {
			return false
		}
		p.Intent, p.toolDesc, p.text, p.lookup = IntentTools, spec.Description, text, spec.Lookup
		p.Calls = []tool.Call{{Name: spec.Name, Arguments: args}}
		p.Entities = []Entity{{Kind: Kind(studioKindPrefix + spec.Name), ID: name, Name: name}}
		return true
	}
	if hit, ok := findStudioName(req.Message, specs); ok {
		return lookup(hit.spec, hit.name)
	}
	deictic := has(text, wordsDeictic) && !has(text, wordsScreen)
	if deictic {
		// "What does this animal yield?": the row the screen rules
		// fetched, reused as called so the cache serves it.
		words := contentWords(req.Message)
		best, bestScore := -1, -1
		for i, pr := range req.Context {
			spec, ok := reg.Spec(pr.Name)
			if !ok || !slices.Contains(reg.Group(tool.GroupFile), spec.Name) || !pr.Result.OK() {
				continue
			}
			if s := vocabScore(words, spec); s > bestScore {
				best, bestScore = i, s
			}
		}
		if best >= 0 {
			pr := req.Context[best]
			spec, _ := reg.Spec(pr.Name)
			p.Intent, p.toolDesc, p.text, p.lookup = IntentTools, spec.Description, text, spec.Lookup
			p.Calls = []tool.Call{{Name: pr.Name, Arguments: pr.Arguments}}
			return true
		}
	}
	if deictic {
		// "This animal" with no row on the screen: ask which one.
		for _, spec := range specs {
			lk := spec.Lookup
			k := strings.Join(tokens(lk.Kind), " ")
			if strings.Contains(text, " this "+k+" ") || strings.Contains(text, " that "+k+" ") {
				p.Intent, p.text = IntentTools, text
				p.studioAsk = &studioMiss{Kind: lk.Kind, Closest: lk.Names[:min(len(lk.Names), 3)]}
				return true
			}
		}
	}
	if has(text, wordsIt) || has(text, wordsHeShe) || has(text, wordsThey) || has(text, wordsOpener) {
		// "And which season is it planted in?": the last subject.
		for i := len(req.History) - 1; i >= 0; i-- {
			for _, s := range req.History[i].About {
				name, ok := strings.CutPrefix(s.Kind, studioKindPrefix)
				if !ok {
					continue
				}
				if spec, ok := reg.Spec(name); ok && spec.Lookup != nil {
					return lookup(spec, s.ID)
				}
			}
			if len(req.History[i].About) > 0 {
				break
			}
		}
	}
	if miss, ok := studioMissing(req.Message, specs); ok {
		p.Intent, p.text, p.studioMiss = IntentTools, text, &miss
		if r.names[toolSearch] {
			// A document naming it ("who is Tobias?") answers instead.
			p.Calls = []tool.Call{{Name: toolSearch, Arguments: argsOf(map[string]any{"query": tool.Clip(strings.TrimSpace(req.Message), 300), "top_k": 3})}}
		}
		return true
	}
	return false
}

// studioMissing finds a capitalised name the game lacks: it belongs to
// the lookup whose description fits the question best, or whose names are
// closest to it; the closest three names come with it.
func studioMissing(message string, specs []tool.Spec) (studioMiss, bool) {
	name, ok := mentionedName(message, tool.Spec{})
	if !ok || name == "" {
		return studioMiss{}, false
	}
	for _, spec := range specs {
		if listQuestion(message, spec.Lookup.Kind) {
			// "Which animals live in the Barn?" filters a list.
			return studioMiss{}, false
		}
	}
	nt := tokens(name)
	words := contentWords(message)
	type near struct {
		name string
		d    int
	}
	var best studioMiss
	bestFit := -1
	for _, spec := range specs {
		vocab := contentWords(spec.Name + " " + spec.Description)
		for _, t := range nt {
			if slices.Contains(vocab, t) {
				// A word the tool explains is no name ("Willowmere").
				return studioMiss{}, false
			}
		}
		q := []rune(strings.ToLower(name))
		var ns []near
		for _, n := range spec.Lookup.Names {
			ns = append(ns, near{n, editdist.Within(q, []rune(strings.ToLower(n)), len(q))})
		}
		slices.SortStableFunc(ns, func(a, b near) int { return a.d - b.d })
		if len(ns) == 0 {
			continue
		}
		fit := 0
		if s := vocabScore(words, spec); s > 0 {
			fit = 100 + s
		} else if ns[0].d <= max(1, len(q)/3) {
			fit = 50 - ns[0].d
		}
		if fit <= bestFit || fit == 0 {
			continue
		}
		bestFit = fit
		best = studioMiss{Kind: spec.Lookup.Kind, Name: name}
		for i, n := range ns {
			if i == 3 || n.d > max(2, len(q)/2) && i > 0 {
				break
			}
			best.Closest = append(best.Closest, n.name)
		}
	}
	return best, bestFit > 0
}

// writeMiss says the game has no such thing, with the closest names, in
// the session's locale.
//
//nolint:misspell // French and German words, not misspelt English
func writeMiss(b *strings.Builder, m studioMiss, locale string) {
	name := bold(echoName(m.Name))
	switch locale {
	case "fr":
		b.WriteString("Je ne trouve aucun élément " + name + " dans le jeu (" + m.Kind + ").")
	case "de":
		b.WriteString("Ich finde " + name + " nicht im Spiel (" + m.Kind + ").")
	default:
		b.WriteString("There is no " + m.Kind + " named " + name + ".")
	}
	if len(m.Closest) > 0 {
		b.WriteString(" " + localized(locale, "The closest:", "Les plus proches :", "Am ähnlichsten:") + " " + boldList(m.Closest) + ".")
	}
	b.WriteString("\n")
}

// localized picks the English, French or German text for locale.
func localized(locale, en, fr, de string) string {
	switch locale {
	case "fr":
		return fr
	case "de":
		return de
	}
	return en
}

// boldList writes names in bold, comma-separated.
func boldList(names []string) string {
	bs := make([]string, len(names))
	for i, n := range names {
		bs[i] = bold(n)
	}
	return strings.Join(bs, ", ")
}

// rowName returns a row's name: the lookup's column, else a name or title
// column, else the column holding the looked-up name.
func rowName(m map[string]any, keys []string, lk *tool.Lookup, asked string) (string, string) {
	if lk != nil && lk.Column != "" {
		if s := scalar(m[lk.Column]); s != "" {
			return lk.Column, s
		}
	}
	for _, k := range keys {
		if l := strings.ToLower(k); l == "name" || l == "title" || strings.HasSuffix(l, "_name") {
			if s := scalar(m[k]); s != "" {
				return k, s
			}
		}
	}
	if asked != "" {
		for _, k := range keys {
			if s := scalar(m[k]); strings.EqualFold(s, asked) || strings.HasPrefix(strings.ToLower(s), strings.ToLower(asked)+" ") {
				return k, s
			}
		}
	}
	// The first text column past the ids.
	for _, k := range keys {
		if isIDKey(k) {
			continue
		}
		if s, ok := m[k].(string); ok && s != "" {
			return k, s
		}
	}
	return "", ""
}

// isIDKey reports an id column.
func isIDKey(k string) bool {
	l := strings.ToLower(k)
	return l == "id" || strings.HasSuffix(l, "_id")
}

// lookedUp returns the name a plan's lookup call asked for.
func lookedUp(p Plan) string {
	if p.lookup == nil || len(p.Calls) == 0 {
		return ""
	}
	var args map[string]any
	if json.Unmarshal(p.Calls[0].Arguments, &args) != nil {
		return ""
	}
	s, _ := args[p.lookup.Param].(string)
	return s
}

// studioSearch plans a search of the studio's documents for a question no
// tool answers ("who rebuilt the old mill?").
func (r *Responder) studioSearch(p *Plan, message string) bool {
	if r.names[toolChampion] || !r.names[toolSearch] {
		return false
	}
	p.Intent = IntentTools
	p.Calls = []tool.Call{{Name: toolSearch, Arguments: argsOf(map[string]any{"query": tool.Clip(strings.TrimSpace(message), 300), "top_k": 3})}}
	return true
}

// listQuestion reports a question asking for every thing of a kind: a
// list word ("list", "all", "which"), a superlative, or the kind in the
// plural.
func listQuestion(message, kind string) bool {
	text := " " + strings.Join(tokens(message), " ") + " "
	if has(text, wordsList) || has(text, phrases(`every|any|there`)) || has(text, wordsHighest) || has(text, wordsLowest) {
		// A superlative ranks the whole list ("the cheapest card").
		return true
	}
	k := strings.Join(tokens(kind), " ")
	return k != "" && (strings.Contains(text, " "+k+"s ") || strings.Contains(text, " "+strings.TrimSuffix(k, "y")+"ies "))
}

// writeAsk asks which thing of a kind the player means, with examples,
// in the session's locale.
//
//nolint:misspell // French and German words, not misspelt English
func writeAsk(b *strings.Builder, m studioMiss, locale string) {
	b.WriteString(localized(locale, "Which "+m.Kind+" do you mean?", "Duquel parlez-vous ("+m.Kind+") ?", "Welches meinst du ("+m.Kind+")?"))
	if len(m.Closest) > 0 {
		b.WriteString(" " + localized(locale, "For example:", "Par exemple :", "Zum Beispiel:") + " " + boldList(m.Closest) + ".")
	}
	b.WriteString("\n")
}
