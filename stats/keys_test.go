package stats_test

import (
	"context"
	"github.com/gameassist/gameassist/tool"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/stats"
)

// TestOnlyKnownToolsGetKeys: names an LLM makes up are counted under one
// UnknownToolName row, never under keys or rows of their own; known tools
// keep theirs.
func TestOnlyKnownToolsGetKeys(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		prefix := srv.Prefix(t)
		rdb := srv.UniversalClient(t)
		known := map[string]bool{"gcs_get_champion_details": true}
		r, err := stats.New(rdb, prefix, func(n string) bool { return known[n] })
		if err != nil {
			t.Fatal(err)
		}
		recs := []stats.ToolRecord{rec("gcs_get_champion_details", "gcs", tool.SourceExecuted, stats.StatusSuccess, time.Millisecond)}
		for _, made := range []string{"get_weather", "gcs_db_querry", "tool_0001", "tool_0002"} {
			r := rec(made, "unknown", tool.SourceExecuted, stats.StatusError, 0)
			r.Version = 2
			recs = append(recs, r)
		}
		if err := r.RecordTools(ctx, recs...); err != nil {
			t.Fatal(err)
		}
		rep, err := r.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Tools) != 2 || find(rep.Tools, stats.UnknownToolName).Calls != 4 || find(rep.Tools, "gcs_get_champion_details").Calls != 1 {
			t.Fatalf("tools = %+v, want the known tool and one %s row of 4 calls", rep.Tools, stats.UnknownToolName)
		}
		for _, k := range redistest.Keys(t, rdb, prefix) {
			for _, made := range []string{"get_weather", "gcs_db_querry", "tool_0001", "tool_0002"} {
				if strings.Contains(k, made) {
					t.Errorf("key %s names the made-up tool %s", k, made)
				}
			}
		}
	})
}

// TestEveryStatsKeyExpires: every key the recorder writes carries a TTL
// (renewed by each write), so none stays in Redis forever.
func TestEveryStatsKeyExpires(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		prefix := srv.Prefix(t)
		rdb := srv.UniversalClient(t)
		r, err := stats.New(rdb, prefix, nil)
		if err != nil {
			t.Fatal(err)
		}
		versioned := rec("tool_a", "gcs", tool.SourceExecuted, stats.StatusSuccess, time.Millisecond)
		versioned.Version = 2
		if err := r.RecordTools(ctx, versioned, rec("tool_b", "rag", tool.SourceCache, stats.StatusSuccess, 0)); err != nil {
			t.Fatal(err)
		}
		if err := r.RecordLLM(ctx, stats.LLMRecord{PromptTokens: 3, CompletionTokens: 4, Duration: time.Second}); err != nil {
			t.Fatal(err)
		}
		if err := r.RecordTurn(ctx, time.Second); err != nil {
			t.Fatal(err)
		}
		keys := redistest.Keys(t, rdb, prefix)
		if len(keys) < 7 {
			t.Fatalf("only %d keys written: %v", len(keys), keys)
		}
		for _, k := range keys {
			ttl, err := rdb.PTTL(ctx, k).Result()
			if err != nil {
				t.Fatal(err)
			}
			if ttl <= 0 || ttl > stats.DefaultTTL {
				t.Errorf("key %s: PTTL %s, want within (0, %s]", k, ttl, stats.DefaultTTL)
			}
		}
	})
}
