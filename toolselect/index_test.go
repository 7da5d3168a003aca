package toolselect

import (
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// exampleSelector is a selector over the tools the default example
// questions are for, each with a description made from its name.
func exampleSelector(t testing.TB) (*Selector, map[string][]string) {
	t.Helper()
	examples, err := DefaultExamples()
	if err != nil {
		t.Fatal(err)
	}
	var sp []tool.Spec
	for name := range examples {
		sp = append(sp, tool.Spec{Name: name, Description: "Looks up " + strings.ReplaceAll(name, "_", " ") + " in the game data."})
	}
	slices.SortFunc(sp, func(a, b tool.Spec) int { return strings.Compare(a.Name, b.Name) })
	s, err := New(sp, Options{Examples: examples})
	if err != nil {
		t.Fatal(err)
	}
	return s, examples
}

// denseBest is the similarity scoring the index replaces: for each tool,
// the best full dot product of q with its vectors, at least 0.
func denseBest(q []float32, vecs [][][]float32) []float32 {
	out := make([]float32, len(vecs))
	for t, vs := range vecs {
		for _, v := range vs {
			var d float32
			for k := range q {
				d += q[k] * v[k]
			}
			out[t] = max(out[t], d)
		}
	}
	return out
}

// TestIndexScoresAsDense checks that the inverted index gives every tool
// the score a dense dot product over the same vectors gives, to the bit,
// on the default example questions.
func TestIndexScoresAsDense(t *testing.T) {
	s, examples := exampleSelector(t)
	var vecs [][][]float32
	for _, sp := range s.specs {
		vecs = append(vecs, specVectors(s.emb, sp, examples[sp.Name]))
	}
	texts := []string{
		"what are the skills of Arbiter",
		"how do I beat the dragon on hard",
		"best gear set for a support champion?",
		"hello",
		"",
		"ééé ñ 龍 🐉 gear",
	}
	for _, ex := range examples {
		texts = append(texts, ex...)
	}
	buf := s.idx.get()
	defer s.idx.put(buf)
	for _, text := range texts {
		q := s.emb.Vector(text)
		s.idx.score(q, buf)
		want := denseBest(q, vecs)
		for i := range want {
			if buf.best[i] != want[i] {
				t.Fatalf("%q: tool %s scores %v, dense dot product %v", text, s.specs[i].Name, buf.best[i], want[i])
			}
		}
	}
}

// TestIndexScoreAllocatesNothing checks that scoring a query against every
// tool allocates nothing once the call's scratch buffers exist.
func TestIndexScoreAllocatesNothing(t *testing.T) {
	s, _ := exampleSelector(t)
	q := s.emb.Vector("what are the skills of Arbiter and the best gear set")
	buf := s.idx.get()
	defer s.idx.put(buf)
	// The buffers' pool is not measured: the race detector makes sync.Pool
	// drop items at random, so its allocations are not deterministic.
	if n := testing.AllocsPerRun(100, func() { s.idx.score(q, buf) }); n != 0 {
		t.Errorf("scoring allocates %v times per call, want 0", n)
	}
}

// TestScoredRemembered checks that scoring the same text again answers
// the same ranking without computing it again, and that a full memo
// starts over rather than growing.
func TestScoredRemembered(t *testing.T) {
	s := newSel(t, Options{})
	first := s.rank("what does the warlord set do")
	if n := testing.AllocsPerRun(20, func() { _ = s.scored("what does the warlord set do") }); n != 0 {
		t.Errorf("scoring a remembered text allocates %v times, want 0", n)
	}
	again := s.rank("what does the warlord set do")
	if len(first) == 0 || len(first) != len(again) || first[0] != again[0] {
		t.Fatalf("ranking changed: %v then %v", first, again)
	}
	for i := range scoredMemoSize + 10 {
		_ = s.scored("question number " + string(rune('a'+i%26)) + string(rune('a'+i/26)))
	}
	s.recent.mu.Lock()
	n := len(s.recent.m)
	s.recent.mu.Unlock()
	if n > scoredMemoSize {
		t.Errorf("memo holds %d texts, bound %d", n, scoredMemoSize)
	}
}

// BenchmarkScore scores one message against every tool's vectors: a dense
// dot product per vector (as before the index) and the index.
func BenchmarkScore(b *testing.B) {
	s, examples := exampleSelector(b)
	var vecs [][][]float32
	for _, sp := range s.specs {
		vecs = append(vecs, specVectors(s.emb, sp, examples[sp.Name]))
	}
	q := s.emb.Vector("which champions counter the Fire Knight boss on hard?")
	b.Run("dense", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = denseBest(q, vecs)
		}
	})
	b.Run("index", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf := s.idx.get()
			s.idx.score(q, buf)
			s.idx.put(buf)
		}
	})
}
