// Package sampletools builds the sample game served by the real tools for
// tests: SQLite from data.Sample(), the cache snapshot, the GCS tools, the
// embedded RAG index over a content directory and the default screen rules.
package sampletools

import (
	"context"
	"log/slog"
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

// Build returns an executor over every sample-game tool, the default screen
// rules validated against them and the game's read model (its one name
// resolver, which the offline responder reads names with); contentDir holds
// the RAG documents. It fails tb on any error.
func Build(tb testing.TB, contentDir string) (*tool.Executor, *screens.Engine, *gcsdb.Game) {
	tb.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	g, err := data.Sample()
	if err != nil {
		tb.Fatal(err)
	}
	db := gcsdbtest.Open(tb, g)
	snap, err := toolscache.NewSnapshot(ctx, db, log)
	if err != nil {
		tb.Fatal(err)
	}
	gcs, err := toolsgcs.New(db, log)
	if err != nil {
		tb.Fatal(err)
	}
	ret, _, err := toolsrag.OpenEmbedded(ctx, contentDir, log, nil)
	if err != nil {
		tb.Fatal(err)
	}
	rag, err := toolsrag.NewTools(ret, log, toolsrag.ToolsOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	reg := tool.NewRegistry()
	cacheTools, err := snap.Tools()
	if err != nil {
		tb.Fatal(err)
	}
	if err := reg.Register(append(append(cacheTools, gcs...), rag...)...); err != nil {
		tb.Fatal(err)
	}
	exec, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	names, err := gcsdb.NewNames(db)
	if err != nil {
		tb.Fatal(err)
	}
	rules, err := screens.NewEngine("", reg, names, log)
	if err != nil {
		tb.Fatal(err)
	}
	game, err := gcsdb.NewGame(db)
	if err != nil {
		tb.Fatal(err)
	}
	return exec, rules, game
}
