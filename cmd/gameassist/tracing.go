package main

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/telemetry"
	"github.com/gameassist/gameassist/tool"
)

// The tracing wrappers below put spans around the chat engine's ports, so
// the engine itself carries no tracing code: a turn span around
// api.ChatService, an LLM span around chat.Completer, a plan span around
// chat.Planner, and tool spans from chat.Observer's reports (which know the
// source: executed, cache, duplicate, proactive, skipped).

// tracedChat adds the turn and screen-event spans.
type tracedChat struct {
	api.ChatService
	t *telemetry.Tracing
}

func (c tracedChat) Turn(ctx context.Context, req chat.TurnRequest, emit func(chat.Event)) (chat.Reply, error) {
	ctx, span := c.t.Start(ctx, "turn", telemetry.SessionIDKey.String(req.SessionID))
	defer span.End()
	rep, err := c.ChatService.Turn(ctx, req, emit)
	telemetry.Fail(span, err)
	span.SetAttributes(telemetry.ExchangeKey.Int(rep.Exchange), telemetry.DegradedKey.Bool(rep.Degraded))
	return rep, err
}

func (c tracedChat) ScreenEventAt(ctx context.Context, sessionID string, sc screens.Screen, ev memory.ScreenEvent) (chat.ScreenReply, error) {
	ctx, span := c.t.Start(ctx, "screen_event", telemetry.SessionIDKey.String(sessionID), telemetry.ScreenNameKey.String(sc.Name))
	defer span.End()
	rep, err := c.ChatService.ScreenEventAt(ctx, sessionID, sc, ev)
	telemetry.Fail(span, err)
	return rep, err
}

// tracedLLM adds one client span per LLM call with the GenAI attributes.
type tracedLLM struct {
	next  chat.Completer
	model string
	t     *telemetry.Tracing
}

func (l tracedLLM) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	ctx, span := l.t.StartChat(ctx, l.model)
	defer span.End()
	resp, err := l.next.Complete(ctx, req)
	l.finish(span, resp, err)
	return resp, err
}

func (l tracedLLM) Stream(ctx context.Context, req llm.Request, onText llm.StreamHandler) (llm.Response, error) {
	ctx, span := l.t.StartChat(ctx, l.model)
	defer span.End()
	resp, err := l.next.Stream(ctx, req, onText)
	l.finish(span, resp, err)
	return resp, err
}

func (tracedLLM) finish(span trace.Span, resp llm.Response, err error) {
	telemetry.Fail(span, err)
	var reasons []string
	if resp.FinishReason != "" {
		reasons = append(reasons, resp.FinishReason)
	}
	telemetry.ChatResult(span, resp.Usage.PromptTokens, resp.Usage.CompletionTokens, reasons...)
}

// tracedPlanner adds the screen-plan span.
type tracedPlanner struct {
	next chat.Planner
	t    *telemetry.Tracing
}

func (p tracedPlanner) Plan(ctx context.Context, sc screens.Screen, locale string) (screens.Plan, error) {
	ctx, span := p.t.Start(ctx, "screen_plan", telemetry.ScreenNameKey.String(sc.Name))
	defer span.End()
	plan, err := p.next.Plan(ctx, sc, locale)
	telemetry.Fail(span, err)
	skipped := 0
	for _, c := range plan.Calls {
		if c.Skipped != "" {
			skipped++
		}
	}
	span.SetAttributes(telemetry.ScreenMatchedKey.Bool(plan.Matched),
		telemetry.ScreenCallsKey.Int(len(plan.Calls)), telemetry.ScreenSkippedKey.Int(skipped))
	return plan, err
}

// tracingObserver turns each reported tool call into a span that covers
// the call's duration, then passes the report on.
type tracingObserver struct {
	next chat.Observer
	t    *telemetry.Tracing
}

func (o tracingObserver) ToolCalls(ctx context.Context, sessionID string, outs []tool.Outcome) {
	end := time.Now()
	for _, out := range outs {
		start := end.Add(-time.Duration(out.DurationMS * float64(time.Millisecond)))
		_, span := o.t.Tracer().Start(ctx, "execute_tool "+out.Name, trace.WithTimestamp(start),
			trace.WithAttributes(append(telemetry.ToolAttrs(out.Name, string(out.Source), string(out.Status)),
				attribute.String("gameassist.tool.reason", out.Reason), attribute.Int("gameassist.tool.version", out.Version))...))
		span.End(trace.WithTimestamp(end))
	}
	if o.next != nil {
		o.next.ToolCalls(ctx, sessionID, outs)
	}
}

func (o tracingObserver) LLMCall(ctx context.Context, u llm.Usage, d time.Duration, err error) {
	if o.next != nil {
		o.next.LLMCall(ctx, u, d, err)
	}
}

func (o tracingObserver) Turn(ctx context.Context, r chat.Reply, d time.Duration) {
	if o.next != nil {
		o.next.Turn(ctx, r, d)
	}
}
