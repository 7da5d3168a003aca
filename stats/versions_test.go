package stats_test

import (
	"context"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/stats"
	"github.com/gameassist/gameassist/tool"
)

// TestPerVersionStats: calls of a versioned tool count in the tool's totals
// and in their version's, so two versions of a rollout compare.
func TestPerVersionStats(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		r := newRecorder(t, srv, srv.Prefix(t))
		v := func(version int, source tool.Source, status string, d time.Duration) stats.ToolRecord {
			x := rec("cards_get_card", "gcs", source, status, d)
			x.Version = version
			return x
		}
		const ms = time.Millisecond
		if err := r.RecordTools(ctx,
			v(1, tool.SourceExecuted, stats.StatusSuccess, 2*ms),
			v(1, tool.SourceExecuted, stats.StatusSuccess, 2*ms),
			v(1, tool.SourceCache, stats.StatusSuccess, 0),
			v(2, tool.SourceExecuted, stats.StatusError, 40*ms),
			v(2, tool.SourceExecuted, stats.StatusSuccess, 40*ms),
			rec("cards_count", "gcs", tool.SourceExecuted, stats.StatusSuccess, ms),
		); err != nil {
			t.Fatal(err)
		}
		rep, err := r.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		card := find(rep.Tools, "cards_get_card")
		if card.Calls != 5 || card.Errors != 1 || card.CacheHits != 1 || len(card.Versions) != 2 {
			t.Fatalf("tool totals %+v", card)
		}
		v1, v2 := card.Versions[0], card.Versions[1]
		if v1.Version != 1 || v1.Calls != 3 || v1.Errors != 0 || v1.CacheHits != 1 || v1.Executed != 2 {
			t.Fatalf("version 1 %+v", v1)
		}
		if v2.Version != 2 || v2.Calls != 2 || v2.Errors != 1 || v2.ErrorRate != 0.5 || v2.Executed != 2 {
			t.Fatalf("version 2 %+v", v2)
		}
		if !(v2.MeanMS > v1.MeanMS) || v1.MeanMS != 2 || v2.MeanMS != 40 {
			t.Fatalf("mean ms v1 %.2f v2 %.2f", v1.MeanMS, v2.MeanMS)
		}
		if c := find(rep.Tools, "cards_count"); c.Calls != 1 || len(c.Versions) != 0 {
			t.Fatalf("unversioned tool %+v", c)
		}
		if len(rep.Tools) != 2 {
			t.Fatalf("per-version totals leaked into the tool list: %+v", rep.Tools)
		}
		if g := find(rep.Categories, "gcs"); g.Calls != 6 {
			t.Fatalf("category counts versions twice: %+v", g)
		}
	})
}
