// Package toolsrag is the RAG tool family: the rag_* and db_*_details tools
// that answer from lore, guides, UX and patch-note documents through hybrid
// (dense + keyword) retrieval, plus the ingestion that fills a vector store
// from the content directory. Embedders and stores are interfaces declared
// here; the embedded defaults live in the embed and vectorstore subpackages,
// Qdrant in qdrantstore.
package toolsrag

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/gameassist/gameassist/tools_rag/chunk"
	"github.com/gameassist/gameassist/tools_rag/corpus"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

// Embedder turns texts into vectors. Name and Dim identify the vector space:
// an index built by one embedder is never searched with another.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Name() string
	Dim() int
}

// Store is a vector store holding chunks: the embedded vectorstore.Memory or
// qdrantstore.Store.
type Store interface {
	Upsert(ctx context.Context, points []vectorstore.Point) error
	Search(ctx context.Context, q vectorstore.Query) ([]vectorstore.Hit, error)
	// List returns chunks passing the filter in document order; limit 0 means all.
	List(ctx context.Context, f vectorstore.Filter, limit int) ([]vectorstore.Point, error)
	Count(ctx context.Context, f vectorstore.Filter) (int, error)
	// Info names the embedder the index was built for.
	Info(ctx context.Context) (vectorstore.Info, error)
	// Ping reports whether the store is reachable (for /readyz).
	Ping(ctx context.Context) error
}

// IngestBatch is how many chunks are embedded and upserted together.
const IngestBatch = 64

// Summary reports one ingestion.
type Summary struct {
	Documents int `json:"documents"`
	Chunks    int `json:"chunks"`
	// Skipped lists the files that could not be loaded, with the reason.
	Skipped  []string      `json:"skipped,omitempty"`
	Duration time.Duration `json:"duration"`
	// skipped are the files behind Skipped; paths are the loaded
	// documents' files by category. Warn reads both.
	skipped []*corpus.FileError
	paths   map[string][]string
}

// Warn logs one WARN per content file an operator should look at, naming
// the file and the reason: each skipped file, and each document whose
// category no specialised tool searches (searched holds the categories the
// registered tools filter on; only rag_semantic_search, rag_list_documents
// and rag_get_document reach such a document).
func (s Summary) Warn(ctx context.Context, logger *slog.Logger, searched map[string]bool) {
	for _, p := range s.skipped {
		logger.WarnContext(ctx, "content document skipped", slog.String("file", p.Path), slog.String("reason", p.Err.Error()))
	}
	cats := make([]string, 0, len(s.paths))
	for c := range s.paths {
		if !searched[c] {
			cats = append(cats, c)
		}
	}
	slices.Sort(cats)
	for _, c := range cats {
		for _, path := range s.paths[c] {
			logger.WarnContext(ctx, "content document of an unknown category", slog.String("file", path), slog.String("category", c),
				slog.String("reason", fmt.Sprintf("no specialised tool searches category %q; only rag_semantic_search and rag_get_document find it", c)))
		}
	}
}

// LogValue renders the summary for logs, its duration as a duration (the
// log handler writes "487ms", not a count of nanoseconds).
func (s Summary) LogValue() slog.Value {
	attrs := []slog.Attr{slog.Int("documents", s.Documents), slog.Int("chunks", s.Chunks), slog.Duration("duration", s.Duration)}
	if len(s.Skipped) > 0 {
		attrs = append(attrs, slog.Any("skipped", s.Skipped))
	}
	return slog.GroupValue(attrs...)
}

// Ingest loads every document under contentDir, splits it into chunks,
// embeds them in batches and upserts them into store, writing one progress
// line per batch to progress (nil discards). Point ids are derived from the
// document id and chunk index, so running it again overwrites instead of
// duplicating. Bad files are skipped and listed in the summary; a content
// directory with no loadable document is an error.
func Ingest(ctx context.Context, contentDir string, emb Embedder, store Store, progress io.Writer) (Summary, error) {
	return ingest(ctx, contentDir, func() ([]corpus.Document, []*corpus.FileError, error) { return corpus.Load(contentDir) }, emb, store, progress)
}

// IngestFS is Ingest over a file system, such as the embedded sample
// content; name labels it in errors.
func IngestFS(ctx context.Context, fsys fs.FS, name string, emb Embedder, store Store, progress io.Writer) (Summary, error) {
	return ingest(ctx, name, func() ([]corpus.Document, []*corpus.FileError, error) { return corpus.LoadFS(fsys, name) }, emb, store, progress)
}

func ingest(ctx context.Context, contentDir string, load func() ([]corpus.Document, []*corpus.FileError, error), emb Embedder, store Store, progress io.Writer) (Summary, error) {
	start := time.Now()
	if emb == nil || store == nil {
		return Summary{}, errors.New("toolsrag: ingest needs an embedder and a store")
	}
	if progress == nil {
		progress = io.Discard
	}
	info, err := store.Info(ctx)
	if err != nil {
		return Summary{}, fmt.Errorf("toolsrag: ingest: store info: %w", err)
	}
	if err := vectorstore.CheckInfo(info, emb.Name(), emb.Dim()); err != nil {
		return Summary{}, fmt.Errorf("toolsrag: ingest: %w", err)
	}
	docs, problems, err := load()
	if err != nil {
		return Summary{}, fmt.Errorf("toolsrag: ingest: %w", err)
	}
	sum := Summary{Documents: len(docs), skipped: problems, paths: map[string][]string{}}
	for _, d := range docs {
		sum.paths[d.Category] = append(sum.paths[d.Category], d.Path)
	}
	for _, p := range problems {
		sum.Skipped = append(sum.Skipped, p.Error())
		fmt.Fprintf(progress, "skip %s\n", p.Error())
	}
	if len(docs) == 0 {
		return sum, fmt.Errorf("toolsrag: ingest: no loadable document in %s (%d skipped)", contentDir, len(problems))
	}
	var chunks []chunk.Chunk
	for _, d := range docs {
		chunks = append(chunks, chunk.Split(d, chunk.Options{})...)
	}
	batches := (len(chunks) + IngestBatch - 1) / IngestBatch
	for b := range batches {
		part := chunks[b*IngestBatch : min((b+1)*IngestBatch, len(chunks))]
		texts := make([]string, len(part))
		for i, c := range part {
			texts[i] = c.IndexText()
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			return sum, fmt.Errorf("toolsrag: ingest: embed batch %d: %w", b+1, err)
		}
		if len(vecs) != len(part) {
			return sum, fmt.Errorf("toolsrag: ingest: embed batch %d: %d vectors for %d chunks", b+1, len(vecs), len(part))
		}
		points := make([]vectorstore.Point, len(part))
		for i, c := range part {
			points[i] = vectorstore.Point{ID: vectorstore.PointID(c.DocID, c.Index), Vector: vecs[i], Chunk: c}
		}
		if err := store.Upsert(ctx, points); err != nil {
			return sum, fmt.Errorf("toolsrag: ingest: upsert batch %d: %w", b+1, err)
		}
		sum.Chunks += len(part)
		fmt.Fprintf(progress, "ingest %s %3d%% batch %d/%d, %d/%d chunks\n",
			bar(b+1, batches, 20), (b+1)*100/batches, b+1, batches, sum.Chunks, len(chunks))
	}
	sum.Duration = time.Since(start)
	fmt.Fprintf(progress, "ingested %d documents, %d chunks, %d files skipped in %s\n",
		sum.Documents, sum.Chunks, len(sum.Skipped), sum.Duration.Round(time.Millisecond))
	return sum, nil
}

func bar(done, total, width int) string {
	n := done * width / total
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", width-n) + "]"
}
