// Package telemetry sets up OpenTelemetry tracing from the standard OTEL_*
// variables and gives the server its thin hooks: an HTTP middleware, span
// helpers with the GenAI semantic conventions, and a slog handler that puts
// the trace id on every log line. With no OTLP endpoint configured it hands
// out a no-op tracer, so the hooks cost next to nothing.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// instrumentation is the tracer name of every span the server makes.
const instrumentation = "github.com/gameassist/gameassist"

// Options say where traces go. Endpoint and Protocol come from config.Load
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, and
// OTEL_EXPORTER_OTLP_PROTOCOL); the exporter itself also reads the other
// standard OTEL_EXPORTER_OTLP_* variables (headers, timeout, TLS), the SDK
// reads OTEL_TRACES_SAMPLER* and the resource OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES.
type Options struct {
	// Endpoint is the OTLP endpoint; empty turns tracing off.
	Endpoint string
	// Protocol is "http/protobuf" (the default) or "grpc".
	Protocol string
	// ServiceName names the service when OTEL_SERVICE_NAME does not.
	ServiceName string
}

// Tracing is the server's tracer provider, or a no-op one when off.
type Tracing struct {
	tp       trace.TracerProvider
	tracer   trace.Tracer
	prop     propagation.TextMapPropagator
	shutdown func(context.Context) error
	enabled  bool
}

// Off is tracing switched off: every span is a no-op.
func Off() *Tracing {
	tp := noop.NewTracerProvider()
	return &Tracing{
		tp: tp, tracer: tp.Tracer(instrumentation), prop: propagation.TraceContext{},
		shutdown: func(context.Context) error { return nil },
	}
}

// New starts tracing as opts say: an OTLP exporter batching spans in the
// background, or Off when no endpoint is set.
func New(ctx context.Context, opts Options) (*Tracing, error) {
	if opts.Endpoint == "" {
		return Off(), nil
	}
	var (
		exp sdktrace.SpanExporter
		err error
	)
	switch strings.ToLower(opts.Protocol) {
	case "", "http/protobuf":
		exp, err = otlptracehttp.New(ctx)
	case "grpc":
		exp, err = otlptracegrpc.New(ctx)
	default:
		return nil, fmt.Errorf("telemetry: OTEL_EXPORTER_OTLP_PROTOCOL %q is not http/protobuf or grpc", opts.Protocol)
	}
	if err != nil {
		return nil, fmt.Errorf("telemetry: otlp exporter: %w", err)
	}
	res, err := newResource(ctx, opts.ServiceName)
	if err != nil {
		return nil, err
	}
	return withProvider(sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))), nil
}

// WithExporter traces into exp synchronously (every span is exported when
// it ends), for tests with the SDK's in-memory exporter.
func WithExporter(exp sdktrace.SpanExporter) *Tracing {
	return withProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp)))
}

// WithBatchExporter traces into exp through the same batching span
// processor New uses, for benchmarks of what tracing costs the server.
func WithBatchExporter(exp sdktrace.SpanExporter) *Tracing {
	return withProvider(sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp)))
}

func withProvider(tp *sdktrace.TracerProvider) *Tracing {
	return &Tracing{
		tp: tp, tracer: tp.Tracer(instrumentation),
		prop:     propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
		shutdown: tp.Shutdown, enabled: true,
	}
}

func newResource(ctx context.Context, service string) (*resource.Resource, error) {
	if service == "" {
		service = "gameassist"
	}
	// WithFromEnv comes last: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win.
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName(service)), resource.WithFromEnv())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	return res, nil
}

// Enabled says whether spans are recorded and exported.
func (t *Tracing) Enabled() bool { return t.enabled }

// Tracer is the server's tracer.
func (t *Tracing) Tracer() trace.Tracer { return t.tracer }

// Shutdown flushes the spans still queued and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error { return t.shutdown(ctx) }

// HTTP wraps next with a server span per request, continuing a trace the
// caller propagates in traceparent. The span is named "METHOD" until the
// router names its route with SetRoute. Requests to the untraced paths
// (probes, scrapes) get no span.
func (t *Tracing) HTTP(next http.Handler, untraced ...string) http.Handler {
	if !t.enabled {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slices.Contains(untraced, r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		ctx := t.prop.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		ctx, span := t.tracer.Start(ctx, r.Method, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(semconv.HTTPRequestMethodKey.String(r.Method), semconv.URLPath(r.URL.Path)))
		defer span.End()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r.WithContext(ctx))
		span.SetAttributes(semconv.HTTPResponseStatusCode(sw.status))
		if sw.status >= http.StatusInternalServerError {
			span.SetStatus(codes.Error, http.StatusText(sw.status))
		}
	})
}

// SetRoute names the request's server span after its route template
// ("POST /v1/chat"), as the HTTP semantic conventions ask.
func SetRoute(ctx context.Context, method, route string) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	span.SetName(method + " " + route)
	span.SetAttributes(semconv.HTTPRoute(route))
}

// statusWriter remembers the status code; it flushes and unwraps so
// streaming (SSE) and http.ResponseController keep working through it.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	w.wrote = true
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Start starts an internal span; End it.
func (t *Tracing) Start(ctx context.Context, name string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	return t.tracer.Start(ctx, name, trace.WithAttributes(attrs...))
}

// Fail records err on span and marks it failed; a nil err does nothing.
func Fail(span trace.Span, err error) {
	if err == nil {
		return
	}
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
}

// LogHandler wraps h so every record logged with a context inside a span
// carries trace_id and span_id, joining logs to traces.
func LogHandler(h slog.Handler) slog.Handler { return logHandler{h} }

type logHandler struct{ slog.Handler }

func (l logHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r = r.Clone()
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return l.Handler.Handle(ctx, r)
}

func (l logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return logHandler{l.Handler.WithAttrs(attrs)}
}

func (l logHandler) WithGroup(name string) slog.Handler { return logHandler{l.Handler.WithGroup(name)} }
