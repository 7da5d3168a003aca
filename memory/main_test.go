package memory_test

import (
	"context"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
	"github.com/redis/go-redis/v9"
)

// backends are the package's shared single redis-server and 3-master
// cluster (see redistest.MainBackends): storage tests run on both.
var backends []redistest.Backend

func TestMain(m *testing.M) {
	redistest.MainBackends(m, func(s *redistest.Server, c *redistest.Cluster) {
		backends = []redistest.Backend{s, c}
	})
}

// env is one test's view of Redis: a client, a unique prefix and a Store.
type env struct {
	rdb    redis.UniversalClient
	prefix string
	store  *memory.Store
}

func newEnv(tb testing.TB, srv redistest.Backend, opts memory.Options) env {
	tb.Helper()
	e := env{rdb: srv.UniversalClient(tb), prefix: srv.Prefix(tb)}
	opts.Prefix = e.prefix
	st, err := memory.New(e.rdb, opts)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	e.store = st
	return e
}

// key is the Redis key of one part of a session, as Store documents it.
func (e env) key(id, part string) string { return e.prefix + ":{" + id + "}:" + part }

func (e env) create(tb testing.TB, id string) {
	tb.Helper()
	err := e.store.CreateSession(context.Background(), memory.Meta{
		ID: id, TokenHash: memory.HashToken("tok-" + id), Locale: "en", PlayerID: "p-" + id,
		CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC),
	})
	if err != nil {
		tb.Fatalf("CreateSession(%s): %v", id, err)
	}
}

func (e env) begin(tb testing.TB, id string) memory.Turn {
	tb.Helper()
	turn, err := e.store.BeginTurn(context.Background(), id)
	if err != nil {
		tb.Fatalf("BeginTurn(%s): %v", id, err)
	}
	return turn
}
