package redistest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// clusterMasters is the size of a test cluster: the smallest Redis Cluster
// redis-cli --cluster create accepts.
const clusterMasters = 3

// clusterReadyTimeout bounds how long the nodes may take to agree on the
// slot map after redis-cli created the cluster.
const clusterReadyTimeout = 30 * time.Second

// Cluster is a 3-master Redis Cluster of redis-server processes owned by a
// test binary, created with redis-cli --cluster create as an operator does.
type Cluster struct {
	nodes []*Server
	ids   atomic.Int64
}

// Backend is a Redis deployment a test runs against: a single node or a
// cluster. Storage tests loop over Backends so every path is tried on both.
type Backend interface {
	// Name is "single" or "cluster", for subtest names.
	Name() string
	// URL is the REDIS_URL a gameassist server takes for this backend.
	URL() string
	// UniversalClient returns a client closed when tb ends.
	UniversalClient(tb testing.TB) redis.UniversalClient
	// Prefix returns a key prefix unique on this backend.
	Prefix(tb testing.TB) string
}

var (
	_ Backend = (*Server)(nil)
	_ Backend = (*Cluster)(nil)
)

// StartCluster runs a fresh cluster for tb and stops it when tb ends.
func StartCluster(tb testing.TB) *Cluster {
	tb.Helper()
	c, err := newCluster(tb.TempDir())
	if err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	tb.Cleanup(c.Stop)
	return c
}

// MainBackends starts one single node and one cluster for a whole test
// package, hands both to set, runs the tests and exits with their status.
// Call it from TestMain instead of Main when the package's tests loop over
// backends.
func MainBackends(m *testing.M, set func(single *Server, cluster *Cluster)) {
	dir, err := os.MkdirTemp("", "redistest-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "redistest: %v\n", err)
		os.Exit(1)
	}
	fail := func(err error) {
		fmt.Fprintf(os.Stderr, "redistest: %v\n", err)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	s, err := newServer(dir)
	if err != nil {
		fail(err)
	}
	c, err := newCluster(dir)
	if err != nil {
		s.Stop()
		fail(err)
	}
	set(s, c)
	code := m.Run()
	c.Stop()
	s.Stop()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func newCluster(dir string) (*Cluster, error) {
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		return nil, fmt.Errorf("redis-cli not found in PATH (install redis, e.g. apt-get install redis-server): %w", err)
	}
	c := &Cluster{}
	for range clusterMasters {
		n, err := newServer(dir,
			"--cluster-enabled", "yes",
			"--cluster-config-file", "nodes-{port}.conf",
			"--cluster-port", "{busport}",
			"--cluster-node-timeout", "2000",
		)
		if err != nil {
			c.Stop()
			return nil, err
		}
		c.nodes = append(c.nodes, n)
	}
	args := []string{"--cluster", "create"}
	for _, n := range c.nodes {
		args = append(args, n.Addr())
	}
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	ctx, cancel := context.WithTimeout(context.Background(), clusterReadyTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, cli, args...).CombinedOutput()
	if err != nil {
		c.Stop()
		return nil, fmt.Errorf("redis-cli --cluster create: %w: %s", err, out)
	}
	if err := c.waitOK(ctx); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

// waitOK polls CLUSTER INFO on every node until each reports
// cluster_state:ok with all slots assigned and every node known.
func (c *Cluster) waitOK(ctx context.Context) error {
	pending := ""
	for {
		pending = ""
		for _, n := range c.nodes {
			rdb := redis.NewClient(&redis.Options{Addr: n.Addr(), MaxRetries: -1})
			info, err := rdb.ClusterInfo(ctx).Result()
			_ = rdb.Close()
			if err != nil {
				pending = fmt.Sprintf("%s: %v", n.Addr(), err)
				break
			}
			if !strings.Contains(info, "cluster_state:ok") ||
				!strings.Contains(info, "cluster_slots_ok:16384") ||
				!strings.Contains(info, fmt.Sprintf("cluster_known_nodes:%d", len(c.nodes))) {
				pending = n.Addr() + " not ready: " + strings.Join(strings.Fields(info), " ")
				break
			}
		}
		if pending == "" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster not ok within %s: %s", clusterReadyTimeout, pending)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Name is "cluster", the backend's name in test tables.
func (c *Cluster) Name() string { return "cluster" }

// Addrs are the masters' host:port addresses.
func (c *Cluster) Addrs() []string {
	addrs := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		addrs[i] = n.Addr()
	}
	return addrs
}

// URL is the go-redis cluster URL (redis://first?addr=second&addr=third)
// that REDIS_URL takes to open a cluster client.
func (c *Cluster) URL() string {
	addrs := c.Addrs()
	u := "redis://" + addrs[0]
	for i, a := range addrs[1:] {
		sep := "&"
		if i == 0 {
			sep = "?"
		}
		u += sep + "addr=" + a
	}
	return u
}

// Client returns a cluster client that is closed when tb ends.
func (c *Cluster) Client(tb testing.TB) *redis.ClusterClient {
	tb.Helper()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs()})
	tb.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// UniversalClient is Client as the interface production code takes.
func (c *Cluster) UniversalClient(tb testing.TB) redis.UniversalClient { return c.Client(tb) }

// Prefix returns a key prefix no other test on this cluster gets.
func (c *Cluster) Prefix(tb testing.TB) string {
	tb.Helper()
	return prefix(&c.ids, tb)
}

// Stop kills every node; data is lost.
func (c *Cluster) Stop() {
	for _, n := range c.nodes {
		n.Stop()
	}
}

// Each runs f once per backend, as a subtest named after it.
func Each(t *testing.T, backends []Backend, f func(t *testing.T, b Backend)) {
	t.Helper()
	if len(backends) == 0 {
		t.Fatal("redistest: no backends (start them with MainBackends)")
	}
	for _, b := range backends {
		t.Run(b.Name(), func(t *testing.T) { f(t, b) })
	}
}

// EachFresh runs f once on a fresh single node and once on a fresh
// cluster, for tests that read server-wide state (stats, per-IP limits).
func EachFresh(t *testing.T, f func(t *testing.T, b Backend)) {
	t.Helper()
	t.Run("single", func(t *testing.T) { f(t, Start(t)) })
	t.Run("cluster", func(t *testing.T) { f(t, StartCluster(t)) })
}
