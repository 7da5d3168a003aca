package redistest

import (
	"context"
	"crypto/rand"
	"fmt"
	"testing"

	"github.com/redis/go-redis/v9"
)

// loadingKeys and loadingKeyDelay make StartLoading's server load
// for loadingKeys × delay (about 200 s), far longer than any test using it.
const (
	loadingKeys          = 4000
	loadingKeyDelay      = "50000" // microseconds per key
	loadingValueBytes    = 1100    // incompressible, over the event interval
	loadingEventInterval = "1024"  // bytes loaded between answering clients
)

// StartLoading runs a redis-server for tb that is still loading its data
// set when StartLoading returns, and stays so for minutes: every data
// command gets the real "-LOADING Redis is loading the dataset in memory"
// answer (INFO and PING-free commands aside), as after a restart with a
// large RDB or AOF. It writes an RDB of a few thousand keys and restarts on
// it with a per-key load delay (redis-server's key-load-delay), answering
// clients between keys. It is stopped when tb ends.
func StartLoading(tb testing.TB) *Server {
	tb.Helper()
	s, err := newServer(tb.TempDir())
	if err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	tb.Cleanup(s.Stop)
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: s.Addr()})
	defer rdb.Close()
	pipe := rdb.Pipeline()
	for i := range loadingKeys {
		pipe.Set(ctx, fmt.Sprintf("loading:%d", i), randomBytes(tb, loadingValueBytes), 0)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		tb.Fatalf("redistest: fill the data set to load: %v", err)
	}
	if err := rdb.Save(ctx).Err(); err != nil {
		tb.Fatalf("redistest: save the data set to load: %v", err)
	}
	s.Stop()
	s.extra = append(s.extra, "--key-load-delay", loadingKeyDelay, "--loading-process-events-interval-bytes", loadingEventInterval)
	if err := s.launch(); err != nil {
		tb.Fatalf("redistest: restart to load: %v", err)
	}
	return s
}

func randomBytes(tb testing.TB, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	return b
}

// StartClusterDown runs a cluster-mode redis-server that serves no hash
// slot, for tb: every key command gets the real "-CLUSTERDOWN Hash slot
// not served" answer, as while a cluster is being reconfigured. It is
// stopped when tb ends.
func StartClusterDown(tb testing.TB) *Server {
	tb.Helper()
	s, err := newServer(tb.TempDir(),
		"--cluster-enabled", "yes",
		"--cluster-config-file", "nodes-{port}.conf",
		"--cluster-port", "{busport}",
	)
	if err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	tb.Cleanup(s.Stop)
	return s
}
