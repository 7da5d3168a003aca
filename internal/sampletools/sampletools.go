// Package sampletools builds the sample game served by the real tools for
// tests: SQLite from data.Sample(), the cache snapshot, the GCS tools, the
// embedded RAG index over a content directory and the default screen rules.
package sampletools

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/gameassist/gameassist/data"
	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
	toolscache "github.com/gameassist/gameassist/tools_cache"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
	toolsrag "github.com/gameassist/gameassist/tools_rag"
)

// World is the sample game served by the real tools.
type World struct {
	// Exec runs every sample-game tool.
	Exec *tool.Executor
	// Rules are the default screen rules, validated against the tools.
	Rules *screens.Engine
	// Game is the read model (its one name resolver, which the offline
	// responder reads names with).
	Game *gcsdb.Game
	db   *sql.DB
}

// Close closes the world's database.
func (w *World) Close() error { return w.db.Close() }

// Open builds the sample world: its SQLite database in dir (which the
// caller removes after Close), the RAG index over contentDir, the tools and
// the screen rules. It serves a package's tests that share one world
// (built in TestMain or once on first use), where Build serves one test.
func Open(ctx context.Context, dir, contentDir string) (*World, error) {
	log := slog.New(slog.DiscardHandler)
	g, err := data.Sample()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "gcs.db")
	if _, err := gcsdb.Prepare(ctx, path, g, log); err != nil {
		return nil, err
	}
	db, err := gcsdb.OpenReadOnly(ctx, path)
	if err != nil {
		return nil, err
	}
	w, err := build(ctx, db, contentDir, log)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return w, nil
}

// Build returns an executor over every sample-game tool, the default screen
// rules validated against them and the game's read model (its one name
// resolver, which the offline responder reads names with); contentDir holds
// the RAG documents. It fails tb on any error.
func Build(tb testing.TB, contentDir string) (*tool.Executor, *screens.Engine, *gcsdb.Game) {
	tb.Helper()
	g, err := data.Sample()
	if err != nil {
		tb.Fatal(err)
	}
	w, err := build(context.Background(), gcsdbtest.Open(tb, g), contentDir, slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatal(err)
	}
	return w.Exec, w.Rules, w.Game
}

func build(ctx context.Context, db *sql.DB, contentDir string, log *slog.Logger) (*World, error) {
	snap, err := toolscache.NewSnapshot(ctx, db, log)
	if err != nil {
		return nil, err
	}
	gcs, err := toolsgcs.New(db, log)
	if err != nil {
		return nil, err
	}
	ret, _, err := toolsrag.OpenEmbedded(ctx, contentDir, log, nil)
	if err != nil {
		return nil, err
	}
	rag, err := toolsrag.NewTools(ret, log, toolsrag.ToolsOptions{})
	if err != nil {
		return nil, err
	}
	reg := tool.NewRegistry()
	cacheTools, err := snap.Tools()
	if err != nil {
		return nil, err
	}
	if err := reg.Register(append(append(cacheTools, gcs...), rag...)...); err != nil {
		return nil, err
	}
	exec, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		return nil, err
	}
	names, err := gcsdb.NewNames(db)
	if err != nil {
		return nil, err
	}
	rules, err := screens.NewEngine("", reg, names, log)
	if err != nil {
		return nil, err
	}
	game, err := gcsdb.NewGame(db)
	if err != nil {
		return nil, err
	}
	return &World{Exec: exec, Rules: rules, Game: game, db: db}, nil
}
