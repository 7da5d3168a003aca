// Package api is gameassist's HTTP edge: Gin routes, middleware (request id,
// body limits, admin auth, CORS, metrics) and the JSON and SSE encodings of
// the contract in DESIGN.md. Handlers are thin: bind, call a service, answer.
package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/tool"
)

// Check is one dependency probed by /readyz.
type Check struct {
	Name     string
	Required bool
	Ping     func(ctx context.Context) error
}

// Options configure the HTTP edge.
type Options struct {
	AdminToken     string
	BodyLimit      int64 // default 1 MiB
	RequestTimeout time.Duration
}

// Deps are the services behind the routes.
type Deps struct {
	Executor *tool.Executor
	// OfferedToLLM reports whether a tool is in the LLM's tool list.
	OfferedToLLM func(tool.Spec) bool
	Checks       []Check
	Logger       *slog.Logger
}

// Server holds the routes and their dependencies.
type Server struct {
	deps     Deps
	opts     Options
	log      *slog.Logger
	engine   *gin.Engine
	errorMap []errorMapping
}

// New builds the HTTP edge; it refuses missing dependencies.
func New(deps Deps, opts Options) (*Server, error) {
	if deps.Executor == nil {
		return nil, errors.New("api: executor is required")
	}
	if deps.Logger == nil {
		return nil, errors.New("api: logger is required")
	}
	if deps.OfferedToLLM == nil {
		deps.OfferedToLLM = func(tool.Spec) bool { return true }
	}
	if opts.BodyLimit <= 0 {
		opts.BodyLimit = 1 << 20
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = 60 * time.Second
	}
	s := &Server{deps: deps, opts: opts, log: deps.Logger}
	gin.SetMode(gin.ReleaseMode)
	s.engine = gin.New()
	s.engine.HandleMethodNotAllowed = true
	s.routes()
	return s, nil
}

// Handler returns the HTTP handler of every route.
func (s *Server) Handler() http.Handler { return s.engine }

func (s *Server) routes() {
	r := s.engine
	r.Use(s.recoverer(), s.requestID(), s.accessLog(), s.limitBody())
	r.NoRoute(func(c *gin.Context) { s.fail(c, httpErr(http.StatusNotFound, "not_found", "no such route", nil)) })
	r.NoMethod(func(c *gin.Context) {
		s.fail(c, httpErr(http.StatusMethodNotAllowed, "method_not_allowed", "method not allowed on this route", nil))
	})

	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.readyz)

	admin := r.Group("/admin", s.requireAdmin())
	admin.GET("/tools", s.listTools)
	admin.POST("/tools/execute", s.executeTools)
}
