package wiki

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// bm25 is a small reference BM25 ranker used to check that the evaluation
// set is answerable by lexical retrieval.
type bm25 struct {
	docs  []map[string]int
	lens  []int
	ids   []string
	df    map[string]int
	avgdl float64
}

func stopword(t string) bool {
	switch t {
	case "the", "a", "an", "and", "or", "of", "to", "in", "on", "is", "it", "i", "my", "do", "how", "what",
		"which", "who", "for", "with", "that", "its", "by", "are", "be", "can", "where", "when", "why", "me", "does", "at", "from", "this", "as", "s":
		return true
	}
	return false
}

func tokens(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var out []string
	for _, t := range f {
		if !stopword(t) {
			out = append(out, t)
		}
	}
	return out
}

func newBM25(docs []Document) *bm25 {
	b := &bm25{df: map[string]int{}}
	total := 0
	for _, d := range docs {
		tf := map[string]int{}
		toks := tokens(d.Title + " " + d.Body)
		for _, t := range toks {
			tf[t]++
		}
		for t := range tf {
			b.df[t]++
		}
		b.docs = append(b.docs, tf)
		b.lens = append(b.lens, len(toks))
		b.ids = append(b.ids, d.DocID)
		total += len(toks)
	}
	b.avgdl = float64(total) / float64(len(docs))
	return b
}

// rank returns the 1-based rank of doc id for query q (0 if unmatched).
func (b *bm25) rank(q, id string) int {
	const k1, bb = 1.2, 0.75
	n := float64(len(b.docs))
	type sc struct {
		id string
		s  float64
	}
	var scores []sc
	qt := tokens(q)
	for i, tf := range b.docs {
		s := 0.0
		for _, t := range qt {
			f := float64(tf[t])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(b.df[t])+0.5)/(float64(b.df[t])+0.5))
			s += idf * f * (k1 + 1) / (f + k1*(1-bb+bb*float64(b.lens[i])/b.avgdl))
		}
		if s > 0 {
			scores = append(scores, sc{b.ids[i], s})
		}
	}
	sort.SliceStable(scores, func(i, j int) bool { return scores[i].s > scores[j].s })
	for i, s := range scores {
		if s.id == id {
			return i + 1
		}
	}
	return 0
}
