// Package qdrantstore is the Qdrant vector store of the RAG tools, over
// gRPC with the official go-client: one collection per embedder holding a
// dense vector and a BM25-like sparse vector per chunk, searched with the
// Query API (dense and sparse prefetch fused by reciprocal rank). It is a
// thin adapter: Qdrant does the ranking.
package qdrantstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/gameassist/gameassist/textsearch/terms"
	"github.com/gameassist/gameassist/tools_rag/chunk"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

// Names of the collection's vectors.
const (
	DenseVector  = "dense"
	SparseVector = "sparse"
)

// Sparse-vector term weighting (BM25 term-frequency saturation; Qdrant's
// IDF modifier supplies the inverse document frequency).
const (
	bm25K1     = 1.2
	bm25B      = 0.75
	bm25AvgLen = 120.0
	prefetch   = 100
	upsertSize = 128
	scrollPage = 256
	maxList    = 100_000
)

// ConfigFromURL turns QDRANT_URL into a client configuration. Qdrant's
// gRPC port is 6334; a URL naming the REST port 6333 (the usual copy from
// the Qdrant docs) is moved to 6334. https enables TLS.
func ConfigFromURL(rawURL, apiKey string) (*qdrant.Config, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("qdrantstore: QDRANT_URL %q is not an absolute URL", rawURL)
	}
	cfg := &qdrant.Config{Host: u.Hostname(), Port: 6334, APIKey: apiKey, UseTLS: u.Scheme == "https"}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("qdrantstore: QDRANT_URL port %q is invalid", p)
		}
		if n != 6333 {
			cfg.Port = n
		}
	}
	if cfg.Host == "" {
		return nil, fmt.Errorf("qdrantstore: QDRANT_URL %q has no host", rawURL)
	}
	return cfg, nil
}

// Store is a Qdrant collection holding the chunks of one embedder.
type Store struct {
	client     *qdrant.Client
	info       vectorstore.Info
	collection string

	mu    sync.Mutex
	ready bool // the collection is known to exist with our schema
}

// New returns a store over client for vectors of the named embedder; the
// collection, named after the embedder and dimension, is created by the
// first upsert when missing.
func New(client *qdrant.Client, embedder string, dim int, prefix string) (*Store, error) {
	if client == nil {
		return nil, errors.New("qdrantstore: nil client")
	}
	if embedder == "" || dim <= 0 {
		return nil, fmt.Errorf("qdrantstore: need an embedder name and a positive dimension, got %q/%d", embedder, dim)
	}
	if prefix == "" {
		prefix = "gameassist"
	}
	return &Store{
		client:     client,
		info:       vectorstore.Info{Embedder: embedder, Dim: dim},
		collection: CollectionName(prefix, embedder, dim),
	}, nil
}

// CollectionName is the collection of one embedder: vectors of different
// models or sizes never share a collection.
func CollectionName(prefix, embedder string, dim int) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
				return r
			}
			return '_'
		}, s)
	}
	return clean(prefix) + "_" + clean(embedder) + "_" + strconv.Itoa(dim)
}

// Collection returns the collection's name.
func (s *Store) Collection() string { return s.collection }

// Info names the embedder the collection is for.
func (s *Store) Info(context.Context) (vectorstore.Info, error) { return s.info, nil }

// wrap names the operation and marks failures a retry may fix.
func (s *Store) wrap(op string, err error) error {
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted, codes.Aborted:
		return fmt.Errorf("qdrantstore: %s %s: %w: %w", op, s.collection, vectorstore.ErrUnavailable, err)
	case codes.NotFound:
		return fmt.Errorf("qdrantstore: %s %s: collection missing, run `gameassist ingest`: %w", op, s.collection, err)
	}
	var re *qdrant.QdrantResourceExhaustedError
	if errors.As(err, &re) {
		return fmt.Errorf("qdrantstore: %s %s: %w: %w", op, s.collection, vectorstore.ErrUnavailable, err)
	}
	return fmt.Errorf("qdrantstore: %s %s: %w", op, s.collection, err)
}

// Ping checks the server answers.
func (s *Store) Ping(ctx context.Context) error {
	if _, err := s.client.HealthCheck(ctx); err != nil {
		return s.wrap("ping", err)
	}
	return nil
}

// EnsureCollection creates the collection with its vectors and payload
// indexes when missing, and refuses an existing one recorded for another
// embedder.
func (s *Store) EnsureCollection(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ready {
		return nil
	}
	exists, err := s.client.CollectionExists(ctx, s.collection)
	if err != nil {
		return s.wrap("collection exists", err)
	}
	if exists {
		ci, err := s.client.GetCollectionInfo(ctx, s.collection)
		if err != nil {
			return s.wrap("collection info", err)
		}
		if md := ci.GetConfig().GetMetadata(); md != nil {
			if e := md["embedder"].GetStringValue(); e != "" && e != s.info.Embedder {
				return fmt.Errorf("qdrantstore: collection %s was built by embedder %s, not %s", s.collection, e, s.info.Embedder)
			}
		}
		if p := ci.GetConfig().GetParams().GetVectorsConfig().GetParamsMap().GetMap()[DenseVector]; p != nil && p.GetSize() != uint64(s.info.Dim) {
			return fmt.Errorf("qdrantstore: collection %s holds dimension %d, embedder %s has %d", s.collection, p.GetSize(), s.info.Embedder, s.info.Dim)
		}
	} else {
		err = s.client.CreateCollection(ctx, &qdrant.CreateCollection{
			CollectionName: s.collection,
			VectorsConfig: qdrant.NewVectorsConfigMap(map[string]*qdrant.VectorParams{
				DenseVector: {Size: uint64(s.info.Dim), Distance: qdrant.Distance_Cosine},
			}),
			SparseVectorsConfig: qdrant.NewSparseVectorsConfig(map[string]*qdrant.SparseVectorParams{
				SparseVector: {Modifier: qdrant.Modifier_Idf.Enum()},
			}),
			Metadata: qdrant.NewValueMap(map[string]any{"embedder": s.info.Embedder, "dim": s.info.Dim}),
		})
		if err != nil && status.Code(err) != codes.AlreadyExists {
			return s.wrap("create collection", err)
		}
	}
	for _, f := range []struct {
		name string
		typ  qdrant.FieldType
	}{
		{"category", qdrant.FieldType_FieldTypeKeyword},
		{"entity_key", qdrant.FieldType_FieldTypeKeyword},
		{"locale", qdrant.FieldType_FieldTypeKeyword},
		{"doc_id", qdrant.FieldType_FieldTypeKeyword},
		{"chunk_index", qdrant.FieldType_FieldTypeInteger},
		{"unlocks_at", qdrant.FieldType_FieldTypeInteger},
	} {
		_, err := s.client.CreateFieldIndex(ctx, &qdrant.CreateFieldIndexCollection{
			CollectionName: s.collection, FieldName: f.name, FieldType: f.typ.Enum(), Wait: qdrant.PtrOf(true),
		})
		if err != nil {
			return s.wrap("create index "+f.name, err)
		}
	}
	s.ready = true
	return nil
}

// Upsert writes points in batches; the ids are deterministic, so writing
// the same chunks again replaces them.
func (s *Store) Upsert(ctx context.Context, points []vectorstore.Point) error {
	for _, p := range points {
		if len(p.Vector) != s.info.Dim {
			return fmt.Errorf("qdrantstore: upsert %s: vector dimension %d, collection holds %d", p.ID, len(p.Vector), s.info.Dim)
		}
	}
	if err := s.EnsureCollection(ctx); err != nil {
		return err
	}
	for start := 0; start < len(points); start += upsertSize {
		batch := points[start:min(start+upsertSize, len(points))]
		ps := make([]*qdrant.PointStruct, len(batch))
		for i, p := range batch {
			idx, vals := SparseDocument(p.Chunk.IndexText())
			vecs := map[string]*qdrant.Vector{DenseVector: qdrant.NewVectorDense(p.Vector)}
			if len(idx) > 0 {
				vecs[SparseVector] = qdrant.NewVectorSparse(idx, vals)
			}
			ps[i] = &qdrant.PointStruct{
				Id:      qdrant.NewID(p.ID),
				Vectors: qdrant.NewVectorsMap(vecs),
				Payload: payload(p.Chunk),
			}
		}
		_, err := s.client.Upsert(ctx, &qdrant.UpsertPoints{CollectionName: s.collection, Points: ps, Wait: qdrant.PtrOf(true)})
		if err != nil {
			return s.wrap("upsert", err)
		}
	}
	return nil
}

func payload(c chunk.Chunk) map[string]*qdrant.Value {
	return map[string]*qdrant.Value{
		"doc_id":      qdrant.NewValueString(c.DocID),
		"title":       qdrant.NewValueString(c.Title),
		"category":    qdrant.NewValueString(c.Category),
		"entity":      qdrant.NewValueString(c.Entity),
		"entity_key":  qdrant.NewValueString(vectorstore.EntityKey(c.Entity)),
		"entity_id":   qdrant.NewValueInt(int64(c.EntityID)),
		"section":     qdrant.NewValueString(c.Section),
		"locale":      qdrant.NewValueString(c.Locale),
		"chunk_index": qdrant.NewValueInt(int64(c.Index)),
		"unlocks_at":  qdrant.NewValueInt(int64(c.UnlocksAt)),
		"text":        qdrant.NewValueString(c.Text),
	}
}

func fromPayload(p map[string]*qdrant.Value) chunk.Chunk {
	str := func(k string) string { return p[k].GetStringValue() }
	return chunk.Chunk{
		DocID: str("doc_id"), Title: str("title"), Category: str("category"), Entity: str("entity"),
		EntityID: int(p["entity_id"].GetIntegerValue()), Section: str("section"), Locale: str("locale"),
		Index: int(p["chunk_index"].GetIntegerValue()), Text: str("text"),
		UnlocksAt: int(p["unlocks_at"].GetIntegerValue()),
	}
}

// SparseDocument is a chunk's sparse vector: hashed terms weighted by
// saturated term frequency with length normalization (BM25's tf part).
func SparseDocument(text string) ([]uint32, []float32) {
	ts := terms.Terms(text)
	tf := map[uint32]float64{}
	for _, t := range ts {
		tf[terms.Hash(t)]++
	}
	norm := bm25K1 * (1 - bm25B + bm25B*float64(len(ts))/bm25AvgLen)
	return sparse(tf, func(f float64) float32 { return float32(f * (bm25K1 + 1) / (f + norm)) })
}

// SparseQuery is a query's sparse vector: each distinct hashed term with
// weight 1, so the dot product sums the document's term weights (times IDF).
func SparseQuery(text string) ([]uint32, []float32) {
	tf := map[uint32]float64{}
	for _, t := range terms.Terms(text) {
		tf[terms.Hash(t)] = 1
	}
	return sparse(tf, func(float64) float32 { return 1 })
}

func sparse(tf map[uint32]float64, weight func(float64) float32) ([]uint32, []float32) {
	idx := make([]uint32, 0, len(tf))
	for k := range tf {
		idx = append(idx, k)
	}
	slices.Sort(idx)
	vals := make([]float32, len(idx))
	for i, k := range idx {
		vals[i] = weight(tf[k])
	}
	return idx, vals
}

// filter maps a vectorstore filter to Qdrant conditions; nil matches all.
func filter(f vectorstore.Filter) *qdrant.Filter {
	var must []*qdrant.Condition
	if f.DocID != "" {
		must = append(must, qdrant.NewMatchKeyword("doc_id", f.DocID))
	}
	if len(f.Categories) == 1 {
		must = append(must, qdrant.NewMatchKeyword("category", f.Categories[0]))
	} else if len(f.Categories) > 1 {
		must = append(must, qdrant.NewMatchKeywords("category", f.Categories...))
	}
	if f.Entity != "" {
		must = append(must, qdrant.NewMatchKeyword("entity_key", vectorstore.EntityKey(f.Entity)))
	}
	if f.Locale != "" {
		must = append(must, qdrant.NewMatchKeyword("locale", f.Locale))
	}
	if f.FirstChunks {
		must = append(must, qdrant.NewMatchInt("chunk_index", 0))
	}
	var mustNot []*qdrant.Condition
	if f.Gate {
		// A payload filter, so Qdrant never returns a locked chunk; points
		// ingested before unlocks_at existed have none and pass.
		unlocked := float64(f.Unlocked)
		mustNot = append(mustNot, qdrant.NewRange("unlocks_at", &qdrant.Range{Gt: &unlocked}))
	}
	if len(must) == 0 && len(mustNot) == 0 {
		return nil
	}
	return &qdrant.Filter{Must: must, MustNot: mustNot}
}

// Search runs the hybrid query: a dense and a sparse prefetch, fused by RRF.
func (s *Store) Search(ctx context.Context, q vectorstore.Query) ([]vectorstore.Hit, error) {
	if len(q.Vector) != 0 && len(q.Vector) != s.info.Dim {
		return nil, fmt.Errorf("qdrantstore: search: query vector dimension %d, collection holds %d", len(q.Vector), s.info.Dim)
	}
	limit := uint64(10)
	if q.Limit > 0 {
		limit = uint64(min(q.Limit, vectorstore.MaxLimit))
	}
	f := filter(q.Filter)
	var pre []*qdrant.PrefetchQuery
	if len(q.Vector) != 0 {
		pre = append(pre, &qdrant.PrefetchQuery{Query: qdrant.NewQueryDense(q.Vector), Using: qdrant.PtrOf(DenseVector), Filter: f, Limit: qdrant.PtrOf(uint64(prefetch))})
	}
	if idx, vals := SparseQuery(q.Text); len(idx) > 0 {
		pre = append(pre, &qdrant.PrefetchQuery{Query: qdrant.NewQuerySparse(idx, vals), Using: qdrant.PtrOf(SparseVector), Filter: f, Limit: qdrant.PtrOf(uint64(prefetch))})
	}
	if len(pre) == 0 {
		return nil, vectorstore.ErrEmptyQuery
	}
	res, err := s.client.Query(ctx, &qdrant.QueryPoints{
		CollectionName: s.collection,
		Prefetch:       pre,
		Query:          qdrant.NewQueryFusion(qdrant.Fusion_RRF),
		Filter:         f,
		Limit:          qdrant.PtrOf(limit),
		WithPayload:    qdrant.NewWithPayload(true),
	})
	if err != nil {
		return nil, s.wrap("query", err)
	}
	hits := make([]vectorstore.Hit, len(res))
	for i, p := range res {
		hits[i] = vectorstore.Hit{ID: p.GetId().GetUuid(), Score: float64(p.GetScore()), Chunk: fromPayload(p.GetPayload())}
	}
	return hits, nil
}

// List scrolls the points passing f (limit 0: all, up to 100,000), in
// document order.
func (s *Store) List(ctx context.Context, f vectorstore.Filter, limit int) ([]vectorstore.Point, error) {
	if limit <= 0 || limit > maxList {
		limit = maxList
	}
	var out []vectorstore.Point
	var offset *qdrant.PointId
	qf := filter(f)
	for len(out) < limit {
		page, next, err := s.client.ScrollAndOffset(ctx, &qdrant.ScrollPoints{
			CollectionName: s.collection, Filter: qf, Offset: offset,
			Limit: qdrant.PtrOf(uint32(min(scrollPage, limit-len(out)))), WithPayload: qdrant.NewWithPayload(true),
		})
		if err != nil {
			return nil, s.wrap("scroll", err)
		}
		for _, p := range page {
			out = append(out, vectorstore.Point{ID: p.GetId().GetUuid(), Chunk: fromPayload(p.GetPayload())})
		}
		if next == nil || len(page) == 0 {
			break
		}
		offset = next
	}
	slices.SortFunc(out, func(a, b vectorstore.Point) int {
		if c := strings.Compare(a.Chunk.DocID, b.Chunk.DocID); c != 0 {
			return c
		}
		return cmp.Compare(a.Chunk.Index, b.Chunk.Index)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Count returns the exact number of points passing f.
func (s *Store) Count(ctx context.Context, f vectorstore.Filter) (int, error) {
	n, err := s.client.Count(ctx, &qdrant.CountPoints{CollectionName: s.collection, Filter: filter(f), Exact: qdrant.PtrOf(true)})
	if err != nil {
		return 0, s.wrap("count", err)
	}
	return int(n), nil
}
