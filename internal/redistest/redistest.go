// Package redistest runs a real redis-server for tests, so storage code is
// tested against the same server it meets in production rather than a fake.
//
// One server per test package is the usual shape:
//
//	var srv *redistest.Server
//
//	func TestMain(m *testing.M) { redistest.Main(m, func(s *redistest.Server) { srv = s }) }
//
//	func TestX(t *testing.T) {
//		rdb := srv.Client(t)
//		prefix := srv.Prefix(t) // keys of this test start with prefix
//		...
//	}
//
// Tests that stop or restart Redis (fault tests) start their own server with
// Start. FLUSHALL is never used: tests isolate themselves by key prefix.
package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// startAttempts bounds the retries when another process takes the port
// between choosing it and redis-server binding it.
const startAttempts = 10

// readyTimeout is how long a started redis-server may take to answer PING.
const readyTimeout = 10 * time.Second

// Server is one redis-server process owned by a test binary. Its port stays
// the same across Stop and Restart, so clients reconnect on their own.
type Server struct {
	bin  string
	dir  string
	port int
	ids  atomic.Int64
	// extra are more redis-server arguments (cluster mode).
	extra []string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// Start runs a fresh redis-server on a free port for tb and stops it when
// tb ends. It fails tb when redis-server is missing from PATH.
func Start(tb testing.TB) *Server {
	tb.Helper()
	s, err := newServer(tb.TempDir())
	if err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	tb.Cleanup(s.Stop)
	return s
}

// Main starts one server for a whole test package, hands it to set, runs
// the tests and exits with their status. Call it from TestMain.
func Main(m *testing.M, set func(*Server)) {
	dir, err := os.MkdirTemp("", "redistest-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "redistest: %v\n", err)
		os.Exit(1)
	}
	s, err := newServer(dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "redistest: %v\n", err)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	set(s)
	code := m.Run()
	s.Stop()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func newServer(dir string, extra ...string) (*Server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, fmt.Errorf("redis-server not found in PATH (install redis, e.g. apt-get install redis-server): %w", err)
	}
	s := &Server{bin: bin, dir: dir}
	var last error
	for range startAttempts {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		s.port = port
		bus, err := freePort()
		if err != nil {
			return nil, err
		}
		// {port} and {busport} in extra become this attempt's ports.
		r := strings.NewReplacer("{port}", strconv.Itoa(port), "{busport}", strconv.Itoa(bus))
		s.extra = nil
		for _, a := range extra {
			s.extra = append(s.extra, r.Replace(a))
		}
		if last = s.launch(); last == nil {
			return s, nil
		}
	}
	return nil, fmt.Errorf("start redis-server: %w", last)
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// URL is the server's redis:// URL, as REDIS_URL takes it.
func (s *Server) URL() string { return "redis://" + s.Addr() + "/0" }

// Name is "single", the backend's name in test tables.
func (s *Server) Name() string { return "single" }

// UniversalClient is Client as the interface production code takes.
func (s *Server) UniversalClient(tb testing.TB) redis.UniversalClient { return s.Client(tb) }

// Client returns a client for the server that is closed when tb ends.
func (s *Server) Client(tb testing.TB) *redis.Client {
	tb.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: s.Addr()})
	tb.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// Prefix returns a key prefix no other test on this server gets, so tests
// sharing a server never see each other's keys.
func (s *Server) Prefix(tb testing.TB) string {
	tb.Helper()
	return prefix(&s.ids, tb)
}

func prefix(ids *atomic.Int64, tb testing.TB) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, tb.Name())
	if len(name) > 40 {
		name = name[:40]
	}
	return fmt.Sprintf("t%d-%s", ids.Add(1), name)
}

// Stop kills the server process; data is lost. Stopping a stopped server
// does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// Restart stops the server if it runs and starts a new, empty one on the
// same port, as a Redis failover or restart looks to clients.
func (s *Server) Restart(tb testing.TB) {
	tb.Helper()
	s.Stop()
	var err error
	// The port was ours a moment ago; it can linger briefly after the kill.
	for range startAttempts {
		if err = s.launch(); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.Fatalf("redistest: restart on port %d: %v", s.port, err)
}

// launch runs redis-server on s.port and waits until it answers PING as
// the process we started (not some other server that holds the port).
func (s *Server) launch() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	logFile := filepath.Join(s.dir, fmt.Sprintf("redis-%d.log", s.port))
	args := append([]string{
		"--port", strconv.Itoa(s.port),
		"--bind", "127.0.0.1",
		"--save", "",
		"--appendonly", "no",
		"--dir", s.dir,
		"--logfile", logFile,
		"--daemonize", "no",
	}, s.extra...)
	cmd := exec.Command(s.bin, args...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run %s: %w", s.bin, err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	if err := waitReady(s.Addr(), cmd.Process.Pid, done); err != nil {
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("%w (log %s: %s)", err, logFile, tail(logFile))
	}
	s.cmd, s.done = cmd, done
	return nil
}

func waitReady(addr string, pid int, done <-chan struct{}) error {
	deadline := time.Now().Add(readyTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return errors.New("redis-server exited")
		default:
		}
		if got, err := serverPID(addr); err == nil {
			if got != pid {
				return fmt.Errorf("port taken by another redis-server (pid %d)", got)
			}
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Errorf("redis-server did not answer within %s", readyTimeout)
}

// serverPID asks the server at addr for its process id over a plain
// connection (a pooled client would retry and log while the server boots).
func serverPID(addr string) (int, error) {
	conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(time.Second)); err != nil {
		return 0, err
	}
	if _, err := conn.Write([]byte("INFO server\r\n")); err != nil {
		return 0, err
	}
	r := bufio.NewReader(conn)
	head, err := r.ReadString('\n')
	if err != nil {
		return 0, err
	}
	if !strings.HasPrefix(head, "$") {
		// -LOADING and similar: not ready yet.
		return 0, fmt.Errorf("INFO answered %q", strings.TrimSpace(head))
	}
	size, err := strconv.Atoi(strings.TrimSpace(head[1:]))
	if err != nil || size < 0 {
		return 0, fmt.Errorf("INFO answered %q", strings.TrimSpace(head))
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "process_id:"); ok {
			return strconv.Atoi(v)
		}
	}
	return 0, errors.New("no process_id in INFO server")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return strings.TrimSpace(string(b))
}
