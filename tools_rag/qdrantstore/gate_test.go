package qdrantstore

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/tool"
	toolsrag "github.com/gameassist/gameassist/tools_rag"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

// The spoiler gate reaches Qdrant as a payload filter: a locked chunk is
// never returned by the server for a player below its unlocks_at.
func TestSpoilerGatePayloadFilter(t *testing.T) {
	fake, s, h, _ := newStore(t)
	ctx := context.Background()
	if _, err := toolsrag.Ingest(ctx, "../testdata/gated", h, s, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, ok := fake.collections[s.Collection()].indexes["unlocks_at"]; !ok {
		t.Error("no payload index on unlocks_at")
	}
	r, err := toolsrag.NewRetriever(h, s, slog.New(slog.DiscardHandler), toolsrag.RetrieverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1_800_000_000, 0)
	withChapter := func(state string) context.Context {
		st, err := player.Parse("p", "v", at, []byte(state))
		if err != nil {
			t.Fatal(err)
		}
		return tool.WithPlayer(ctx, st)
	}
	for _, tc := range []struct {
		name string
		ctx  context.Context
		see  bool
	}{
		{"no state", ctx, false},
		{"chapter 5", withChapter(`{"progress":{"chapter":5}}`), false},
		{"chapter 6", withChapter(`{"progress":{"chapter":6}}`), true},
	} {
		hits, err := r.Search(tc.ctx, "Ashen Crown lighthouse keeper Hollow King", vectorstore.Filter{}, 10)
		if err != nil {
			t.Fatal(err)
		}
		seen := slices.ContainsFunc(hits, func(h vectorstore.Hit) bool { return h.Chunk.DocID == "lore-locked-crown" })
		if seen != tc.see {
			t.Errorf("%s: locked document seen %v, want %v", tc.name, seen, tc.see)
		}
		pts, err := r.Chunks(tc.ctx, vectorstore.Filter{DocID: "lore-locked-crown"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if (len(pts) > 0) != tc.see {
			t.Errorf("%s: listing the locked document gave %d chunks", tc.name, len(pts))
		}
	}
	// The filter sent is a payload condition, not a client-side cut.
	if f := filter(vectorstore.Filter{Gate: true, Unlocked: 5}); len(f.GetMustNot()) != 1 || f.GetMustNot()[0].GetField().GetKey() != "unlocks_at" {
		t.Fatalf("gate filter = %v", f)
	}
}
