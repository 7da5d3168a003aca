package feedback_test

import (
	"context"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/feedback"
	"github.com/gameassist/gameassist/memory"
)

// The server's embedded default (no REDIS_URL) is miniredis: the stream
// commands and the script the store uses must work there too.
func TestStoreOnTheEmbeddedServer(t *testing.T) {
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	ctx := context.Background()
	st, err := feedback.NewStore(rdb, feedback.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := feedback.Record{SessionID: "s1", Exchange: 1, Rating: "down", Message: "q", Reply: "a", Screen: bossScreen, Tools: []memory.ExchangeTool{counters(1)}}
	first, replaced, err := st.Put(ctx, rec)
	if err != nil || replaced {
		t.Fatalf("Put = %v, replaced %v", err, replaced)
	}
	rec.Rating = "up"
	second, replaced, err := st.Put(ctx, rec)
	if err != nil || !replaced {
		t.Fatalf("second Put = %v, replaced %v", err, replaced)
	}
	rec.Exchange = 2
	if _, _, err := st.Put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	p, err := st.List(ctx, feedback.Query{Limit: 1})
	if err != nil || len(p.Records) != 1 || p.NextCursor == "" {
		t.Fatalf("List = %+v, %v", p, err)
	}
	p, err = st.List(ctx, feedback.Query{Limit: 1, Cursor: p.NextCursor})
	if err != nil || len(p.Records) != 1 || p.Records[0].ID != second.ID {
		t.Fatalf("second page = %+v, %v", p, err)
	}
	if _, err := st.Get(ctx, first.ID); err == nil {
		t.Error("the replaced record is still there")
	}
	s, err := st.Stats(ctx)
	if err != nil || s.Total.Up != 2 || s.Total.Down != 0 {
		t.Errorf("stats = %+v, %v", s.Total, err)
	}
}
