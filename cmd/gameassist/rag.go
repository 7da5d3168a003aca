package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/qdrant/go-client/qdrant"

	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/content"
	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/textsearch/embed"
	"github.com/gameassist/gameassist/textsearch/glossary"
	"github.com/gameassist/gameassist/tool"
	toolsrag "github.com/gameassist/gameassist/tools_rag"
	"github.com/gameassist/gameassist/tools_rag/qdrantstore"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

// ragStack is the RAG tool family with the store behind it.
type ragStack struct {
	tools []tool.Tool
	ping  func(context.Context) error
	close func()
	// glossary is the content's (nil: none), for the offline responder.
	glossary *glossary.Glossary
	// for ingest
	embedder toolsrag.Embedder
	store    toolsrag.Store
}

// openEmbedder returns the configured embedder: the remote OpenAI-compatible
// one when EMBEDDINGS_MODEL is set, else the local hashing embedder.
func openEmbedder(ctx context.Context, cfg config.Config, logger *slog.Logger) (toolsrag.Embedder, error) {
	if cfg.EmbeddingsModel == "" {
		return embed.NewHashing(embed.HashingOptions{})
	}
	client, err := llm.New(llm.Options{
		BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, Model: cfg.OpenAIModel,
		EmbeddingsModel: cfg.EmbeddingsModel, Timeout: cfg.LLMTimeout, Logger: logger,
	})
	if err != nil {
		return nil, err
	}
	return embed.NewRemote(ctx, client, embed.RemoteOptions{Model: cfg.EmbeddingsModel})
}

// openStore returns the configured vector store: Qdrant when QDRANT_URL is
// set (the collection is filled by `gameassist ingest`), else the embedded
// in-memory store, empty until ingested.
func openStore(cfg config.Config, emb toolsrag.Embedder) (toolsrag.Store, func(), error) {
	if cfg.QdrantURL == "" {
		st, err := vectorstore.NewMemory(emb.Name(), emb.Dim())
		return st, func() {}, err
	}
	qcfg, err := qdrantstore.ConfigFromURL(cfg.QdrantURL, cfg.QdrantAPIKey)
	if err != nil {
		return nil, nil, err
	}
	// The client's own version probe blocks start-up on an unreachable
	// Qdrant and logs through the global logger; /readyz reports
	// reachability instead.
	qcfg.SkipCompatibilityCheck = true
	client, err := qdrant.NewClient(qcfg)
	if err != nil {
		return nil, nil, fmt.Errorf("qdrant: %w", err)
	}
	st, err := qdrantstore.New(client, emb.Name(), emb.Dim(), "")
	if err != nil {
		_ = client.Close()
		return nil, nil, err
	}
	return st, func() { _ = client.Close() }, nil
}

// openRAG wires the RAG tools. The embedded store is built from CONTENT_DIR
// now; Qdrant is used as it is, and an unreachable Qdrant leaves the server
// up with /readyz at 503 and RAG tools answering error envelopes. With a
// studio's own game (sample false) the sample game's RAG tools are left
// out. Every content file skipped, or of a category no tool searches, is
// logged at WARN.
func openRAG(ctx context.Context, cfg config.Config, logger *slog.Logger, sample bool) (*ragStack, error) {
	emb, err := openEmbedder(ctx, cfg, logger)
	if err != nil {
		return nil, err
	}
	store, closeStore, err := openStore(cfg, emb)
	if err != nil {
		return nil, err
	}
	var sum *toolsrag.Summary
	if cfg.QdrantURL == "" {
		s, err := ingestContent(ctx, cfg, emb, store, io.Discard)
		if err != nil {
			closeStore()
			return nil, fmt.Errorf("rag: index %s: %w", contentName(cfg), err)
		}
		logger.Info("embedded RAG index built", "content_dir", contentName(cfg), "summary", s)
		sum = &s
	}
	gloss, err := loadGlossary(cfg)
	if err != nil {
		closeStore()
		return nil, err
	}
	retriever, err := toolsrag.NewRetriever(emb, store, logger, toolsrag.RetrieverOptions{Glossary: gloss, ProgressPath: cfg.ProgressPath})
	if err != nil {
		closeStore()
		return nil, err
	}
	tools, err := toolsrag.NewTools(retriever, logger, toolsrag.ToolsOptions{StudioGame: !sample})
	if err != nil {
		closeStore()
		return nil, err
	}
	if sum != nil {
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Spec().Name
		}
		sum.Warn(ctx, logger, toolsrag.SearchedCategories(names))
	}
	return &ragStack{tools: tools, ping: retriever.Ping, close: closeStore, glossary: gloss, embedder: emb, store: store}, nil
}

// ingestContent indexes CONTENT_DIR, or the embedded sample documents when
// it is unset, so the binary runs from any directory.
func ingestContent(ctx context.Context, cfg config.Config, emb toolsrag.Embedder, store toolsrag.Store, progress io.Writer) (toolsrag.Summary, error) {
	if cfg.ContentDir == "" {
		return toolsrag.IngestFS(ctx, content.FS(), contentName(cfg), emb, store, progress)
	}
	return toolsrag.Ingest(ctx, cfg.ContentDir, emb, store, progress)
}

// loadGlossary reads CONTENT_DIR's glossary.json (none: no expansion), or
// the sample game's when CONTENT_DIR is unset.
func loadGlossary(cfg config.Config) (*glossary.Glossary, error) {
	if cfg.ContentDir == "" {
		return toolsrag.LoadGlossary(content.FS(), contentName(cfg))
	}
	return toolsrag.LoadGlossary(os.DirFS(cfg.ContentDir), cfg.ContentDir)
}

func contentName(cfg config.Config) string {
	if cfg.ContentDir == "" {
		return "the embedded sample content"
	}
	return cfg.ContentDir
}
