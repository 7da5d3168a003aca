// Package mcpserver serves gameassist over the Model Context Protocol, so
// designers, support staff and studios' own agents reach the game's tools and
// a session's context from any MCP client: every tool the LLM may use (same
// registry, schemas, validation and executor), the tool catalogue and the
// screen rules as resources, a session's screen, tool cache and history as
// resource templates, and a few prompts. It speaks streamable HTTP in
// stateless mode (any replica answers any request) and stdio, through the
// official SDK github.com/modelcontextprotocol/go-sdk. Authentication and rate
// limits are the HTTP edge's job; this package holds none.
package mcpserver

import (
	"context"
	"errors"
	"hash/maphash"
	"log/slog"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// Executor runs tool calls safely and knows the registry; *tool.Executor
// satisfies it. The registry is read on every request, so tools added or
// replaced at run time are served at once.
type Executor interface {
	Execute(ctx context.Context, call tool.Call) tool.Result
	Registry() *tool.Registry
}

// Sessions reads chat sessions for the per-session resources; *memory.Store
// satisfies it. A session that does not exist is memory.ErrNotFound.
type Sessions interface {
	Session(ctx context.Context, id string) (memory.Meta, error)
	History(ctx context.Context, id string) ([]memory.Message, error)
	Cache(ctx context.Context, id string) ([]memory.CacheEntry, error)
}

// Players reads the state the game server pushed for a player;
// *memory.Store satisfies it. A player without state is memory.ErrNotFound.
type Players interface {
	PlayerState(ctx context.Context, playerID string) (memory.PlayerState, error)
}

// Rules are the running screen rules; *screens.Engine satisfies it.
type Rules interface {
	Document() []byte
	Plan(ctx context.Context, screen screens.Screen, locale string) (screens.Plan, error)
}

// Observer receives every tool call an MCP client makes, for metrics and
// stats; the serve wiring's observer satisfies it. It must be quick.
type Observer interface {
	ToolCalls(ctx context.Context, sessionID string, outs []tool.Outcome)
}

// Deps are what the server reads. Executor, Sessions, Rules and Logger are
// required; a nil Observer records nothing.
type Deps struct {
	Executor Executor
	Sessions Sessions
	Rules    Rules
	Observer Observer
	Logger   *slog.Logger
	// Players serves each session's player state resource; nil shows
	// every session without one.
	Players Players
}

// Options tune the server.
type Options struct {
	// Offered reports whether a tool is served; the same rule as the LLM's
	// tool list (SQL tools only with SQL_TOOLS_FOR_LLM). Nil serves every tool.
	Offered func(tool.Spec) bool
	// Version is the server version announced to clients (default "dev").
	Version string
	// MaxBodyBytes bounds one HTTP request body (default 1 MiB, as the rest
	// of the HTTP API).
	MaxBodyBytes int64
}

// Server builds MCP servers over gameassist's services.
type Server struct {
	deps Deps
	opts Options
	log  *slog.Logger
	// sdkLog passes the SDK's warnings and errors only: at info it logs
	// every stateless session's start and end, one per HTTP request.
	sdkLog *slog.Logger
	// built is the MCP server of the tool set last seen; HTTP requests share
	// it until the served tools change.
	built atomic.Pointer[builtServer]
	seed  maphash.Seed
}

type builtServer struct {
	key uint64
	srv *mcp.Server
}

// New returns a server; it refuses missing required dependencies.
func New(deps Deps, opts Options) (*Server, error) {
	switch {
	case deps.Executor == nil:
		return nil, errors.New("mcpserver: executor is required")
	case deps.Sessions == nil:
		return nil, errors.New("mcpserver: sessions are required")
	case deps.Rules == nil:
		return nil, errors.New("mcpserver: screen rules are required")
	case deps.Logger == nil:
		return nil, errors.New("mcpserver: logger is required")
	}
	if deps.Observer == nil {
		deps.Observer = nopObserver{}
	}
	if opts.Offered == nil {
		opts.Offered = func(tool.Spec) bool { return true }
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 1 << 20
	}
	return &Server{
		deps: deps, opts: opts, log: deps.Logger, seed: maphash.MakeSeed(),
		sdkLog: slog.New(minLevel{Handler: deps.Logger.Handler(), min: slog.LevelWarn}),
	}, nil
}

// minLevel drops records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.min && m.Handler.Enabled(ctx, l)
}

func (m minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{Handler: m.Handler.WithAttrs(attrs), min: m.min}
}

func (m minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: m.Handler.WithGroup(name), min: m.min}
}

type nopObserver struct{}

func (nopObserver) ToolCalls(context.Context, string, []tool.Outcome) {}

const instructions = `gameassist serves one game's data: champions, bosses, dungeons, factions, gear, lore and UI documentation. ` +
	`Every tool is read-only. A tool result's structured content holds {data, message, llm_cache_duration}; ` +
	`a text block after the data says how to use it. Errors come back as tool errors with guidance on what to call instead. ` +
	`Support staff can read a chat session's screen, tool cache and history as resources ` +
	`(gameassist://sessions/{session_id}/screen, /cache, /history).`

// current returns an MCP server for the tools served now: the one built
// last while the served tools (names, descriptions, schemas, categories,
// cache durations, aliases) are unchanged, else a new one. Building costs
// milliseconds (the SDK re-encodes every schema); fingerprinting the specs
// costs microseconds, so every request sees a tools reload at once.
func (s *Server) current() *mcp.Server {
	specs := s.servedSpecs()
	key := s.fingerprint(specs)
	if b := s.built.Load(); b != nil && b.key == key {
		return b.srv
	}
	srv := s.build(specs)
	s.built.Store(&builtServer{key: key, srv: srv})
	return srv
}

func (s *Server) fingerprint(specs []tool.Spec) uint64 {
	var h maphash.Hash
	h.SetSeed(s.seed)
	for _, sp := range specs {
		for _, part := range [][]byte{[]byte(sp.Name), []byte(sp.Description), []byte(sp.Category), sp.Parameters, []byte(strconv.Itoa(sp.CacheDuration))} {
			_, _ = h.Write(part)
			_ = h.WriteByte(0)
		}
		for _, a := range sp.Aliases {
			_, _ = h.WriteString(a)
			_ = h.WriteByte(1)
		}
		_ = h.WriteByte(2)
	}
	return h.Sum64()
}

// build assembles an MCP server serving specs.
func (s *Server) build(specs []tool.Spec) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "gameassist", Title: "gameassist", Version: s.opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       s.sdkLog,
		// No logging capability; list-changed notifications are not sent
		// (a stateless server has nobody to tell), clients list again.
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{},
			Resources: &mcp.ResourceCapabilities{},
			Prompts:   &mcp.PromptCapabilities{},
		},
	})
	s.addTools(srv, specs)
	s.addResources(srv)
	s.addPrompts(srv)
	return srv
}

// Run serves one client over t until the client goes or ctx ends: stdio
// for `gameassist mcp`, or an in-memory transport in tests.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.build(s.servedSpecs()).Run(ctx, t)
}

type serverKey struct{}

// Handler returns the streamable HTTP handler of /mcp: stateless (no
// Mcp-Session-Id, any replica answers), JSON responses, POST only. It
// checks no credentials: mount it behind the MCP token, as api does.
//
// The SDK's localhost DNS-rebinding check is off: every request must carry
// the MCP token, which a rebinding page cannot know, and behind a local
// reverse proxy the check would refuse every request.
func (s *Server) Handler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		if srv, ok := r.Context().Value(serverKey{}).(*mcp.Server); ok {
			return srv
		}
		return s.current()
	}, &mcp.StreamableHTTPOptions{
		Stateless:                  true,
		JSONResponse:               true,
		Logger:                     s.sdkLog,
		DisableLocalhostProtection: true,
		MaxRequestBodyBytes:        s.opts.MaxBodyBytes,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), serverKey{}, s.current())
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}
