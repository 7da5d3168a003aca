package gcsdb_test

import (
	"context"
	"testing"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
)

// BenchmarkVersion measures the data version check every tool call
// makes, with a context that can be cancelled as a call's can.
func BenchmarkVersion(b *testing.B) {
	game, err := gcsdb.NewGame(gcsdbtest.Open(b, gcsdbtest.Game()))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := game.Version(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
