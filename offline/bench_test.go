package offline_test

import (
	"context"
	"encoding/json"
	"runtime"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// BenchmarkAnswer measures the time per answer over the evaluation set's
// questions. "responder" is the responder's own time (planning, name
// resolution, writing the reply): tool results are computed once
// beforehand and served from memory. "with_tools" runs the tools through
// the executor every time, the same-run baseline. Each reports p50 and p99
// of the thread's CPU time and of wall time per answer.
func BenchmarkAnswer(b *testing.B) {
	w := newSampleWorld(b)
	var qs []offline.Request
	for _, s := range loadScenarios(b, "../eval/offline") {
		var sc *screens.Screen
		// A conversation's questions are answered with the exchanges
		// before them, as the session holds them.
		conv := &conversation{}
		for _, st := range s.Steps {
			if st.Screen != nil {
				raw, err := json.Marshal(st.Screen.Data)
				if err != nil {
					b.Fatal(err)
				}
				sc = &screens.Screen{Name: st.Screen.Name, Data: raw}
				conv.screenAt = conv.tick()
				continue
			}
			req := offline.Request{Message: st.Say, Locale: s.Locale, History: slices.Clone(conv.history), ScreenAt: conv.screenAt}
			w.askIn(b, conv, s.Locale, sc, st.Say)
			if sc != nil {
				req.Screen, req.ScreenData = sc.Name, sc.Data
				plan, err := w.rules.Plan(context.Background(), *sc, s.Locale)
				if err != nil {
					b.Fatal(err)
				}
				for _, pc := range plan.Calls {
					if pc.Skipped == "" {
						req.Context = append(req.Context, offline.Prior{Name: pc.Name, Arguments: pc.Arguments, Result: w.exec.Execute(context.Background(), pc.Call)})
					}
				}
			}
			qs = append(qs, req)
		}
	}
	// Every tool result the answers need, computed once.
	memo := map[string]tool.Result{}
	memoRun := func(ctx context.Context, calls []tool.Call) []tool.Outcome {
		outs := make([]tool.Outcome, len(calls))
		for i, c := range calls {
			key, err := memory.CacheKey(c.Name, c.Arguments)
			if err != nil {
				b.Fatal(err)
			}
			res, ok := memo[key]
			if !ok {
				res = w.exec.Execute(ctx, c)
				memo[key] = res
			}
			outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Source: tool.SourceCache, Status: res.Status, Result: res}
		}
		return outs
	}
	ctx := context.Background()
	for _, q := range qs {
		w.resp.Answer(ctx, q, memoRun)
	}
	execRun := func(ctx context.Context, calls []tool.Call) []tool.Outcome {
		outs := make([]tool.Outcome, len(calls))
		for i, c := range calls {
			res := w.exec.Execute(ctx, c)
			outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Source: tool.SourceExecuted, Status: res.Status, Result: res}
		}
		return outs
	}
	b.Run("responder", func(b *testing.B) { measureAnswers(b, w, qs, memoRun) })
	b.Run("with_tools", func(b *testing.B) { measureAnswers(b, w, qs, execRun) })
}

// measureAnswers answers reqs in turn and reports per-answer percentiles.
func measureAnswers(b *testing.B, w *sampleWorld, reqs []offline.Request, run offline.RunFunc) {
	ctx := context.Background()
	// Wall time includes waiting for a CPU on a busy machine; the thread's
	// CPU time (CLOCK_THREAD_CPUTIME_ID, the goroutine locked to its thread)
	// is the responder's own work.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	walls := make([]time.Duration, 0, 4096)
	cpus := make([]time.Duration, 0, 4096)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c0 := threadCPU(b)
		start := time.Now()
		a := w.resp.Answer(ctx, reqs[i%len(reqs)], run)
		walls = append(walls, time.Since(start))
		cpus = append(cpus, threadCPU(b)-c0)
		if a.Text == "" {
			b.Fatal("empty answer")
		}
	}
	b.StopTimer()
	report := func(ds []time.Duration, unit string) {
		slices.Sort(ds)
		if len(ds) == 0 {
			return
		}
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds()), unit+"-p50-µs")
		b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds()), unit+"-p99-µs")
	}
	report(cpus, "cpu")
	report(walls, "wall")
}

// threadCPU is the CPU time of the calling OS thread.
func threadCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ts.Nano())
}
