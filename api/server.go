// Package api is gameassist's HTTP edge: Gin routes, middleware (request id,
// body limits, admin auth, CORS, rate limits, metrics) and the JSON and SSE
// encodings of the contract in docs/architecture.md, "HTTP". Handlers are
// thin: bind, call a service, answer.
package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-contrib/cors"
	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/metrics"
	"github.com/gameassist/gameassist/ratelimit"
	"github.com/gameassist/gameassist/schemas"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/stats"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/web"
)

// Check is one dependency probed by /readyz.
type Check struct {
	Name     string
	Required bool
	Ping     func(ctx context.Context) error
}

// ChatService runs sessions and turns; *chat.Service satisfies it.
type ChatService interface {
	CreateSession(ctx context.Context, playerID, locale string) (id, token string, err error)
	// Authorize checks that token opens session id.
	Authorize(ctx context.Context, id, token string) error
	Turn(ctx context.Context, req chat.TurnRequest, emit func(chat.Event)) (chat.Reply, error)
	// ScreenEventAt applies a game server's screen event, ordered by ev; an
	// event before the last one applied changes nothing.
	ScreenEventAt(ctx context.Context, sessionID string, sc screens.Screen, ev memory.ScreenEvent) (chat.ScreenReply, error)
}

// ReplayGuard remembers webhook signatures across instances; *memory.Store
// satisfies it.
type ReplayGuard interface {
	// Claim records key for ttl and reports what an earlier use left.
	Claim(ctx context.Context, key string, ttl time.Duration) (memory.Use, error)
	// Settle marks a claimed key's use completed.
	Settle(ctx context.Context, key string) error
	// Forget drops key, so a delivery that failed on our side may be retried.
	Forget(ctx context.Context, key string)
}

// SessionInspector reads and edits sessions for admins; *memory.Store
// satisfies it.
type SessionInspector interface {
	Session(ctx context.Context, id string) (memory.Meta, error)
	History(ctx context.Context, id string) ([]memory.Message, error)
	Cache(ctx context.Context, id string) ([]memory.CacheEntry, error)
	DeleteCache(ctx context.Context, id, key string) error
	ClearCache(ctx context.Context, id string) (int, error)
	Recent(ctx context.Context, q memory.RecentQuery) (memory.RecentPage, error)
}

// RulesReloader re-reads the screen rules; *screens.Engine satisfies it.
type RulesReloader interface {
	Reload(ctx context.Context) error
	Rules() []string
}

// StatsReader reports tool and LLM statistics; *stats.Recorder satisfies it.
type StatsReader interface {
	Snapshot(ctx context.Context) (stats.Report, error)
}

// Limiter decides rate limits; *ratelimit.Limiter satisfies it.
type Limiter interface {
	Allow(ctx context.Context, key string, limit int, window time.Duration) (ratelimit.Decision, error)
}

// Options configure the HTTP edge.
type Options struct {
	AdminToken     string
	WebhookSecret  string
	AllowedOrigins []string
	// TrustedProxies are the load balancers whose X-Forwarded-For is believed.
	TrustedProxies  []string
	BodyLimit       int64 // default 1 MiB
	MaxMessageChars int   // default 4000
	// ChatRatePerMinute caps feedback per session per minute (0 disables);
	// chat turns are capped by the session store's turn quota, counted in
	// the turn's own first round trip.
	ChatRatePerMinute    int
	SessionRatePerMinute int // 0 disables
	// RequestTimeout bounds a chat turn's work, streamed or not (default 60 s).
	RequestTimeout time.Duration
	// MCPToken is the bearer token of /mcp; empty refuses every MCP request.
	MCPToken string
	// MCPRatePerMinute bounds /mcp requests per client IP (0 disables);
	// each tools/call of a JSON-RPC batch counts as one request.
	MCPRatePerMinute int
	// MCPMaxBatch bounds the requests of one JSON-RPC batch on /mcp
	// (default DefaultMCPMaxBatch).
	MCPMaxBatch int
	// HeartbeatInterval is how often a quiet SSE stream gets a comment
	// line (default 15 s).
	HeartbeatInterval time.Duration
	// WebhookTolerance is how far a webhook's signed timestamp may be from
	// now, either way (default 5 min); accepted signatures are remembered
	// that long.
	WebhookTolerance time.Duration
	// Now is the clock of webhook timestamps (default time.Now).
	Now func() time.Time
	// PlayerStateTTL is how long a pushed player state lives (default 30 days).
	PlayerStateTTL time.Duration
}

// Deps are the services behind the routes. Executor and Logger are
// required; a nil service leaves its routes answering 503.
type Deps struct {
	Executor *tool.Executor
	// OfferedToLLM reports whether a tool is in the LLM's tool list.
	OfferedToLLM func(tool.Spec) bool
	Chat         ChatService
	// Replay remembers accepted webhook signatures; required with a
	// webhook secret.
	Replay   ReplayGuard
	Sessions SessionInspector
	Rules    RulesReloader
	// Tools reloads the tools file; nil when TOOLS_FILE is unset.
	Tools ToolsReloader
	// Reloader reloads the rules and the tools file together
	// (POST /admin/reload); nil answers 503.
	Reloader Reloader
	// Rollouts keeps the weights of tool versions; nil answers 503 on
	// PUT and DELETE /admin/tools/:name/rollout and shows no weights.
	Rollouts Rollouts
	Stats    StatsReader
	Limiter  Limiter
	Metrics  *metrics.Metrics
	Gatherer prometheus.Gatherer
	Checks   []Check
	Logger   *slog.Logger
	// Players keeps pushed player states; nil answers 503 on the player routes.
	Players PlayerStates
	// Feedback keeps players' ratings; nil answers 503 on its routes.
	Feedback FeedbackService
	// MCP serves the Model Context Protocol at /mcp (streamable HTTP); the
	// edge puts the MCP token and the rate limit in front of it. Nil
	// answers 503.
	MCP http.Handler
}

// Server holds the routes and their dependencies.
type Server struct {
	deps     Deps
	opts     Options
	log      *slog.Logger
	engine   *gin.Engine
	errorMap []errorMapping
	corsCfg  *cors.Config // nil: no cross-origin access
}

// New builds the HTTP edge; it refuses missing required dependencies.
func New(deps Deps, opts Options) (*Server, error) {
	if deps.Executor == nil {
		return nil, errors.New("api: executor is required")
	}
	if deps.Logger == nil {
		return nil, errors.New("api: logger is required")
	}
	if opts.WebhookSecret != "" && deps.Replay == nil {
		return nil, errors.New("api: a webhook secret needs a replay guard")
	}
	if deps.OfferedToLLM == nil {
		deps.OfferedToLLM = func(tool.Spec) bool { return true }
	}
	if opts.BodyLimit <= 0 {
		opts.BodyLimit = 1 << 20
	}
	if opts.MaxMessageChars <= 0 {
		opts.MaxMessageChars = 4000
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = 60 * time.Second
	}
	if opts.MCPMaxBatch <= 0 {
		opts.MCPMaxBatch = DefaultMCPMaxBatch
	}
	if opts.HeartbeatInterval <= 0 {
		opts.HeartbeatInterval = 15 * time.Second
	}
	if opts.WebhookTolerance <= 0 {
		opts.WebhookTolerance = 5 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.PlayerStateTTL <= 0 {
		opts.PlayerStateTTL = 30 * 24 * time.Hour
	}
	s := &Server{deps: deps, opts: opts, log: deps.Logger, errorMap: defaultErrorMap()}
	if len(opts.AllowedOrigins) > 0 {
		s.corsCfg = &cors.Config{
			AllowOrigins:  opts.AllowedOrigins,
			AllowMethods:  []string{http.MethodGet, http.MethodPost, http.MethodOptions},
			AllowHeaders:  []string{"Authorization", "Content-Type", "Accept", "X-Request-ID"},
			ExposeHeaders: []string{"X-Request-ID", "Retry-After"},
			MaxAge:        10 * time.Minute,
		}
		// cors.New panics on a bad origin; refuse it here instead.
		if err := s.corsCfg.Validate(); err != nil {
			return nil, fmt.Errorf("api: allowed origins %q: %w", opts.AllowedOrigins, err)
		}
	}
	gin.SetMode(gin.ReleaseMode)
	s.engine = gin.New()
	s.engine.HandleMethodNotAllowed = true
	// A path with a stray trailing slash gets the JSON 404 of every unknown
	// route, not an HTML redirect to a route a client did not ask for.
	s.engine.RedirectTrailingSlash = false
	s.engine.ContextWithFallback = true
	// The client IP is the connection's peer unless it is one of the
	// configured proxies: then X-Forwarded-For names the player. With no
	// proxy configured the header is ignored, so a player cannot dodge the
	// per-IP limit by sending it.
	if err := s.engine.SetTrustedProxies(opts.TrustedProxies); err != nil {
		return nil, fmt.Errorf("api: TRUSTED_PROXIES: %w", err)
	}
	s.routes()
	return s, nil
}

// Handler returns the HTTP handler of every route.
func (s *Server) Handler() http.Handler { return s.engine }

func (s *Server) routes() {
	r := s.engine
	r.Use(s.recoverer(), s.requestID(), s.observe(), s.limitBody())
	if s.corsCfg != nil {
		r.Use(s.cors(*s.corsCfg))
	}
	r.NoRoute(func(c *gin.Context) { s.fail(c, httpErr(http.StatusNotFound, "not_found", "no such route", nil)) })
	r.NoMethod(func(c *gin.Context) {
		s.fail(c, httpErr(http.StatusMethodNotAllowed, "method_not_allowed", "method not allowed on this route", nil))
	})

	r.GET("/", func(c *gin.Context) { c.Header("Location", "/web/"); c.Status(http.StatusFound) })
	r.GET("/healthz", s.healthz)
	favicon := func(c *gin.Context) {
		c.Header("Cache-Control", "public, max-age=86400")
		c.Data(http.StatusOK, "image/x-icon", web.Favicon())
	}
	r.GET("/favicon.ico", favicon)
	r.HEAD("/favicon.ico", favicon)
	r.GET("/readyz", s.readyz)
	r.GET("/metrics", s.metrics)
	r.GET("/openapi.json", s.openapi)
	// The chat widget demo and the admin cache inspector (static pages).
	pages := gin.WrapH(http.StripPrefix("/web", web.Handler()))
	// The page's own address without its slash still finds it (browsers).
	r.GET("/web", func(c *gin.Context) { c.Redirect(http.StatusMovedPermanently, "/web/") })
	r.GET("/web/*filepath", pages)
	r.HEAD("/web/*filepath", pages)

	v1 := r.Group("/v1")
	v1.POST("/sessions", s.createSession)
	v1.POST("/chat", s.chat)
	v1.POST("/screens/events", s.screenEvent)
	v1.PUT("/players/:player_id/state", s.putPlayerState)
	v1.POST("/feedback", s.feedback)

	admin := r.Group("/admin", s.requireAdmin())
	admin.GET("/sessions", s.adminSessions)
	admin.GET("/sessions/:id", s.adminSession)
	admin.GET("/sessions/:id/cache", s.adminCache)
	admin.DELETE("/sessions/:id/cache", s.adminClearCache)
	admin.DELETE("/sessions/:id/cache/:key", s.adminDeleteCacheEntry)
	admin.GET("/tools", s.listTools)
	admin.POST("/tools/execute", s.executeTools)
	admin.GET("/stats", s.adminStats)
	admin.POST("/screens/reload", s.reloadScreens)
	admin.POST("/tools/reload", s.reloadTools)
	admin.POST("/reload", s.reloadAll)
	admin.PUT("/tools/:name/rollout", s.setRollout)
	admin.DELETE("/tools/:name/rollout", s.clearRollout)
	admin.GET("/players/:player_id/state", s.adminPlayerState)
	admin.GET("/feedback", s.adminFeedback)
	admin.GET("/feedback/:id/scenario", s.adminFeedbackScenario)

	// MCP streamable HTTP: POST carries JSON-RPC; GET and DELETE are
	// answered by the handler (405 in stateless mode).
	mcp := []gin.HandlerFunc{s.limitMCP(), s.requireMCPToken(), s.serveMCP}
	r.POST("/mcp", mcp...)
	r.GET("/mcp", mcp...)
	r.DELETE("/mcp", mcp...)
}

// cors answers CORS for allowed origins. A request from another origin
// gets no CORS headers, so browsers keep its answer from the page, and is
// otherwise served as usual: every answer keeps the contract's statuses and
// JSON error bodies (the cors package would answer a bodiless 403).
func (s *Server) cors(cfg cors.Config) gin.HandlerFunc {
	h := cors.New(cfg)
	return func(c *gin.Context) {
		origin := c.GetHeader("Origin")
		if origin == "" || slices.ContainsFunc(cfg.AllowOrigins, func(o string) bool {
			o = strings.TrimSpace(o)
			return o == "*" || strings.EqualFold(o, origin)
		}) {
			h(c)
			return
		}
		c.Next()
	}
}

func (s *Server) metrics(c *gin.Context) {
	if s.deps.Metrics == nil || s.deps.Gatherer == nil {
		s.fail(c, errUnavailable("metrics"))
		return
	}
	s.deps.Metrics.Handler(s.deps.Gatherer).ServeHTTP(c.Writer, c.Request)
}

func (s *Server) openapi(c *gin.Context) {
	c.Data(http.StatusOK, "application/json", schemas.OpenAPI())
}

func errUnavailable(what string) *HTTPError {
	return httpErr(http.StatusServiceUnavailable, "unavailable", what+" is not available", nil)
}
