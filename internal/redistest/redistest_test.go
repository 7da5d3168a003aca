package redistest_test

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
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
