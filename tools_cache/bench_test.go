package toolscache_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/tool"
	toolscache "github.com/gameassist/gameassist/tools_cache"
)

func BenchmarkListTools(b *testing.B) {
	snap, err := toolscache.NewSnapshot(context.Background(), gcsdbtest.Open(b, gamedata.Generate(42)), discard())
	if err != nil {
		b.Fatal(err)
	}
	ex := newExecutor(b, snap)
	cases := []struct{ name, tool, args string }{
		{"champions_all", "cache_get_champions_list", `{}`},
		{"champions_filtered", "cache_get_champions_list", `{"rarity": "Epic", "affinity": "Magic"}`},
		{"champions_prefix", "cache_get_champions_list", `{"name_prefix": "a"}`},
		{"bosses", "cache_get_bosses_list", `{}`},
		{"factions", "cache_get_factions_list", `{}`},
		{"dungeons", "cache_get_dungeons_list", `{}`},
		{"gear_sets", "cache_get_gear_sets_list", `{}`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			call := tool.Call{Name: c.tool, Arguments: json.RawMessage(c.args)}
			if r := ex.Execute(ctx, call); !r.OK() {
				b.Fatal(r.ForLLM())
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				ex.Execute(ctx, call)
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(lat)
			pct := func(p float64) float64 {
				return float64(lat[min(len(lat)-1, int(float64(len(lat))*p))].Nanoseconds()) / 1e3
			}
			b.ReportMetric(pct(0.50), "p50-µs")
			b.ReportMetric(pct(0.99), "p99-µs")
		})
	}
}
