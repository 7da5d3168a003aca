package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/metrics"
	"github.com/gameassist/gameassist/stats"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// observer feeds what the turn engine does to Prometheus (in process, at
// once) and to the Redis stats (batched in the background, so a turn never
// waits on a stats write).
type observer struct {
	reg     *tool.Registry
	m       *metrics.Metrics
	rec     *stats.Recorder
	log     *slog.Logger
	tools   chan stats.ToolRecord
	llms    chan stats.LLMRecord
	turns   chan time.Duration
	dropped atomic.Int64
	// flushing serializes flushes: the background one and a caller's.
	flushing sync.Mutex
}

var _ chat.Observer = (*observer)(nil)

// knownTool reports whether name is a tool of this server: a registered
// tool (read at each call, so a tools file reload counts) or one the chat
// engine answers itself. The stats count other names as one unknown row.
func knownTool(reg *tool.Registry) func(string) bool {
	return func(name string) bool {
		switch name {
		case toolselect.FindToolsName, toolselect.UseToolName, chat.SearchConversationName:
			return true
		}
		_, ok := reg.Spec(name)
		return ok
	}
}

func newObserver(reg *tool.Registry, m *metrics.Metrics, rec *stats.Recorder, logger *slog.Logger) *observer {
	return &observer{
		reg: reg, m: m, rec: rec, log: logger,
		tools: make(chan stats.ToolRecord, 8192),
		llms:  make(chan stats.LLMRecord, 1024),
		turns: make(chan time.Duration, 1024),
	}
}

// ToolCalls records each call: metrics at once, stats queued.
func (o *observer) ToolCalls(_ context.Context, _ string, outs []tool.Outcome) {
	for _, out := range outs {
		// Only registered tools get their own label (the metrics take no
		// fixed list: a tools file reload adds names).
		name, category := metrics.LabelUnknown, "unknown"
		if spec, ok := o.reg.Spec(out.Name); ok {
			name, category = spec.Name, string(spec.Category)
		}
		d := time.Duration(out.DurationMS * float64(time.Millisecond))
		o.m.ObserveTool(metrics.ToolObservation{
			Tool: name, Category: category, Source: out.Source, Status: string(out.Status),
			Duration: d, ResultChars: len(out.LLMView()), Truncated: out.Result.InternalInfo.Truncated,
			Version: out.Version,
		})
		o.enqueueTool(stats.ToolRecord{Tool: out.Name, Category: category, Source: out.Source, Status: string(out.Status), Duration: d, Version: out.Version})
	}
}

// LLMCall records one LLM call. A call that failed while the turn goes on
// makes the turn fall back to the offline responder: it counts as degraded.
func (o *observer) LLMCall(ctx context.Context, u llm.Usage, d time.Duration, err error) {
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		// The player went away: not an LLM failure.
		return
	}
	o.m.ObserveLLM(d, u.PromptTokens, u.CompletionTokens, err)
	rec := stats.LLMRecord{
		PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, Duration: d,
		Err: err != nil, Degraded: err != nil && ctx.Err() == nil,
	}
	select {
	case o.llms <- rec:
	default:
		o.dropped.Add(1)
	}
}

// Turn records a finished turn and how it was answered.
func (o *observer) Turn(_ context.Context, r chat.Reply, d time.Duration) {
	mode := "llm"
	switch {
	case r.Degraded:
		mode = "degraded"
	case r.Usage.PromptTokens == 0 && r.Usage.CompletionTokens == 0:
		mode = "offline"
	}
	o.m.ObserveTurn(mode)
	select {
	case o.turns <- d:
	default:
		o.dropped.Add(1)
	}
}

func (o *observer) enqueueTool(r stats.ToolRecord) {
	select {
	case o.tools <- r:
	default:
		o.dropped.Add(1)
	}
}

// run writes queued stats to Redis every half second until ctx ends, then
// flushes what is left.
func (o *observer) run(ctx context.Context) {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			o.flush(fctx)
			cancel()
			return
		case <-t.C:
			o.flush(ctx)
		}
	}
}

func (o *observer) flush(ctx context.Context) {
	o.flushing.Lock()
	defer o.flushing.Unlock()
	var batch []stats.ToolRecord
drain:
	for len(batch) < 4096 {
		select {
		case r := <-o.tools:
			batch = append(batch, r)
		default:
			break drain
		}
	}
	if len(batch) > 0 {
		if err := o.rec.RecordTools(ctx, batch...); err != nil {
			o.log.Warn("stats: tool records lost", "count", len(batch), "error", err.Error())
		}
	}
	llms := make([]stats.LLMRecord, 0, len(o.llms))
	for n := len(o.llms); n > 0; n-- {
		llms = append(llms, <-o.llms)
	}
	if err := o.rec.RecordLLM(ctx, llms...); err != nil {
		o.log.Warn("stats: LLM records lost", "count", len(llms), "error", err.Error())
	}
	turns := make([]time.Duration, 0, len(o.turns))
	for n := len(o.turns); n > 0; n-- {
		turns = append(turns, <-o.turns)
	}
	if err := o.rec.RecordTurn(ctx, turns...); err != nil {
		o.log.Warn("stats: turn records lost", "count", len(turns), "error", err.Error())
	}
	if d := o.dropped.Swap(0); d > 0 {
		o.log.Warn("stats: records dropped, queue full", "count", d)
	}
}
