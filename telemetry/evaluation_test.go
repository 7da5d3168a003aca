package telemetry_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gameassist/gameassist/telemetry"
)

func TestEvaluateJoinsTheAnswersTrace(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tr := telemetry.WithExporter(exp)
	// The turn that answered, traced earlier.
	_, turn := tr.Start(context.Background(), "turn")
	turn.End()
	answered := turn.SpanContext()
	// The request that brings the rating, in a trace of its own.
	ctx, req := tr.Start(context.Background(), "POST /v1/feedback")
	tr.Evaluate(ctx, telemetry.Evaluation{
		Name: "player_feedback", Label: "down", Score: 0,
		TraceID: answered.TraceID().String(), SpanID: answered.SpanID().String(),
		Attrs: []attribute.KeyValue{telemetry.ExchangeKey.Int(3)},
	})
	req.End()
	var ev tracetest.SpanStub
	for _, s := range exp.GetSpans() {
		if s.Name == "evaluation player_feedback" {
			ev = s
		}
	}
	if ev.Name == "" {
		t.Fatalf("no evaluation span among %d", len(exp.GetSpans()))
	}
	if ev.SpanContext.TraceID() != answered.TraceID() || ev.Parent.SpanID() != answered.SpanID() {
		t.Errorf("evaluation span is in trace %s under %s, want trace %s under the turn %s",
			ev.SpanContext.TraceID(), ev.Parent.SpanID(), answered.TraceID(), answered.SpanID())
	}
	if len(ev.Links) != 1 || ev.Links[0].SpanContext.SpanID() != req.SpanContext().SpanID() {
		t.Errorf("links = %+v, want the feedback request's span", ev.Links)
	}
	if len(ev.Events) != 1 || ev.Events[0].Name != "gen_ai.evaluation.result" {
		t.Fatalf("events = %+v", ev.Events)
	}
	got := map[attribute.Key]attribute.Value{}
	for _, a := range ev.Events[0].Attributes {
		got[a.Key] = a.Value
	}
	if got["gen_ai.evaluation.name"].AsString() != "player_feedback" || got["gen_ai.evaluation.score.label"].AsString() != "down" ||
		got["gen_ai.evaluation.score.value"].AsFloat64() != 0 || got[telemetry.ExchangeKey].AsInt64() != 3 {
		t.Errorf("event attributes = %v", got)
	}
}

func TestEvaluateWithoutStoredTrace(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tr := telemetry.WithExporter(exp)
	ctx, req := tr.Start(context.Background(), "POST /v1/feedback")
	tr.Evaluate(ctx, telemetry.Evaluation{Name: "player_feedback", Label: "up", Score: 1, TraceID: "not hex", SpanID: ""})
	req.End()
	spans := exp.GetSpans()
	if len(spans) != 2 || spans[0].Parent.SpanID() != req.SpanContext().SpanID() {
		t.Errorf("without a stored trace the evaluation is a child of the request: %+v", spans)
	}
	// Tracing off records nothing and does not panic.
	telemetry.Off().Evaluate(context.Background(), telemetry.Evaluation{Name: "x"})
}
