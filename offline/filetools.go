package offline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/gameassist/gameassist/tool"
)

// IntentTools is a question answered by a studio's own tools (a tools
// file): a tool whose name and description share words with the message,
// with arguments read from the message.
const IntentTools Intent = "tools"

// toolStopWords carry no meaning for matching a question to a tool.
var toolStopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "in": true, "on": true, "for": true, "by": true, "at": true,
	"is": true, "are": true, "was": true, "be": true, "do": true, "does": true, "did": true, "can": true, "could": true,
	"what": true, "which": true, "who": true, "how": true, "why": true, "when": true, "where": true, "whats": true,
	"i": true, "me": true, "my": true, "you": true, "your": true, "it": true, "its": true, "this": true, "that": true,
	"and": true, "or": true, "with": true, "about": true, "tell": true, "show": true, "give": true, "please": true,
	"there": true, "any": true, "all": true, "one": true, "some": true, "many": true, "much": true, "have": true, "has": true,
	"look": true, "up": true, "as": true, "from": true, "into": true, "their": true, "them": true, "they": true,
}

// contentWords returns the lower-cased words of s worth matching, with a
// plural s dropped so "cards" meets "card".
func contentWords(s string) []string {
	var out []string
	for _, t := range tokens(strings.ReplaceAll(s, "_", " ")) {
		if len(t) < 3 || toolStopWords[t] {
			continue
		}
		if len(t) > 3 && strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "ss") {
			t = strings.TrimSuffix(t, "s")
		}
		out = append(out, t)
	}
	return out
}

// planTools picks the file tool that best fits message and fills its
// arguments; it reports false when no file tool fits.
func (r *Responder) planTools(p *Plan, message string) bool {
	reg := r.exec.Registry()
	words := contentWords(message)
	if len(words) == 0 {
		return false
	}
	type cand struct {
		name  string
		args  json.RawMessage
		score int
	}
	var cands []cand
	for _, name := range reg.Group(tool.GroupFile) {
		spec, ok := reg.Spec(name)
		if !ok {
			continue
		}
		vocab := contentWords(spec.Name + " " + spec.Description)
		score := 0
		for _, w := range words {
			if slices.Contains(vocab, w) {
				score++
			}
		}
		if score == 0 {
			continue
		}
		args, bonus, ok := fillArgs(spec, message)
		var err error
		if !ok || reg.ValidateArgs(spec.Name, args) != nil {
			continue
		}
		if lk := spec.Lookup; lk != nil {
			var m map[string]any
			if json.Unmarshal(args, &m) != nil {
				continue
			}
			if n, ok := m[lk.Param].(string); ok && !slices.ContainsFunc(lk.Names, func(x string) bool { return strings.EqualFold(x, n) }) {
				// Not one of its names ("the Barn"): a list filtered
				// by the rows' values instead.
				delete(m, lk.Param)
				if args, err = json.Marshal(m); err != nil {
					continue
				}
			}
			if _, named := m[lk.Param]; !named && !listQuestion(message, lk.Kind) {
				// A lookup without its name lists everything: only for
				// a question asking for the list.
				continue
			}
		}
		cands = append(cands, cand{name: spec.Name, args: args, score: score + bonus})
	}
	if len(cands) == 0 {
		return false
	}
	best := slices.MaxFunc(cands, func(a, b cand) int { return a.score - b.score })
	p.Intent = IntentTools
	if spec, ok := reg.Spec(best.name); ok {
		p.toolDesc = spec.Description
	}
	p.Calls = []tool.Call{{Name: best.name, Arguments: best.args}}
	// The documents answer when the tool finds nothing.
	if _, ok := reg.Resolve(toolSearch); ok {
		p.Calls = append(p.Calls, tool.Call{Name: toolSearch, Arguments: argsOf(map[string]any{"query": tool.Clip(strings.TrimSpace(message), 300), "top_k": 3})})
	}
	return true
}

// fillArgs reads a tool's arguments from the message: an enum value the
// message names, a number it holds, and for a required free-text parameter
// the name it mentions (its capitalised words, else the words the tool's
// description does not explain). The bonus grows with what the message
// names exactly (an enum value, a number) and shrinks for a name guessed
// from leftover words. It reports false when a required parameter stays
// empty.
func fillArgs(spec tool.Spec, message string) (json.RawMessage, int, bool) {
	var schema struct {
		Properties map[string]struct {
			Type any   `json:"type"`
			Enum []any `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if len(spec.Parameters) > 0 && json.Unmarshal(spec.Parameters, &schema) != nil {
		return nil, 0, false
	}
	bonus := 0
	// Words of a capitalised name ("Stone Golem") name a thing, not an
	// enum value ("stone").
	name, capitalised := mentionedName(message, spec)
	var toks []string
	for _, t := range tokens(message) {
		if !capitalised || !slices.Contains(tokens(name), t) {
			toks = append(toks, t)
		}
	}
	args := map[string]any{}
	names := make([]string, 0, len(schema.Properties))
	for n := range schema.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		prop := schema.Properties[n]
		required := slices.Contains(schema.Required, n)
		switch {
		case len(prop.Enum) > 0:
			for _, e := range prop.Enum {
				if s, ok := e.(string); ok && slices.Contains(toks, strings.ToLower(s)) {
					args[n] = s
					bonus += 2
					break
				}
			}
		case prop.Type == "integer" || prop.Type == "number":
			for _, t := range toks {
				if v, err := strconv.Atoi(t); err == nil {
					args[n] = v
					bonus++
					break
				}
			}
		case prop.Type == "string" && !required && nameParam(n) && name != "" && capitalised:
			// An optional name or query parameter: a question naming
			// something ("the Sheep") looks it up rather than listing
			// everything.
			args[n] = name
			bonus += 2
		case prop.Type == "string" && required:
			if name != "" {
				args[n] = name
				if capitalised {
					bonus += 2
				} else {
					bonus--
				}
			}
		}
		if _, ok := args[n]; required && !ok {
			return nil, 0, false
		}
	}
	b, err := json.Marshal(args)
	if err != nil {
		return nil, 0, false
	}
	return b, bonus, true
}

// nameParam reports a parameter that names or searches for a thing.
func nameParam(n string) bool {
	n = strings.ToLower(n)
	for _, w := range []string{"name", "query", "search", "title", "term", "keyword"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// mentionedName returns the longest run of capitalised words of message
// (past its first word, which any question capitalises), else the words
// left once the tool's own vocabulary and stop words are taken out; it
// reports whether the name came from capitalised words.
func mentionedName(message string, spec tool.Spec) (string, bool) {
	fields := strings.FieldsFunc(message, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-'
	})
	best, run := "", []string{}
	flush := func() {
		if s := strings.Join(run, " "); len(s) > len(best) {
			best = s
		}
		run = run[:0]
	}
	for i, f := range fields {
		r := []rune(f)
		if i > 0 && len(r) > 1 && unicode.IsUpper(r[0]) {
			run = append(run, f)
			continue
		}
		flush()
	}
	flush()
	if best != "" {
		return tool.Clip(best, 100), true
	}
	vocab := contentWords(spec.Name + " " + spec.Description)
	var rest []string
	for _, t := range tokens(message) {
		if len(t) >= 3 && !toolStopWords[t] && !slices.Contains(vocab, strings.TrimSuffix(t, "s")) && !slices.Contains(vocab, t) {
			rest = append(rest, t)
		}
	}
	return tool.Clip(strings.Join(rest, " "), 100), false
}

// renderTools writes a file tool's data as plain text (a value, the fields
// of a row, or up to ten rows one per line); when the tool found nothing,
// the documents' passages answer instead.
func renderTools(b *strings.Builder, p Plan, outs []tool.Outcome) {
	if p.studioMiss != nil && !namedInPassages(outs, p.studioMiss.Name) {
		writeMiss(b, *p.studioMiss, p.Locale)
		return
	}
	if p.studioAsk != nil {
		writeAsk(b, *p.studioAsk, p.Locale)
		return
	}
	var search []tool.Outcome
	found := false
	row := rowView{lookup: p.lookup, asked: lookedUp(p), capital: capitalisedWords(p.message), locale: p.Locale}
	for _, o := range outs {
		if o.Name == toolSearch {
			search = append(search, o)
			continue
		}
		if !o.Result.OK() {
			continue
		}
		found = writeData(b, o, p.text, describedAs(p.text, p.toolDesc), row) || found
	}
	if found {
		return
	}
	for _, o := range search {
		if !o.Result.OK() {
			continue
		}
		for i, ps := range textPassages(o.Result) {
			if i == 2 {
				break
			}
			if ps.Title != "" {
				b.WriteString(ps.Title + ": ")
			}
			b.WriteString(tool.Clip(strings.TrimSpace(ps.Text), 500) + "\n")
		}
	}
	if b.Len() == 0 {
		b.WriteString("I found nothing matching that in the game's data.\n")
	}
}

// untypedData decodes a file tool's data, which has no Go type of its own
// (a studio's SQL rows): a JSON object per row (toolsfile.Row keeps the
// statement's column order, which rowKeys reads back), a list of them, or
// one value. Numbers stay as written.
func untypedData(r tool.Result) any {
	raw, err := dataJSON(r.Data)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return v
}

// scalar is a JSON value of a row as text; "" for objects and lists.
func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "yes"
		}
		return "no"
	}
	return ""
}

// writeData writes one tool's data and reports whether there was any.
func writeData(b *strings.Builder, o tool.Outcome, text, described string, rv rowView) bool {
	switch v := untypedData(o.Result).(type) {
	case nil:
		return false
	case map[string]any:
		if ids, ok := chainSteps(v); ok {
			return writeChain(b, o.Result, ids)
		}
		writeOneRow(b, v, rowKeys(o.Result, v), text, described, rv)
	case []any:
		if len(v) == 0 {
			return false
		}
		v = rowsNaming(v, rv.capital)
		if len(rv.capital) == 0 {
			v = rowsWithValue(v, text)
		}
		if m, ok := v[0].(map[string]any); ok && len(v) == 1 {
			// One row found: answered as a row.
			writeOneRow(b, m, rowKeys(o.Result, m), text, described, rv)
			return true
		}
		if m, ok := v[0].(map[string]any); ok {
			if col, desc, ok := rankedBy(text, v, rowKeys(o.Result, m)); ok {
				v = sortedBy(v, col, desc)
				top := v[0].(map[string]any)
				_, name := rowName(top, rowKeys(o.Result, top), rv.lookup, "")
				label := strings.ReplaceAll(col, "_", " ")
				lead := localized(rv.locale, "**%s** has the lowest %s: %s.\n", "**%s** a le plus bas %s : %s.\n", "**%s** hat den niedrigsten Wert für %s: %s.\n")
				if desc {
					lead = localized(rv.locale, "**%s** has the highest %s: %s.\n", "**%s** a le plus haut %s : %s.\n", "**%s** hat den höchsten Wert für %s: %s.\n")
				}
				fmt.Fprintf(b, lead, tool.Clip(name, 100), label, scalar(top[col]))
			}
		}
		for i, x := range v {
			if i == 10 {
				fmt.Fprintf(b, "…and %d more.\n", len(v)-10)
				break
			}
			b.WriteString("- ")
			if m, ok := x.(map[string]any); ok {
				writeRow(b, m, rowKeys(o.Result, m), "; ")
			} else {
				b.WriteString(scalar(x))
			}
			b.WriteString("\n")
		}
		if msg := strings.TrimSpace(o.Result.Message); strings.HasPrefix(msg, "Showing") {
			b.WriteString(msg + "\n")
		}
	default:
		b.WriteString(scalar(v) + "\n")
	}
	return true
}

// chainSteps reads the data of a chain's result (a tools file's
// composite tool: "steps" lists {"id", "status"}, then each step's data
// under its id) and returns the ids of the steps that succeeded; ok is
// false for any other data.
func chainSteps(m map[string]any) ([]string, bool) {
	steps, ok := m["steps"].([]any)
	if !ok || len(steps) == 0 {
		return nil, false
	}
	var ids []string
	for _, s := range steps {
		st, ok := s.(map[string]any)
		if !ok {
			return nil, false
		}
		id, _ := st["id"].(string)
		if id == "" {
			return nil, false
		}
		if st["status"] == string(tool.StatusSuccess) {
			ids = append(ids, id)
		}
	}
	return ids, true
}

// writeChain writes the data of each step that succeeded, under the step's
// id, and reports whether any had data.
func writeChain(b *strings.Builder, r tool.Result, ids []string) bool {
	raw, err := dataJSON(r.Data)
	if err != nil {
		return false
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return false
	}
	found := false
	for _, id := range ids {
		data, ok := members[id]
		if !ok {
			continue
		}
		var step strings.Builder
		if !writeData(&step, tool.Outcome{Result: tool.Result{Status: tool.StatusSuccess, Data: data}}, "", "", rowView{}) {
			continue
		}
		fmt.Fprintf(b, "**%s**\n%s", strings.ReplaceAll(id, "_", " "), step.String())
		found = true
	}
	return found
}

// describedAs returns the words the tool's description puts next to a
// word of the question: "mana cost" in the description makes a question
// about the cost one about mana.
func describedAs(text, desc string) string {
	asked := contentWords(text)
	dw := tokens(desc)
	var out []string
	for i, w := range dw {
		w = strings.TrimSuffix(w, "s")
		if len(w) < 3 || !slices.Contains(asked, w) {
			continue
		}
		if i > 0 && !toolStopWords[dw[i-1]] {
			out = append(out, dw[i-1])
		}
		if i+1 < len(dw) && !toolStopWords[dw[i+1]] {
			out = append(out, dw[i+1])
		}
	}
	return strings.Join(out, " ")
}

// rowView is what a lookup says about the rows it answers: its
// declaration (name column, sentences) and the name asked for.
type rowView struct {
	lookup *tool.Lookup
	asked  string
	// capital are the question's capitalised words: a list keeps the
	// rows with one of them as a value ("which animals live in the Barn?").
	capital map[string]bool
	// locale is the session's: its framing words only.
	locale string
}

// rowsNaming keeps the rows having a value the question gives with a
// capital (a whole value, any case); all of them when none has.
func rowsNaming(rows []any, capital map[string]bool) []any {
	if len(capital) == 0 {
		return rows
	}
	kept := rowsWhere(rows, func(_ string, val any) bool {
		vt := tokens(scalar(val))
		return len(vt) > 0 && !slices.ContainsFunc(vt, func(w string) bool { return !capital[w] })
	})
	if len(kept) == 0 {
		return rows
	}
	return kept
}

// rowsWhere returns the rows with a value that match accepts (by column
// and value); rows itself when one of them is not an object.
func rowsWhere(rows []any, match func(key string, val any) bool) []any {
	var kept []any
	for _, x := range rows {
		m, ok := x.(map[string]any)
		if !ok {
			return rows
		}
		for k, val := range m {
			if match(k, val) {
				kept = append(kept, x)
				break
			}
		}
	}
	return kept
}

// writeOneRow answers with one row: a sentence naming the field the
// question asks about ("A **Melon** sells for 250 coins.", or "The base
// price of **Melon** is 250."), else the row's name and its fields as a
// list, ids left out.
func writeOneRow(b *strings.Builder, m map[string]any, keys []string, text, described string, rv rowView) {
	nameKey, name := rowName(m, keys, rv.lookup, rv.asked)
	if field, ok := askedField(m, keys, nameKey, text, described); ok {
		value := tool.Clip(scalar(m[field]), 300)
		label := strings.ReplaceAll(field, "_", " ")
		switch tmpl := sentenceOf(rv.lookup, field); {
		case tmpl != "":
			sentence := strings.ReplaceAll(tmpl, "{value}", value)
			sentence = strings.ReplaceAll(sentence, "{name}", bold(tool.Clip(name, 100)))
			b.WriteString(upperFirst(strings.TrimSpace(sentence)) + "\n")
		case name != "" && rv.locale == "fr":
			b.WriteString(bold(tool.Clip(name, 100)) + " — " + label + " : " + value + ".\n")
		case name != "" && rv.locale == "de":
			b.WriteString(bold(tool.Clip(name, 100)) + " — " + label + ": " + value + ".\n")
		case name != "":
			b.WriteString("The " + label + " of " + bold(tool.Clip(name, 100)) + " is " + value + ".\n")
		default:
			b.WriteString(upperFirst(label) + ": " + value + ".\n")
		}
		return
	}
	if name != "" {
		b.WriteString(bold(tool.Clip(name, 100)) + "\n")
	}
	for _, k := range keys {
		v := scalar(m[k])
		if v == "" || k == nameKey || isIDKey(k) {
			continue
		}
		fmt.Fprintf(b, "- %s: %s\n", strings.ReplaceAll(k, "_", " "), tool.Clip(v, 300))
	}
}

// sentenceOf returns the lookup's sentence for a column, "" if none.
func sentenceOf(lk *tool.Lookup, field string) string {
	if lk == nil {
		return ""
	}
	return lk.Sentences[field]
}

// askedField returns the column of a row the question asks about: the
// column whose words the question uses, else one the tool's description
// names next to a word of the question (described); never the row's name
// or an id.
func askedField(m map[string]any, keys []string, nameKey, text, described string) (string, bool) {
	asked := contentWords(text)
	near := contentWords(described)
	if len(asked) == 0 {
		return "", false
	}
	best, bestScore := "", 0
	for _, k := range keys {
		lk := strings.ToLower(k)
		if k == nameKey || isIDKey(k) || lk == "name" || lk == "title" || strings.HasSuffix(lk, "_name") || scalar(m[k]) == "" {
			continue
		}
		// Words the question uses count first; words the description
		// puts next to them ("mana cost") only when none does; a column
		// with fewer other words wins a tie ("yields" over "yield value").
		cw := contentWords(k)
		hits, nearHits := 0, 0
		for _, w := range cw {
			switch {
			case slices.Contains(asked, w):
				hits++
			case slices.Contains(near, w):
				nearHits++
			}
		}
		score := 0
		switch {
		case hits > 0:
			score = 20*hits - len(cw)
		case nearHits > 0:
			score = 10*nearHits - len(cw)
		}
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	return best, best != ""
}

// rowKeys returns the keys of a row in the order the tool wrote them.
func rowKeys(r tool.Result, m map[string]any) []string {
	raw, err := dataJSON(r.Data)
	keys := make([]string, 0, len(m))
	if err == nil {
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			if k, ok := tok.(string); ok {
				if _, in := m[k]; in && !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
	}
	if len(keys) != len(m) {
		keys = keys[:0]
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
	}
	return keys
}

func writeRow(b *strings.Builder, m map[string]any, keys []string, sep string) {
	first := true
	for _, k := range keys {
		s := scalar(m[k])
		if s == "" || isIDKey(k) {
			continue
		}
		if !first {
			b.WriteString(sep)
		}
		first = false
		fmt.Fprintf(b, "%s: %s", strings.ReplaceAll(k, "_", " "), tool.Clip(s, 300))
	}
	if sep == "\n" {
		b.WriteString("\n")
	}
}

// toolsHelp says what a studio's game can be asked, from the tools it has:
// it names no champion or boss when the sample game's tools are absent.
func (r *Responder) toolsHelp(p Plan) string {
	var b strings.Builder
	if p.Intent == IntentHelp {
		b.WriteString("I couldn't match your question to the game's data. ")
	}
	b.WriteString("Here is what I can help with:\n")
	reg := r.exec.Registry()
	n := 0
	for _, name := range reg.Group(tool.GroupFile) {
		if spec, ok := reg.Spec(name); ok && n < 8 {
			fmt.Fprintf(&b, "- %s\n", tool.Clip(spec.Description, 160))
			n++
		}
	}
	if _, ok := reg.Resolve(toolSearch); ok {
		b.WriteString("- Questions about the game's rules and guides, answered from its documentation\n")
	}
	if _, ok := reg.Resolve(toolUX); ok {
		b.WriteString("- The screen you're on: \"How do I use this screen?\"")
	}
	return strings.TrimSpace(b.String())
}

// namedInPassages reports whether a search's passages name name (its
// words in a row, any case).
func namedInPassages(outs []tool.Outcome, name string) bool {
	nt := tokens(name)
	for _, o := range outs {
		if o.Name != toolSearch || !o.Result.OK() {
			continue
		}
		for _, ps := range textPassages(o.Result) {
			if containsRun(tokens(ps.Title+" "+ps.Text), nt) {
				return true
			}
		}
	}
	return false
}

// rowsWithValue keeps the rows having a text value the question gives
// in any case ("which animals live in the barn?"), as a whole phrase of
// its words; all of them when no row has one, or when every row has.
func rowsWithValue(rows []any, text string) []any {
	kept := rowsWhere(rows, func(k string, val any) bool {
		s, isText := val.(string)
		if !isText || isIDKey(k) || len(s) < 3 {
			return false
		}
		vt := tokens(s)
		return len(vt) > 0 && strings.Contains(text, " "+strings.Join(vt, " ")+" ")
	})
	if len(kept) == 0 || len(kept) == len(rows) {
		return rows
	}
	return kept
}

// The words that rank rows, highest or lowest first (en, fr, de).
//
//nolint:misspell // French and German words, not misspelt English
var (
	wordsHighest = phrases(`most|highest|best|top|largest|biggest|greatest|maximum|most expensive|most valuable|worth the most|
		plus cher|plus chere|le plus|la plus|meilleur|meilleure|
		meisten|hochste|hochsten|teuerste|teuersten|wertvollste|wertvollsten|grosste|grossten`)
	wordsLowest = phrases(`least|lowest|cheapest|smallest|fewest|minimum|worth the least|
		moins cher|moins chere|le moins|la moins|
		wenigsten|niedrigste|niedrigsten|billigste|billigsten|kleinste|kleinsten`)
)

// wordsWorth rank by worth or cost, whatever the column is called.
//
//nolint:misspell // French and German words, not misspelt English
var wordsWorth = phrases(`cheapest|most expensive|priciest|costliest|worth the most|worth the least|most valuable|least valuable|
	best|worst|plus cher|plus chere|moins cher|moins chere|teuerste|teuersten|billigste|billigsten|wertvollste|wertvollsten`)

// rankedBy returns the numeric column a superlative question ranks rows
// by, and whether highest first: the column whose name shares a word with
// the question, else, for a question of worth or cost ("the cheapest"),
// the only numeric column that is no id. A stat the rows lack ("the
// highest power" with no power column) ranks nothing.
func rankedBy(text string, rows []any, keys []string) (col string, desc bool, ok bool) {
	low, high := has(text, wordsLowest), has(text, wordsHighest)
	if low == high {
		return "", false, false
	}
	var numeric []string
	for _, k := range keys {
		if isIDKey(k) {
			continue
		}
		all := true
		for _, x := range rows {
			m, _ := x.(map[string]any)
			if _, isNum := m[k].(json.Number); !isNum {
				all = false
				break
			}
		}
		if all {
			numeric = append(numeric, k)
		}
	}
	for _, k := range numeric {
		for _, w := range strings.Split(strings.ToLower(k), "_") {
			if len(w) >= 3 && (strings.Contains(text, " "+w+" ") || strings.Contains(text, " "+w+"s ")) {
				return k, high, true
			}
		}
	}
	if len(numeric) == 1 && has(text, wordsWorth) {
		// "worth the most", "the cheapest": the one number there is.
		return numeric[0], high, true
	}
	return "", false, false
}

// sortedBy returns rows sorted by the number in col, highest first with
// desc; rows keep their order among equals.
func sortedBy(rows []any, col string, desc bool) []any {
	out := slices.Clone(rows)
	num := func(x any) float64 {
		m, _ := x.(map[string]any)
		n, _ := m[col].(json.Number)
		f, _ := n.Float64()
		return f
	}
	slices.SortStableFunc(out, func(a, b any) int {
		if desc {
			return cmp.Compare(num(b), num(a))
		}
		return cmp.Compare(num(a), num(b))
	})
	return out
}
