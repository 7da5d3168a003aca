package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/data"
	"github.com/gameassist/gameassist/feedback"
	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/mcpserver"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/metrics"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/ratelimit"
	"github.com/gameassist/gameassist/rollout"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/stats"
	"github.com/gameassist/gameassist/telemetry"
	"github.com/gameassist/gameassist/tool"
	toolscache "github.com/gameassist/gameassist/tools_cache"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

func runServe(ctx context.Context, args []string, cfg config.Config, logger *slog.Logger) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "listen address (ADDR)")
	demo := fs.Bool("demo-player", cfg.RedisURL == "", "push the sample game's demo player state for player id \"demo\" at start (default: on with the embedded Redis)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger.Info("starting gameassist", "config", cfg)
	var opts []appOption
	if *demo {
		opts = append(opts, withDemoPlayer())
	}
	a, err := newApp(ctx, cfg, logger, opts...)
	if err != nil {
		return err
	}
	defer a.close()

	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("serve: listen %s: %w", cfg.Addr, err)
	}
	return a.serve(ctx, ln)
}

// app is a wired server: every dependency, the HTTP handler, and what must
// run in the background and be closed at the end.
type app struct {
	cfg      config.Config
	log      *slog.Logger
	handler  http.Handler
	chat     *chat.Service
	mcp      *mcpserver.Server
	store    *memory.Store
	rdb      redis.UniversalClient
	observer *observer
	closers  []func()
	bgCancel context.CancelFunc
	bgDone   chan struct{}
}

// newApp wires every component from the configuration: embedded defaults
// for whatever is not configured.
// appOption adjusts how newApp wires the server.
type appOption func(*appOptions)

type appOptions struct {
	// noObservability leaves out metrics and the stats observer, so a
	// benchmark can measure what they cost.
	noObservability bool
	// llmHTTP, when set, carries the LLM client's requests (eval puts its
	// cassette transport there).
	llmHTTP *http.Client
	// tracing replaces the tracing the configuration asks for (tests pass
	// one exporting to memory).
	tracing *telemetry.Tracing
	// now, when set, is the session store's clock (creation times and last
	// activity), so a test can order sessions without waiting.
	now func() time.Time
	// rolloutNow is the clock of the rollout weights' refresh (tests move
	// it by hand); nil is time.Now.
	rolloutNow func() time.Time
	// demoPlayer pushes the sample game's demo player state at start.
	demoPlayer bool
}

// withDemoPlayer pushes the sample game's demo player (player id "demo")
// at start, when the sample game is served.
func withDemoPlayer() appOption { return func(o *appOptions) { o.demoPlayer = true } }

func withoutObservability() appOption { return func(o *appOptions) { o.noObservability = true } }

// withLLMHTTPClient makes the LLM client send its requests through hc.
func withLLMHTTPClient(hc *http.Client) appOption { return func(o *appOptions) { o.llmHTTP = hc } }
func withTracing(t *telemetry.Tracing) appOption  { return func(o *appOptions) { o.tracing = t } }

// withClock gives the session store a clock.
func withClock(now func() time.Time) appOption { return func(o *appOptions) { o.now = now } }

// withRolloutClock makes the rollout weights' refresh read now.
func withRolloutClock(now func() time.Time) appOption {
	return func(o *appOptions) { o.rolloutNow = now }
}

func newApp(ctx context.Context, cfg config.Config, logger *slog.Logger, options ...appOption) (_ *app, err error) {
	var opt appOptions
	for _, o := range options {
		o(&opt)
	}
	a := &app{cfg: cfg, log: logger}
	defer func() {
		if err != nil {
			a.close()
		}
	}()
	bgCtx, bgCancel := context.WithCancel(context.WithoutCancel(ctx))
	a.bgCancel = bgCancel
	var background []func(context.Context)

	tracing := opt.tracing
	if tracing == nil {
		if tracing, err = telemetry.New(ctx, telemetry.Options{Endpoint: cfg.OTelEndpoint, Protocol: cfg.OTelProtocol}); err != nil {
			return nil, err
		}
		a.closers = append(a.closers, func() {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := tracing.Shutdown(sctx); err != nil {
				logger.Warn("tracing: flushing spans failed", "error", err.Error())
			}
		})
	}
	if tracing.Enabled() {
		logger.Info("tracing on: spans go to the OTLP endpoint", "endpoint", cfg.OTelEndpoint, "protocol", cfg.OTelProtocol)
	}

	// GCS: the sample game (built when the file is missing) or a studio's
	// own database opened as is; tools get a read-only handle.
	gcs, err := openGCS(ctx, cfg, logger)
	if err != nil {
		return nil, err
	}
	ro := gcs.ro
	a.closers = append(a.closers, func() { _ = ro.Close() })
	logger.Info("GCS database ready", "path", cfg.GCSDBPath, "sample_game", gcs.sample, "data_version", gcs.version)

	gcsTools, err := toolsgcs.New(ro, logger)
	if err != nil {
		return nil, err
	}
	var builtins []tool.Tool
	var versions chat.DataVersioner = fileVersion{path: cfg.GCSDBPath}
	var entities map[string][]string // names that favour a kind's tools in selection
	var game *gcsdb.Game             // the read model, whose one resolver the offline responder reads names with
	if gcs.sample {
		if game, err = gcsdb.NewGame(ro); err != nil {
			return nil, err
		}
		snap, err := toolscache.NewSnapshot(ctx, ro, logger)
		if err != nil {
			return nil, err
		}
		background = append(background, func(ctx context.Context) { snap.Run(ctx, cfg.CacheRefresh) })
		cacheTools, err := snap.Tools()
		if err != nil {
			return nil, err
		}
		builtins = append(cacheTools, gcsTools...)
		versions = snapshotVersion{snap}
		entities = entityNames(snap)
	} else {
		// The sample game's tools know only its schema; the read-only SQL
		// introspection tools fit any database.
		for _, t := range gcsTools {
			if t.Spec().Category == tool.CategorySQL {
				builtins = append(builtins, t)
			}
		}
	}

	rag, err := openRAG(ctx, cfg, logger, gcs.sample)
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, rag.close)

	reg := tool.NewRegistry()
	if err := reg.Register(append(builtins, rag.tools...)...); err != nil {
		return nil, err
	}
	// offered is the rule of the LLM's tool list; MCP and the tools file's
	// chains obey it too.
	offered := func(s tool.Spec) bool { return cfg.SQLToolsForLLM || s.Category != tool.CategorySQL }
	var files *fileTools
	if cfg.ToolsFile != "" {
		files = &fileTools{path: cfg.ToolsFile, db: ro, reg: reg, log: logger, offered: offered}
		if _, err := files.load(ctx); err != nil {
			return nil, fmt.Errorf("TOOLS_FILE: %w", err)
		}
		versions = toolsGenVersion{base: versions, ft: files}
	}
	exec, err := tool.NewExecutor(reg, tool.ExecutorOptions{Timeout: cfg.ToolTimeout, MaxResultChars: cfg.MaxResultChars, Logger: logger})
	if err != nil {
		return nil, err
	}

	names, err := gcsdb.NewNames(ro)
	if err != nil {
		return nil, err
	}
	var rules *screens.Engine
	if cfg.ScreenRules == "" && !gcs.sample {
		// The embedded rules are the sample game's: they name its tools.
		logger.Info("SCREEN_RULES is not set: no screen rules for a studio's own game")
		rules, err = screens.NewEmptyEngine(reg, names, logger)
	} else {
		rules, err = screens.NewEngine(cfg.ScreenRules, reg, names, logger)
	}
	if err != nil {
		return nil, fmt.Errorf("screen rules: %w", err)
	}
	if files != nil {
		files.rules = rules
	}

	// Redis: configured, or an in-process Redis-compatible server.
	rdb, err := a.openRedis(cfg, logger)
	if err != nil {
		return nil, err
	}
	a.rdb = rdb
	store, err := memory.New(rdb, memory.Options{SessionTTL: cfg.SessionTTL, Logger: logger, Now: opt.now,
		TurnQuota: memory.Quota{Turns: cfg.ChatRatePerMinute, Per: time.Minute}})
	if err != nil {
		return nil, err
	}
	a.store = store
	if opt.demoPlayer && gcs.sample {
		if _, _, err := store.PutPlayerState(ctx, data.DemoPlayerID, data.DemoPlayer(), time.Now(), cfg.PlayerStateTTL); err != nil {
			return nil, fmt.Errorf("demo player: %w", err)
		}
		logger.Info("demo player state pushed: sessions created with player_id \"demo\" get personal answers", "player_id", data.DemoPlayerID)
	}
	limiter, err := ratelimit.New(rdb, "ga")
	if err != nil {
		return nil, err
	}
	recorder, err := stats.New(rdb, "ga", knownTool(reg))
	if err != nil {
		return nil, err
	}
	rollouts, err := rollout.New(rdb, reg, rollout.Options{Prefix: "ga", Now: opt.rolloutNow, Logger: logger})
	if err != nil {
		return nil, err
	}
	if files != nil {
		files.useAssigner(rollouts)
	}

	promReg := prometheus.NewRegistry()
	promReg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// No fixed tool names: a tools file reload adds names. The observer
	// records only registered tools (anything else as unknown), so the
	// label stays bounded by the registry.
	m, err := metrics.New(promReg)
	if err != nil {
		return nil, err
	}
	m.SetActiveSessionsFunc(activeSessionsGauge(bgCtx, store, logger))

	fbStore, err := feedback.NewStore(rdb, feedback.Options{Prefix: "ga", Max: int64(cfg.FeedbackMax)})
	if err != nil {
		return nil, err
	}
	fbSvc, err := feedback.NewService(store, fbStore, opt.now)
	if err != nil {
		return nil, err
	}
	var fb api.FeedbackService = fbSvc
	if tracing.Enabled() {
		fb = tracedFeedback{FeedbackService: fbSvc, t: tracing}
	}
	offlineOpts := offline.Options{Glossary: rag.glossary, Logger: logger}
	if game != nil {
		// Not a typed nil: without the sample game the responder finds no names.
		offlineOpts.Names = game
	}
	responder, err := offline.New(exec, offlineOpts)
	if err != nil {
		return nil, err
	}
	deps := chat.Deps{
		Store: store, Executor: exec, Fallback: offlineFallback{r: responder}, Screens: rules, Versions: versions, Rollouts: rollouts, Logger: logger,
		DisplayNames: names, Exchanges: tracedExchanges{},
	}
	if gcs.sample {
		deps.Labels = newSampleWords()
	}
	if opt.noObservability {
		m = nil
	} else {
		a.observer = newObserver(reg, m, recorder, logger)
		background = append(background, a.observer.run)
		deps.Observer = a.observer
	}
	if tracing.Enabled() {
		deps.Screens = tracedPlanner{next: rules, t: tracing}
		deps.Observer = tracingObserver{next: deps.Observer, t: tracing}
	}
	checks := []api.Check{
		{Name: "redis", Required: true, Ping: store.Ping},
		{Name: "gcs", Required: true, Ping: func(ctx context.Context) error {
			var n int
			return ro.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&n)
		}},
		{Name: "vector_store", Required: true, Ping: rag.ping},
	}
	if cfg.LLMEnabled() {
		client, err := llm.New(llm.Options{
			BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, Model: cfg.OpenAIModel,
			EmbeddingsModel: cfg.EmbeddingsModel, Timeout: cfg.LLMTimeout, Logger: logger,
			HTTPClient: opt.llmHTTP, NoCacheKey: !cfg.PromptCacheKey,
		})
		if err != nil {
			return nil, err
		}
		deps.LLM = client
		if tracing.Enabled() {
			deps.LLM = tracedLLM{next: client, model: client.Model(), t: tracing}
		}
		checks = append(checks, api.Check{Name: "llm", Required: false, Ping: client.Ping})
	} else {
		logger.Warn("no LLM configured (OPENAI_API_KEY / OPENAI_BASE_URL): the offline responder answers every turn")
	}
	svc, err := chat.NewService(deps, chat.Options{
		MaxToolIterations: cfg.MaxToolIterations, MaxContextTokens: cfg.MaxContextTokens, OfferSQLTools: cfg.SQLToolsForLLM,
		ToolSelection: cfg.ToolSelection, ToolCatalogBytes: cfg.ToolCatalogMaxBytes, MaxToolsPerCall: cfg.MaxToolsPerCall, Model: cfg.OpenAIModel,
		Entities:  entities,
		LLMBudget: llmBudget(cfg), FallbackReserve: fallbackReserve, MaxToolCallsPerRound: cfg.MaxToolCallsPerRound,
		ProgressPath: cfg.ProgressPath,
	})
	if err != nil {
		return nil, err
	}
	a.chat = svc
	var chatSvc api.ChatService = svc
	if tracing.Enabled() {
		chatSvc = tracedChat{ChatService: svc, t: tracing}
	}

	mcpDeps := mcpserver.Deps{Executor: exec, Sessions: store, Rules: rules, Logger: logger, Players: store}
	if a.observer != nil {
		mcpDeps.Observer = a.observer
	}
	a.mcp, err = mcpserver.New(mcpDeps, mcpserver.Options{Offered: offered, Version: moduleVersion()})
	if err != nil {
		return nil, err
	}

	srv, err := api.New(api.Deps{ //nolint:contextcheck // builds routes; handlers use their request's context
		Executor:     exec,
		OfferedToLLM: offered,
		Chat:         chatSvc, Replay: store, Sessions: store, Rules: rules, Stats: recorder, Limiter: limiter, Tools: toolsReloader(files), Players: store,
		Reloader: reloader{files: files, rules: rules},
		Rollouts: rollouts, Feedback: fb,
		Metrics: m, Gatherer: promReg, Checks: checks, Logger: logger, MCP: a.mcp.Handler(),
	}, api.Options{
		AdminToken: cfg.AdminToken, WebhookSecret: cfg.WebhookSecret, AllowedOrigins: cfg.AllowedOrigins,
		TrustedProxies:  cfg.TrustedProxies,
		MaxMessageChars: cfg.MaxMessageChars, ChatRatePerMinute: cfg.ChatRatePerMinute,
		SessionRatePerMinute: cfg.SessionRatePerMinute, RequestTimeout: requestTimeout(cfg), PlayerStateTTL: cfg.PlayerStateTTL,
		WebhookTolerance: cfg.WebhookTolerance,
		MCPToken:         cfg.MCPToken, MCPRatePerMinute: cfg.MCPRatePerMinute,
	})
	if err != nil {
		return nil, err
	}
	// Probes and scrapes every few seconds would drown the traces.
	a.handler = tracing.HTTP(srv.Handler(), "/healthz", "/readyz", "/metrics")
	if cfg.AdminToken == "" {
		logger.Warn("ADMIN_TOKEN is not set: every /admin route is refused")
	}
	if cfg.WebhookSecret == "" {
		logger.Warn("WEBHOOK_SECRET is not set: every screen event is refused")
	}
	if cfg.MCPToken == "" {
		logger.Info("MCP_TOKEN is not set: /mcp refuses every request (gameassist mcp serves stdio without it)")
	}

	a.bgDone = make(chan struct{})
	go func() {
		defer close(a.bgDone)
		done := make(chan struct{}, len(background))
		for _, f := range background {
			go func() { f(bgCtx); done <- struct{}{} }()
		}
		for range background {
			<-done
		}
	}()
	return a, nil
}

// fallbackReserve is the part of a turn's time kept for the offline
// answer and the final write when the LLM does not answer.
const fallbackReserve = 3 * time.Second

// llmBudget bounds a turn's LLM loop, retries included: every attempt may
// use its LLM_TIMEOUT.
func llmBudget(cfg config.Config) time.Duration { return cfg.LLMTimeout * llm.DefaultMaxAttempts }

// requestTimeout bounds a chat request: the LLM budget, then time for the
// fallback and the write.
func requestTimeout(cfg config.Config) time.Duration { return llmBudget(cfg) + 2*fallbackReserve }

// serve answers on ln until ctx ends, then stops accepting and lets
// in-flight requests (turns) finish within the shutdown timeout.
func (a *app) serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           a.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      requestTimeout(a.cfg) + 10*time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelWarn),
	}
	a.log.Info("listening", "addr", ln.Addr().String())
	a.log.Info(readyLine(a.cfg, ln.Addr()))
	if err := api.Serve(ctx, hs, ln, a.cfg.ShutdownTimeout, a.log); err != nil {
		return err
	}
	a.log.Info("stopped")
	return nil
}

// close stops background work, flushes stats and closes every dependency.
func (a *app) close() {
	if a.bgCancel != nil {
		a.bgCancel()
	}
	if a.bgDone != nil { // background work started
		select {
		case <-a.bgDone:
		case <-time.After(5 * time.Second):
		}
	}
	if a.chat != nil {
		// Rolling summaries still being written need Redis (and the LLM).
		a.chat.Wait()
	}
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

// openRedis connects to REDIS_URL, or starts the embedded server when unset.
// A URL with addr= query parameters (go-redis cluster URL) opens a cluster
// client.
func (a *app) openRedis(cfg config.Config, logger *slog.Logger) (redis.UniversalClient, error) {
	url := cfg.RedisURL
	if url == "" {
		mr := miniredis.NewMiniRedis()
		mr.ClockTTL(true)
		if err := mr.StartAddr("127.0.0.1:0"); err != nil {
			return nil, fmt.Errorf("embedded redis: %w", err)
		}
		a.closers = append(a.closers, mr.Close)
		logger.Warn("REDIS_URL is not set: using an in-process Redis-compatible server; sessions are lost on exit", "addr", mr.Addr())
		url = "redis://" + mr.Addr() + "/0"
	}
	var rdb redis.UniversalClient
	if cl, err := redis.ParseClusterURL(url); err == nil && len(cl.Addrs) > 1 {
		cl.DialTimeout, cl.ReadTimeout, cl.WriteTimeout, cl.MaxRetries = 2*time.Second, 2*time.Second, 2*time.Second, 1
		rdb = redis.NewClusterClient(cl)
	} else {
		opt, err := redis.ParseURL(url)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout, opt.MaxRetries = 2*time.Second, 2*time.Second, 2*time.Second, 1
		rdb = redis.NewClient(opt)
	}
	a.closers = append(a.closers, func() { _ = rdb.Close() })
	return rdb, nil
}

// snapshotVersion gives the chat runner the GCS data version without I/O.
type snapshotVersion struct{ s *toolscache.Snapshot }

func (v snapshotVersion) DataVersion(context.Context) (string, error) {
	if ver := v.s.Version(); ver != "" {
		return ver, nil
	}
	return "", errors.New("gcs data version unknown")
}

// activeSessionsGauge returns a quick callback for the active-sessions gauge:
// it reads a value refreshed in the background, never Redis itself.
func activeSessionsGauge(ctx context.Context, store *memory.Store, logger *slog.Logger) func() float64 {
	var last atomic.Int64
	refresh := func() {
		c, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		n, err := store.ActiveSessions(c)
		if err != nil {
			logger.Debug("active sessions unavailable", "error", err.Error())
			return
		}
		last.Store(n)
	}
	go func() {
		t := time.NewTicker(15 * time.Second)
		defer t.Stop()
		for {
			refresh()
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 { return float64(last.Load()) }
}

// entityNames lists the game's champion, boss and faction names in every
// locale, for tool selection: a message naming one favours its kind's tools.
func entityNames(snap *toolscache.Snapshot) map[string][]string {
	out := map[string][]string{}
	add := func(kind string, list []toolscache.Named) {
		for _, n := range list {
			out[kind] = append(out[kind], n.Name)
			for _, l := range n.Names {
				out[kind] = append(out[kind], l)
			}
		}
	}
	add("champion", snap.Champions())
	add("boss", snap.Bosses())
	add("faction", snap.Factions())
	return out
}

// toolsReloader is files as the API's reloader, or nil without a tools file
// (a nil *fileTools in an interface would not compare equal to nil).
func toolsReloader(files *fileTools) api.ToolsReloader {
	if files == nil {
		return nil
	}
	return files
}

// readyLine is the last start-up line: where to go, and what stays closed
// for want of which setting.
func readyLine(cfg config.Config, addr net.Addr) string {
	host, port := "localhost", ""
	if ta, ok := addr.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
		if !ta.IP.IsUnspecified() {
			host = ta.IP.String()
		}
	} else if h, p, err := net.SplitHostPort(addr.String()); err == nil {
		host, port = h, p
	}
	base := "http://" + net.JoinHostPort(host, port)
	var b strings.Builder
	fmt.Fprintf(&b, "ready: chat widget %s/web/ · admin inspector %s/web/admin.html · API %s/openapi.json", base, base, base)
	var unset []string
	if cfg.AdminToken == "" {
		unset = append(unset, "ADMIN_TOKEN (admin API and inspector refuse every request)")
	}
	if cfg.WebhookSecret == "" {
		unset = append(unset, "WEBHOOK_SECRET (screen events from the game server are refused)")
	}
	if !cfg.LLMEnabled() {
		unset = append(unset, "OPENAI_API_KEY/OPENAI_BASE_URL (the offline responder answers)")
	}
	if cfg.RedisURL == "" {
		unset = append(unset, "REDIS_URL (sessions live in memory and are lost on exit)")
	}
	if len(unset) > 0 {
		b.WriteString(" · unset: " + strings.Join(unset, "; "))
	}
	return b.String()
}
