// Package resolve is gameassist's one name resolver: it turns what a player
// or a model typed ("kaelith", "Kaëlith", "Gorath", "Fire Kinght") into the
// game entity meant, and finds every entity named in a sentence. The GCS read
// model (gcsdb), the cache tools and the RAG tools' entity lookups all resolve
// through it, so a name that works in one place works in every place. It is
// pure Go over a list of candidates and knows no database.
//
// Matching, in order (the first rule that finds exactly one entity wins):
//
//  1. exact: the canonical name as written;
//  2. folded: Unicode case folding, accents dropped, punctuation, "_" and
//     "-" read as spaces, against the canonical name and every alias
//     (localized names, keys);
//  3. partial: the query's words are whole words of one entity's name
//     ("Gorath" for "Gorath the Devourer") or the reverse ("Kaelith the
//     Dawnblade" for "Kaelith"), or the query is a prefix of one name of
//     at least 3 letters;
//  4. typo: optimal-string-alignment distance (substitution, dropped or
//     doubled letter, adjacent transposition) of at most 1 for names of
//     5-7 letters and 2 from 8 letters, against whole names and the long
//     words of multi-word names. Two entities at the same distance are told
//     apart by the likelier slip: a dropped, doubled or swapped letter over
//     a wrong one ("Malreith" is Malrieth, not Maldeith).
//
// Other ties between different entities never resolve; Suggest offers the
// closest names instead.
package resolve

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/gameassist/gameassist/editdist"
)

// Candidate is one entity that can be named.
type Candidate struct {
	// Kind is the entity kind (champion, boss, ...); lookups may filter by it.
	Kind string
	// ID is the entity's id; 0 when the source has none.
	ID int64
	// Name is the canonical name, returned by every match.
	Name string
	// Aliases are other names: localized display names, keys, titles.
	Aliases []string
	// Display holds the entity's display names by locale ("fr": "Chevalier
	// de Feu"), when the source has them, for answers written in a locale.
	Display map[string]string
}

// How says which rule matched.
type How int

// The matching rules, strongest first.
const (
	Exact How = iota + 1
	Folded
	Partial
	Typo
)

// String names the rule.
func (h How) String() string {
	switch h {
	case Exact:
		return "exact"
	case Folded:
		return "folded"
	case Partial:
		return "partial"
	case Typo:
		return "typo"
	}
	return "none"
}

// Match is a resolved name.
type Match struct {
	Candidate
	// How is the rule that matched.
	How How
	// Text is the part of the input that named the entity (FindAll).
	Text string
	// Start is the byte offset of Text in the input (FindAll).
	Start int
}

// Resolver resolves names against a fixed list of candidates. It is
// immutable once built and safe for concurrent use; build a new one when the
// names change.
type Resolver struct {
	cands []Candidate
	// forms are every name and alias of every candidate, folded.
	forms  []form
	byFold map[string][]int // folded form -> form indexes
	byID   map[int64][]int  // id -> candidate indexes
	// maxWords is the most words any form has.
	maxWords int
}

type form struct {
	cand  int
	text  string   // folded
	runes int      // runes in text
	rs    []rune   // text as runes, for the typo distance
	hist  letters  // letter counts of text, a cheap bound on the distance
	words []string // folded words
	alias bool
}

// letters counts runes in 32 buckets. One edit changes the counts by at most
// 2 in all, so texts whose counts differ by more than 2*limit are more than
// limit edits apart: a check that skips the distance for most names.
type letters [32]uint8

func lettersOf(rs []rune) letters {
	var h letters
	for _, r := range rs {
		if h[r&31] < 255 {
			h[r&31]++
		}
	}
	return h
}

// farther reports whether h and o are certainly more than limit edits apart.
func (h *letters) farther(o *letters, limit int) bool {
	d := 0
	for i := range h {
		d += max(int(h[i])-int(o[i]), int(o[i])-int(h[i]))
	}
	return d > 2*limit
}

// Input bounds: a name longer than MaxNameRunes is cut before matching, and
// FindAll reads at most MaxTextWords words, so hostile input costs bounded
// time.
const (
	MaxNameRunes = 200
	MaxTextWords = 400
)

// near reports whether two lengths are within the distance limit, the cheap
// test before editdist.Distance.
func near(a, b, limit int) bool { return a-b <= limit && b-a <= limit }

// cut bounds a query to MaxNameRunes runes.
func cut(s string) string {
	if len(s) <= MaxNameRunes {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxNameRunes {
			return s[:i]
		}
		n++
	}
	return s
}

// New builds a resolver over cands; empty names and aliases are skipped.
func New(cands []Candidate) *Resolver {
	r := &Resolver{cands: cands, byFold: map[string][]int{}, byID: map[int64][]int{}}
	for i, c := range cands {
		if c.ID != 0 {
			r.byID[c.ID] = append(r.byID[c.ID], i)
		}
		seen := map[string]bool{}
		for j, n := range append([]string{c.Name}, c.Aliases...) {
			f := Fold(n)
			if f == "" || seen[f] {
				continue
			}
			seen[f] = true
			words := strings.Fields(f)
			r.byFold[f] = append(r.byFold[f], len(r.forms))
			rs := []rune(f)
			r.forms = append(r.forms, form{cand: i, text: f, runes: len(rs), rs: rs, hist: lettersOf(rs), words: words, alias: j > 0})
			r.maxWords = max(r.maxWords, len(words))
		}
	}
	return r
}

// Len is how many candidates the resolver holds.
func (r *Resolver) Len() int { return len(r.cands) }

// ByID returns the first candidate of kind ("" for any kind) with id, for
// ids a game client sends (a screen's config ids); 0 is no id.
func (r *Resolver) ByID(kind string, id int64) (Candidate, bool) {
	for _, i := range r.byID[id] {
		if c := r.cands[i]; kind == "" || c.Kind == kind {
			return c, true
		}
	}
	return Candidate{}, false
}

// OfKind returns up to n candidates of kind in the order they were given,
// for examples in help text.
func (r *Resolver) OfKind(kind string, n int) []Candidate {
	var out []Candidate
	for _, c := range r.cands {
		if len(out) == n {
			break
		}
		if c.Kind == kind {
			out = append(out, c)
		}
	}
	return out
}

// Fold is the comparison form of a name: case-folded (Unicode, so "ß" meets
// "ss" and "Σ" meets "σ"), accents dropped, every run of characters that
// are not letters or digits turned into one space, trimmed.
func Fold(s string) string {
	plain := s
	if !isASCII(s) {
		t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
		var err error
		if plain, _, err = transform.String(t, s); err != nil {
			plain = s
		}
		plain = cases.Fold().String(plain)
	}
	var b strings.Builder
	b.Grow(len(plain))
	space := false
	for _, c := range plain {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			if c < utf8.RuneSelf && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A' // the ASCII fast path skipped case folding
			}
			b.WriteRune(c)
			continue
		}
		if c == '\'' || c == '’' {
			continue // "Kael'ith" meets "Kaelith"
		}
		space = true
	}
	return b.String()
}

// Lookup resolves one name among candidates of kind ("" for any kind) by
// every rule.
func (r *Resolver) Lookup(kind, name string) (Match, bool) { return r.LookupUpTo(kind, name, Typo) }

// LookupUpTo resolves one name by the rules up to and including upto. A
// tool answering a model uses a stricter rule than a free-text reader: a
// model given "Did you mean: Kaelith?" corrects itself, and a silent guess
// could describe the wrong entity.
func (r *Resolver) LookupUpTo(kind, name string, upto How) (Match, bool) {
	name = strings.TrimSpace(cut(name))
	if name == "" {
		return Match{}, false
	}
	for i, c := range r.cands {
		if c.Name == name && (kind == "" || c.Kind == kind) {
			return Match{Candidate: r.cands[i], How: Exact, Text: name}, true
		}
	}
	q := Fold(name)
	if q == "" {
		return Match{}, false
	}
	if i, ok := r.unique(kind, r.byFold[q]); ok {
		return Match{Candidate: r.cands[i], How: Folded, Text: name}, true
	}
	if upto < Partial {
		return Match{}, false
	}
	if i, ok := r.partial(kind, q); ok {
		return Match{Candidate: r.cands[i], How: Partial, Text: name}, true
	}
	if upto < Typo {
		return Match{}, false
	}
	if i, ok := r.typo(kind, q); ok {
		return Match{Candidate: r.cands[i], How: Typo, Text: name}, true
	}
	return Match{}, false
}

// unique returns the one candidate of kind among forms, if exactly one.
func (r *Resolver) unique(kind string, forms []int) (int, bool) {
	found := -1
	for _, fi := range forms {
		ci := r.forms[fi].cand
		if kind != "" && r.cands[ci].Kind != kind {
			continue
		}
		if found >= 0 && found != ci {
			return 0, false
		}
		found = ci
	}
	return found, found >= 0
}

// partial matches a query whose words are whole words of one name, or a
// prefix of one name.
func (r *Resolver) partial(kind, q string) (int, bool) {
	qw := strings.Fields(q)
	var hits []int
	for fi, f := range r.forms {
		if kind != "" && r.cands[f.cand].Kind != kind {
			continue
		}
		if containsWords(f.words, qw) && longEnough(qw) || containsWords(qw, f.words) && longEnough(f.words) ||
			len(q) >= 3 && strings.HasPrefix(f.text, q) {
			hits = append(hits, fi)
		}
	}
	return r.unique(kind, hits)
}

// longEnough refuses partial matches on short filler words alone ("the").
func longEnough(words []string) bool {
	n := 0
	for _, w := range words {
		n += len([]rune(w))
	}
	return n >= 4
}

// containsWords reports whether sub occurs as consecutive whole words of words.
func containsWords(words, sub []string) bool {
	if len(sub) == 0 || len(sub) > len(words) {
		return false
	}
outer:
	for i := 0; i+len(sub) <= len(words); i++ {
		for j, w := range sub {
			if words[i+j] != w {
				continue outer
			}
		}
		return true
	}
	return false
}

// allowed is the largest typo distance tolerated for a name of n runes.
func allowed(n int) int {
	switch {
	case n >= 8:
		return 2
	case n >= 5:
		return 1
	}
	return 0
}

// typo finds the one candidate within the allowed distance, the closest
// winning; a tie between entities is no match.
func (r *Resolver) typo(kind, q string) (int, bool) {
	ql := len([]rune(q))
	var c closest
	consider := func(ci, d int, text string) { c.consider(q, ci, d, text) }
	for _, f := range r.forms {
		if kind != "" && r.cands[f.cand].Kind != kind {
			continue
		}
		if limit := allowed(min(ql, f.runes)); limit > 0 && near(ql, f.runes, limit) {
			if d := editdist.Distance(q, f.text); d <= limit {
				consider(f.cand, d, f.text)
			}
		}
		if len(f.words) > 1 && !strings.Contains(q, " ") {
			for _, w := range f.words {
				wl := len([]rune(w))
				limit := allowed(min(ql, wl))
				if limit == 0 || !near(ql, wl, limit) {
					continue
				}
				if d := editdist.Distance(q, w); d <= limit {
					consider(f.cand, d+1, w) // a word of the name is a weaker match than the name
				}
			}
		}
	}
	return c.result()
}

// Suggest returns up to n canonical names of kind closest to name, for "did
// you mean" guidance; names sharing a prefix or a word with the query rank
// first.
func (r *Resolver) Suggest(kind, name string, n int) []string {
	q := Fold(cut(name))
	if q == "" || n <= 0 {
		return nil
	}
	best := map[int]int{}
	for _, f := range r.forms {
		if kind != "" && r.cands[f.cand].Kind != kind {
			continue
		}
		d := editdist.Distance(q, f.text)
		for _, w := range f.words {
			if len(f.words) > 1 && len(w) > 3 {
				d = min(d, editdist.Distance(q, w)+1)
			}
		}
		if strings.HasPrefix(f.text, q) || len(q) >= 3 && strings.Contains(f.text, q) {
			d /= 3
		}
		if old, ok := best[f.cand]; !ok || d < old {
			best[f.cand] = d
		}
	}
	type cand struct {
		name string
		d    int
	}
	cs := make([]cand, 0, len(best))
	seen := map[string]bool{}
	for ci, d := range best {
		cs = append(cs, cand{r.cands[ci].Name, d})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for _, c := range cs {
		if len(out) == n {
			break
		}
		if !seen[c.name] {
			seen[c.name] = true
			out = append(out, c.name)
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// token is one word of an input text with its byte span.
type token struct {
	fold       string
	start, end int
}

// tokens splits text into words the way Fold does, keeping byte offsets.
func tokens(text string) []token {
	var out []token
	start := -1
	flush := func(end int) {
		if start >= 0 {
			if f := Fold(text[start:end]); f != "" {
				out = append(out, token{fold: f, start: start, end: end})
			}
			start = -1
		}
	}
	for i, c := range text {
		if unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.Is(unicode.Mn, c) || c == '\'' || c == '’' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	return out
}

// FindAll finds every entity of kind ("" for any) named in text, in text
// order, without overlaps: longer names win over the words inside them
// ("Fire Knight" over "Knight"). A span matches a whole name or alias
// (folded), a distinctive word of a multi-word name ("Gorath" for "Gorath
// the Devourer", when no other entity has that word), or a name within the
// typo distance of its length. One entity named twice is reported once.
func (r *Resolver) FindAll(kind, text string) []Match {
	toks := tokens(text)
	if len(toks) > MaxTextWords {
		toks = toks[:MaxTextWords]
	}
	var out []Match
	seen := map[int]bool{}
	for i := 0; i < len(toks); {
		matched := false
		for n := min(r.maxWords, len(toks)-i); n >= 1 && !matched; n-- {
			words := make([]string, n)
			for j := range n {
				words[j] = toks[i+j].fold
			}
			q := strings.Join(words, " ")
			ci, how, ok := r.spanMatch(kind, q, n)
			if !ok {
				continue
			}
			matched = true
			span := text[toks[i].start:toks[i+n-1].end]
			if !seen[ci] {
				seen[ci] = true
				out = append(out, Match{Candidate: r.cands[ci], How: how, Text: span, Start: toks[i].start})
			}
			i += n
		}
		if !matched {
			i++
		}
	}
	return out
}

// spanMatch matches n folded words of a text against the candidates.
func (r *Resolver) spanMatch(kind, q string, n int) (int, How, bool) {
	if ci, ok := r.unique(kind, r.byFold[q]); ok {
		return ci, Folded, true
	}
	if n == 1 && len([]rune(q)) >= 4 {
		// A distinctive word of a multi-word name.
		var hits []int
		for fi, f := range r.forms {
			if len(f.words) > 1 && (kind == "" || r.cands[f.cand].Kind == kind) && containsWords(f.words, []string{q}) {
				hits = append(hits, fi)
			}
		}
		if ci, ok := r.unique(kind, hits); ok {
			return ci, Partial, true
		}
	}
	if qr := []rune(q); len(qr) >= 5 {
		ql, qh := len(qr), lettersOf(qr)
		var c closest
		for i := range r.forms {
			f := &r.forms[i]
			if len(f.words) != n || (kind != "" && r.cands[f.cand].Kind != kind) {
				continue
			}
			limit := allowed(min(ql, f.runes))
			if limit == 0 || !near(ql, f.runes, limit) || qh.farther(&f.hist, limit) {
				continue
			}
			if d := editdist.Within(qr, f.rs, limit); d > 0 && d <= limit {
				c.consider(q, f.cand, d, f.text)
			}
		}
		if best, ok := c.result(); ok {
			return best, Typo, true
		}
	}
	return 0, 0, false
}

// closest keeps the candidate nearest a query by typo distance. Two
// candidates at the same distance are told apart by the kind of edits: a
// dropped, doubled or swapped letter is a likelier slip than a wrong letter
// ("Malreith" is Malrieth, swapped, not Maldeith; "Aereara" is Aerenara,
// dropped, not Aeroara). When that does not tell them apart, neither wins.
type closest struct {
	best, d, w int
	tie        bool
	set        bool
}

func (c *closest) consider(q string, cand, d int, text string) {
	switch {
	case !c.set || d < c.d:
		*c = closest{best: cand, d: d, w: slipCost(q, text), set: true}
	case d == c.d && cand != c.best:
		switch w := slipCost(q, text); {
		case w < c.w:
			c.best, c.w, c.tie = cand, w, false
		case w == c.w:
			c.tie = true
		}
	}
}

func (c *closest) result() (int, bool) {
	if !c.set || c.tie {
		return 0, false
	}
	return c.best, true
}

// slipCost is the optimal-string-alignment distance with a substitution
// costing 3 and an insertion, deletion or adjacent transposition 2, to rank
// candidates at the same editdist.Distance by how likely the slip is.
func slipCost(a, b string) int {
	return editdist.Weighted([]rune(a), []rune(b), 2, 3, math.MaxInt)
}
