package vectorstore

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/gameassist/gameassist/textsearch/terms"
	"github.com/gameassist/gameassist/tools_rag/chunk"
)

// BM25 parameters and the reciprocal-rank-fusion constant.
const (
	bm25K1   = 1.2
	bm25B    = 0.75
	rrfK     = 60.0
	rankList = 100 // hits per ranking that enter the fusion
	// entityBoost lifts chunks of an entity named in the query above every
	// fused score (fused scores are below 2/(rrfK+1)).
	entityBoost = 1.0
	// denseFloor keeps near-orthogonal vectors out of the dense ranking:
	// with hashed lexical features a cosine this low is collision noise,
	// and model embeddings of related text score far above it.
	denseFloor = 0.05
)

type posting struct {
	slot int32
	tf   int32
}

// Memory is the embedded vector store: every point in memory, vectors
// normalized at insert, an inverted index for BM25, and an index of entity
// names so a query naming an entity ranks that entity's chunks first. It is
// safe for concurrent use.
type Memory struct {
	info Info

	mu       sync.RWMutex
	slots    map[string]int32 // point id -> slot
	ids      []string
	chunks   []chunk.Chunk
	entity   []string    // normalized entity per slot
	vecs     [][]float32 // unit vectors (or zero)
	terms    [][]string  // distinct terms per slot, to undo postings on replace
	lens     []int32     // terms per slot (BM25 length)
	totalLen int64
	postings map[string][]posting
	entities map[string]int // normalized entity -> chunk count
}

// NewMemory returns an empty store for vectors of the named embedder.
func NewMemory(embedder string, dim int) (*Memory, error) {
	if embedder == "" || dim <= 0 {
		return nil, fmt.Errorf("vectorstore: memory store needs an embedder name and a positive dimension, got %q/%d", embedder, dim)
	}
	return &Memory{
		info:     Info{Embedder: embedder, Dim: dim},
		slots:    map[string]int32{},
		postings: map[string][]posting{},
		entities: map[string]int{},
	}, nil
}

// Info names the embedder the store was built for.
func (m *Memory) Info(context.Context) (Info, error) { return m.info, nil }

// Ping always succeeds: the store is in-process.
func (m *Memory) Ping(context.Context) error { return nil }

// Upsert inserts points or replaces points with the same id.
func (m *Memory) Upsert(ctx context.Context, points []Point) error {
	for i, p := range points {
		if p.ID == "" {
			return fmt.Errorf("vectorstore: upsert point %d: empty id", i)
		}
		if len(p.Vector) != m.info.Dim {
			return fmt.Errorf("vectorstore: upsert %s: vector dimension %d, store holds %d (%s)", p.ID, len(p.Vector), m.info.Dim, m.info.Embedder)
		}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("vectorstore: upsert: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range points {
		m.upsertLocked(p)
	}
	return nil
}

func (m *Memory) upsertLocked(p Point) {
	slot, exists := m.slots[p.ID]
	if exists {
		m.removePostings(slot)
		m.entities[m.entity[slot]]--
		if m.entities[m.entity[slot]] <= 0 {
			delete(m.entities, m.entity[slot])
		}
	} else {
		slot = int32(len(m.ids))
		m.slots[p.ID] = slot
		m.ids = append(m.ids, p.ID)
		m.chunks = append(m.chunks, chunk.Chunk{})
		m.entity = append(m.entity, "")
		m.vecs = append(m.vecs, nil)
		m.terms = append(m.terms, nil)
		m.lens = append(m.lens, 0)
	}
	m.chunks[slot] = p.Chunk
	ek := EntityKey(p.Chunk.Entity)
	m.entity[slot] = ek
	if ek != "" {
		m.entities[ek]++
	}
	m.vecs[slot] = unit(p.Vector)
	ts := terms.Terms(p.Chunk.IndexText())
	tf := map[string]int32{}
	for _, t := range ts {
		tf[t]++
	}
	distinct := make([]string, 0, len(tf))
	for t, n := range tf {
		distinct = append(distinct, t)
		m.postings[t] = append(m.postings[t], posting{slot: slot, tf: n})
	}
	m.terms[slot] = distinct
	m.totalLen += int64(len(ts)) - int64(m.lens[slot])
	m.lens[slot] = int32(len(ts))
}

func (m *Memory) removePostings(slot int32) {
	for _, t := range m.terms[slot] {
		ps := m.postings[t]
		ps = slices.DeleteFunc(ps, func(p posting) bool { return p.slot == slot })
		if len(ps) == 0 {
			delete(m.postings, t)
		} else {
			m.postings[t] = ps
		}
	}
}

func unit(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return out
	}
	n := math.Sqrt(s)
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out
}

// compiled is a filter with its entity normalized once.
type compiled struct {
	f      Filter
	entity string
}

func compile(f Filter) compiled { return compiled{f: f, entity: EntityKey(f.Entity)} }

func (m *Memory) match(c compiled, slot int) bool {
	ch := &m.chunks[slot]
	f := &c.f
	if f.DocID != "" && ch.DocID != f.DocID {
		return false
	}
	if f.Locale != "" && ch.Locale != f.Locale {
		return false
	}
	if f.FirstChunks && ch.Index != 0 {
		return false
	}
	if f.Gate && ch.UnlocksAt > f.Unlocked {
		return false
	}
	if len(f.Categories) > 0 && !slices.Contains(f.Categories, ch.Category) {
		return false
	}
	if c.entity != "" && m.entity[slot] != c.entity {
		return false
	}
	return true
}

type scored struct {
	slot  int32
	score float64
}

// Search runs a hybrid query: the dense ranking (cosine) and the BM25
// ranking of the query text are fused by reciprocal rank, then chunks of
// any entity named verbatim in the query text are moved first.
func (m *Memory) Search(ctx context.Context, q Query) ([]Hit, error) {
	if len(q.Vector) == 0 && strings.TrimSpace(q.Text) == "" {
		return nil, ErrEmptyQuery
	}
	if len(q.Vector) != 0 && len(q.Vector) != m.info.Dim {
		return nil, fmt.Errorf("vectorstore: search: query vector dimension %d, store holds %d (%s)", len(q.Vector), m.info.Dim, m.info.Embedder)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("vectorstore: search: %w", err)
	}
	limit := clampLimit(q.Limit)
	cf := compile(q.Filter)
	m.mu.RLock()
	defer m.mu.RUnlock()
	n := len(m.ids)
	allowed := make([]bool, n)
	for i := range n {
		allowed[i] = m.match(cf, i)
	}
	fused := make([]float64, n)
	inFusion := make([]bool, n)
	if len(q.Vector) != 0 {
		qv := unit(q.Vector)
		nz := nonZero(qv)
		dense := make([]scored, 0, n)
		for i := range n {
			if allowed[i] {
				if s := sparseDot(qv, nz, m.vecs[i]); s >= denseFloor {
					dense = append(dense, scored{int32(i), s})
				}
			}
		}
		addRanks(fused, inFusion, top(dense, rankList))
	}
	if kw := m.bm25(q.Text, allowed); len(kw) > 0 {
		addRanks(fused, inFusion, top(kw, rankList))
	}
	boosted := m.namedEntities(q.Text)
	var ranked []scored
	for i := range n {
		if !allowed[i] {
			continue
		}
		s := fused[i]
		if len(boosted) > 0 && m.entity[i] != "" && slices.Contains(boosted, m.entity[i]) {
			s += entityBoost
		} else if !inFusion[i] {
			continue
		}
		ranked = append(ranked, scored{int32(i), s})
	}
	ranked = top(ranked, limit)
	hits := make([]Hit, len(ranked))
	for i, r := range ranked {
		hits[i] = Hit{ID: m.ids[r.slot], Score: r.score, Chunk: m.chunks[r.slot]}
	}
	return hits, nil
}

func clampLimit(n int) int {
	if n <= 0 {
		return 10
	}
	return min(n, MaxLimit)
}

// nonZero lists the non-zero dimensions of v when they are few (short
// queries under a hashing embedder), or returns nil to use the dense dot.
func nonZero(v []float32) []int32 {
	var nz []int32
	for i, x := range v {
		if x != 0 {
			nz = append(nz, int32(i))
			if len(nz) > len(v)/4 {
				return nil
			}
		}
	}
	return nz
}

// sparseDot is the dot product of q and b visiting only q's non-zero
// dimensions nz (all of them when nz is nil).
func sparseDot(q []float32, nz []int32, b []float32) float64 {
	if nz == nil {
		return dot(q, b)
	}
	var s float32
	for _, i := range nz {
		s += q[i] * b[i]
	}
	return float64(s)
}

func dot(a, b []float32) float64 {
	var s float32
	b = b[:len(a)]
	for i, x := range a {
		s += x * b[i]
	}
	return float64(s)
}

// top sorts by score (ties by slot, so results are deterministic) and keeps k.
func top(xs []scored, k int) []scored {
	slices.SortFunc(xs, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.slot, b.slot)
	})
	if len(xs) > k {
		xs = xs[:k]
	}
	return xs
}

func addRanks(fused []float64, in []bool, ranking []scored) {
	for rank, s := range ranking {
		if s.score <= 0 {
			break
		}
		fused[s.slot] += 1 / (rrfK + float64(rank+1))
		in[s.slot] = true
	}
}

// bm25 scores allowed slots against the query text's terms.
func (m *Memory) bm25(text string, allowed []bool) []scored {
	qt := terms.Terms(text)
	if len(qt) == 0 || len(m.ids) == 0 {
		return nil
	}
	slices.Sort(qt)
	qt = slices.Compact(qt)
	n := float64(len(m.ids))
	avg := float64(m.totalLen) / n
	if avg == 0 {
		avg = 1
	}
	acc := map[int32]float64{}
	for _, t := range qt {
		ps := m.postings[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			if !allowed[p.slot] {
				continue
			}
			tf := float64(p.tf)
			norm := tf + bm25K1*(1-bm25B+bm25B*float64(m.lens[p.slot])/avg)
			acc[p.slot] += idf * tf * (bm25K1 + 1) / norm
		}
	}
	out := make([]scored, 0, len(acc))
	for s, v := range acc {
		out = append(out, scored{s, v})
	}
	return out
}

// namedEntities returns the known entities whose full name appears in text
// as a whole-word sequence.
func (m *Memory) namedEntities(text string) []string {
	q := terms.Normalize(text)
	if q == "" || len(m.entities) == 0 {
		return nil
	}
	q = " " + q + " "
	var out []string
	for e := range m.entities {
		if strings.Contains(q, " "+e+" ") {
			out = append(out, e)
		}
	}
	return out
}

// List returns up to limit chunks passing f (0 means all), ordered by
// document id and chunk index.
func (m *Memory) List(ctx context.Context, f Filter, limit int) ([]Point, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("vectorstore: list: %w", err)
	}
	cf := compile(f)
	m.mu.RLock()
	var out []Point
	for i := range m.ids {
		if m.match(cf, i) {
			out = append(out, Point{ID: m.ids[i], Chunk: m.chunks[i]})
		}
	}
	m.mu.RUnlock()
	slices.SortFunc(out, func(a, b Point) int {
		if c := strings.Compare(a.Chunk.DocID, b.Chunk.DocID); c != 0 {
			return c
		}
		return cmp.Compare(a.Chunk.Index, b.Chunk.Index)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Count returns how many chunks pass f.
func (m *Memory) Count(ctx context.Context, f Filter) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("vectorstore: count: %w", err)
	}
	cf := compile(f)
	m.mu.RLock()
	defer m.mu.RUnlock()
	n := 0
	for i := range m.ids {
		if m.match(cf, i) {
			n++
		}
	}
	return n, nil
}
