package main

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/feedback"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/telemetry"
)

// tracedExchanges records each exchange with the trace and span of its
// turn (when the turn is traced), so a rating can join that trace.
type tracedExchanges struct{}

func (tracedExchanges) StampExchange(ctx context.Context, e *memory.Exchange) {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		e.TraceID, e.SpanID = sc.TraceID().String(), sc.SpanID().String()
	}
}

// tracedFeedback adds a gen_ai.evaluation.result event, in the rated
// turn's trace, for each rating.
type tracedFeedback struct {
	api.FeedbackService
	t *telemetry.Tracing
}

func (f tracedFeedback) Rate(ctx context.Context, r feedback.Rating) (feedback.Record, bool, error) {
	rec, replaced, err := f.FeedbackService.Rate(ctx, r)
	if err != nil {
		return rec, replaced, err
	}
	score := 0.0
	if rec.Rating == feedback.Up {
		score = 1
	}
	f.t.Evaluate(ctx, telemetry.Evaluation{
		Name: "player_feedback", Label: rec.Rating, Score: score, TraceID: rec.TraceID, SpanID: rec.SpanID,
		Attrs: []attribute.KeyValue{
			telemetry.SessionIDKey.String(rec.SessionID), telemetry.ExchangeKey.Int(rec.Exchange),
			attribute.String("gameassist.feedback.id", rec.ID), attribute.Bool("gameassist.feedback.replaced", replaced),
			// The comment is player text: its presence is traced, not its words.
			attribute.Bool("gameassist.feedback.has_comment", rec.Comment != ""),
		},
	})
	return rec, replaced, nil
}
