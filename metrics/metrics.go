// Package metrics exposes gameassist's Prometheus metrics: HTTP requests, tool
// calls and the session tool cache, LLM calls and tokens, chat turns, sessions
// and rate limiting. Everything is registered on a registry the caller passes
// in (never the global default one), and every label value is bounded so that
// a hostile client or an inventive LLM cannot blow up the series count.
package metrics

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gameassist/gameassist/tool"
)

// Label values used when an observed value is outside its bounded set.
const (
	// LabelUnknown replaces a tool name, category, source, status or mode
	// that is not one of the admitted values.
	LabelUnknown = "unknown"
	// LabelUnmatched is the route of a request no route matched (gin's
	// c.FullPath() is empty then).
	LabelUnmatched = "unmatched"
	// LabelOther replaces a route, HTTP method or rate-limit scope beyond the
	// admitted set.
	LabelOther = "other"
)

// Caps on the number of distinct values an open label admits before new
// values are folded into LabelUnknown or LabelOther.
const (
	maxTools      = 256
	maxCategories = 16
	maxRoutes     = 128
	maxScopes     = 16
	// maxVersions bounds the tool version label (0 is unversioned).
	maxVersions = 32
)

// Option tunes New.
type Option func(*options)

type options struct {
	toolNames []string
}

// WithToolNames restricts the tool label to the given names (the registry's
// canonical names): any other name, such as one an LLM made up, is recorded
// as LabelUnknown. Without it (or with no names) the tool label admits up to
// 256 distinct well-formed names, first come, first served.
func WithToolNames(names ...string) Option {
	return func(o *options) { o.toolNames = append(o.toolNames, names...) }
}

// Metrics records gameassist's metrics. Its methods are safe for concurrent
// use, and they do nothing on a nil *Metrics so that metrics can be switched
// off by passing nil.
type Metrics struct {
	httpRequests *prometheus.CounterVec
	httpDuration *prometheus.HistogramVec

	toolCalls    *prometheus.CounterVec
	toolDuration *prometheus.HistogramVec
	cacheHits    prometheus.Counter
	cacheMisses  prometheus.Counter
	duplicates   prometheus.Counter
	truncated    *prometheus.CounterVec
	tokensSaved  prometheus.Counter

	llmCalls      *prometheus.CounterVec
	llmOK         prometheus.Counter
	llmError      prometheus.Counter
	llmDuration   prometheus.Histogram
	llmTokens     *prometheus.CounterVec
	llmPrompt     prometheus.Counter
	llmCompletion prometheus.Counter
	turns         *prometheus.CounterVec

	activeFn    atomic.Pointer[func() float64]
	sessions    prometheus.Counter
	rateLimited *prometheus.CounterVec
	feedback    *prometheus.CounterVec

	// toolCache maps a bounded toolKey to its *toolChildren.
	toolCache sync.Map

	tools      *labelGuard
	categories *labelGuard
	sources    *labelGuard
	statuses   *labelGuard
	modes      *labelGuard
	methods    *labelGuard
	routes     *labelGuard
	scopes     *labelGuard
	versions   *labelGuard
	codes      [600]string
}

// New builds the metrics and registers them on reg. It fails when reg is nil
// or when a metric of the same name is already registered there (for
// example New called twice on one registry); nothing stays registered then.
func New(reg prometheus.Registerer, opts ...Option) (*Metrics, error) {
	if reg == nil {
		return nil, errors.New("metrics: new: nil registerer")
	}
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	m := &Metrics{
		httpRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gameassist_http_requests_total",
			Help: "HTTP requests served, by route pattern, method and status code.",
		}, []string{"route", "method", "status"}),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "gameassist_http_request_duration_seconds",
			Help: "Time to serve an HTTP request, by route pattern and method.",
			// From a cached admin read up to a long streamed chat turn.
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"route", "method"}),
		toolCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gameassist_tool_calls_total",
			Help: "Tool calls, by tool, category, source (executed, cache, duplicate, proactive, skipped, mcp), status and tool version (0: unversioned).",
		}, []string{"tool", "category", "source", "status", "version"}),
		toolDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "gameassist_tool_duration_seconds",
			Help: "Time to answer a tool call, by tool, category, source and tool version (0: unversioned).",
			// From 50µs: cache tools answer well under a millisecond.
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"tool", "category", "source", "version"}),
		cacheHits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gameassist_tool_cache_hits_total",
			Help: "Tool calls answered from the session tool cache.",
		}),
		cacheMisses: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gameassist_tool_cache_misses_total",
			Help: "Tool calls that had to run (executed or proactive) because the session cache held no live result.",
		}),
		duplicates: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gameassist_tool_duplicates_suppressed_total",
			Help: "Tool calls not run because the same call was already answered in the current messages.",
		}),
		truncated: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gameassist_tool_result_truncated_total",
			Help: "Tool results cut to the executor's size limit, by tool.",
		}, []string{"tool"}),
		tokensSaved: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gameassist_llm_tokens_saved_total",
			Help: "Estimated LLM tokens not regenerated thanks to the tool cache (LLM view length / 4 per cache hit).",
		}),
		llmCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gameassist_llm_calls_total",
			Help: "LLM chat completion calls, by status (ok, error).",
		}, []string{"status"}),
		llmDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "gameassist_llm_call_duration_seconds",
			Help: "Time of one LLM chat completion call, successful or not.",
			// From a fast local model up to a slow remote one.
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 5, 10, 20, 30, 60, 120},
		}),
		llmTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gameassist_llm_tokens_total",
			Help: "LLM tokens reported by the provider, by kind (prompt, completion).",
		}, []string{"kind"}),
		turns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gameassist_chat_turns_total",
			Help: "Chat turns answered, by mode (llm, offline, degraded).",
		}, []string{"mode"}),
		sessions: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gameassist_sessions_created_total",
			Help: "Chat sessions created.",
		}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gameassist_rate_limited_total",
			Help: "Requests refused by a rate limit, by scope.",
		}, []string{"scope"}),
		feedback: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gameassist_feedback_total",
			Help: "Players' ratings of answers, by rating (up, down); a rating that replaces one counts again.",
		}, []string{"rating"}),

		tools:      newLabelGuard(o.toolNames, maxTools, LabelUnknown),
		categories: newLabelGuard(nil, maxCategories, LabelUnknown),
		// Mirror tool.Source, tool.Status and the chat engine's turn modes.
		sources:  newLabelGuard(sourceLabels(), 0, LabelUnknown),
		statuses: newLabelGuard([]string{"success", "error", "skipped"}, 0, LabelUnknown),
		modes:    newLabelGuard([]string{"llm", "offline", "degraded"}, 0, LabelUnknown),
		methods: newLabelGuard([]string{
			http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
			http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace,
		}, 0, LabelOther),
		routes: newLabelGuard(nil, maxRoutes, LabelOther),
		scopes: newLabelGuard(nil, maxScopes, LabelOther),
		// Versions first come, first served: a studio runs a handful.
		versions: newLabelGuard(nil, maxVersions, LabelOther),
	}
	for code := 100; code < len(m.codes); code++ {
		m.codes[code] = strconv.Itoa(code)
	}
	// Children that always exist, so dashboards see zeros instead of gaps and
	// the hot paths skip a label lookup.
	m.llmOK = m.llmCalls.WithLabelValues("ok")
	m.llmError = m.llmCalls.WithLabelValues("error")
	m.llmPrompt = m.llmTokens.WithLabelValues("prompt")
	m.llmCompletion = m.llmTokens.WithLabelValues("completion")
	m.feedback.WithLabelValues("up")
	m.feedback.WithLabelValues("down")

	active := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "gameassist_active_sessions",
		Help: "Sessions currently alive, as counted by the session store at scrape time.",
	}, m.activeSessions)

	collectors := []prometheus.Collector{
		m.httpRequests, m.httpDuration,
		m.toolCalls, m.toolDuration, m.cacheHits, m.cacheMisses, m.duplicates, m.truncated, m.tokensSaved,
		m.llmCalls, m.llmDuration, m.llmTokens, m.turns,
		active, m.sessions, m.rateLimited, m.feedback,
	}
	for i, c := range collectors {
		if err := reg.Register(c); err != nil {
			for _, done := range collectors[:i] {
				reg.Unregister(done)
			}
			return nil, fmt.Errorf("metrics: register: %w", err)
		}
	}
	return m, nil
}

// ObserveHTTP records one served HTTP request. route is the matched route
// pattern (gin's c.FullPath()), never the raw URL path; an empty route
// means no route matched and is recorded as LabelUnmatched.
func (m *Metrics) ObserveHTTP(route, method string, status int, d time.Duration) {
	if m == nil {
		return
	}
	r := LabelUnmatched
	if route != "" {
		r = m.routes.value(route)
	}
	meth := m.methods.value(method)
	m.httpRequests.WithLabelValues(r, meth, m.statusCode(status)).Inc()
	m.httpDuration.WithLabelValues(r, meth).Observe(d.Seconds())
}

func (m *Metrics) statusCode(status int) string {
	if status >= 100 && status < len(m.codes) {
		return m.codes[status]
	}
	return LabelUnknown
}

// ToolObservation describes one tool call as the chat engine or the screen
// rules saw it.
type ToolObservation struct {
	// Tool is the tool name (an unknown name is recorded as LabelUnknown).
	Tool string
	// Category is the tool family: cache, gcs, sql, rag.
	Category string
	// Source is where the result came from.
	Source tool.Source
	// Status is success or error.
	Status string
	// Duration is the time to answer the call, whatever its source.
	Duration time.Duration
	// ResultChars is the length of the result's LLM view (tool.Result.ForLLM);
	// it feeds the tokens-saved estimate when the call came from the cache.
	ResultChars int
	// Truncated reports that the executor cut the result to its size limit.
	Truncated bool
	// Version is the tool version that answered (0: unversioned); at most
	// 32 distinct versions get their own label value, the rest "other".
	Version int
}

// ObserveTool records one tool call. It sits on the hot path of every turn:
// label values already seen cost one map lookup and no allocation.
func (m *Metrics) ObserveTool(o ToolObservation) {
	if m == nil {
		return
	}
	c := m.toolSeries(toolKey{tool: o.Tool, category: o.Category, source: string(o.Source), status: o.Status, version: versionText(o.Version)})
	c.calls.Inc()
	c.duration.Observe(o.Duration.Seconds())
	switch tool.Source(c.source) {
	case tool.SourceCache:
		m.cacheHits.Inc()
		if o.ResultChars > 0 {
			m.tokensSaved.Add(float64((o.ResultChars + 3) / 4))
		}
	case tool.SourceExecuted, tool.SourceProactive:
		m.cacheMisses.Inc()
	case tool.SourceDuplicate:
		m.duplicates.Inc()
	}
	if o.Truncated {
		c.truncated.Inc()
	}
}

// toolKey is the label set of a tool call, raw or bounded.
// sourceLabels are the label values of tool.Sources.
func sourceLabels() []string {
	var out []string
	for _, s := range tool.Sources() {
		out = append(out, string(s))
	}
	return out
}

type toolKey struct{ tool, category, source, status, version string }

// smallVersions are the label texts of versions 0-99, so the hot path
// formats no number.
var smallVersions = func() (out [100]string) {
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}()

// versionText is a version's label text; a negative one is "other".
func versionText(v int) string {
	switch {
	case v < 0:
		return LabelOther
	case v < len(smallVersions):
		return smallVersions[v]
	}
	return strconv.Itoa(v)
}

// toolChildren are the series of one bounded tool label set.
type toolChildren struct {
	source    string
	calls     prometheus.Counter
	duration  prometheus.Observer
	truncated prometheus.Counter
}

// toolSeries returns the series of the label set k, bounding its values.
// Only bounded label sets are cached, so the cache is bounded too; a raw
// set made only of admitted values is its own bounded set and hits at once.
func (m *Metrics) toolSeries(k toolKey) *toolChildren {
	if c, ok := m.toolCache.Load(k); ok {
		return c.(*toolChildren)
	}
	b := toolKey{
		tool:     m.tools.value(k.tool),
		category: m.categories.value(k.category),
		source:   m.sources.value(k.source),
		status:   m.statuses.value(k.status),
		version:  m.versions.value(k.version),
	}
	if c, ok := m.toolCache.Load(b); ok {
		return c.(*toolChildren)
	}
	c := &toolChildren{
		source:    b.source,
		calls:     m.toolCalls.WithLabelValues(b.tool, b.category, b.source, b.status, b.version),
		duration:  m.toolDuration.WithLabelValues(b.tool, b.category, b.source, b.version),
		truncated: m.truncated.WithLabelValues(b.tool),
	}
	actual, _ := m.toolCache.LoadOrStore(b, c)
	return actual.(*toolChildren)
}

// ObserveLLM records one LLM chat completion call: its duration, its outcome
// (err == nil is ok) and the tokens the provider reported (zero or negative
// counts are ignored, as with a failed call).
func (m *Metrics) ObserveLLM(d time.Duration, promptTokens, completionTokens int, err error) {
	if m == nil {
		return
	}
	if err != nil {
		m.llmError.Inc()
	} else {
		m.llmOK.Inc()
	}
	m.llmDuration.Observe(d.Seconds())
	if promptTokens > 0 {
		m.llmPrompt.Add(float64(promptTokens))
	}
	if completionTokens > 0 {
		m.llmCompletion.Add(float64(completionTokens))
	}
}

// ObserveTurn records one answered chat turn by mode: llm (the model
// answered), offline (no LLM configured) or degraded (the LLM failed and the
// offline responder answered). Other modes are recorded as LabelUnknown.
func (m *Metrics) ObserveTurn(mode string) {
	if m == nil {
		return
	}
	m.turns.WithLabelValues(m.modes.value(mode)).Inc()
}

// ObserveSessionCreated records one new chat session.
func (m *Metrics) ObserveSessionCreated() {
	if m == nil {
		return
	}
	m.sessions.Inc()
}

// ObserveFeedback records one player's rating, "up" or "down"; anything
// else is counted as LabelUnknown.
func (m *Metrics) ObserveFeedback(rating string) {
	if m == nil {
		return
	}
	if rating != "up" && rating != "down" {
		rating = LabelUnknown
	}
	m.feedback.WithLabelValues(rating).Inc()
}

// ObserveRateLimited records one request refused by the rate limit of scope
// (for example "chat" or "sessions"); at most 16 scopes are kept apart.
func (m *Metrics) ObserveRateLimited(scope string) {
	if m == nil {
		return
	}
	m.rateLimited.WithLabelValues(m.scopes.value(scope)).Inc()
}

// SetActiveSessionsFunc sets the callback the gameassist_active_sessions
// gauge reads at every scrape; until it is set the gauge reads 0. The
// callback runs on the scrape's goroutine, so it must answer quickly (a
// cached count or an in-memory counter, or a store query under a short
// deadline of its own): a slow callback delays every scrape. A nil f resets
// the gauge to 0.
func (m *Metrics) SetActiveSessionsFunc(f func() float64) {
	if m == nil {
		return
	}
	if f == nil {
		m.activeFn.Store(nil)
		return
	}
	m.activeFn.Store(&f)
}

func (m *Metrics) activeSessions() float64 {
	f := m.activeFn.Load()
	if f == nil {
		return 0
	}
	return (*f)()
}

// scrapeTimeout bounds one scrape of the metrics handler, so a stuck
// collector answers 503 instead of piling up scrapes.
const scrapeTimeout = 10 * time.Second

// Handler serves the metrics gathered from g (usually the registry passed to
// New) in the Prometheus text format. A collector error still serves the
// metrics that could be gathered. A nil g answers 500.
func (m *Metrics) Handler(g prometheus.Gatherer) http.Handler {
	if g == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "metrics: no gatherer", http.StatusInternalServerError)
		})
	}
	return promhttp.HandlerFor(g, promhttp.HandlerOpts{
		ErrorHandling: promhttp.ContinueOnError,
		Timeout:       scrapeTimeout,
	})
}
