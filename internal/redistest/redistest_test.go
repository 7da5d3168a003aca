package redistest_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/redis/go-redis/v9"
)

func TestStartStopRestart(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	if err := rdb.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatalf("set: %v", err)
	}
	if !strings.HasPrefix(srv.URL(), "redis://127.0.0.1:") {
		t.Fatalf("URL = %q", srv.URL())
	}

	srv.Stop()
	if conn, err := net.Dial("tcp", srv.Addr()); err == nil {
		conn.Close()
		t.Fatal("server still accepts connections after Stop")
	}
	srv.Stop() // idempotent

	srv.Restart(t)
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Fatalf("ping after Restart: %v", err)
	}
	n, err := rdb.Exists(ctx, "k").Result()
	if err != nil || n != 0 {
		t.Fatalf("exists after restart = %d, %v; want 0 (data lost)", n, err)
	}
}

// TestParallelServers starts servers at the same time, as parallel test
// packages do: each gets its own port and process.
func TestParallelServers(t *testing.T) {
	var mu sync.Mutex
	addrs := map[string]string{}
	for _, name := range []string{"a", "b", "c", "d"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := redistest.Start(t)
			mu.Lock()
			if other, ok := addrs[s.Addr()]; ok {
				t.Errorf("servers %s and %s share %s", other, name, s.Addr())
			}
			addrs[s.Addr()] = name
			mu.Unlock()
			rdb := s.Client(t)
			if err := rdb.SetNX(ctx, "owner", name, 0).Err(); err != nil {
				t.Fatal(err)
			}
			if got, err := rdb.Get(ctx, "owner").Result(); err != nil || got != name {
				t.Fatalf("owner = %q, %v; want %q", got, err, name)
			}
		})
	}
}

func TestPrefixUnique(t *testing.T) {
	srv := redistest.Start(t)
	a, b := srv.Prefix(t), srv.Prefix(t)
	if a == b {
		t.Fatalf("prefixes equal: %q", a)
	}
	if strings.ContainsAny(a, "{}: /") {
		t.Fatalf("prefix %q holds separator characters", a)
	}
}

// TestCluster checks the cluster is one: keys of every slot are written and
// read through one client, spread over all three masters, and a multi-key
// command whose keys share a hash tag runs.
func TestCluster(t *testing.T) {
	ctx := context.Background()
	c := redistest.StartCluster(t)
	rdb := c.Client(t)
	if !strings.HasPrefix(c.URL(), "redis://127.0.0.1:") || strings.Count(c.URL(), "addr=") != 2 {
		t.Fatalf("URL = %q", c.URL())
	}
	for i := range 64 {
		if err := rdb.Set(ctx, fmt.Sprintf("k%d", i), i, 0).Err(); err != nil {
			t.Fatalf("set k%d: %v", i, err)
		}
	}
	var masters atomic.Int64
	err := rdb.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		n, err := m.DBSize(ctx).Result()
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("master %s holds no key", m.Options().Addr)
		}
		masters.Add(1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if masters.Load() != 3 {
		t.Fatalf("%d masters, want 3", masters.Load())
	}
	if err := rdb.MSet(ctx, "{s}:a", 1, "{s}:b", 2).Err(); err != nil {
		t.Fatalf("mset with one hash tag: %v", err)
	}
	if err := rdb.MSet(ctx, "a", 1, "b", 2).Err(); err == nil || !strings.Contains(err.Error(), "CROSSSLOT") {
		t.Fatalf("mset across slots = %v, want CROSSSLOT (not a cluster?)", err)
	}
}

func TestStartLoading(t *testing.T) {
	srv := redistest.StartLoading(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	err := rdb.Get(context.Background(), "k").Err()
	if !redis.IsLoadingError(err) {
		t.Fatalf("GET on a loading server: %v, want a LOADING error", err)
	}
}

func TestStartClusterDown(t *testing.T) {
	srv := redistest.StartClusterDown(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	err := rdb.Get(context.Background(), "k").Err()
	if !redis.IsClusterDownError(err) {
		t.Fatalf("GET on a node serving no slot: %v, want a CLUSTERDOWN error", err)
	}
}
