package wiki

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/gamedata"
)

func TestEvalAnswerableByBM25(t *testing.T) {
	g := gamedata.Generate(gamedata.DefaultSeed)
	docs, err := Render(g)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := EvalSet(g, docs)
	if err != nil {
		t.Fatal(err)
	}
	idx := newBM25(docs)
	for _, q := range qs {
		if r := idx.rank(q.Query, q.Expected[0]); r < 1 || r > 3 {
			t.Errorf("query %q (paraphrase %v): %s ranked %d, want top 3", q.Query, q.Paraphrase, q.Expected[0], r)
		}
	}
}

func TestEvalSetShape(t *testing.T) {
	g := gamedata.Generate(gamedata.DefaultSeed)
	docs, err := Render(g)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := EvalSet(g, docs)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 120 {
		t.Errorf("%d queries, want at least 120", len(qs))
	}
	byID := map[string]Document{}
	for _, d := range docs {
		byID[d.DocID] = d
	}
	para := 0
	cats := map[string]bool{}
	seen := map[string]bool{}
	for _, q := range qs {
		if seen[q.Query] {
			t.Errorf("duplicate query %q", q.Query)
		}
		seen[q.Query] = true
		d := byID[q.Expected[0]]
		cats[d.Category] = true
		if !q.Paraphrase {
			continue
		}
		para++
		if d.Entity != "" && d.Category != CategoryMechanics && strings.Contains(strings.ToLower(q.Query), strings.ToLower(d.Entity)) {
			t.Errorf("paraphrase %q names its entity %q", q.Query, d.Entity)
		}
	}
	if para*2 < len(qs) {
		t.Errorf("%d paraphrases of %d queries, want at least half", para, len(qs))
	}
	if len(cats) != len(Categories()) {
		t.Errorf("queries cover categories %v, want all %d", cats, len(Categories()))
	}
}
