package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/tool"
)

// closeSignal is a listener that says when it was closed.
type closeSignal struct {
	net.Listener
	once   sync.Once
	closed chan struct{}
}

func (l *closeSignal) Close() error {
	err := l.Listener.Close()
	l.once.Do(func() { close(l.closed) })
	return err
}

// hang bounds a wait that only a bug makes long: it is a hang detector,
// not a timing assertion.
const hang = 2 * time.Minute

func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(hang):
		t.Fatalf("%s never happened", what)
		panic("unreachable")
	}
}

// serving is api.Serve running on a loopback listener of its own.
type serving struct {
	base   string
	ln     *closeSignal
	cancel context.CancelFunc
	served chan error
}

func startServing(t *testing.T, fc fakeChat, shutdownTimeout time.Duration) *serving {
	t.Helper()
	ex, err := tool.NewExecutor(tool.NewRegistry(), tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Deps{Executor: ex, Chat: fc, Logger: slog.New(slog.DiscardHandler)}, api.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &closeSignal{Listener: tcp, closed: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s := &serving{base: "http://" + tcp.Addr().String(), ln: ln, cancel: cancel, served: make(chan error, 1)}
	go func() {
		s.served <- api.Serve(ctx, &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: time.Minute}, ln, shutdownTimeout, slog.New(slog.DiscardHandler))
	}()
	return s
}

type turnResult struct {
	status int
	body   string
	err    error
}

// postTurn sends one chat turn on a connection of its own.
func (s *serving) postTurn(t *testing.T) <-chan turnResult {
	t.Helper()
	out := make(chan turnResult, 1)
	go func() {
		cl := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, s.base+"/v1/chat", strings.NewReader(chatBody(false)))
		if err != nil {
			out <- turnResult{err: err}
			return
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer some-session-token")
		resp, err := cl.Do(req)
		if err != nil {
			out <- turnResult{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		out <- turnResult{status: resp.StatusCode, body: string(b), err: err}
	}()
	return out
}

// TestGracefulShutdown ends the serve context (what SIGTERM does) while a
// turn waits on the LLM: the listener closes at once, so new connections
// are refused, Serve waits for the turn, and the turn completes with its
// answer.
func TestGracefulShutdown(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	letAnswer := func() { once.Do(func() { close(release) }) }
	t.Cleanup(letAnswer)
	const answer = "Kaelith, every time."
	fc := fakeChat{turn: func(ctx context.Context, req chat.TurnRequest, _ func(chat.Event)) (chat.Reply, error) {
		close(started)
		select {
		case <-release:
		case <-ctx.Done():
			return chat.Reply{}, ctx.Err()
		}
		return chat.Reply{SessionID: req.SessionID, Exchange: 1, Reply: answer, ToolCalls: []tool.Outcome{}}, nil
	}}
	s := startServing(t, fc, time.Hour)
	turn := s.postTurn(t)
	receive(t, started, "the turn's start")
	s.cancel()

	receive(t, s.ln.closed, "the listener's close")
	if conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://")); err == nil {
		conn.Close()
		t.Fatal("a draining server still accepts connections")
	}
	select {
	case err := <-s.served:
		t.Fatalf("Serve returned before the in-flight turn ended: %v", err)
	default:
	}
	letAnswer()

	r := receive(t, turn, "the in-flight turn's answer")
	if r.err != nil || r.status != http.StatusOK {
		t.Fatalf("in-flight turn: %d %s %v", r.status, r.body, r.err)
	}
	var rep chat.Reply
	if err := json.Unmarshal([]byte(r.body), &rep); err != nil || rep.Reply != answer {
		t.Fatalf("in-flight turn answered %s (%v)", r.body, err)
	}
	if err := receive(t, s.served, "Serve's return"); err != nil {
		t.Fatalf("Serve after a drain: %v", err)
	}
}

// TestShutdownTimeoutCutsSlowTurns: a turn still running when the shutdown
// timeout ends is cut (its connection closed, its context cancelled), so
// Serve returns a shutdown error and the dependencies can close under no
// running turn. The turn never ends by itself, so any timeout shows it.
func TestShutdownTimeoutCutsSlowTurns(t *testing.T) {
	started, cut := make(chan struct{}), make(chan error, 1)
	fc := fakeChat{turn: func(ctx context.Context, _ chat.TurnRequest, _ func(chat.Event)) (chat.Reply, error) {
		close(started)
		<-ctx.Done()
		cut <- ctx.Err()
		return chat.Reply{}, ctx.Err()
	}}
	s := startServing(t, fc, time.Millisecond)
	turn := s.postTurn(t)
	receive(t, started, "the turn's start")
	s.cancel()

	err := receive(t, s.served, "Serve's return after its shutdown timeout")
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "shutdown") {
		t.Fatalf("Serve after a shutdown timeout: %v, want a shutdown error", err)
	}
	if err := receive(t, cut, "the cut turn's end"); !errors.Is(err, context.Canceled) {
		t.Fatalf("the cut turn's context ended with %v", err)
	}
	if r := receive(t, turn, "the cut turn's client"); r.err == nil {
		t.Fatalf("the cut turn got an answer: %d %s", r.status, r.body)
	}
}
