package main

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/internal/openapitest"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/memory"
)

// TestGracefulShutdown cancels the serve context (what SIGTERM does) while
// a turn waits on a slow LLM: the turn completes and is recorded, and the
// listener refuses new connections.
func TestGracefulShutdown(t *testing.T) {
	fake := llmtest.New(t)
	a := startApp(t, appSetup{llm: fake})
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &closeSignal{Listener: tcp, closed: make(chan struct{})}
	addr := ln.Addr().String()
	base := "http://" + addr
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- a.serve(ctx, ln) }()

	v := openapitest.Load(t)
	cl := &http.Client{Timeout: clientTimeout}
	resp, body, err := sendTo(context.Background(), t, cl, v, base, request{method: http.MethodPost, path: "/v1/sessions", body: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, resp, body, http.StatusCreated)
	s := decode[session](t, body)

	// The LLM answers only when the test lets it: the turn is surely in
	// flight during the shutdown, however slow the machine.
	const answer = "Kaelith, every time."
	release := make(chan struct{})
	var once sync.Once
	letAnswer := func() { once.Do(func() { close(release) }) }
	t.Cleanup(letAnswer)
	fake.SetResponder(func(openai.ChatCompletionRequest) llmtest.Reply {
		return llmtest.Text(answer).Until(release)
	})
	type result struct {
		resp *http.Response
		body []byte
		err  error
	}
	turn := make(chan result, 1)
	go func() {
		// Its own client: the connection must be the in-flight one.
		c := &http.Client{Timeout: clientTimeout, Transport: &http.Transport{DisableKeepAlives: true}}
		resp, body, err := sendTo(context.Background(), t, c, v, base, request{
			method: http.MethodPost, path: "/v1/chat", token: s.Token,
			json: chatBody(s, "who beats the Fire Knight?"),
		})
		turn <- result{resp, body, err}
	}()
	fake.WaitRequests(1) // the turn is waiting on the LLM
	cancel()

	// New connections are refused once shutdown has begun, while the turn
	// is still running.
	<-ln.closed
	if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		conn.Close()
		t.Fatal("a closed listener still accepts connections")
	}
	select {
	case err := <-served:
		t.Fatalf("serve returned before the in-flight turn ended: %v", err)
	default:
	}
	letAnswer()

	var r result
	select {
	case r = <-turn:
	case <-time.After(clientTimeout + 5*time.Second):
		t.Fatal("in-flight turn never answered")
	}
	if r.err != nil {
		t.Fatalf("in-flight turn: %v", r.err)
	}
	expect(t, r.resp, r.body, http.StatusOK)
	if rep := decode[chatReply](t, r.body); rep.Reply != answer || rep.Exchange != 1 {
		t.Fatalf("in-flight turn reply %+v", rep)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not return after shutdown")
	}

	// The turn is in Redis, as another instance would read it.
	store, err := memory.New(redisSrv.Client(t), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := store.History(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].Content != "who beats the Fire Knight?" || hist[1].Content != answer || hist[1].Exchange != 1 {
		t.Fatalf("history after shutdown: %+v", hist)
	}
}

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

// TestShutdownTimeoutCutsSlowTurns: a turn still running when the shutdown
// timeout ends is cut (its connection closed, its context cancelled), so
// serve returns and the dependencies can close under no running turn.
func TestShutdownTimeoutCutsSlowTurns(t *testing.T) {
	fake := llmtest.New(t)
	a := startApp(t, appSetup{llm: fake, env: map[string]string{"SHUTDOWN_TIMEOUT": "1s"}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- a.serve(ctx, ln) }()

	v := openapitest.Load(t)
	cl := &http.Client{Timeout: clientTimeout}
	resp, body, err := sendTo(context.Background(), t, cl, v, base, request{method: http.MethodPost, path: "/v1/sessions", body: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, resp, body, http.StatusCreated)
	s := decode[session](t, body)

	release := make(chan struct{})
	var once sync.Once
	letAnswer := func() { once.Do(func() { close(release) }) }
	t.Cleanup(letAnswer)
	fake.SetResponder(func(openai.ChatCompletionRequest) llmtest.Reply {
		return llmtest.Text("too late").Until(release)
	})
	turn := make(chan error, 1)
	go func() {
		_, _, err := sendTo(context.Background(), t, cl, v, base, request{
			method: http.MethodPost, path: "/v1/chat", token: s.Token,
			json: chatBody(s, "who beats the Fire Knight?"),
		})
		turn <- err
	}()
	fake.WaitRequests(1)
	cancel()

	select {
	case err := <-served:
		if err == nil || !strings.Contains(err.Error(), "shutdown") {
			t.Fatalf("serve after a shutdown timeout: %v, want a shutdown error", err)
		}
	case <-time.After(clientTimeout):
		t.Fatal("serve did not return after its shutdown timeout")
	}
	select {
	case err := <-turn:
		if err == nil {
			t.Fatal("the cut turn got an answer")
		}
		if isTimeout(err) {
			t.Fatalf("the cut turn hung until the client gave up: %v", err)
		}
	case <-time.After(clientTimeout + 5*time.Second):
		t.Fatal("the cut turn never ended")
	}
}
