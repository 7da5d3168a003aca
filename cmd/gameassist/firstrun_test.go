package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameassist/gameassist/config"
)

// commandNames are the subcommands the usage text lists, so a command
// added there is covered here without editing this test.
func commandNames(t *testing.T) []string {
	t.Helper()
	_, list, ok := strings.Cut(usage, "commands:\n")
	if !ok {
		t.Fatal("usage has no commands: section")
	}
	var names []string
	for _, line := range strings.Split(list, "\n") {
		if !strings.HasPrefix(line, "  ") {
			if len(names) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(line, "   ") {
			continue // a description's continuation line
		}
		f := strings.Fields(line)
		if len(f) > 1 && f[0] == "bench" && f[1] == "soak" {
			names = append(names, "bench soak")
			continue
		}
		names = append(names, f[0])
	}
	if len(names) < 5 {
		t.Fatalf("usage lists %v", names)
	}
	return names
}

// TestSubcommandHelp: every subcommand's -h (and --help) prints its flags
// and succeeds, even with an environment that would not load.
func TestSubcommandHelp(t *testing.T) {
	bad := map[string]string{"MAX_TOOL_ITERATIONS": "many", "REDIS_URL": "redis://127.0.0.1:1/0"}
	for _, cmd := range commandNames(t) {
		for _, flagArg := range []string{"-h", "--help"} {
			t.Run(strings.ReplaceAll(cmd, " ", "_")+flagArg, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				var out, errOut bytes.Buffer
				if err := run(ctx, append(strings.Fields(cmd), flagArg), envOf(bad), strings.NewReader(""), &out, &errOut); err != nil {
					t.Fatalf("gameassist %s %s: %v", cmd, flagArg, err)
				}
			})
		}
	}
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"serve", "-nosuchflag"}, envOf(nil), strings.NewReader(""), &out, &errOut); err == nil {
		t.Fatal("an unknown flag succeeded")
	}
}

func TestLogFormat(t *testing.T) {
	tests := []struct {
		name, format string
		wantJSON     bool
	}{
		{name: "auto, not a terminal", format: "auto", wantJSON: true},
		{name: "json", format: "json", wantJSON: true},
		{name: "text", format: "text", wantJSON: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := newLogger(config.Config{LogFormat: tt.format, LogLevel: slog.LevelInfo}, &buf)
			log.Info("turn done", "took", 1234567*time.Microsecond)
			line := strings.TrimSpace(buf.String())
			var m map[string]any
			isJSON := json.Unmarshal([]byte(line), &m) == nil
			if isJSON != tt.wantJSON {
				t.Fatalf("line %q: JSON %v, want %v", line, isJSON, tt.wantJSON)
			}
			if !tt.wantJSON && !strings.Contains(line, "took=1.23s") {
				t.Fatalf("text line %q lacks took=1.23s", line)
			}
			if tt.wantJSON && m["took"] != "1.234567s" {
				t.Fatalf("JSON line %q: took = %v, want the duration string 1.234567s", line, m["took"])
			}
		})
	}
}

func TestRoundDuration(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{1234567 * time.Microsecond, "1.23s"},
		{1200 * time.Millisecond, "1.2s"},
		{4567891 * time.Nanosecond, "4.57ms"},
		{999 * time.Nanosecond, "999ns"},
		{-1234 * time.Millisecond, "-1.23s"},
		{90*time.Minute + 1234*time.Millisecond, "1h30m1s"},
	}
	for _, tt := range tests {
		if got := roundDuration(tt.in).String(); got != tt.want {
			t.Errorf("roundDuration(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestReadyLine(t *testing.T) {
	addr := &net.TCPAddr{IP: net.IPv6zero, Port: 8080}
	tests := []struct {
		name      string
		cfg       config.Config
		want      []string
		wantNotIn []string
	}{
		{
			name: "nothing set",
			want: []string{"http://localhost:8080/web/", "http://localhost:8080/web/admin.html", "ADMIN_TOKEN (admin", "WEBHOOK_SECRET (screen events", "offline responder", "REDIS_URL"},
		},
		{
			name:      "everything set",
			cfg:       config.Config{AdminToken: "a", WebhookSecret: "w", OpenAIAPIKey: "k", RedisURL: "redis://r:6379/0"},
			want:      []string{"http://localhost:8080/web/"},
			wantNotIn: []string{"unset", "ADMIN_TOKEN", "WEBHOOK_SECRET"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := readyLine(tt.cfg, addr)
			for _, w := range tt.want {
				if !strings.Contains(line, w) {
					t.Errorf("ready line %q lacks %q", line, w)
				}
			}
			for _, w := range tt.wantNotIn {
				if strings.Contains(line, w) {
					t.Errorf("ready line %q holds %q", line, w)
				}
			}
		})
	}
	if got := readyLine(config.Config{}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9}); !strings.Contains(got, "http://127.0.0.1:9/web/") {
		t.Errorf("bound address: %q", got)
	}
}

// TestServeLogsReadyLast: the last line `serve` logs before it waits for
// requests says where to go.
func TestServeLogsReadyLast(t *testing.T) {
	env := testEnv(t, appSetup{})
	env["ADDR"] = "127.0.0.1:0"
	env["LOG_FORMAT"] = "json"
	logs := &watchWriter{want: `"msg":"ready: chat widget http://127.0.0.1:`, seen: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, envOf(env), strings.NewReader(""), &bytes.Buffer{}, logs) }()
	select {
	case <-logs.seen:
	case err := <-done:
		cancel()
		t.Fatalf("serve ended before the ready line: %v\n%s", err, logs.String())
	case <-time.After(2 * time.Minute): // a hang, not a timing assertion
		cancel()
		t.Fatalf("no ready line:\n%s", logs.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	for i, l := range lines {
		if strings.Contains(l, `"msg":"ready: `) {
			if i+1 < len(lines) && !strings.Contains(lines[i+1], "shutting down") {
				t.Fatalf("a start-up line follows the ready line: %s", lines[i+1])
			}
			return
		}
	}
}

func TestRootRedirectsToWidget(t *testing.T) {
	f := newFixture(t, appSetup{})
	f.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, body := f.do(t, request{method: http.MethodGet, path: "/"})
	expect(t, resp, body, http.StatusFound)
	if loc := resp.Header.Get("Location"); loc != "/web/" {
		t.Fatalf("Location %q, want /web/", loc)
	}
}

// watchWriter collects log output and closes seen once a write holds want.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.Contains(p, []byte(w.want)) {
		w.once.Do(func() { close(w.seen) })
	}
	return w.buf.Write(p)
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestHealthcheck(t *testing.T) {
	f := newFixture(t, appSetup{})
	addr := strings.TrimPrefix(f.ts.URL, "http://")
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }))
	t.Cleanup(down.Close)
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
	}{
		{name: "ADDR of a healthy server", env: map[string]string{"ADDR": addr}},
		{name: "url flag", args: []string{"-url", f.ts.URL + "/healthz"}},
		{name: "unhealthy", args: []string{"-url", down.URL}, wantErr: "503"},
		{name: "bad ADDR", env: map[string]string{"ADDR": "nope"}, wantErr: "ADDR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(context.Background(), append([]string{"healthcheck"}, tt.args...), envOf(tt.env), strings.NewReader(""), &out, &bytes.Buffer{})
			if tt.wantErr == "" {
				if err != nil || strings.TrimSpace(out.String()) != "healthy" {
					t.Fatalf("err %v out %q", err, out.String())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestDocsHTTPWalkthrough runs the HTTP walkthrough of docs/architecture.md
// against a real server: its shell lines set SID and TOKEN from the session
// response, and its example screen satisfies the default rules (every tool
// runs, none is skipped, the prompt hint is rendered).
func TestDocsHTTPWalkthrough(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, appSetup{})

	var shell []string
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "SID=$(") || strings.HasPrefix(line, "TOKEN=$(") {
			shell = append(shell, line)
		}
	}
	if len(shell) != 2 {
		t.Fatalf("docs/architecture.md has %d SID=/TOKEN= lines, want 2", len(shell))
	}
	resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/sessions", json: map[string]string{"locale": "en"}})
	expect(t, resp, body, http.StatusCreated)
	want := decode[session](t, body)
	script := strings.Join(append(append([]string{`S="$1"`}, shell...), `printf '%s %s' "$SID" "$TOKEN"`), "\n")
	out, err := exec.Command("sh", "-c", script, "sh", string(body)).Output()
	if err != nil {
		t.Fatalf("docs/architecture.md shell lines: %v", err)
	}
	if string(out) != want.ID+" "+want.Token {
		t.Fatalf("docs/architecture.md shell lines set %q, want %q", out, want.ID+" "+want.Token)
	}

	m := regexp.MustCompile(`"screen":(\{"name":"BossBattlePresenter".*\}\})\}'`).FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/architecture.md has no BossBattlePresenter example screen")
	}
	var screen map[string]any
	if err := json.Unmarshal(m[1], &screen); err != nil {
		t.Fatalf("docs/architecture.md screen %s: %v", m[1], err)
	}
	resp, body = f.do(t, signedEvent(mustJSON(t, map[string]any{"session_id": want.ID, "screen": screen})))
	expect(t, resp, body, http.StatusOK)
	r := decode[screenReply](t, body)
	if !r.Matched || r.PromptInjection == nil {
		t.Fatalf("docs/architecture.md screen: %s", body)
	}
	for _, o := range r.Tools {
		if o.Source != "proactive" || o.Status != "success" {
			t.Errorf("docs/architecture.md screen: %s %s/%s %s", o.Name, o.Source, o.Status, o.Reason)
		}
	}
}
