package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	openai "github.com/sashabaranov/go-openai"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/data"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/telemetry"
)

// oneToolTurn makes the fake LLM answer every turn with one tool call (a
// champion lookup, a cache miss for each new name) and then a text answer.
func oneToolTurn(req openai.ChatCompletionRequest) llmtest.Reply {
	if isSummaryRequest(req) {
		return llmtest.Text("- The player asked about several champions.")
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role == openai.ChatMessageRoleUser {
		// The question follows the turn's data block, when there is one.
		i := strings.LastIndex(last.Content, "Tell me about ")
		if i < 0 {
			return llmtest.Text("Hello!")
		}
		var name string
		q := last.Content[i:]
		_, _ = fmt.Sscanf(q, "Tell me about %s", &name)
		name, _, _ = strings.Cut(name, "<") // the player delimiter follows
		return llmtest.ToolCalls(llmtest.Call{
			ID: "call_1", Name: "gcs_get_champion_details",
			Arguments: fmt.Sprintf(`{"champion_name":%q}`, name),
		})
	}
	return llmtest.Text("Here is what I found about that champion.")
}

// tripCounter counts Redis round trips: a command or a pipeline is one.
type tripCounter struct{ n atomic.Int64 }

func (c *tripCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *tripCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { c.n.Add(1); return next(ctx, cmd) }
}

func (c *tripCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { c.n.Add(1); return next(ctx, cmds) }
}

// benchApp is a whole server over the package's real Redis and a
// zero-latency fake LLM, with JSON logs at info level written to nowhere
// (so log encoding is paid) unless bare, which also drops metrics and
// stats.
type benchApp struct {
	ts     *httptest.Server
	fake   *llmtest.Server
	trips  *tripCounter
	names  []string
	client *http.Client
	app    *app
	// toolMS is the duration_ms the reply reports for each turn's tool
	// call: its wall time inside the turn, from the call's preparation to
	// its result.
	toolMS []float64
}

func newBenchApp(b testing.TB, bare bool, opts ...appOption) *benchApp {
	return newBenchAppEnv(b, bare, nil, opts...)
}

// newBenchAppEnv is newBenchApp with extra environment variables.
func newBenchAppEnv(b testing.TB, bare bool, extra map[string]string, extraOpts ...appOption) *benchApp {
	b.Helper()
	fake := llmtest.New(b)
	fake.SetResponder(oneToolTurn)
	env := testEnv(b, appSetup{llm: fake, env: extra})
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		b.Fatal(err)
	}
	logger := slog.New(telemetry.LogHandler(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})))
	opts := extraOpts
	if bare {
		logger = slog.New(slog.DiscardHandler)
		opts = append(opts, withoutObservability())
	}
	a, err := newApp(context.Background(), cfg, logger, opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(a.close)
	// The game's database was built just now; a deployed one has not
	// changed for a while.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(env["GCS_DB_PATH"], old, old); err != nil {
		b.Fatal(err)
	}
	trips := &tripCounter{}
	a.rdb.AddHook(trips)
	ts := httptest.NewServer(a.handler)
	b.Cleanup(ts.Close)
	game, err := data.Sample()
	if err != nil {
		b.Fatal(err)
	}
	names := make([]string, 0, len(game.Champions))
	for _, c := range game.Champions {
		if !bytes.ContainsAny([]byte(c.Name), " '") {
			names = append(names, c.Name)
		}
	}
	return &benchApp{
		ts: ts, fake: fake, trips: trips, names: names, app: a,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128}},
	}
}

func (ba *benchApp) post(b testing.TB, path, token string, body any, out any) {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, ba.ts.URL+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ba.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		b.Fatalf("%s: %d %s", path, resp.StatusCode, got)
	}
	if out != nil {
		if err := json.Unmarshal(got, out); err != nil {
			b.Fatal(err)
		}
	}
}

type benchSession struct{ id, token string }

func (ba *benchApp) sessions(b testing.TB, n int) []benchSession {
	out := make([]benchSession, n)
	for i := range out {
		var s struct {
			SessionID    string `json:"session_id"`
			SessionToken string `json:"session_token"`
		}
		ba.post(b, "/v1/sessions", "", map[string]string{}, &s)
		out[i] = benchSession{s.SessionID, s.SessionToken}
	}
	return out
}

// turn sends one chat turn; each session asks about champions in turn, so
// every turn's tool call is a cache miss.
func (ba *benchApp) turn(b *testing.B, s benchSession, i int) {
	var raw json.RawMessage
	ba.post(b, "/v1/chat", s.token, json.RawMessage(turnBody(s.id, ba.names, i)), &raw)
	ms, err := turnToolMS(raw)
	if err != nil {
		b.Fatalf("turn %d: %v", i, err)
	}
	ba.toolMS = append(ba.toolMS, ms)
}

func pct(ds []time.Duration, p float64) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[min(int(p*float64(len(s))), len(s)-1)].Microseconds()) / 1000
}

func mean(ds []time.Duration) float64 {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return float64(sum.Microseconds()) / 1000 / float64(len(ds))
}

// BenchmarkHTTPTurn is the headline: a one-tool turn through the HTTP API
// (auth, rate limit, session lock, Redis memory, tool cache, two LLM calls)
// against exactly the two requests it sent, replayed as bare go-openai calls
// to the same fake. It reports both, their ratio, and Redis round trips
// per turn. Sessions rotate every few turns so prompts stay turn-sized.
func BenchmarkHTTPTurn(b *testing.B) {
	for _, variant := range []struct {
		name    string
		bare    bool
		tracing bool
	}{{"metrics+logs", false, false}, {"metrics+logs+tracing", false, true}, {"bare", true, false}} {
		b.Run(variant.name, func(b *testing.B) {
			var opts []appOption
			if variant.tracing {
				// Every span recorded and batched as in production; the
				// exporter drops them instead of sending OTLP.
				tr := telemetry.WithBatchExporter(tracetest.NewNoopExporter())
				b.Cleanup(func() { _ = tr.Shutdown(context.Background()) })
				opts = append(opts, withTracing(tr))
			}
			ba := newBenchApp(b, variant.bare, opts...)
			const turnsPerSession = 4
			sess := ba.sessions(b, b.N/turnsPerSession+1)
			ba.turn(b, sess[len(sess)-1], len(ba.names)-1) // warm up: scripts, statements, connections
			reqs0 := ba.fake.RequestCount()
			trips0 := ba.trips.n.Load()
			turns := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				t0 := time.Now()
				ba.turn(b, sess[i/turnsPerSession], i)
				turns = append(turns, time.Since(t0))
			}
			b.StopTimer()
			trips := float64(ba.trips.n.Load()-trips0) / float64(b.N)

			// Baseline: the same requests, bare go-openai, same fake.
			sent := ba.fake.Requests()[reqs0:]
			cfg := openai.DefaultConfig("sk-test")
			cfg.BaseURL = ba.fake.URL()
			bare := openai.NewClientWithConfig(cfg)
			pairs := make([]time.Duration, 0, len(sent)/2)
			for i := 0; i+1 < len(sent); i += 2 {
				t0 := time.Now()
				for _, r := range sent[i : i+2] {
					if _, err := bare.CreateChatCompletion(context.Background(), r); err != nil {
						b.Fatal(err)
					}
				}
				pairs = append(pairs, time.Since(t0))
			}
			b.ReportMetric(pct(turns, 0.50), "turn_p50_ms")
			b.ReportMetric(pct(turns, 0.99), "turn_p99_ms")
			b.ReportMetric(pct(pairs, 0.50), "bare2_p50_ms")
			b.ReportMetric(pct(turns, 0.50)/pct(pairs, 0.50), "ratio_p50")
			b.ReportMetric(mean(turns)/mean(pairs), "ratio_mean")
			b.ReportMetric(pct(turns, 0.50)-pct(pairs, 0.50), "overhead_p50_ms")
			b.ReportMetric(trips, "redis_trips/turn")
		})
	}
}

// BenchmarkHTTPTurnsConcurrent measures turns per second through the HTTP
// API with 1, 16 and 64 sessions chatting at once (one turn at a time per
// session), metrics and logs on; then the baseline: the same LLM requests
// replayed as bare go-openai call pairs with the same concurrency.
func BenchmarkHTTPTurnsConcurrent(b *testing.B) {
	for _, n := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			ba := newBenchApp(b, false)
			sess := ba.sessions(b, n)
			ba.turn(b, sess[0], len(ba.names)-1)
			reqs0 := ba.fake.RequestCount()
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for w := range n {
				wg.Go(func() {
					k := 0
					for next.Add(1) <= int64(b.N) {
						// Rotate to a fresh-ish history by asking about
						// different champions; sessions keep their window.
						ba.turn(b, sess[w], w*1000+k)
						k++
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			turnsPerSec := float64(b.N) / time.Since(start).Seconds()

			sent := ba.fake.Requests()[reqs0:]
			cfg := openai.DefaultConfig("sk-test")
			cfg.BaseURL = ba.fake.URL()
			bare := openai.NewClientWithConfig(cfg)
			var pair atomic.Int64
			start = time.Now()
			for range n {
				wg.Go(func() {
					for {
						i := int(pair.Add(1)-1) * 2
						if i+1 >= len(sent) {
							return
						}
						for _, r := range sent[i : i+2] {
							if _, err := bare.CreateChatCompletion(context.Background(), r); err != nil {
								b.Error(err)
								return
							}
						}
					}
				})
			}
			wg.Wait()
			barePerSec := float64(len(sent)/2) / time.Since(start).Seconds()
			b.ReportMetric(turnsPerSec, "turns/s")
			b.ReportMetric(barePerSec, "bare2_pairs/s")
			b.ReportMetric(barePerSec/turnsPerSec, "ratio")
		})
	}
}

// BenchmarkHTTPScreenThenTurn is the product's journey: the player opens a
// champion's screen (a signed webhook event runs the screen's tools) and,
// a moment later, asks about it. The time is the turn's: its data block
// gives the screen's new results. Each iteration opens a champion the
// process has not seen; the moment between event and question is the wait
// for the service's background work (summaries, line counts).
func BenchmarkHTTPScreenThenTurn(b *testing.B) {
	ba := newBenchApp(b, false)
	s := ba.sessions(b, 1)[0]
	game, err := data.Sample()
	if err != nil {
		b.Fatal(err)
	}
	if b.N > len(game.Champions) {
		b.Fatalf("%d turns, the sample game has %d champions", b.N, len(game.Champions))
	}
	turns := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		c := game.Champions[i]
		b.StopTimer()
		body := mustJSON(b, map[string]any{"session_id": s.id, "screen": map[string]any{
			"name": "ChampionFeatureModelsPresenter", "data": map[string]any{"ChampionConfigId": c.ID}}})
		ev := signedEvent(body)
		req, _ := http.NewRequestWithContext(context.Background(), ev.method, ba.ts.URL+ev.path, bytes.NewReader(ev.body))
		for k, v := range ev.header {
			req.Header.Set(k, v)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := ba.client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var rep screenReply
		err = json.NewDecoder(resp.Body).Decode(&rep)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || !rep.Matched || len(rep.Tools) == 0 {
			b.Fatalf("screen event for %s: %d %+v %v", c.Name, resp.StatusCode, rep, err)
		}
		ba.app.chat.Wait()
		b.StartTimer()
		t0 := time.Now()
		ba.post(b, "/v1/chat", s.token, map[string]any{"session_id": s.id, "message": "Is " + c.Name + " worth building?"}, nil)
		turns = append(turns, time.Since(t0))
	}
	b.StopTimer()
	// Baseline: the turns' requests, bare go-openai, same fake.
	cfg := openai.DefaultConfig("sk-test")
	cfg.BaseURL = ba.fake.URL()
	bare := openai.NewClientWithConfig(cfg)
	var same []time.Duration
	for _, r := range ba.fake.Requests() {
		if isSummaryRequest(r) {
			continue
		}
		t0 := time.Now()
		if _, err := bare.CreateChatCompletion(context.Background(), r); err != nil {
			b.Fatal(err)
		}
		same = append(same, time.Since(t0))
	}
	if len(same) != len(turns) {
		b.Fatalf("%d requests for %d turns, want one each", len(same), len(turns))
	}
	b.ReportMetric(pct(turns, 0.50), "turn_p50_ms")
	b.ReportMetric(pct(turns, 0.90), "turn_p90_ms")
	b.ReportMetric(pct(same, 0.50), "bare_same_p50_ms")
	b.ReportMetric(pct(turns, 0.50)/pct(same, 0.50), "ratio_same_p50")
}
