package toolsrag

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/gameassist/gameassist/textsearch/embed"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

// OpenEmbedded builds the default, server-free index: the hashing embedder
// and the in-memory store, filled from contentDir. It is what runs when no
// Qdrant URL is configured; progress (nil discards) gets Ingest's lines.
// The glossary at the root of contentDir, if any, expands queries.
func OpenEmbedded(ctx context.Context, contentDir string, logger *slog.Logger, progress io.Writer) (*Retriever, Summary, error) {
	if logger == nil {
		return nil, Summary{}, errors.New("toolsrag: open embedded index: nil logger")
	}
	emb, err := embed.NewHashing(embed.HashingOptions{})
	if err != nil {
		return nil, Summary{}, fmt.Errorf("toolsrag: open embedded index: %w", err)
	}
	store, err := vectorstore.NewMemory(emb.Name(), emb.Dim())
	if err != nil {
		return nil, Summary{}, fmt.Errorf("toolsrag: open embedded index: %w", err)
	}
	sum, err := Ingest(ctx, contentDir, emb, store, progress)
	if err != nil {
		return nil, sum, err
	}
	g, err := LoadGlossary(os.DirFS(contentDir), contentDir)
	if err != nil {
		return nil, sum, err
	}
	r, err := NewRetriever(emb, store, logger, RetrieverOptions{Glossary: g})
	if err != nil {
		return nil, sum, err
	}
	return r, sum, nil
}
