package telemetry_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gameassist/gameassist/telemetry"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name        string
		opts        telemetry.Options
		wantEnabled bool
		wantErr     string
	}{
		{name: "no endpoint is off", opts: telemetry.Options{}},
		{name: "http/protobuf", opts: telemetry.Options{Endpoint: "http://127.0.0.1:4318", Protocol: "http/protobuf"}, wantEnabled: true},
		{name: "grpc", opts: telemetry.Options{Endpoint: "http://127.0.0.1:4317", Protocol: "grpc"}, wantEnabled: true},
		{name: "unknown protocol", opts: telemetry.Options{Endpoint: "http://127.0.0.1:4318", Protocol: "http/json"}, wantErr: "http/json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := telemetry.New(context.Background(), tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Nothing listens there: shutting down with no span queued must
			// not need the collector.
			defer func() { _ = tr.Shutdown(context.Background()) }()
			if tr.Enabled() != tt.wantEnabled {
				t.Fatalf("enabled %v, want %v", tr.Enabled(), tt.wantEnabled)
			}
		})
	}
}

func TestHTTPSpanAndLogs(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tr := telemetry.WithExporter(exp)
	var logs bytes.Buffer
	log := slog.New(telemetry.LogHandler(slog.NewJSONHandler(&logs, nil))).With("component", "test")
	h := tr.HTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		telemetry.SetRoute(r.Context(), r.Method, "/items/:id")
		log.InfoContext(r.Context(), "inside")
		w.WriteHeader(http.StatusTeapot)
		// Streaming keeps working through the middleware.
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Errorf("flush through the middleware: %v", err)
		}
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/items/7", nil))
	if rec.Code != http.StatusTeapot || !rec.Flushed {
		t.Fatalf("status %d flushed %v", rec.Code, rec.Flushed)
	}
	// A probe path gets no span.
	untraced := tr.HTTP(http.NotFoundHandler(), "/healthz")
	untraced.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/healthz", nil))
	spans := exp.GetSpans()
	if len(spans) != 1 || spans[0].Name != "GET /items/:id" {
		t.Fatalf("spans %+v", spans)
	}
	var rec0 map[string]any
	if err := json.Unmarshal(logs.Bytes(), &rec0); err != nil {
		t.Fatal(err)
	}
	if rec0["trace_id"] != spans[0].SpanContext.TraceID().String() || rec0["component"] != "test" {
		t.Fatalf("log line %s, want trace id %s", logs.Bytes(), spans[0].SpanContext.TraceID())
	}

	// Outside a span a line has no trace id.
	logs.Reset()
	log.Info("outside")
	if strings.Contains(logs.String(), "trace_id") {
		t.Fatalf("line outside a span: %s", logs.String())
	}
}

func TestOffIsPassThrough(t *testing.T) {
	tr := telemetry.Off()
	next := http.NotFoundHandler()
	if h := tr.HTTP(next); h == nil || tr.Enabled() {
		t.Fatal("Off wraps or is enabled")
	}
	ctx, span := tr.Start(context.Background(), "x")
	telemetry.SetRoute(ctx, "GET", "/x") // no span recording: nothing to do
	span.End()
	if span.IsRecording() {
		t.Fatal("Off records spans")
	}
}
