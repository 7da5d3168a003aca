package chat

import (
	"context"
	"testing"
	"time"

	"github.com/gameassist/gameassist/data"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// BenchmarkPlayerStatePerTurn is what the player state adds to a turn
// once it is loaded (it travels in the turn's load round trip): decoding
// the demo player's 30-champion state, rendering the prompt's player block
// (names from a table) and reading the owned ids a bound tool gets.
func BenchmarkPlayerStatePerTurn(b *testing.B) {
	ps := &memory.PlayerState{PlayerID: data.DemoPlayerID, UpdatedAt: time.Unix(1_800_000_000, 0), State: data.DemoPlayer()}
	ps.Version = memory.PlayerVersion(ps.State)
	s := &Service{names: translator{}, opts: Options{ProgressPath: "progress.chapter"}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		pctx, st := s.withPlayer(ctx, ps)
		if st == nil {
			b.Fatal("state not decoded")
		}
		if s.playerBlock(pctx, st, nil, nil, "en") == "" {
			b.Fatal("no player block")
		}
		p, _ := tool.PlayerFrom(pctx)
		if len(tool.PlayerValues(p, "roster.id")) != 30 {
			b.Fatal("roster ids")
		}
	}
}
