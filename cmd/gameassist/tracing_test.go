package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/telemetry"
)

// spanSink keeps ended spans and tells a waiting test when one ends.
type spanSink struct {
	*tracetest.InMemoryExporter
	ended chan string
}

func (s spanSink) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := s.InMemoryExporter.ExportSpans(ctx, spans)
	for _, sp := range spans {
		s.ended <- sp.Name()
	}
	return err
}

// waitSpan blocks until a span named name ends.
func (s spanSink) waitSpan(t *testing.T, name string) {
	t.Helper()
	for {
		select {
		case got := <-s.ended:
			if got == name {
				return
			}
		case <-time.After(30 * time.Second): // a hang, not a timing assertion
			t.Fatalf("span %q never ended", name)
		}
	}
}

func attrOf(s tracetest.SpanStub, key string) (attribute.Value, bool) {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

// TestTracing runs an LLM turn with a tool call, a cached repeat and a
// screen event with tracing into memory, and checks the span tree, the
// GenAI attributes and the trace id in the log lines.
func TestTracing(t *testing.T) {
	t.Parallel() // its own app (and LLM fake); asserts nothing shared
	sink := spanSink{InMemoryExporter: tracetest.NewInMemoryExporter(), ended: make(chan string, 1024)}
	fake := llmtest.New(t)
	var logs lockedBuffer
	logger := slog.New(telemetry.LogHandler(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo})))
	f := newFixture(t, appSetup{llm: fake, logger: logger, options: []appOption{withTracing(telemetry.WithExporter(sink))}})
	s := f.newSession(t)
	sink.waitSpan(t, "POST /v1/sessions")
	sink.Reset()

	// The client propagates its own trace: the server's spans join it.
	const parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	traceparent := "00-" + parentTrace + "-00f067aa0ba902b7-01"
	fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "call_1", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Kaelith"}`}).WithUsage(120, 12),
		llmtest.Text("Kaelith is a fine pick.").WithUsage(200, 8),
	)
	resp, body := f.do(t, request{
		method: http.MethodPost, path: "/v1/chat", token: s.Token, json: chatBody(s, "is Kaelith good?"),
		header: map[string]string{"traceparent": traceparent},
	})
	expect(t, resp, body, http.StatusOK)
	sink.waitSpan(t, "POST /v1/chat")

	spans := sink.GetSpans().Snapshots()
	byName := map[string][]tracetest.SpanStub{}
	for _, sp := range tracetest.SpanStubsFromReadOnlySpans(spans) {
		byName[sp.Name] = append(byName[sp.Name], sp)
	}
	one := func(name string) tracetest.SpanStub {
		t.Helper()
		if len(byName[name]) != 1 {
			names := make([]string, 0, len(byName))
			for n := range byName {
				names = append(names, n)
			}
			t.Fatalf("%d spans named %q; spans: %v", len(byName[name]), name, names)
		}
		return byName[name][0]
	}
	httpSpan, turn := one("POST /v1/chat"), one("turn")
	if httpSpan.SpanContext.TraceID().String() != parentTrace || httpSpan.SpanKind != trace.SpanKindServer {
		t.Fatalf("HTTP span trace %s kind %v, want the caller's trace %s, server", httpSpan.SpanContext.TraceID(), httpSpan.SpanKind, parentTrace)
	}
	if v, _ := attrOf(httpSpan, "http.route"); v.AsString() != "/v1/chat" {
		t.Errorf("http.route = %q", v.AsString())
	}
	if v, _ := attrOf(httpSpan, "http.response.status_code"); v.AsInt64() != 200 {
		t.Errorf("http.response.status_code = %d", v.AsInt64())
	}
	if turn.Parent.SpanID() != httpSpan.SpanContext.SpanID() {
		t.Errorf("turn span is not a child of the HTTP span")
	}
	if v, _ := attrOf(turn, "gameassist.exchange"); v.AsInt64() != 1 {
		t.Errorf("turn exchange = %d", v.AsInt64())
	}

	llmSpans := byName["chat gpt-4o-mini"]
	if len(llmSpans) != 2 {
		t.Fatalf("%d LLM spans, want 2", len(llmSpans))
	}
	slices.SortFunc(llmSpans, func(a, b tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
	wantLLM := []struct {
		in, out int64
		finish  string
	}{{120, 12, "tool_calls"}, {200, 8, "stop"}}
	for i, sp := range llmSpans {
		if sp.Parent.SpanID() != turn.SpanContext.SpanID() || sp.SpanKind != trace.SpanKindClient {
			t.Errorf("LLM span %d: not a client child of the turn", i)
		}
		get := func(k string) attribute.Value { v, _ := attrOf(sp, k); return v }
		if get("gen_ai.operation.name").AsString() != "chat" || get("gen_ai.request.model").AsString() != "gpt-4o-mini" {
			t.Errorf("LLM span %d: operation %q model %q", i, get("gen_ai.operation.name").AsString(), get("gen_ai.request.model").AsString())
		}
		if get("gen_ai.usage.input_tokens").AsInt64() != wantLLM[i].in || get("gen_ai.usage.output_tokens").AsInt64() != wantLLM[i].out {
			t.Errorf("LLM span %d: tokens %d/%d, want %d/%d", i, get("gen_ai.usage.input_tokens").AsInt64(), get("gen_ai.usage.output_tokens").AsInt64(), wantLLM[i].in, wantLLM[i].out)
		}
		if got := get("gen_ai.response.finish_reasons").AsStringSlice(); !slices.Equal(got, []string{wantLLM[i].finish}) {
			t.Errorf("LLM span %d: finish reasons %v, want [%s]", i, got, wantLLM[i].finish)
		}
	}

	checkTool := func(sp tracetest.SpanStub, source string, cache bool) {
		t.Helper()
		get := func(k string) attribute.Value { v, _ := attrOf(sp, k); return v }
		if get("gen_ai.tool.name").AsString() != "gcs_get_champion_details" || get("gen_ai.operation.name").AsString() != "execute_tool" ||
			get("gameassist.tool.source").AsString() != source || get("gameassist.tool.status").AsString() != "success" ||
			get("gameassist.tool.cache").AsBool() != cache {
			t.Errorf("tool span attributes %v, want source %s cache %v", sp.Attributes, source, cache)
		}
	}
	toolSpan := one("execute_tool gcs_get_champion_details")
	if toolSpan.Parent.SpanID() != turn.SpanContext.SpanID() {
		t.Errorf("tool span is not a child of the turn")
	}
	checkTool(toolSpan, "executed", false)

	// Log lines of the request carry its trace id.
	var found bool
	for _, line := range strings.Split(logs.String(), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["msg"] != "http request" || rec["route"] != "/v1/chat" {
			continue
		}
		found = true
		if rec["trace_id"] != parentTrace || rec["span_id"] != httpSpan.SpanContext.SpanID().String() {
			t.Errorf("request log line trace_id %v span_id %v, want %s %s", rec["trace_id"], rec["span_id"], parentTrace, httpSpan.SpanContext.SpanID())
		}
	}
	if !found {
		t.Errorf("no http request log line for /v1/chat:\n%s", logs.String())
	}

	t.Run("cached repeat", func(t *testing.T) {
		sink.Reset()
		fake.Enqueue(
			llmtest.ToolCalls(llmtest.Call{ID: "call_2", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Kaelith"}`}),
			llmtest.Text("Still Kaelith."),
		)
		f.chat(t, s, "and again?")
		sink.waitSpan(t, "POST /v1/chat")
		var tools []tracetest.SpanStub
		for _, sp := range sink.GetSpans() {
			if sp.Name == "execute_tool gcs_get_champion_details" {
				tools = append(tools, sp)
			}
		}
		if len(tools) != 1 {
			t.Fatalf("%d tool spans, want 1", len(tools))
		}
		checkTool(tools[0], "cache", true)
	})

	t.Run("screen event", func(t *testing.T) {
		sink.Reset()
		ev := mustJSON(t, map[string]any{"session_id": s.ID, "screen": map[string]any{
			"name": "BossBattlePresenter", "data": map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1001}},
		}})
		resp, body := f.do(t, signedEvent(ev))
		expect(t, resp, body, http.StatusOK)
		sink.waitSpan(t, "POST /v1/screens/events")
		var plan *tracetest.SpanStub
		proactive, skipped := 0, 0
		for _, sp := range sink.GetSpans() {
			switch {
			case sp.Name == "screen_plan":
				plan = &sp
			case strings.HasPrefix(sp.Name, "execute_tool "):
				v, _ := attrOf(sp, "gameassist.tool.source")
				switch v.AsString() {
				case "proactive":
					proactive++
				case "skipped":
					skipped++
					if st, _ := attrOf(sp, "gameassist.tool.status"); st.AsString() != "skipped" {
						t.Errorf("skipped tool span %s has status %s", sp.Name, st.AsString())
					}
				}
			}
		}
		if plan == nil {
			t.Fatal("no screen_plan span")
		}
		get := func(k string) attribute.Value { v, _ := attrOf(*plan, k); return v }
		if get("gameassist.screen.name").AsString() != "BossBattlePresenter" || !get("gameassist.screen.matched").AsBool() ||
			get("gameassist.screen.calls").AsInt64() != int64(proactive+3) || get("gameassist.screen.skipped").AsInt64() != 3 {
			t.Errorf("screen_plan attributes %v; %d proactive, %d skipped tool spans", plan.Attributes, proactive, skipped)
		}
		// Team.1..3 are absent: the plan skips them, the rest run proactively.
		if proactive < 3 || skipped != 0 {
			t.Errorf("%d proactive and %d skipped tool spans, want ≥ 3 and 0 (skipped calls are the plan's)", proactive, skipped)
		}
	})
}

// TestTracingOffByDefault: with no OTLP endpoint the wiring adds no span
// and the handler is the router itself.
func TestTracingOffByDefault(t *testing.T) {
	tr, err := telemetry.New(context.Background(), telemetry.Options{})
	if err != nil || tr.Enabled() {
		t.Fatalf("New with no endpoint: enabled %v, %v", tr.Enabled(), err)
	}
	a := startApp(t, appSetup{})
	if _, ok := a.handler.(http.HandlerFunc); ok {
		t.Fatal("the handler is wrapped although tracing is off")
	}
}

// lockedBuffer is a bytes.Buffer safe for concurrent writers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
