package toolsgcs_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/tool"
)

// benchCall runs one call b.N times through the executor and reports the
// p50 and p99 latency of a call in microseconds. The context can be
// cancelled, as a turn's is.
func benchCall(b *testing.B, ex *tool.Executor, name, args string) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	call := tool.Call{Name: name, Arguments: json.RawMessage(args)}
	if r := ex.Execute(ctx, call); !r.OK() {
		b.Fatalf("%s(%s): %s", name, args, r.ForLLM())
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
}

// The database file is an hour old, as a deployed game's is: the tools'
// data version checks find it unchanged.
func BenchmarkTools(b *testing.B) {
	g := gamedata.Generate(42)
	path := gcsdbtest.Prepare(b, g)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		b.Fatal(err)
	}
	db, err := gcsdb.OpenReadOnly(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	ex := newExecutor(b, db)
	champ, other, boss := g.Champions[len(g.Champions)/2].Name, g.Champions[3].Name, g.Bosses[0].Name
	q := func(v any) string { s, _ := json.Marshal(v); return string(s) }
	cases := []struct{ name, tool, args string }{
		{"champion_details", "gcs_get_champion_details", q(map[string]string{"champion_name": champ})},
		{"character_by_id", "gcs_get_character_details_by_id", q(map[string]int{"character_id": g.Champions[7].ID})},
		{"find_champions", "gcs_find_champions", `{"rarity": "Legendary", "min_spd": 100, "sort_by": "atk", "limit": 10}`},
		{"counters_for_boss", "gcs_find_counters_for_boss", q(map[string]string{"boss_name": boss})},
		{"compare_characters", "gcs_compare_characters", q(map[string][]string{"names": {champ, other, g.Champions[9].Name}})},
		{"boss_details", "gcs_get_boss_details", q(map[string]int{"boss_id": g.Bosses[1].ID})},
		{"db_query", "gcs_db_query", `{"sql": "SELECT name, atk FROM champions WHERE atk > :a ORDER BY atk DESC LIMIT 5", "params": {"a": 1000}}`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchCall(b, ex, c.tool, c.args) })
	}
}
