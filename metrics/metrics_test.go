package metrics

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// newTest returns metrics registered on a fresh registry.
func newTest(t *testing.T, opts ...Option) (*Metrics, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	m, err := New(reg, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m, reg
}

// sample is one gathered series: its labels and its value (a counter or
// gauge value, or a histogram's sample count and sum).
type sample struct {
	labels map[string]string
	value  float64
	count  uint64
	sum    float64
}

// gather returns the series of the named family, failing when it is absent.
func gather(t *testing.T, reg prometheus.Gatherer, name string) []sample {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatalf("Gather: %v", err)
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		var out []sample
		for _, m := range f.GetMetric() {
			s := sample{labels: map[string]string{}}
			for _, lp := range m.GetLabel() {
				s.labels[lp.GetName()] = lp.GetValue()
			}
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				s.value = m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				s.value = m.GetGauge().GetValue()
			case dto.MetricType_HISTOGRAM:
				s.count = m.GetHistogram().GetSampleCount()
				s.sum = m.GetHistogram().GetSampleSum()
			default:
				t.Fatalf("%s: unexpected type %v", name, f.GetType())
			}
			out = append(out, s)
		}
		return out
	}
	t.Fatalf("metric %s not gathered", name)
	return nil
}

// find returns the series of the named family whose labels are exactly
// the given name=value pairs, failing when there is none.
func find(t *testing.T, reg prometheus.Gatherer, name string, labels ...string) sample {
	t.Helper()
	want := map[string]string{}
	for i := 0; i+1 < len(labels); i += 2 {
		want[labels[i]] = labels[i+1]
	}
	samples := gather(t, reg, name)
	for _, s := range samples {
		if fmt.Sprint(s.labels) == fmt.Sprint(want) {
			return s
		}
	}
	t.Fatalf("%s%v not found; have %v", name, want, samples)
	return sample{}
}

func TestNewRefusesNilAndDuplicateRegistration(t *testing.T) {
	if _, err := New(nil); err == nil {
		t.Fatal("New(nil): want an error")
	}
	reg := prometheus.NewRegistry()
	if _, err := New(reg); err != nil {
		t.Fatalf("first New: %v", err)
	}
	_, err := New(reg)
	var already prometheus.AlreadyRegisteredError
	if !errors.As(err, &already) {
		t.Fatalf("second New on the same registry: got %v, want AlreadyRegisteredError", err)
	}
}

func TestNewLeavesNothingRegisteredOnFailure(t *testing.T) {
	reg := prometheus.NewRegistry()
	// Take a name that New registers late, so earlier collectors get rolled
	// back. Same help and labels: a registry never forgets a name's shape.
	clash := prometheus.NewCounter(prometheus.CounterOpts{Name: "gameassist_sessions_created_total", Help: "Chat sessions created."})
	reg.MustRegister(clash)
	if _, err := New(reg); err == nil {
		t.Fatal("New: want an error on a name clash")
	}
	reg.Unregister(clash)
	if _, err := New(reg); err != nil {
		t.Fatalf("New after the clash was removed: %v (a failed New left collectors registered)", err)
	}
}

func TestDoesNotUseDefaultRegistry(t *testing.T) {
	m, _ := newTest(t)
	m.ObserveTurn("llm")
	fams, err := prometheus.DefaultGatherer.Gather()
	if err != nil {
		t.Fatalf("default Gather: %v", err)
	}
	for _, f := range fams {
		if strings.HasPrefix(f.GetName(), "gameassist_") {
			t.Fatalf("%s found on the default registry", f.GetName())
		}
	}
}

func TestObserveHTTP(t *testing.T) {
	tests := []struct {
		name       string
		route      string
		method     string
		status     int
		wantRoute  string
		wantMethod string
		wantStatus string
	}{
		{name: "matched route", route: "/v1/chat", method: "POST", status: 200, wantRoute: "/v1/chat", wantMethod: "POST", wantStatus: "200"},
		{name: "route pattern with params", route: "/admin/sessions/:id/cache/:key", method: "DELETE", status: 204, wantRoute: "/admin/sessions/:id/cache/:key", wantMethod: "DELETE", wantStatus: "204"},
		{name: "unmatched route", route: "", method: "GET", status: 404, wantRoute: "unmatched", wantMethod: "GET", wantStatus: "404"},
		{name: "odd method", route: "/v1/chat", method: "BREW", status: 405, wantRoute: "/v1/chat", wantMethod: "other", wantStatus: "405"},
		{name: "impossible status", route: "/healthz", method: "GET", status: 999, wantRoute: "/healthz", wantMethod: "GET", wantStatus: "unknown"},
		{name: "garbage route", route: "/v1/chat?x=<script>", method: "GET", status: 400, wantRoute: "other", wantMethod: "GET", wantStatus: "400"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, reg := newTest(t)
			m.ObserveHTTP(tc.route, tc.method, tc.status, 30*time.Millisecond)
			m.ObserveHTTP(tc.route, tc.method, tc.status, 10*time.Millisecond)
			got := find(t, reg, "gameassist_http_requests_total", "route", tc.wantRoute, "method", tc.wantMethod, "status", tc.wantStatus)
			if got.value != 2 {
				t.Errorf("requests = %v, want 2", got.value)
			}
			h := find(t, reg, "gameassist_http_request_duration_seconds", "route", tc.wantRoute, "method", tc.wantMethod)
			if h.count != 2 || h.sum < 0.039 || h.sum > 0.041 {
				t.Errorf("duration count=%d sum=%v, want 2 and 0.04", h.count, h.sum)
			}
		})
	}
}

func TestObserveTool(t *testing.T) {
	tests := []struct {
		name          string
		obs           ToolObservation
		wantLabels    []string // tool, category, source, status
		wantHits      float64
		wantMisses    float64
		wantDups      float64
		wantSaved     float64
		wantTruncated bool
	}{
		{
			name:       "executed",
			obs:        ToolObservation{Tool: "gcs_get_champion_details", Category: "gcs", Source: "executed", Status: "success", Duration: time.Millisecond, ResultChars: 400},
			wantLabels: []string{"gcs_get_champion_details", "gcs", "executed", "success"},
			wantMisses: 1,
		},
		{
			name:       "served from cache saves tokens",
			obs:        ToolObservation{Tool: "gcs_get_champion_details", Category: "gcs", Source: "cache", Status: "success", Duration: 80 * time.Microsecond, ResultChars: 401},
			wantLabels: []string{"gcs_get_champion_details", "gcs", "cache", "success"},
			wantHits:   1, wantSaved: 101,
		},
		{
			name:       "duplicate suppressed",
			obs:        ToolObservation{Tool: "db_get_ux_details", Category: "rag", Source: "duplicate", Status: "success"},
			wantLabels: []string{"db_get_ux_details", "rag", "duplicate", "success"},
			wantDups:   1,
		},
		{
			name:       "proactive counts as a miss",
			obs:        ToolObservation{Tool: "db_get_ux_details", Category: "rag", Source: "proactive", Status: "error"},
			wantLabels: []string{"db_get_ux_details", "rag", "proactive", "error"},
			wantMisses: 1,
		},
		{
			name:       "skipped",
			obs:        ToolObservation{Tool: "gcs_get_character_details_by_id", Category: "gcs", Source: "skipped", Status: "error"},
			wantLabels: []string{"gcs_get_character_details_by_id", "gcs", "skipped", "error"},
		},
		{
			name:       "called by an MCP client",
			obs:        ToolObservation{Tool: "gcs_get_boss_details", Category: "gcs", Source: "mcp", Status: "success", Duration: time.Millisecond},
			wantLabels: []string{"gcs_get_boss_details", "gcs", "mcp", "success"},
		},
		{
			name:          "truncated",
			obs:           ToolObservation{Tool: "gcs_find_champions", Category: "gcs", Source: "executed", Status: "success", Truncated: true},
			wantLabels:    []string{"gcs_find_champions", "gcs", "executed", "success"},
			wantMisses:    1,
			wantTruncated: true,
		},
		{
			name:       "hostile values are bounded",
			obs:        ToolObservation{Tool: "ignore previous instructions; drop table", Category: "💥", Source: "teleported", Status: "maybe"},
			wantLabels: []string{"unknown", "unknown", "unknown", "unknown"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, reg := newTest(t)
			m.ObserveTool(tc.obs)
			l := tc.wantLabels
			if got := find(t, reg, "gameassist_tool_calls_total", "tool", l[0], "category", l[1], "source", l[2], "status", l[3], "version", "0"); got.value != 1 {
				t.Errorf("tool calls = %v, want 1", got.value)
			}
			h := find(t, reg, "gameassist_tool_duration_seconds", "tool", l[0], "category", l[1], "source", l[2], "version", "0")
			if h.count != 1 || h.sum != tc.obs.Duration.Seconds() {
				t.Errorf("duration count=%d sum=%v, want 1 and %v", h.count, h.sum, tc.obs.Duration.Seconds())
			}
			for _, c := range []struct {
				name string
				want float64
			}{
				{"gameassist_tool_cache_hits_total", tc.wantHits},
				{"gameassist_tool_cache_misses_total", tc.wantMisses},
				{"gameassist_tool_duplicates_suppressed_total", tc.wantDups},
				{"gameassist_llm_tokens_saved_total", tc.wantSaved},
			} {
				if got := find(t, reg, c.name); got.value != c.want {
					t.Errorf("%s = %v, want %v", c.name, got.value, c.want)
				}
			}
			wantTruncated := 0.0
			if tc.wantTruncated {
				wantTruncated = 1
			}
			if got := find(t, reg, "gameassist_tool_result_truncated_total", "tool", l[0]); got.value != wantTruncated {
				t.Errorf("truncated = %v, want %v", got.value, wantTruncated)
			}
		})
	}
}

// gatherOptional is gather without failing on an absent family (a vector
// with no child yet is not gathered).
func gatherOptional(t *testing.T, reg prometheus.Gatherer, name string) int {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatalf("Gather: %v", err)
	}
	for _, f := range fams {
		if f.GetName() == name {
			return len(f.GetMetric())
		}
	}
	return 0
}

func TestToolLabelAllowList(t *testing.T) {
	m, reg := newTest(t, WithToolNames("gcs_get_champion_details", "db_get_ux_details"))
	m.ObserveTool(ToolObservation{Tool: "gcs_get_champion_details", Category: "gcs", Source: "executed", Status: "success"})
	// Well-formed, but not a registered tool: an LLM made it up.
	m.ObserveTool(ToolObservation{Tool: "gcs_get_champion_detail", Category: "gcs", Source: "executed", Status: "error"})
	find(t, reg, "gameassist_tool_calls_total", "tool", "gcs_get_champion_details", "category", "gcs", "source", "executed", "status", "success", "version", "0")
	find(t, reg, "gameassist_tool_calls_total", "tool", "unknown", "category", "gcs", "source", "executed", "status", "error", "version", "0")
}

func TestOpenLabelsAreCapped(t *testing.T) {
	m, reg := newTest(t)
	const extra = 50
	for i := 0; i < maxTools+extra; i++ {
		m.ObserveTool(ToolObservation{Tool: fmt.Sprintf("made_up_tool_%d", i), Category: "gcs", Source: "executed", Status: "error"})
	}
	series := gather(t, reg, "gameassist_tool_calls_total")
	if len(series) != maxTools+1 {
		t.Fatalf("tool series = %d, want %d admitted names + unknown", len(series), maxTools+1)
	}
	if got := find(t, reg, "gameassist_tool_calls_total", "tool", "unknown", "category", "gcs", "source", "executed", "status", "error", "version", "0"); got.value != extra {
		t.Errorf("unknown = %v, want %d", got.value, extra)
	}
	// A name admitted before the cap keeps its own series.
	m.ObserveTool(ToolObservation{Tool: "made_up_tool_0", Category: "gcs", Source: "executed", Status: "error"})
	if got := find(t, reg, "gameassist_tool_calls_total", "tool", "made_up_tool_0", "category", "gcs", "source", "executed", "status", "error", "version", "0"); got.value != 2 {
		t.Errorf("made_up_tool_0 = %v, want 2", got.value)
	}

	for i := 0; i < maxRoutes+extra; i++ {
		m.ObserveHTTP(fmt.Sprintf("/raw/path/%d", i), "GET", 404, time.Millisecond)
	}
	if n := gatherOptional(t, reg, "gameassist_http_requests_total"); n != maxRoutes+1 {
		t.Errorf("route series = %d, want %d", n, maxRoutes+1)
	}
	for i := 0; i < maxScopes+extra; i++ {
		m.ObserveRateLimited(fmt.Sprintf("scope%d", i))
	}
	if n := gatherOptional(t, reg, "gameassist_rate_limited_total"); n != maxScopes+1 {
		t.Errorf("scope series = %d, want %d", n, maxScopes+1)
	}
}

func TestLabelGuardConcurrent(t *testing.T) {
	g := newLabelGuard(nil, 10, LabelUnknown)
	var wg sync.WaitGroup
	admitted := make([]int, 8)
	for w := range admitted {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				if v := fmt.Sprintf("v%d", i); g.value(v) == v {
					admitted[w]++
				}
			}
		}()
	}
	wg.Wait()
	distinct := 0
	for i := 0; i < 100; i++ {
		if v := fmt.Sprintf("v%d", i); g.value(v) == v {
			distinct++
		}
	}
	if distinct != 10 {
		t.Fatalf("distinct admitted values = %d, want 10", distinct)
	}
}

func TestObserveLLMAndTurns(t *testing.T) {
	m, reg := newTest(t)
	m.ObserveLLM(1500*time.Millisecond, 1200, 80, nil)
	m.ObserveLLM(500*time.Millisecond, 300, 20, nil)
	m.ObserveLLM(2*time.Second, 0, 0, errors.New("llm: 500"))
	m.ObserveLLM(time.Second, -5, -1, errors.New("llm: cut"))

	tests := []struct {
		name   string
		metric string
		labels []string
		want   float64
	}{
		{name: "ok calls", metric: "gameassist_llm_calls_total", labels: []string{"status", "ok"}, want: 2},
		{name: "failed calls", metric: "gameassist_llm_calls_total", labels: []string{"status", "error"}, want: 2},
		{name: "prompt tokens", metric: "gameassist_llm_tokens_total", labels: []string{"kind", "prompt"}, want: 1500},
		{name: "completion tokens", metric: "gameassist_llm_tokens_total", labels: []string{"kind", "completion"}, want: 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := find(t, reg, tc.metric, tc.labels...); got.value != tc.want {
				t.Errorf("%s%v = %v, want %v", tc.metric, tc.labels, got.value, tc.want)
			}
		})
	}
	if h := find(t, reg, "gameassist_llm_call_duration_seconds"); h.count != 4 || h.sum != 5 {
		t.Errorf("llm duration count=%d sum=%v, want 4 and 5", h.count, h.sum)
	}

	for _, mode := range []string{"llm", "llm", "offline", "degraded", "panic"} {
		m.ObserveTurn(mode)
	}
	for mode, want := range map[string]float64{"llm": 2, "offline": 1, "degraded": 1, "unknown": 1} {
		if got := find(t, reg, "gameassist_chat_turns_total", "mode", mode); got.value != want {
			t.Errorf("turns{mode=%s} = %v, want %v", mode, got.value, want)
		}
	}
}

func TestSessionsAndRateLimits(t *testing.T) {
	m, reg := newTest(t)
	if got := find(t, reg, "gameassist_active_sessions"); got.value != 0 {
		t.Errorf("active sessions before a callback = %v, want 0", got.value)
	}
	active := 7.0
	m.SetActiveSessionsFunc(func() float64 { return active })
	if got := find(t, reg, "gameassist_active_sessions"); got.value != 7 {
		t.Errorf("active sessions = %v, want 7", got.value)
	}
	active = 3
	if got := find(t, reg, "gameassist_active_sessions"); got.value != 3 {
		t.Errorf("active sessions after a change = %v, want 3 (read at scrape time)", got.value)
	}
	m.SetActiveSessionsFunc(nil)
	if got := find(t, reg, "gameassist_active_sessions"); got.value != 0 {
		t.Errorf("active sessions after reset = %v, want 0", got.value)
	}

	m.ObserveSessionCreated()
	m.ObserveSessionCreated()
	if got := find(t, reg, "gameassist_sessions_created_total"); got.value != 2 {
		t.Errorf("sessions created = %v, want 2", got.value)
	}
	m.ObserveRateLimited("chat")
	m.ObserveRateLimited("chat")
	m.ObserveRateLimited("sessions")
	m.ObserveRateLimited("")
	for scope, want := range map[string]float64{"chat": 2, "sessions": 1, "other": 1} {
		if got := find(t, reg, "gameassist_rate_limited_total", "scope", scope); got.value != want {
			t.Errorf("rate limited{scope=%s} = %v, want %v", scope, got.value, want)
		}
	}
}

func TestNilMetricsIsANoop(t *testing.T) {
	var m *Metrics
	m.ObserveHTTP("/v1/chat", "POST", 200, time.Second)
	m.ObserveTool(ToolObservation{Tool: "x", Source: "cache"})
	m.ObserveLLM(time.Second, 1, 1, nil)
	m.ObserveTurn("llm")
	m.ObserveSessionCreated()
	m.ObserveRateLimited("chat")
	m.SetActiveSessionsFunc(func() float64 { return 1 })
}

func TestHandler(t *testing.T) {
	m, reg := newTest(t)
	m.ObserveTool(ToolObservation{Tool: "cache_get_bosses_list", Category: "cache", Source: "cache", Status: "success", ResultChars: 8})
	srv := httptest.NewServer(m.Handler(reg))
	defer srv.Close()

	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatalf("GET: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("content type %q, want text/plain", ct)
	}
	for _, want := range []string{
		`gameassist_tool_calls_total{category="cache",source="cache",status="success",tool="cache_get_bosses_list",version="0"} 1`,
		`gameassist_llm_tokens_saved_total 2`,
		`gameassist_active_sessions 0`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}

	rec := httptest.NewRecorder()
	m.Handler(nil).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("nil gatherer: status %d, want 500", rec.Code)
	}
}

func BenchmarkObserveTool(b *testing.B) {
	m, err := New(prometheus.NewRegistry(), WithToolNames("gcs_get_champion_details"))
	if err != nil {
		b.Fatal(err)
	}
	obs := ToolObservation{Tool: "gcs_get_champion_details", Category: "gcs", Source: "cache", Status: "success", Duration: 90 * time.Microsecond, ResultChars: 1800}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.ObserveTool(obs)
	}
}

func BenchmarkObserveToolParallel(b *testing.B) {
	m, err := New(prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	obs := ToolObservation{Tool: "gcs_get_champion_details", Category: "gcs", Source: "executed", Status: "success", Duration: 400 * time.Microsecond, ResultChars: 1800}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.ObserveTool(obs)
		}
	})
}

func BenchmarkObserveHTTP(b *testing.B) {
	m, err := New(prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.ObserveHTTP("/v1/chat", "POST", 200, 12*time.Millisecond)
	}
}

func TestToolVersionLabel(t *testing.T) {
	m, reg := newTest(t, WithToolNames("cards_get_card"))
	for _, v := range []int{1, 2, 2} {
		m.ObserveTool(ToolObservation{Tool: "cards_get_card", Category: "gcs", Source: "executed", Status: "success", Version: v, Duration: time.Millisecond})
	}
	if got := find(t, reg, "gameassist_tool_calls_total", "tool", "cards_get_card", "category", "gcs", "source", "executed", "status", "success", "version", "2"); got.value != 2 {
		t.Fatalf("version 2 calls = %v", got.value)
	}
	if got := find(t, reg, "gameassist_tool_duration_seconds", "tool", "cards_get_card", "category", "gcs", "source", "executed", "version", "1"); got.count != 1 {
		t.Fatalf("version 1 durations = %v", got.count)
	}
	// Bounded: past 32 distinct versions (and for a negative one) the
	// label reads "other".
	for v := 3; v < 3+maxVersions+10; v++ {
		m.ObserveTool(ToolObservation{Tool: "cards_get_card", Category: "gcs", Source: "cache", Status: "success", Version: v})
	}
	m.ObserveTool(ToolObservation{Tool: "cards_get_card", Category: "gcs", Source: "cache", Status: "success", Version: -4})
	if n := len(gather(t, reg, "gameassist_tool_calls_total")); n > maxVersions+1+2 {
		t.Fatalf("%d series: the version label is not bounded", n)
	}
	if got := find(t, reg, "gameassist_tool_calls_total", "tool", "cards_get_card", "category", "gcs", "source", "cache", "status", "success", "version", LabelOther); got.value < 10 {
		t.Fatalf("versions over the cap: other = %v", got.value)
	}
}

func TestObserveFeedback(t *testing.T) {
	m, reg := newTest(t)
	if got := find(t, reg, "gameassist_feedback_total", "rating", "down"); got.value != 0 {
		t.Errorf("feedback{down} before any = %v, want a 0 series", got.value)
	}
	m.ObserveFeedback("up")
	m.ObserveFeedback("down")
	m.ObserveFeedback("down")
	m.ObserveFeedback("<script>")
	for rating, want := range map[string]float64{"up": 1, "down": 2, LabelUnknown: 1} {
		if got := find(t, reg, "gameassist_feedback_total", "rating", rating); got.value != want {
			t.Errorf("feedback{rating=%s} = %v, want %v", rating, got.value, want)
		}
	}
	var none *Metrics
	none.ObserveFeedback("up")
}
