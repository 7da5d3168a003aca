package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// Attribute keys of the server's own spans (tool calls, screen plans).
const (
	ToolSourceKey    = attribute.Key("gameassist.tool.source")
	ToolStatusKey    = attribute.Key("gameassist.tool.status")
	ToolCacheKey     = attribute.Key("gameassist.tool.cache")
	ScreenNameKey    = attribute.Key("gameassist.screen.name")
	ScreenMatchedKey = attribute.Key("gameassist.screen.matched")
	ScreenCallsKey   = attribute.Key("gameassist.screen.calls")
	ScreenSkippedKey = attribute.Key("gameassist.screen.skipped")
	SessionIDKey     = attribute.Key("gameassist.session.id")
	ExchangeKey      = attribute.Key("gameassist.exchange")
	DegradedKey      = attribute.Key("gameassist.degraded")
)

// StartChat starts the client span of one LLM chat call, named
// "chat {model}" with gen_ai.operation.name and gen_ai.request.model.
func (t *Tracing) StartChat(ctx context.Context, model string) (context.Context, trace.Span) {
	return t.tracer.Start(ctx, "chat "+model, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(semconv.GenAIOperationNameChat, semconv.GenAIRequestModel(model)))
}

// ChatResult sets the usage and finish reasons of a finished LLM call.
func ChatResult(span trace.Span, inputTokens, outputTokens int, finishReasons ...string) {
	attrs := []attribute.KeyValue{semconv.GenAIUsageInputTokens(inputTokens), semconv.GenAIUsageOutputTokens(outputTokens)}
	if len(finishReasons) > 0 {
		attrs = append(attrs, semconv.GenAIResponseFinishReasons(finishReasons...))
	}
	span.SetAttributes(attrs...)
}

// ToolAttrs are the attributes of a tool call span ("execute_tool {name}").
func ToolAttrs(name, source, status string) []attribute.KeyValue {
	return []attribute.KeyValue{
		semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(name),
		ToolSourceKey.String(source), ToolStatusKey.String(status), ToolCacheKey.Bool(source == "cache"),
	}
}
