package toolsrag

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/textsearch/embed"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

// GateCases checks the spoiler gate of a retriever over the gated test
// content (testdata/gated): the locked document is searched, listed and
// read only by a player whose progress reached its unlocks_at.
func checkGate(t *testing.T, r *Retriever) {
	t.Helper()
	at := time.Unix(1_800_000_000, 0)
	state := func(s string) context.Context {
		st, err := player.Parse("p", "v", at, []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return tool.WithPlayer(context.Background(), st)
	}
	for _, tc := range []struct {
		name string
		ctx  context.Context
		see  bool
	}{
		{"no state", context.Background(), false},
		{"chapter 5", state(`{"progress":{"chapter":5}}`), false},
		{"chapter as text", state(`{"progress":{"chapter":"9"}}`), false},
		{"chapter 6", state(`{"progress":{"chapter":6}}`), true},
		{"chapter 7.5", state(`{"progress":{"chapter":7.5}}`), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := r.Search(tc.ctx, "Ashen Crown lighthouse keeper Hollow King", vectorstore.Filter{}, 10)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, h := range hits {
				ids = append(ids, h.Chunk.DocID)
			}
			if got := slices.Contains(ids, "lore-locked-crown"); got != tc.see {
				t.Errorf("search hits %v: locked document seen %v, want %v", ids, got, tc.see)
			}
			if !slices.Contains(ids, "lore-open-harbor") {
				t.Errorf("search hits %v lack the open document", ids)
			}
			chunks, err := r.Chunks(tc.ctx, vectorstore.Filter{DocID: "lore-locked-crown"}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if (len(chunks) > 0) != tc.see {
				t.Errorf("reading the locked document gave %d chunks", len(chunks))
			}
			docs, err := r.Documents(tc.ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			listed := slices.ContainsFunc(docs, func(d DocumentInfo) bool { return d.DocID == "lore-locked-crown" })
			if listed != tc.see {
				t.Errorf("catalog lists the locked document: %v, want %v", listed, tc.see)
			}
		})
	}
}

func TestSpoilerGateEmbedded(t *testing.T) {
	h, _ := embed.NewHashing(embed.HashingOptions{})
	m, _ := vectorstore.NewMemory(h.Name(), h.Dim())
	if _, err := Ingest(context.Background(), "testdata/gated", h, m, nil); err != nil {
		t.Fatal(err)
	}
	r, err := NewRetriever(h, m, slog.New(slog.DiscardHandler), RetrieverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkGate(t, r)
}
