package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// EvaluationEvent is the GenAI semantic conventions' event for the result
// of evaluating a model's answer.
const EvaluationEvent = "gen_ai.evaluation.result"

// Evaluation is one evaluation of an answer (a player's thumbs up or down).
type Evaluation struct {
	// Name names the evaluation ("player_feedback").
	Name string
	// Label is the score's label ("up", "down"); Score its value.
	Label string
	Score float64
	// TraceID and SpanID (hex) name the span of the evaluated answer; when
	// they parse, the evaluation joins that trace as a child of that span.
	TraceID, SpanID string
	// Attrs are more attributes of the event.
	Attrs []attribute.KeyValue
}

// Evaluate records e as a gen_ai.evaluation.result event on a span of its
// own, in the evaluated answer's trace (child of its span) and linked to
// the span of ctx (the request that brought the evaluation). It records
// nothing when tracing is off.
func (t *Tracing) Evaluate(ctx context.Context, e Evaluation) {
	if !t.enabled {
		return
	}
	opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindInternal)}
	parent := ctx
	if sc := remote(e.TraceID, e.SpanID); sc.IsValid() {
		if cur := trace.SpanContextFromContext(ctx); cur.IsValid() {
			opts = append(opts, trace.WithLinks(trace.Link{SpanContext: cur}))
		}
		parent = trace.ContextWithRemoteSpanContext(ctx, sc)
	}
	_, span := t.tracer.Start(parent, "evaluation "+e.Name, opts...)
	defer span.End()
	attrs := append([]attribute.KeyValue{
		semconv.GenAIEvaluationName(e.Name),
		semconv.GenAIEvaluationScoreLabel(e.Label),
		semconv.GenAIEvaluationScoreValue(e.Score),
	}, e.Attrs...)
	span.AddEvent(EvaluationEvent, trace.WithAttributes(attrs...))
}

// remote is the span context of a stored trace and span id, invalid when
// either does not parse.
func remote(traceID, spanID string) trace.SpanContext {
	tid, err := trace.TraceIDFromHex(traceID)
	if err != nil {
		return trace.SpanContext{}
	}
	sid, err := trace.SpanIDFromHex(spanID)
	if err != nil {
		return trace.SpanContext{}
	}
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true})
}
