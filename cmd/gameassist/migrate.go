package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"log/slog"
	"os"

	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/gcsdb"
)

// runMigrate builds or upgrades the sample game with --sample (idempotent);
// without it, it only says what the database at GCS_DB_PATH is. It never
// writes to a studio's own database.
func runMigrate(ctx context.Context, args []string, cfg config.Config, logger *slog.Logger, stdout io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.StringVar(&cfg.GCSDBPath, "db", cfg.GCSDBPath, "GCS database path (GCS_DB_PATH)")
	sample := fs.Bool("sample", false, "build or upgrade the sample game at the path")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path := cfg.GCSDBPath
	kind, err := inspectGCS(ctx, path)
	if err != nil {
		return err
	}
	switch {
	case !*sample && kind.missing:
		return fmt.Errorf("migrate: no database at %s; `gameassist migrate --sample` builds the sample game there", path)
	case !*sample && kind.sample:
		fmt.Fprintf(stdout, "GCS database %s holds the sample game, data version %s; `gameassist migrate --sample` upgrades it\n", path, kind.version)
		return nil
	case !kind.missing && !kind.sample && !kind.ours:
		if *sample {
			return fmt.Errorf("migrate: %s is not a gameassist sample database (%d tables of its own): gameassist never writes to a studio's database; choose another path", path, kind.tables)
		}
		fmt.Fprintf(stdout, "GCS database %s is a studio's own (%d tables): it is opened as is, read-only; nothing to migrate\n", path, kind.tables)
		return nil
	}
	version, err := buildSample(ctx, path, logger)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "GCS database %s ready with the sample game, data version %s\n", path, version)
	return nil
}

// gcsKind is what a GCS path holds.
type gcsKind struct {
	missing bool
	sample  bool // the sample game, loaded
	ours    bool // gameassist's schema (a meta table) or no table at all
	version string
	tables  int
}

// inspectGCS says what the database at path is, opening it read-only.
func inspectGCS(ctx context.Context, path string) (gcsKind, error) {
	if _, err := os.Stat(path); errors.Is(err, iofs.ErrNotExist) {
		return gcsKind{missing: true}, nil
	} else if err != nil {
		return gcsKind{}, fmt.Errorf("gcs: %w", err)
	}
	ro, err := gcsdb.OpenReadOnly(ctx, path)
	if err != nil {
		return gcsKind{}, err
	}
	defer ro.Close()
	var k gcsKind
	if err := ro.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table'`).Scan(&k.tables); err != nil {
		return gcsKind{}, fmt.Errorf("gcs: %s: %w", path, err)
	}
	if k.version, k.sample, err = gcsdb.SampleVersion(ctx, ro); err != nil {
		return gcsKind{}, err
	}
	hasMeta, err := gcsdb.HasTable(ctx, ro, "meta")
	if err != nil {
		return gcsKind{}, err
	}
	k.ours = hasMeta || k.tables == 0
	return k, nil
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
	sum, err := ingestContent(ctx, cfg, emb, store, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ingested %s into %s: %+v\n", contentName(cfg), storeName(cfg), sum)
	return nil
}

func storeName(cfg config.Config) string {
	if cfg.QdrantURL != "" {
		return "qdrant " + cfg.QdrantURL
	}
	return "the embedded index (in memory; the server rebuilds it at start)"
}
