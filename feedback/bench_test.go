package feedback_test

import (
	"context"
	"testing"

	"github.com/gameassist/gameassist/feedback"
	"github.com/gameassist/gameassist/memory"
)

// BenchmarkRate measures one rating end to end on a real redis-server:
// reading the session, its exchange and history, and the stream write.
func BenchmarkRate(b *testing.B) {
	ctx := context.Background()
	rdb := backends[0].UniversalClient(b)
	prefix := backends[0].Prefix(b)
	mem, err := memory.New(rdb, memory.Options{Prefix: prefix})
	if err != nil {
		b.Fatal(err)
	}
	st, err := feedback.NewStore(rdb, feedback.Options{Prefix: prefix, Max: 10_000})
	if err != nil {
		b.Fatal(err)
	}
	svc, err := feedback.NewService(mem, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := mem.CreateSession(ctx, memory.Meta{ID: "s", Locale: "en"}); err != nil {
		b.Fatal(err)
	}
	for n := 1; n <= 10; n++ {
		if _, err := mem.BeginTurn(ctx, "s"); err != nil {
			b.Fatal(err)
		}
		if err := mem.FinishTurn(ctx, "s", memory.Finish{Messages: []memory.Message{{Role: "user", Content: "q", Exchange: n}, {Role: "assistant", Content: "a", Exchange: n}}}); err != nil {
			b.Fatal(err)
		}
		if err := mem.SaveExchange(ctx, "s", memory.Exchange{Exchange: n, Message: "q", Reply: "a", Screen: bossScreen, Tools: []memory.ExchangeTool{counters(1)}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		rating := feedback.Up
		if i%2 == 0 {
			rating = feedback.Down
		}
		if _, _, err := svc.Rate(ctx, feedback.Rating{SessionID: "s", Exchange: 10, Rating: rating, Comment: "x"}); err != nil {
			b.Fatal(err)
		}
	}
}
