package qdrantstore

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/qdrant/go-client/qdrant"

	"github.com/gameassist/gameassist/textsearch/embed"
	toolsrag "github.com/gameassist/gameassist/tools_rag"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

func newStore(t *testing.T) (*fakeQdrant, *Store, *embed.Hashing, func()) {
	t.Helper()
	fake, client, stop := startFake(t)
	h, err := embed.NewHashing(embed.HashingOptions{Dim: 256})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(client, h.Name(), h.Dim(), "test")
	if err != nil {
		t.Fatal(err)
	}
	return fake, s, h, stop
}

func TestIngestCreatesCollectionAndIsIdempotent(t *testing.T) {
	fake, s, h, _ := newStore(t)
	ctx := context.Background()
	if s.Collection() != "test_hash256v1_256" {
		t.Fatalf("collection = %q", s.Collection())
	}
	first, err := toolsrag.Ingest(ctx, "../testdata/content", h, s, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	n1, err := s.Count(ctx, vectorstore.Filter{})
	if err != nil || n1 != first.Chunks || n1 == 0 {
		t.Fatalf("count = %d (%v), want %d", n1, err, first.Chunks)
	}
	// A second store over the same server: the collection exists, no second create.
	s2, _ := New(s.client, h.Name(), h.Dim(), "test")
	if _, err := toolsrag.Ingest(ctx, "../testdata/content", h, s2, io.Discard); err != nil {
		t.Fatal(err)
	}
	n2, _ := s2.Count(ctx, vectorstore.Filter{})
	if n2 != n1 || fake.creates != 1 {
		t.Fatalf("re-ingest: count %d -> %d, creates %d; want unchanged count and one create", n1, n2, fake.creates)
	}
	c := fake.collections[s.Collection()]
	for _, f := range []string{"category", "entity_key", "locale"} {
		if _, ok := c.indexes[f]; !ok {
			t.Errorf("no payload index on %s", f)
		}
	}
	if c.def.GetSparseVectorsConfig().GetMap()[SparseVector].GetModifier() != qdrant.Modifier_Idf {
		t.Error("sparse vector without IDF modifier")
	}
	if md := c.def.GetMetadata(); md["embedder"].GetStringValue() != h.Name() {
		t.Errorf("metadata = %v", md)
	}
}

func TestHybridQueryAndFilters(t *testing.T) {
	_, s, h, _ := newStore(t)
	ctx := context.Background()
	if _, err := toolsrag.Ingest(ctx, "../testdata/content", h, s, io.Discard); err != nil {
		t.Fatal(err)
	}
	query := func(text string, f vectorstore.Filter, limit int) []vectorstore.Hit {
		v, _ := h.Embed(ctx, []string{text})
		hits, err := s.Search(ctx, vectorstore.Query{Vector: v[0], Text: text, Filter: f, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	tests := []struct {
		name      string
		text      string
		filter    vectorstore.Filter
		wantFirst string
		wantAll   func(h vectorstore.Hit) bool
	}{
		{name: "hybrid", text: "how does energy refill", wantFirst: "faq-energy"},
		{
			name: "category", text: "Moonshot defense", filter: vectorstore.Filter{Categories: []string{"patch_notes"}}, wantFirst: "patch-1-2",
			wantAll: func(h vectorstore.Hit) bool { return h.Chunk.Category == "patch_notes" },
		},
		{
			name: "categories", text: "Gorath", filter: vectorstore.Filter{Categories: []string{"boss", "dungeon"}},
			wantAll: func(h vectorstore.Hit) bool { return h.Chunk.Category == "boss" || h.Chunk.Category == "dungeon" },
		},
		{
			name: "entity case-insensitive", text: "abilities", filter: vectorstore.Filter{Entity: "KAELITH"}, wantFirst: "champion-kaelith",
			wantAll: func(h vectorstore.Hit) bool { return h.Chunk.Entity == "Kaelith" },
		},
		{name: "locale", text: "energy", filter: vectorstore.Filter{Locale: "fr"}, wantAll: func(vectorstore.Hit) bool { return false }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits := query(tt.text, tt.filter, 3)
			if len(hits) > 3 {
				t.Fatalf("limit ignored")
			}
			if tt.wantFirst != "" && (len(hits) == 0 || hits[0].Chunk.DocID != tt.wantFirst) {
				t.Fatalf("hits %v, want %s first", hits, tt.wantFirst)
			}
			for _, h := range hits {
				if tt.wantAll != nil && !tt.wantAll(h) {
					t.Fatalf("filter leaked %+v", h.Chunk)
				}
				if h.ID != vectorstore.PointID(h.Chunk.DocID, h.Chunk.Index) || h.Chunk.Text == "" || h.Chunk.Title == "" {
					t.Fatalf("payload lost: %+v", h)
				}
			}
		})
	}
	pts, err := s.List(ctx, vectorstore.Filter{DocID: "champion-kaelith"}, 0)
	if err != nil || len(pts) != 3 || pts[0].Chunk.Section != "Biography" || pts[2].Chunk.Index != 2 || pts[0].Chunk.EntityID != 1001 {
		t.Fatalf("list = %+v %v", pts, err)
	}
	firsts, err := s.List(ctx, vectorstore.Filter{FirstChunks: true}, 0)
	if err != nil || len(firsts) != 9 {
		t.Fatalf("first chunks = %d %v, want 9 documents", len(firsts), err)
	}
}

func TestListPagesThroughScroll(t *testing.T) {
	_, s, h, _ := newStore(t)
	ctx := context.Background()
	var pts []vectorstore.Point
	for i := range 600 {
		v, _ := h.Embed(ctx, []string{"text"})
		pts = append(pts, vectorstore.Point{ID: vectorstore.PointID("doc", i), Vector: v[0]})
		pts[i].Chunk.DocID, pts[i].Chunk.Index, pts[i].Chunk.Category = "doc", i, "faq"
	}
	if err := s.Upsert(ctx, pts); err != nil {
		t.Fatal(err)
	}
	all, err := s.List(ctx, vectorstore.Filter{}, 0)
	if err != nil || len(all) != 600 || all[599].Chunk.Index != 599 {
		t.Fatalf("listed %d (%v)", len(all), err)
	}
	some, _ := s.List(ctx, vectorstore.Filter{}, 300)
	if len(some) != 300 {
		t.Fatalf("limit: %d", len(some))
	}
}

func TestRefusesOtherEmbeddersCollection(t *testing.T) {
	_, client, _ := startFake(t)
	ctx := context.Background()
	err := client.CreateCollection(ctx, &qdrant.CreateCollection{
		CollectionName: CollectionName("test", "hash256v1", 256),
		VectorsConfig:  qdrant.NewVectorsConfigMap(map[string]*qdrant.VectorParams{DenseVector: {Size: 256, Distance: qdrant.Distance_Cosine}}),
		Metadata:       qdrant.NewValueMap(map[string]any{"embedder": "someone-else"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := New(client, "hash256v1", 256, "test")
	if err := s.EnsureCollection(ctx); err == nil || !strings.Contains(err.Error(), "someone-else") {
		t.Fatalf("err = %v", err)
	}
}

func TestErrors(t *testing.T) {
	_, s, h, stop := newStore(t)
	ctx := context.Background()
	v, _ := h.Embed(ctx, []string{"x"})
	if _, err := s.Search(ctx, vectorstore.Query{Vector: v[0], Text: "x"}); err == nil || !strings.Contains(err.Error(), "ingest") || errors.Is(err, vectorstore.ErrUnavailable) {
		t.Fatalf("missing collection: %v", err)
	}
	if _, err := s.Search(ctx, vectorstore.Query{Vector: make([]float32, 3)}); err == nil {
		t.Fatal("wrong dimension accepted")
	}
	if _, err := s.Search(ctx, vectorstore.Query{Text: "the of"}); !errors.Is(err, vectorstore.ErrEmptyQuery) {
		t.Fatalf("empty query: %v", err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	stop()
	if err := s.Ping(ctx); !errors.Is(err, vectorstore.ErrUnavailable) {
		t.Fatalf("ping with server down: %v", err)
	}
	if _, err := s.Count(ctx, vectorstore.Filter{}); !errors.Is(err, vectorstore.ErrUnavailable) {
		t.Fatalf("count with server down: %v", err)
	}
}

func TestConfigFromURL(t *testing.T) {
	tests := []struct {
		name, url string
		host      string
		port      int
		tls       bool
		wantErr   bool
	}{
		{name: "rest port mapped", url: "http://qdrant:6333", host: "qdrant", port: 6334},
		{name: "default port", url: "https://q.example.com", host: "q.example.com", port: 6334, tls: true},
		{name: "explicit grpc", url: "http://10.0.0.1:7000", host: "10.0.0.1", port: 7000},
		{name: "relative", url: "qdrant:6333", wantErr: true},
		{name: "empty host", url: "http://:6333", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ConfigFromURL(tt.url, "k")
			if tt.wantErr {
				if err == nil {
					t.Fatalf("accepted %q", tt.url)
				}
				return
			}
			if err != nil || c.Host != tt.host || c.Port != tt.port || c.UseTLS != tt.tls || c.APIKey != "k" {
				t.Fatalf("got %+v, %v", c, err)
			}
		})
	}
}
