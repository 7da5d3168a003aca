package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/gameassist/gameassist/config"
	toolsrag "github.com/gameassist/gameassist/tools_rag"
)

// runMigrate creates or upgrades the GCS database and loads the sample game
// when its data changed; it is idempotent.
func runMigrate(ctx context.Context, args []string, cfg config.Config, logger *slog.Logger, stdout io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.StringVar(&cfg.GCSDBPath, "db", cfg.GCSDBPath, "GCS database path (GCS_DB_PATH)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ro, version, err := openGCS(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer ro.Close()
	fmt.Fprintf(stdout, "GCS database %s ready, data version %s\n", cfg.GCSDBPath, version)
	return nil
}

// runIngest chunks, embeds and upserts the RAG content into the configured
// store (Qdrant when QDRANT_URL is set); re-running it changes nothing.
func runIngest(ctx context.Context, args []string, cfg config.Config, logger *slog.Logger, stdout io.Writer) error {
	fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
	fs.StringVar(&cfg.ContentDir, "content", cfg.ContentDir, "content directory (CONTENT_DIR)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	emb, err := openEmbedder(ctx, cfg, logger)
	if err != nil {
		return err
	}
	store, closeStore, err := openStore(cfg, emb)
	if err != nil {
		return err
	}
	defer closeStore()
	sum, err := toolsrag.Ingest(ctx, cfg.ContentDir, emb, store, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ingested %s into %s: %+v\n", cfg.ContentDir, storeName(cfg), sum)
	return nil
}

func storeName(cfg config.Config) string {
	if cfg.QdrantURL != "" {
		return "qdrant " + cfg.QdrantURL
	}
	return "the embedded index (in memory; the server rebuilds it at start)"
}
