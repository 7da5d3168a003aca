package toolsrag

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gameassist/gameassist/textsearch/glossary"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/tools_rag/chunk"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

// DocumentInfo describes one indexed document.
type DocumentInfo struct {
	DocID    string `json:"document_id"`
	Title    string `json:"title"`
	Category string `json:"category"`
	Entity   string `json:"entity,omitempty"`
	EntityID int    `json:"entity_id,omitempty"`
	Locale   string `json:"locale"`
	// UnlocksAt is the document's spoiler gate (0: none).
	UnlocksAt int `json:"-"`
}

// RetrieverOptions tunes the retriever; zero values take the defaults.
type RetrieverOptions struct {
	// CatalogTTL is how long the document list is reused before it is read
	// from the store again (default 1 minute), so a re-ingest shows up.
	CatalogTTL time.Duration
	// Locale is preferred when an entity has documents in several locales
	// (default "en").
	Locale string
	// Glossary adds the documents' terms for the game words of other
	// languages a query holds (see package glossary); nil adds none.
	Glossary *glossary.Glossary
	// ProgressPath is where the player state holds the progress that
	// unlocks gated documents (default progress.chapter).
	ProgressPath string
}

// Retriever answers RAG queries over one store with one embedder; the RAG
// tools share it.
type Retriever struct {
	emb   Embedder
	store Store
	log   *slog.Logger
	opts  RetrieverOptions

	mu        sync.Mutex
	catalog   []DocumentInfo
	catalogAt time.Time
}

// NewRetriever returns a retriever over store, embedding queries with emb.
func NewRetriever(emb Embedder, store Store, logger *slog.Logger, opts RetrieverOptions) (*Retriever, error) {
	if emb == nil || store == nil || logger == nil {
		return nil, errors.New("toolsrag: retriever needs an embedder, a store and a logger")
	}
	if opts.CatalogTTL <= 0 {
		opts.CatalogTTL = time.Minute
	}
	if opts.Locale == "" {
		opts.Locale = "en"
	}
	if opts.ProgressPath == "" {
		opts.ProgressPath = DefaultProgressPath
	}
	return &Retriever{emb: emb, store: store, log: logger, opts: opts}, nil
}

// Ping reports whether the store is reachable.
func (r *Retriever) Ping(ctx context.Context) error {
	if err := r.store.Ping(ctx); err != nil {
		return fmt.Errorf("toolsrag: ping: %w", err)
	}
	return nil
}

// storeErr marks store failures a retry may fix as transient for the executor.
func storeErr(op string, err error) error {
	err = fmt.Errorf("toolsrag: %s: %w", op, err)
	if errors.Is(err, vectorstore.ErrUnavailable) {
		return tool.Transient(err)
	}
	return err
}

// Search embeds text and runs a hybrid search with filter f for k hits;
// the glossary's terms for the game words text holds are searched with it.
// It refuses a store built by another embedder.
func (r *Retriever) Search(ctx context.Context, text string, f vectorstore.Filter, k int) ([]vectorstore.Hit, error) {
	info, err := r.store.Info(ctx)
	if err != nil {
		return nil, storeErr("store info", err)
	}
	if err := vectorstore.CheckInfo(info, r.emb.Name(), r.emb.Dim()); err != nil {
		return nil, fmt.Errorf("toolsrag: search: %w", err)
	}
	text = r.opts.Glossary.Expand(text)
	vecs, err := r.emb.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("toolsrag: embed query: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("toolsrag: embed query: got %d vectors", len(vecs))
	}
	hits, err := r.store.Search(ctx, vectorstore.Query{Vector: vecs[0], Text: text, Filter: r.gate(ctx, f), Limit: k})
	if err != nil {
		return nil, storeErr("search", err)
	}
	return hits, nil
}

// Chunks returns the chunks passing f in document order (limit 0: all).
func (r *Retriever) Chunks(ctx context.Context, f vectorstore.Filter, limit int) ([]chunk.Chunk, error) {
	pts, err := r.store.List(ctx, r.gate(ctx, f), limit)
	if err != nil {
		return nil, storeErr("list", err)
	}
	out := make([]chunk.Chunk, len(pts))
	for i, p := range pts {
		out[i] = p.Chunk
	}
	return out, nil
}

// Documents returns the indexed documents passing keep (nil: all), ordered
// by document id. The list is cached for RetrieverOptions.CatalogTTL.
func (r *Retriever) Documents(ctx context.Context, keep func(DocumentInfo) bool) ([]DocumentInfo, error) {
	r.mu.Lock()
	fresh := r.catalog != nil && time.Since(r.catalogAt) < r.opts.CatalogTTL
	all := r.catalog
	r.mu.Unlock()
	if !fresh {
		pts, err := r.store.List(ctx, vectorstore.Filter{FirstChunks: true}, 0)
		if err != nil {
			return nil, storeErr("list documents", err)
		}
		all = make([]DocumentInfo, 0, len(pts))
		for _, p := range pts {
			c := p.Chunk
			all = append(all, DocumentInfo{DocID: c.DocID, Title: c.Title, Category: c.Category, Entity: c.Entity, EntityID: c.EntityID, Locale: c.Locale, UnlocksAt: c.UnlocksAt})
		}
		slices.SortFunc(all, func(a, b DocumentInfo) int { return strings.Compare(a.DocID, b.DocID) })
		r.mu.Lock()
		r.catalog, r.catalogAt = all, time.Now()
		r.mu.Unlock()
	}
	unlocked := r.Unlocked(ctx)
	var out []DocumentInfo
	for _, d := range all {
		if d.UnlocksAt <= unlocked && (keep == nil || keep(d)) {
			out = append(out, d)
		}
	}
	return out, nil
}

// DefaultProgressPath is where the sample game's player state holds the
// chapter reached.
const DefaultProgressPath = "progress.chapter"

// Unlocked is how far the player of ctx's session has progressed: the
// whole number at the progress path of their state, 0 without a state or
// a number there. Documents whose unlocks_at is above it are never
// retrieved for the session (the spoiler gate).
func (r *Retriever) Unlocked(ctx context.Context) int {
	p, ok := tool.PlayerFrom(ctx)
	if !ok {
		return 0
	}
	vals := tool.PlayerValues(p, r.opts.ProgressPath)
	if len(vals) != 1 {
		return 0
	}
	var f float64
	switch v := vals[0].(type) {
	case json.Number:
		x, err := v.Float64()
		if err != nil {
			return 0
		}
		f = x
	case float64:
		f = v
	default:
		return 0
	}
	if f < 0 || math.IsNaN(f) {
		return 0
	}
	return int(min(math.Floor(f), float64(math.MaxInt32)))
}

// gate adds the spoiler gate of ctx's session to f.
func (r *Retriever) gate(ctx context.Context, f vectorstore.Filter) vectorstore.Filter {
	f.Gate, f.Unlocked = true, r.Unlocked(ctx)
	return f
}

// LoadGlossary reads the glossary at the root of a content directory
// (glossary.FileName); name labels it in errors. A directory without one
// gives nil: no expansion.
func LoadGlossary(fsys fs.FS, name string) (*glossary.Glossary, error) {
	f, err := fsys.Open(glossary.FileName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("toolsrag: glossary: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, glossary.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("toolsrag: glossary: %w", err)
	}
	g, err := glossary.Parse(path.Join(name, glossary.FileName), data)
	if err != nil {
		return nil, fmt.Errorf("toolsrag: glossary: %w", err)
	}
	return g, nil
}
