package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// sleepy makes a toolbox tool take d per call.
func sleepy(ct *countingTool, d time.Duration) {
	ct.fn = func(ctx context.Context, _ map[string]any) (tool.Result, error) {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return tool.Result{}, ctx.Err()
		}
		return tool.Success("ok", map[string]any{"tool": ct.spec.Name}), nil
	}
}

// BenchmarkScreenEvent measures a screen event whose rule runs three tools
// (2, 4 and 6 ms): they run concurrently, so the event should take about
// the slowest tool, not the sum. It also measures the same event repeated
// on the same session (everything served from the session cache).
func BenchmarkScreenEvent(b *testing.B) {
	e := newEnv(b, envConfig{noLLM: true, screens: true})
	sleepy(e.box.get("db_get_ux_details"), 2*time.Millisecond)
	sleepy(e.box.get("gcs_get_character_details_by_id"), 4*time.Millisecond)
	sleepy(e.box.get("gcs_get_boss_details"), 6*time.Millisecond)
	ctx := context.Background()
	screen := func(i int) screens.Screen {
		return screens.Screen{
			Name: "ChampionFeatureModelsPresenter",
			Data: json.RawMessage(fmt.Sprintf(`{"ChampionConfigId": %d, "BossName": "Fire Knight"}`, 1001+i%500)),
		}
	}

	b.Run("tools-one-by-one-baseline", func(b *testing.B) {
		calls := []tool.Call{
			call("db_get_ux_details", `{"query":"ChampionFeatureModelsPresenter"}`),
			call("gcs_get_character_details_by_id", `{"character_id":1001}`),
			call("gcs_get_boss_details", `{"boss_name":"Fire Knight"}`),
		}
		per := make([]time.Duration, len(calls))
		for b.Loop() {
			for j, c := range calls {
				t0 := time.Now()
				e.box.exec.Execute(ctx, c)
				per[j] += time.Since(t0)
			}
		}
		var sum, slowest float64
		for _, d := range per {
			ms := float64(d.Microseconds()) / 1000 / float64(b.N)
			sum += ms
			slowest = max(slowest, ms)
		}
		b.ReportMetric(sum, "sum_ms")
		b.ReportMetric(slowest, "slowest_ms")
	})

	b.Run("new-screen-three-tools", func(b *testing.B) {
		ids := make([]string, b.N)
		for i := range ids {
			ids[i], _ = e.session(b)
		}
		durs := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for i := range b.N {
			t0 := time.Now()
			r, err := e.svc.ScreenEvent(ctx, ids[i], screen(i))
			if err != nil {
				b.Fatal(err)
			}
			durs = append(durs, time.Since(t0))
			if sources(r.Tools) != "proactive,proactive,proactive" {
				b.Fatalf("sources %s", sources(r.Tools))
			}
		}
		b.StopTimer()
		b.ReportMetric(percentile(durs, 0.50), "p50_ms")
		b.ReportMetric(percentile(durs, 0.99), "p99_ms")
	})

	b.Run("repeat-screen-cached", func(b *testing.B) {
		id, _ := e.session(b)
		if _, err := e.svc.ScreenEvent(ctx, id, screen(0)); err != nil {
			b.Fatal(err)
		}
		durs := make([]time.Duration, 0, b.N)
		b.ResetTimer()
		for range b.N {
			t0 := time.Now()
			if _, err := e.svc.ScreenEvent(ctx, id, screen(0)); err != nil {
				b.Fatal(err)
			}
			durs = append(durs, time.Since(t0))
		}
		b.StopTimer()
		b.ReportMetric(percentile(durs, 0.50), "p50_ms")
		b.ReportMetric(percentile(durs, 0.99), "p99_ms")
	})
}
