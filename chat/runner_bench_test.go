package chat

import (
	"context"
	"testing"
	"time"

	"github.com/gameassist/gameassist/tool"
)

// BenchmarkRunnerOneCall measures a turn's tool phase with one call that
// misses the session cache (a scope, its batch of one and the cache entry
// prepared), with a context that can be cancelled as a turn's can, and
// reports the p50 and p99 wall time of a call in microseconds.
func BenchmarkRunnerOneCall(b *testing.B) {
	box := newToolbox(b)
	r, err := NewRunner(box.exec, nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := []tool.Call{call("gcs_get_champion_details", `{"champion_name":"Kaelith"}`)}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		sc := r.Scope(ctx, "s1", i, nil, false)
		if outs := sc.Run(ctx, calls); outs[0].Status != tool.StatusSuccess || len(sc.Puts()) != 1 {
			b.Fatalf("call: %s, %d puts", outs[0].Result.ForLLM(), len(sc.Puts()))
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(percentile(lat, 0.50)*1000, "p50-µs")
	b.ReportMetric(percentile(lat, 0.99)*1000, "p99-µs")
}
