package stats_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/stats"
	"github.com/gameassist/gameassist/tool"
)

// backends are the package's shared single redis-server and 3-master
// cluster (see redistest.MainBackends): storage tests run on both.
var backends []redistest.Backend

func TestMain(m *testing.M) {
	redistest.MainBackends(m, func(s *redistest.Server, c *redistest.Cluster) {
		backends = []redistest.Backend{s, c}
	})
}

func newRecorder(tb testing.TB, srv redistest.Backend, prefix string) *stats.Recorder {
	tb.Helper()
	r, err := stats.New(srv.UniversalClient(tb), prefix, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func rec(name, cat string, source tool.Source, status string, d time.Duration) stats.ToolRecord {
	return stats.ToolRecord{Tool: name, Category: cat, Source: source, Status: status, Duration: d}
}

func find(ts []stats.ToolStats, name string) stats.ToolStats {
	for _, t := range ts {
		if t.Name == name {
			return t
		}
	}
	return stats.ToolStats{Name: "<missing " + name + ">"}
}

// TestTwoRecordersSum: two instances (own clients) write; either reads the sum.
func TestTwoRecordersSum(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		prefix := srv.Prefix(t)
		a, b := newRecorder(t, srv, prefix), newRecorder(t, srv, prefix)
		const ms = time.Millisecond
		if err := a.RecordTools(ctx,
			rec("gcs_get_champion_details", "gcs", tool.SourceExecuted, stats.StatusSuccess, 3*ms),
			rec("gcs_get_champion_details", "gcs", tool.SourceCache, stats.StatusSuccess, 0),
			rec("gcs_get_champion_details", "gcs", tool.SourceExecuted, stats.StatusError, 3*ms),
			rec("rag_get_boss_details", "rag", tool.SourceProactive, stats.StatusSuccess, 3*ms),
		); err != nil {
			t.Fatal(err)
		}
		if err := b.RecordTools(ctx,
			rec("gcs_get_champion_details", "gcs", tool.SourceDuplicate, stats.StatusSuccess, 0),
			rec("gcs_get_boss_details", "gcs", tool.SourceExecuted, stats.StatusSuccess, 3*ms),
			rec("rag_get_boss_details", "rag", tool.SourceSkipped, stats.StatusSuccess, 0),
			rec("db_get_ux_details", "rag", tool.SourceMCP, stats.StatusSuccess, 5*ms),
		); err != nil {
			t.Fatal(err)
		}
		for _, r := range []*stats.Recorder{a, b} {
			if err := r.RecordLLM(ctx, stats.LLMRecord{PromptTokens: 100, CompletionTokens: 20, Duration: 800 * ms}); err != nil {
				t.Fatal(err)
			}
			if err := r.RecordTurn(ctx, time.Second); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.RecordLLM(ctx, stats.LLMRecord{Err: true, Degraded: true, Duration: 30 * ms}); err != nil {
			t.Fatal(err)
		}

		for _, r := range []*stats.Recorder{a, b} {
			rep, err := r.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			champ := find(rep.Tools, "gcs_get_champion_details")
			tests := []struct {
				name      string
				got, want float64
			}{
				{"champion calls", float64(champ.Calls), 4},
				{"champion errors", float64(champ.Errors), 1},
				{"champion cache hits", float64(champ.CacheHits), 1},
				{"champion duplicates", float64(champ.Duplicates), 1},
				{"champion executed", float64(champ.Executed), 2},
				{"champion error rate", champ.ErrorRate, 0.25},
				{"champion mean ms (executed only)", champ.MeanMS, 3},
				{"rag proactive", float64(find(rep.Tools, "rag_get_boss_details").Proactive), 1},
				{"rag skipped", float64(find(rep.Tools, "rag_get_boss_details").Skipped), 1},
				{"gcs category calls", float64(find(rep.Categories, "gcs").Calls), 5},
				{"gcs category executed", float64(find(rep.Categories, "gcs").Executed), 3},
				{"gcs category error rate", find(rep.Categories, "gcs").ErrorRate, 0.2},
				{"rag category calls", float64(find(rep.Categories, "rag").Calls), 3},
				{"ux mcp calls", float64(find(rep.Tools, "db_get_ux_details").MCP), 1},
				{"ux mean ms (mcp calls ran the tool)", find(rep.Tools, "db_get_ux_details").MeanMS, 5},
				{"rag category mcp", float64(find(rep.Categories, "rag").MCP), 1},
				{"llm calls", float64(rep.LLM.Calls), 3},
				{"llm errors", float64(rep.LLM.Errors), 1},
				{"llm degraded", float64(rep.LLM.Degraded), 1},
				{"llm prompt tokens", float64(rep.LLM.PromptTokens), 200},
				{"llm total tokens", float64(rep.LLM.TotalTokens), 240},
				{"turns", float64(rep.Turns.Count), 2},
				{"turn mean ms", rep.Turns.MeanMS, 1000},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					if math.Abs(tt.got-tt.want) > 1e-9 {
						t.Errorf("got %v, want %v", tt.got, tt.want)
					}
				})
			}
			// 3ms lies in the (2.5ms, 5ms] bucket, 1s in (500ms, 1s].
			for _, q := range []struct {
				name   string
				got    float64
				lo, hi float64
			}{
				{"champion p50", champ.P50MS, 2.5, 5},
				{"champion p95", champ.P95MS, 2.5, 5},
				{"gcs category p50", find(rep.Categories, "gcs").P50MS, 2.5, 5},
				{"turn p50", rep.Turns.P50MS, 500, 1000},
				{"turn p95", rep.Turns.P95MS, 500, 1000},
			} {
				if q.got <= q.lo || q.got > q.hi {
					t.Errorf("%s = %v ms, want in (%v, %v]", q.name, q.got, q.lo, q.hi)
				}
			}
			// Two LLM calls of 800ms and one of 30ms: the median is slow.
			if p := rep.LLM.P50MS; p <= 500 || p > 1000 {
				t.Errorf("llm p50 = %v ms, want in (500, 1000]", p)
			}
			if got := rep.TopTools; len(got) != 4 || got[0].Name != "gcs_get_champion_details" || got[0].Calls != 4 {
				t.Errorf("top tools = %+v", got)
			}
			if len(rep.Categories) != 2 || rep.Categories[0].Name != "gcs" {
				t.Errorf("categories = %+v", rep.Categories)
			}
		}
	})
}

// TestPercentiles: p50 and p95 land in the histogram bucket that holds
// them, read from a single node and from a cluster.
func TestPercentiles(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		// fast calls take 0.8ms, in the (0.5ms, 1ms] bucket; slow ones
		// 900ms, in (500ms, 1000ms].
		const fastLo, fastHi, slowLo, slowHi = 0.5, 1, 500, 1000
		tests := []struct {
			name         string
			fast, slow   int
			p50lo, p50hi float64
			p95lo, p95hi float64
		}{
			{"tail beyond 5 percent", 90, 10, fastLo, fastHi, slowLo, slowHi},
			{"tail within 5 percent", 95, 5, fastLo, fastHi, fastLo, fastHi},
			{"half and half: the median is the fast bucket's top", 50, 50, fastLo, fastHi, slowLo, slowHi},
			{"mostly slow", 10, 90, slowLo, slowHi, slowLo, slowHi},
			{"all fast", 10, 0, fastLo, fastHi, fastLo, fastHi},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := newRecorder(t, srv, srv.Prefix(t))
				var recs []stats.ToolRecord
				for range tt.fast {
					recs = append(recs, rec("t", "gcs", tool.SourceExecuted, stats.StatusSuccess, 800*time.Microsecond))
				}
				for range tt.slow {
					recs = append(recs, rec("t", "gcs", tool.SourceExecuted, stats.StatusSuccess, 900*time.Millisecond))
				}
				if err := r.RecordTools(ctx, recs...); err != nil {
					t.Fatal(err)
				}
				rep, err := r.Snapshot(ctx)
				if err != nil {
					t.Fatal(err)
				}
				got := rep.Tools[0]
				if p := got.P50MS; p <= tt.p50lo || p > tt.p50hi {
					t.Errorf("p50 = %v ms, want in (%v, %v]", p, tt.p50lo, tt.p50hi)
				}
				if p := got.P95MS; p <= tt.p95lo || p > tt.p95hi {
					t.Errorf("p95 = %v ms, want in (%v, %v]", p, tt.p95lo, tt.p95hi)
				}
				if got.P50MS > got.P95MS {
					t.Errorf("p50 %v ms above p95 %v ms", got.P50MS, got.P95MS)
				}
			})
		}
	})
}

func TestBadRecords(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		r := newRecorder(t, srv, srv.Prefix(t))
		bad := []struct {
			name string
			rec  stats.ToolRecord
		}{
			{"unknown source", rec("t", "gcs", "invented", stats.StatusSuccess, 0)},
			{"unknown status", rec("t", "gcs", tool.SourceExecuted, "meh", 0)},
		}
		for _, tt := range bad {
			t.Run(tt.name, func(t *testing.T) {
				if err := r.RecordTools(ctx, rec("ok", "gcs", tool.SourceCache, stats.StatusSuccess, 0), tt.rec); err == nil {
					t.Error("RecordTools succeeded")
				}
			})
		}
		// Rejected batches write nothing; odd tool names are folded into one.
		if err := r.RecordTools(ctx,
			rec(strings.Repeat("x", 100), "gcs", tool.SourceExecuted, stats.StatusError, 0),
			rec("drop table; --", "gcs", tool.SourceExecuted, stats.StatusError, -time.Second),
		); err != nil {
			t.Fatal(err)
		}
		rep, err := r.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Tools) != 1 || rep.Tools[0].Name != stats.InvalidToolName || rep.Tools[0].Calls != 2 {
			t.Errorf("tools = %+v", rep.Tools)
		}
		if _, err := stats.New(nil, "", nil); err == nil {
			t.Error("New(nil) succeeded")
		}
	})
}

func TestEmptyAndDamaged(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		prefix := srv.Prefix(t)
		r := newRecorder(t, srv, prefix)
		rep, err := r.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		const want = `{"tools":[],"categories":[],"top_tools":[],"llm":{"calls":0,"errors":0,"degraded":0,` +
			`"prompt_tokens":0,"completion_tokens":0,"total_tokens":0,"mean_ms":0,"p50_ms":0,"p95_ms":0,"error_rate":0},` +
			`"turns":{"count":0,"mean_ms":0,"p50_ms":0,"p95_ms":0}}`
		if string(b) != want {
			t.Errorf("empty report JSON =\n%s\nwant\n%s", b, want)
		}
		if err := r.RecordTools(ctx, rec("t", "gcs", tool.SourceCache, stats.StatusSuccess, 0)); err != nil {
			t.Fatal(err)
		}
		rdb := srv.UniversalClient(t)
		if err := rdb.HSet(ctx, prefix+":{stats}:tool:t", "calls", "many").Err(); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Snapshot(ctx); err == nil {
			t.Error("Snapshot over a damaged counter succeeded")
		}
	})
}

func TestToolStatsJSON(t *testing.T) {
	b, err := json.Marshal(stats.ToolStats{Name: "t", Category: "gcs", CacheHits: 1})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"name":"t","category":"gcs","calls":0,"errors":0,"cache_hits":1,"duplicates":0,` +
		`"proactive":0,"executed":0,"skipped":0,"mcp":0,"mean_ms":0,"p50_ms":0,"p95_ms":0,"error_rate":0}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant %s", b, want)
	}
}
