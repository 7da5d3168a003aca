package telemetry_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gameassist/gameassist/telemetry"
)

// BenchmarkTurnSpans measures the spans of one one-tool turn (HTTP request,
// turn, two LLM calls, one tool call) and its request log line, with
// tracing off and on (batched, as in production, into an exporter that
// drops the spans).
func BenchmarkTurnSpans(b *testing.B) {
	for _, v := range []struct {
		name string
		tr   func() *telemetry.Tracing
	}{
		{"off", telemetry.Off},
		{"on", func() *telemetry.Tracing { return telemetry.WithBatchExporter(tracetest.NewNoopExporter()) }},
	} {
		b.Run(v.name, func(b *testing.B) {
			tr := v.tr()
			b.Cleanup(func() { _ = tr.Shutdown(context.Background()) })
			log := slog.New(telemetry.LogHandler(slog.NewJSONHandler(io.Discard, nil)))
			h := tr.HTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				telemetry.SetRoute(r.Context(), r.Method, "/v1/chat")
				ctx, turn := tr.Start(r.Context(), "turn")
				for i := range 2 {
					_, llm := tr.StartChat(ctx, "gpt-4o-mini")
					telemetry.ChatResult(llm, 1200, 40, "stop")
					llm.End()
					if i == 0 {
						_, tool := tr.Start(ctx, "execute_tool gcs_get_champion_details",
							telemetry.ToolAttrs("gcs_get_champion_details", "executed", "success")...)
						tool.End()
					}
				}
				turn.End()
				log.InfoContext(r.Context(), "http request", "route", "/v1/chat")
				w.WriteHeader(http.StatusOK)
			}))
			req := httptest.NewRequest(http.MethodPost, "/v1/chat", nil)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
}
