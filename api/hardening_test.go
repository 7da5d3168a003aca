package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/metrics"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// fakeChat is a ChatService whose Turn is the test's function.
type fakeChat struct {
	turn func(ctx context.Context, req chat.TurnRequest, emit func(chat.Event)) (chat.Reply, error)
}

func (fakeChat) CreateSession(context.Context, string, string) (string, string, error) {
	return "", "", errors.New("not used")
}

func (fakeChat) Authorize(context.Context, string, string) error {
	return nil
}

func (f fakeChat) Turn(ctx context.Context, req chat.TurnRequest, emit func(chat.Event)) (chat.Reply, error) {
	return f.turn(ctx, req, emit)
}

func (fakeChat) ScreenEvent(context.Context, string, screens.Screen) (chat.ScreenReply, error) {
	return chat.ScreenReply{}, errors.New("not used")
}

func (fakeChat) ScreenEventAt(context.Context, string, screens.Screen, memory.ScreenEvent) (chat.ScreenReply, error) {
	return chat.ScreenReply{}, errors.New("not used")
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type chatServer struct {
	ts   *httptest.Server
	reg  *prometheus.Registry
	logs *syncBuffer
}

func newChatServer(t *testing.T, fc fakeChat, opts api.Options) chatServer {
	t.Helper()
	reg := tool.NewRegistry()
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	preg := prometheus.NewRegistry()
	m, err := metrics.New(preg)
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	srv, err := api.New(api.Deps{
		Executor: ex, Chat: fc, Metrics: m, Gatherer: preg,
		Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return chatServer{ts: ts, reg: preg, logs: logs}
}

const testSession = "0b9a4c8e-3f0e-4d55-9a3e-6f1d1b2c3d4e"

func chatBody(stream bool) string {
	return fmt.Sprintf(`{"session_id":%q,"message":"hello","stream":%t}`, testSession, stream)
}

func postChat(ctx context.Context, t *testing.T, url, body string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer some-session-token")
	return http.DefaultClient.Do(req)
}

func TestAdminWrongTokenAsksForBearer(t *testing.T) {
	ts := newTestServer(t, "s3cret")
	for _, sent := range []string{"", "s3cres"} {
		resp, body := do(t, http.MethodGet, ts.URL+"/admin/tools", sent, nil)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("token %q: status %d, want 401: %s", sent, resp.StatusCode, body)
		}
		if h := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(h, "Bearer") {
			t.Fatalf("token %q: WWW-Authenticate %q, want the Bearer scheme", sent, h)
		}
	}
}

func TestTrailingSlashAnswersJSON(t *testing.T) {
	ts := newTestServer(t, "s3cret")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, path := range []string{"/admin/tools/", "/admin/stats/", "/healthz/"} {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, ts.URL+path, nil)
		req.Header.Set("Authorization", "Bearer s3cret")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Error struct{ Code, Message string }
		}
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || err != nil || e.Error.Code != "not_found" {
			t.Fatalf("%s: status %d, code %q (%v), want a JSON 404", path, resp.StatusCode, e.Error.Code, err)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("%s: content type %q", path, ct)
		}
	}
}

func TestWebPageWithoutSlashRedirects(t *testing.T) {
	ts := newTestServer(t, "")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, ts.URL+"/web", nil)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/web/" {
		t.Fatalf("GET /web: %d to %q, want a redirect to /web/", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestSessionBusyCarriesRetryAfter(t *testing.T) {
	cs := newChatServer(t, fakeChat{turn: func(context.Context, chat.TurnRequest, func(chat.Event)) (chat.Reply, error) {
		return chat.Reply{}, fmt.Errorf("chat: turn: %w", memory.ErrBusy)
	}}, api.Options{})
	resp, err := postChat(context.Background(), t, cs.ts.URL, chatBody(false))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict {
		t.Fatalf("status %d, want 409", resp.StatusCode)
	}
	if ra := resp.Header.Get("Retry-After"); ra == "" || strings.Trim(ra, "0123456789") != "" || ra == "0" {
		t.Fatalf("Retry-After %q, want a positive number of seconds", ra)
	}
}

// TestClientGoneIs499 cancels the client while the turn runs: the request
// is logged at INFO and counted as 499, never as a 500.
func TestClientGoneIs499(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%t", stream), func(t *testing.T) {
			started := make(chan struct{})
			cs := newChatServer(t, fakeChat{turn: func(ctx context.Context, _ chat.TurnRequest, _ func(chat.Event)) (chat.Reply, error) {
				close(started)
				<-ctx.Done()
				return chat.Reply{}, fmt.Errorf("chat: turn: %w", ctx.Err())
			}}, api.Options{})
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				resp, err := postChat(ctx, t, cs.ts.URL, chatBody(stream))
				if err == nil {
					// Streams answer headers first; reading fails when cancelled.
					_, err = bufio.NewReader(resp.Body).ReadString(0)
					resp.Body.Close()
				}
				errc <- err
			}()
			<-started
			cancel()
			if err := <-errc; err == nil {
				t.Fatal("the cancelled request did not fail on the client")
			}
			// The handler finishes after the client left; Close waits for it.
			cs.ts.Close()
			logs := cs.logs.String()
			if !strings.Contains(logs, `"status":499`) {
				t.Fatalf("no 499 in the logs:\n%s", logs)
			}
			if strings.Contains(logs, `"level":"ERROR"`) || strings.Contains(logs, `"status":500`) {
				t.Fatalf("a client going away was logged as a server error:\n%s", logs)
			}
			if got := requestsWithStatus(t, cs.reg, "499"); got != 1 {
				t.Fatalf("499 counted %v times, want 1", got)
			}
		})
	}
}

// requestsWithStatus sums gameassist_http_requests_total over the series
// with the given status label.
func requestsWithStatus(t *testing.T, g prometheus.Gatherer, status string) float64 {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var n float64
	for _, mf := range mfs {
		if mf.GetName() != "gameassist_http_requests_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "status" && l.GetValue() == status {
					n += m.GetCounter().GetValue()
				}
			}
		}
	}
	return n
}
