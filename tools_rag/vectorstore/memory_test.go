package vectorstore

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/textsearch/embed"
	"github.com/gameassist/gameassist/tools_rag/chunk"
)

func mk(docID, cat, entity, section, text string, idx int) chunk.Chunk {
	return chunk.Chunk{DocID: docID, Title: entity, Category: cat, Entity: entity, Section: section, Locale: "en", Index: idx, Text: text}
}

func fixture(t *testing.T) (*Memory, *embed.Hashing) {
	t.Helper()
	h, err := embed.NewHashing(embed.HashingOptions{Dim: 256})
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMemory(h.Name(), h.Dim())
	if err != nil {
		t.Fatal(err)
	}
	chunks := []chunk.Chunk{
		mk("champion-kaelith", "champion", "Kaelith", "Biography", "An elven archer of the Sylvan Wardens.", 0),
		mk("champion-kaelith", "champion", "Kaelith", "Abilities", "Moonshot decreases defense. Verdant Volley poisons.", 1),
		mk("champion-brannoc", "champion", "Brannoc", "Abilities", "Bulwark taunts enemies; Hammerfall stuns. Brannoc guards archers.", 0),
		mk("boss-gorath", "boss", "Gorath the Devourer", "Weaknesses", "Decrease defense and poison work well against the beast.", 0),
		mk("faq-energy", "faq", "", "Answer", "Energy refills by one point every three minutes.", 0),
		{DocID: "champion-kaelith-fr", Title: "Kaelith", Category: "champion", Entity: "Kaelith", Section: "Biographie", Locale: "fr", Text: "Une archère elfe.", Index: 0},
	}
	pts := make([]Point, len(chunks))
	for i, c := range chunks {
		v, _ := h.Embed(context.Background(), []string{c.IndexText()})
		pts[i] = Point{ID: PointID(c.DocID, c.Index), Vector: v[0], Chunk: c}
	}
	if err := m.Upsert(context.Background(), pts); err != nil {
		t.Fatal(err)
	}
	return m, h
}

func search(t *testing.T, m *Memory, h *embed.Hashing, text string, f Filter, limit int) []Hit {
	t.Helper()
	v, _ := h.Embed(context.Background(), []string{text})
	hits, err := m.Search(context.Background(), Query{Vector: v[0], Text: text, Filter: f, Limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func TestMemorySearch(t *testing.T) {
	m, h := fixture(t)
	tests := []struct {
		name      string
		text      string
		filter    Filter
		wantFirst string // doc_id/section of the first hit
		check     func(t *testing.T, hits []Hit)
	}{
		{name: "keyword and dense agree", text: "energy refill", wantFirst: "faq-energy/Answer"},
		{
			name: "entity named ranks its chunks first", text: "does Kaelith decrease defense like poison against the beast", filter: Filter{Locale: "en"},
			check: func(t *testing.T, hits []Hit) {
				if len(hits) < 2 || hits[0].Chunk.Entity != "Kaelith" || hits[1].Chunk.Entity != "Kaelith" {
					t.Fatalf("Kaelith chunks not first: %v", sections(hits))
				}
			},
		},
		{name: "multi-word entity case-insensitive", text: "gorath THE devourer", wantFirst: "boss-gorath/Weaknesses"},
		{
			name: "category filter", text: "abilities", filter: Filter{Categories: []string{"boss", "faq"}},
			check: func(t *testing.T, hits []Hit) {
				for _, h := range hits {
					if h.Chunk.Category != "boss" && h.Chunk.Category != "faq" {
						t.Fatalf("filter leaked %s", h.Chunk.DocID)
					}
				}
			},
		},
		{
			name: "entity filter", text: "abilities", filter: Filter{Entity: "brannoc"}, wantFirst: "champion-brannoc/Abilities",
			check: func(t *testing.T, hits []Hit) {
				if len(hits) != 1 {
					t.Fatalf("got %v", sections(hits))
				}
			},
		},
		{name: "locale filter", text: "Kaelith", filter: Filter{Locale: "fr"}, wantFirst: "champion-kaelith-fr/Biographie"},
		{name: "doc filter", text: "defense", filter: Filter{DocID: "champion-kaelith"}, wantFirst: "champion-kaelith/Abilities"},
		{name: "limit", text: "defense archer energy", check: func(t *testing.T, hits []Hit) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits := search(t, m, h, tt.text, tt.filter, 3)
			if len(hits) > 3 {
				t.Fatalf("limit ignored: %d hits", len(hits))
			}
			if tt.wantFirst != "" {
				if len(hits) == 0 || hits[0].Chunk.DocID+"/"+hits[0].Chunk.Section != tt.wantFirst {
					t.Fatalf("hits = %v, want %s first", sections(hits), tt.wantFirst)
				}
			}
			for i := 1; i < len(hits); i++ {
				if hits[i].Score > hits[i-1].Score {
					t.Fatalf("scores not descending: %v", hits)
				}
			}
			if tt.check != nil {
				tt.check(t, hits)
			}
		})
	}
}

func sections(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Chunk.DocID+"/"+h.Chunk.Section)
	}
	return out
}

func TestMemoryRRFUsesBothRankings(t *testing.T) {
	m, h := fixture(t)
	// Keyword-only query: no vector, BM25 alone must find the chunk.
	hits, err := m.Search(context.Background(), Query{Text: "Hammerfall", Limit: 5})
	if err != nil || len(hits) == 0 || hits[0].Chunk.DocID != "champion-brannoc" {
		t.Fatalf("keyword-only: %v %v", sections(hits), err)
	}
	// Dense-only query: no text.
	v, _ := h.Embed(context.Background(), []string{"Energy refills by one point every three minutes."})
	hits, err = m.Search(context.Background(), Query{Vector: v[0], Limit: 1})
	if err != nil || len(hits) != 1 || hits[0].Chunk.DocID != "faq-energy" {
		t.Fatalf("dense-only: %v %v", sections(hits), err)
	}
	// A chunk ranked first by both lists gets the highest fused score 2/(k+1).
	hits = search(t, m, h, "Energy refills by one point every three minutes", Filter{}, 1)
	if want := 2 / (rrfK + 1); len(hits) != 1 || hits[0].Score < want-1e-9 || hits[0].Score > want+1e-9 {
		t.Fatalf("fused score = %v, want %v", hits, want)
	}
}

func TestMemoryUpsertIsIdempotentAndReplaces(t *testing.T) {
	m, h := fixture(t)
	ctx := context.Background()
	before, _ := m.Count(ctx, Filter{})
	c := mk("faq-energy", "faq", "", "Answer", "Energy now refills instantly with gems.", 0)
	v, _ := h.Embed(ctx, []string{c.IndexText()})
	if err := m.Upsert(ctx, []Point{{ID: PointID(c.DocID, 0), Vector: v[0], Chunk: c}}); err != nil {
		t.Fatal(err)
	}
	after, _ := m.Count(ctx, Filter{})
	if after != before {
		t.Fatalf("count %d -> %d, want unchanged", before, after)
	}
	if hits, _ := m.Search(ctx, Query{Text: "three minutes"}); len(hits) != 0 {
		t.Fatalf("old text still indexed: %v", sections(hits))
	}
	if hits, _ := m.Search(ctx, Query{Text: "gems"}); len(hits) != 1 {
		t.Fatalf("new text not indexed: %v", sections(hits))
	}
}

func TestMemoryRefusesBadInput(t *testing.T) {
	m, _ := fixture(t)
	ctx := context.Background()
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{name: "wrong dim upsert", run: func() error { return m.Upsert(ctx, []Point{{ID: "x", Vector: make([]float32, 3)}}) }, want: "dimension 3"},
		{name: "empty id", run: func() error { return m.Upsert(ctx, []Point{{Vector: make([]float32, 256)}}) }, want: "empty id"},
		{name: "wrong dim query", run: func() error { _, err := m.Search(ctx, Query{Vector: make([]float32, 3)}); return err }, want: "dimension 3"},
		{name: "empty query", run: func() error { _, err := m.Search(ctx, Query{Text: "  "}); return err }, want: "neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.run(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := NewMemory("", 3); err == nil {
		t.Fatal("empty embedder accepted")
	}
}

func TestMemoryListAndCount(t *testing.T) {
	m, _ := fixture(t)
	ctx := context.Background()
	pts, err := m.List(ctx, Filter{DocID: "champion-kaelith"}, 0)
	if err != nil || len(pts) != 2 || pts[0].Chunk.Index != 0 || pts[1].Chunk.Section != "Abilities" {
		t.Fatalf("list = %+v, %v", pts, err)
	}
	firsts, _ := m.List(ctx, Filter{FirstChunks: true}, 0)
	if len(firsts) != 5 {
		t.Fatalf("first chunks = %d, want one per document (5)", len(firsts))
	}
	if n, _ := m.Count(ctx, Filter{Categories: []string{"champion"}, Locale: "en"}); n != 3 {
		t.Fatalf("count = %d", n)
	}
	if lim, _ := m.List(ctx, Filter{}, 2); len(lim) != 2 {
		t.Fatalf("limit: %d", len(lim))
	}
}

func TestCheckInfo(t *testing.T) {
	err := CheckInfo(Info{Embedder: "hash1024v1", Dim: 1024}, "remote-x", 1536)
	if err == nil || !strings.Contains(err.Error(), "hash1024v1") || !strings.Contains(err.Error(), "remote-x") {
		t.Fatalf("err = %v", err)
	}
	if CheckInfo(Info{Embedder: "a", Dim: 2}, "a", 2) != nil {
		t.Fatal("same embedder refused")
	}
}

func TestPointIDDeterministic(t *testing.T) {
	a, b, c := PointID("d", 1), PointID("d", 1), PointID("d", 2)
	if a != b || a == c || len(a) != 36 {
		t.Fatalf("%s %s %s", a, b, c)
	}
	if errors.Is(ErrUnavailable, ErrEmptyQuery) {
		t.Fatal("sentinels alias")
	}
}
