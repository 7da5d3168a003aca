package mcpserver_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/mcpserver"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

// redisSrv is the package's redis-server; each test uses its own key prefix.
var redisSrv *redistest.Server

func TestMain(m *testing.M) { redistest.Main(m, func(s *redistest.Server) { redisSrv = s }) }

// testRules cover one screen with the GCS tools only (the test registry has
// no RAG tools).
const testRules = `{
  "BossBattlePresenter": {
    "data_tools": [
      {"tool": "gcs_get_boss_details", "json_field": "BossConfigId", "parameter_name": "boss_id"},
      {"tool": "gcs_find_counters_for_boss", "json_field": "BossConfigId", "parameter_name": "boss_id"}
    ],
    "prompt_injection": {
      "template": "The player fights {BossConfigId_translated} (phase {Phase}).",
      "required_fields": ["BossConfigId", "Phase"]
    }
  }
}`

// harness is an MCP server over real parts: the GCS tools on a SQLite file
// of the test game, the safe executor, the screen-rule engine and a
// memory.Store on the package's redis-server.
type harness struct {
	srv   *mcpserver.Server
	exec  *tool.Executor
	reg   *tool.Registry
	store *memory.Store
	rules *screens.Engine
	obs   *recorder
}

type setup struct {
	// sqlTools serves the sql category too (SQL_TOOLS_FOR_LLM=true).
	sqlTools bool
}

func newHarness(t testing.TB, s setup) *harness {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	db := gcsdbtest.Open(t, gcsdbtest.Game())
	tools, err := toolsgcs.New(db, logger)
	if err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	exec, err := tool.NewExecutor(reg, tool.ExecutorOptions{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	names, err := gcsdb.NewNames(db)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rules.json")
	if err := os.WriteFile(path, []byte(testRules), 0o600); err != nil {
		t.Fatal(err)
	}
	rules, err := screens.NewEngine(path, reg, names, logger)
	if err != nil {
		t.Fatal(err)
	}
	store, err := memory.New(redisSrv.Client(t), memory.Options{Prefix: redisSrv.Prefix(t), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{exec: exec, reg: reg, store: store, rules: rules, obs: &recorder{}}
	h.srv, err = mcpserver.New(
		mcpserver.Deps{Executor: exec, Sessions: store, Rules: rules, Observer: h.obs, Logger: logger, Players: store},
		mcpserver.Options{Offered: func(sp tool.Spec) bool { return s.sqlTools || sp.Category != tool.CategorySQL }, Version: "test"},
	)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// recorder is the Observer of the tests: it keeps every outcome.
type recorder struct {
	mu   sync.Mutex
	outs []tool.Outcome
}

func (r *recorder) ToolCalls(_ context.Context, _ string, outs []tool.Outcome) {
	r.mu.Lock()
	r.outs = append(r.outs, outs...)
	r.mu.Unlock()
}

func (r *recorder) all() []tool.Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tool.Outcome(nil), r.outs...)
}

// transport connects an SDK client to the harness's server one way.
type transport struct {
	name    string
	connect func(t *testing.T, h *harness) *mcp.ClientSession
}

// transports are the ways a client reaches the server: stdio style over
// an in-memory pipe, and streamable HTTP, both with the SDK's newest
// protocol (server/discover) and with the 2025-06-18 initialize handshake.
var transports = []transport{
	{name: "in-memory (stdio style)", connect: func(t *testing.T, h *harness) *mcp.ClientSession {
		ct, st := mcp.NewInMemoryTransports()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- h.srv.Run(ctx, st) }()
		cs := connect(t, ct, nil)
		t.Cleanup(func() {
			_ = cs.Close()
			cancel()
			<-done
		})
		return cs
	}},
	{name: "streamable HTTP", connect: func(t *testing.T, h *harness) *mcp.ClientSession {
		return connect(t, httpTransport(t, h), nil)
	}},
	{name: "streamable HTTP, 2025-06-18 initialize", connect: func(t *testing.T, h *harness) *mcp.ClientSession {
		return connect(t, httpTransport(t, h), &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	}},
}

func httpTransport(t *testing.T, h *harness) *mcp.StreamableClientTransport {
	ts := httptest.NewServer(h.srv.Handler())
	t.Cleanup(ts.Close)
	return &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: ts.Client(), MaxRetries: -1, DisableStandaloneSSE: true}
}

func connect(t *testing.T, tr mcp.Transport, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "gameassist-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, tr, opts)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// testCtx bounds one test's calls: an answer later than this is a hang.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
