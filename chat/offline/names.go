package offline

import (
	"context"
	"sort"
	"strings"
)

// Resolver finds the game entities a player names in a message and turns
// ids (from screen data) into entities. The responder's own list-based
// resolver is the default; the game's shared resolver can be passed in
// Options.Resolver instead.
type Resolver interface {
	// Resolve returns the entities named in text, in message order, each once.
	Resolve(ctx context.Context, text string) []Entity
	// ByID returns the entity with config id id.
	ByID(ctx context.Context, id string) (Entity, bool)
}

// indexed is one searchable name of an entity.
type indexed struct {
	ent       int // index into index.ents
	tokens    []string
	joined    string
	nameRunes []rune
	runes     int
	hist      letterHist
}

// window is a run of message words joined by spaces.
type window struct {
	text  string
	runes []rune
	hist  letterHist
}

// letterHist counts letters in 32 buckets. Each edit changes the counts by
// at most 2, so two strings whose counts differ by more than 2*tol cannot be
// tol edits apart: a cheap filter before the edit distance.
type letterHist [32]uint8

func histOf(rs []rune) letterHist {
	var h letterHist
	for _, r := range rs {
		h[r&31]++
	}
	return h
}

func (h *letterHist) diff(o *letterHist) int {
	d := 0
	for i := range h {
		d += abs(int(h[i]) - int(o[i]))
	}
	return d
}

// index holds every searchable name (all locales), longest first, and the
// distinctive words of multi-word names for partial matches.
type index struct {
	ents  []Entity
	names []indexed
	kinds map[Kind][]int
	byID  map[string]int
	// words maps a distinctive word of a multi-word name to the entities
	// whose names hold it ("wyrm" → Frost Wyrm).
	words map[string][]int
}

func newIndex(lists map[Kind][]listItem) *index {
	idx := &index{kinds: map[Kind][]int{}, byID: map[string]int{}, words: map[string][]int{}}
	for _, src := range listSources() {
		for _, it := range lists[src.kind] {
			ent := Entity{Kind: src.kind, ID: it.id, Name: it.name}
			for loc, n := range it.names {
				if n != "" && n != it.name {
					if ent.Names == nil {
						ent.Names = map[string]string{}
					}
					ent.Names[loc] = n
				}
			}
			i := len(idx.ents)
			idx.ents = append(idx.ents, ent)
			idx.kinds[src.kind] = append(idx.kinds[src.kind], i)
			if _, dup := idx.byID[it.id]; !dup {
				idx.byID[it.id] = i
			}
			all := []string{it.name}
			for _, loc := range sortedLocales(ent.Names) {
				all = append(all, ent.Names[loc])
			}
			seen := map[string]bool{}
			for _, n := range all {
				toks := nameTokens(n)
				key := strings.Join(toks, " ")
				if len(toks) == 0 || seen[key] {
					continue
				}
				seen[key] = true
				idx.names = append(idx.names, indexed{ent: i, tokens: toks, joined: key, nameRunes: []rune(key), runes: len([]rune(key)), hist: histOf([]rune(key))})
				if len(toks) > 1 {
					for _, w := range toks {
						if len([]rune(w)) >= 4 && !isStopWord(w) && !contains1(idx.words[w], i) {
							idx.words[w] = append(idx.words[w], i)
						}
					}
				}
			}
		}
	}
	sort.SliceStable(idx.names, func(i, j int) bool { return len(idx.names[i].tokens) > len(idx.names[j].tokens) })
	return idx
}

func contains1(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func sortedLocales(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// tolerance is how many edits a name of n runes may differ by and still
// match: none for short names, which collide with ordinary words.
func tolerance(n int) int {
	switch {
	case n < 5:
		return 0
	case n < 9:
		return 1
	default:
		return 2
	}
}

// match is an entity name found in a message.
type match struct {
	ent        int
	start, end int // token span [start, end)
	dist       int // edits; partial matches rank after every full one
}

// partialRank is added to a partial match's distance so full names win.
const partialRank = 10

// find returns the entities named in toks, in message order, each once.
func (idx *index) find(toks []string) []Entity {
	if idx == nil || len(toks) == 0 {
		return nil
	}
	// The message's word windows, joined once per length.
	maxK := 0
	for _, n := range idx.names {
		maxK = max(maxK, len(n.tokens))
	}
	maxK = min(maxK, len(toks))
	windows := make([][]window, maxK+1)
	for k := 1; k <= maxK; k++ {
		windows[k] = make([]window, 0, len(toks)-k+1)
		for i := 0; i+k <= len(toks); i++ {
			text := strings.Join(toks[i:i+k], " ")
			rs := []rune(text)
			windows[k] = append(windows[k], window{text: text, runes: rs, hist: histOf(rs)})
		}
	}
	var scratch osaScratch
	var cands []match
	for _, n := range idx.names {
		k := len(n.tokens)
		if k > maxK {
			continue
		}
		tol := tolerance(n.runes)
		for i, w := range windows[k] {
			if w.text == n.joined {
				cands = append(cands, match{n.ent, i, i + k, 0})
				continue
			}
			if tol == 0 || abs(len(w.runes)-n.runes) > tol || w.hist.diff(&n.hist) > 2*tol || (k == 1 && isStopWord(w.text)) {
				continue
			}
			if d := scratch.distance(w.runes, n.nameRunes, tol); d <= tol {
				cands = append(cands, match{n.ent, i, i + k, d})
			}
		}
	}
	// Partial names: a distinctive word of one multi-word name ("the
	// wyrm"), or the start of a long single-word name ("kaeli").
	for i, w := range toks {
		if isStopWord(w) || len([]rune(w)) < 4 {
			continue
		}
		if es := idx.words[w]; len(es) == 1 {
			cands = append(cands, match{es[0], i, i + 1, partialRank})
			continue
		}
		if len([]rune(w)) >= 5 {
			var hit []int
			for _, n := range idx.names {
				if len(n.tokens) == 1 && n.runes >= 7 && strings.HasPrefix(n.joined, w) && !contains1(hit, n.ent) {
					hit = append(hit, n.ent)
				}
			}
			if len(hit) == 1 {
				cands = append(cands, match{hit[0], i, i + 1, partialRank + 1})
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		return cands[i].end-cands[i].start > cands[j].end-cands[j].start
	})
	used := make([]bool, len(toks))
	var picked []match
	seen := map[int]bool{}
	for _, c := range cands {
		free := true
		for i := c.start; i < c.end; i++ {
			if used[i] {
				free = false
				break
			}
		}
		if !free || seen[c.ent] {
			continue
		}
		for i := c.start; i < c.end; i++ {
			used[i] = true
		}
		seen[c.ent] = true
		picked = append(picked, c)
	}
	sort.Slice(picked, func(i, j int) bool { return picked[i].start < picked[j].start })
	out := make([]Entity, len(picked))
	for i, p := range picked {
		out[i] = idx.ents[p.ent]
	}
	return out
}

// osa is the optimal-string-alignment distance of a and b by rune: edits
// are insertions, deletions, substitutions and swaps of two adjacent
// letters ("Kaelitg", "Kaeltih"), so a transposition costs one. It stops
// early and returns limit+1 once the distance must exceed limit.
func osa(a, b string, limit int) int {
	var s osaScratch
	return s.distance([]rune(a), []rune(b), limit)
}

// osaScratch holds the rows of osa between calls, so matching a message
// against every name allocates once.
type osaScratch struct {
	prev2, prev, cur []int
}

func (s *osaScratch) distance(ra, rb []rune, limit int) int {
	if abs(len(ra)-len(rb)) > limit {
		return limit + 1
	}
	n := len(rb) + 1
	if cap(s.cur) < n {
		s.prev2, s.prev, s.cur = make([]int, n), make([]int, n), make([]int, n)
	}
	prev2, prev, cur := s.prev2[:n], s.prev[:n], s.cur[:n]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// isStopWord reports words of questions (en, fr, de) that never match a
// name fuzzily or partially; they still match a name spelled exactly.
func isStopWord(w string) bool {
	_, ok := stopWords[w]
	return ok
}

var stopWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`
the this that there their these those what which where when about tell show stats story lore good best better
against counter counters compare versus screen help should could would shake shade stone night light knight
fire dark with from have does some more than skills skill fastest highest strongest weakest boss bosses champion
champions team teams farm where gear sets energy cost costs much many dungeon dungeons faction factions set
support attack defense speed damage cheapest lowest reward rewards drop drops story history beat defeat kill
other others story stories mastery masteries tree
bring here hello thanks thank weather today please again first second third about after before every
ceux cette celui quel quelle quels quelles comment combien pourquoi histoire contre meilleur meilleure
meilleurs equipement champion donjon faction energie battre vaincre ecran quoi ou est sont dans pour avec
dieser diese dieses welche welcher welches warum gegen beste besten bester ausruestung ausrustung verlies
geschichte energie kostet kosten schlagen besiegen bildschirm champion wer wie was wo hier bitte danke
hallo bonjour merci salut void magic spirit force leere geist kraft magie neant esprit vide`) {
		m[w] = struct{}{}
	}
	return m
}()
