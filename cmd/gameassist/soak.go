package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/config"
)

// soakTurnsPerSession keeps every accepted turn of a session inside its
// history window (200 messages), so the check can see all of them.
const soakTurnsPerSession = 80

// runSoak runs the whole server in this process against real Redis
// (REDIS_URL) and an OpenAI-compatible fake that sometimes hangs, fails or
// floods tool calls, drives a mixed workload (chat, streamed chat, screen
// events, admin reads) at -rate operations per second for -duration, samples
// RSS, goroutines and open file descriptors every -sample, and finally
// checks that every accepted turn is in its session's history exactly once.
func runSoak(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench soak", flag.ContinueOnError)
	duration := fs.Duration("duration", 10*time.Minute, "how long to drive the workload")
	rate := fs.Int("rate", 20, "operations per second")
	sessions := fs.Int("sessions", 16, "sessions in use at a time")
	sample := fs.Duration("sample", 10*time.Second, "interval of the resource samples")
	inflight := fs.Int("inflight", 64, "most operations running at once; more are counted as shed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *duration <= 0 || *sample <= 0:
		return errors.New("bench soak: -duration and -sample must be positive")
	case *rate < 1 || *sessions < 1 || *inflight < 1:
		return errors.New("bench soak: -rate, -sessions and -inflight must be positive")
	case getenv("REDIS_URL") == "":
		return errors.New("bench soak: REDIS_URL must name a real Redis (the soak checks what it stores)")
	}

	fake := &chaosLLM{}
	llmSrv := httptest.NewServer(fake)
	defer llmSrv.Close()
	defer fake.release()

	dir, err := os.MkdirTemp("", "gameassist-soak-")
	if err != nil {
		return fmt.Errorf("bench soak: %w", err)
	}
	defer os.RemoveAll(dir)
	admin, secret := randomHex(16), randomHex(16)
	over := map[string]string{
		"GCS_DB_PATH":             filepath.Join(dir, "gcs.db"),
		"OPENAI_BASE_URL":         llmSrv.URL + "/v1",
		"OPENAI_API_KEY":          "sk-soak",
		"ADMIN_TOKEN":             admin,
		"WEBHOOK_SECRET":          secret,
		"LLM_TIMEOUT":             "2s",
		"CHAT_RATE_PER_MINUTE":    "100000",
		"SESSION_RATE_PER_MINUTE": "100000",
	}
	cfg, err := config.Load(func(k string) string {
		if v, ok := over[k]; ok {
			return v
		}
		return getenv(k)
	})
	if err != nil {
		return fmt.Errorf("bench soak: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	a, err := newApp(ctx, cfg, logger)
	if err != nil {
		return fmt.Errorf("bench soak: %w", err)
	}
	defer a.close()
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("bench soak: %w", err)
	}
	sctx, stopServer := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- a.serve(sctx, ln) }()
	defer func() { stopServer(); <-served }()

	d := &soakDriver{
		base: "http://" + ln.Addr().String(), admin: admin, secret: secret,
		http: &http.Client{Timeout: requestTimeout(cfg) + 10*time.Second},
	}
	if err := d.fillPool(ctx, *sessions); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "soak: %s at %d ops/s, %d sessions, sampling every %s\n\n", *duration, *rate, *sessions, *sample)
	fmt.Fprintln(stdout, "| elapsed | RSS MiB | goroutines | open fds | ops | turns accepted | failed | shed |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|")
	row := func(elapsed time.Duration) {
		s := d.stats()
		fmt.Fprintf(stdout, "| %s | %.1f | %d | %d | %d | %d | %d | %d |\n", elapsed.Round(time.Second),
			float64(rssBytes())/(1<<20), runtime.NumGoroutine(), openFDs(), s.ops, s.accepted, s.failed, s.shed)
	}
	row(0)

	start := time.Now()
	wctx, cancel := context.WithTimeout(ctx, *duration)
	defer cancel()
	tick := time.NewTicker(time.Second / time.Duration(*rate))
	defer tick.Stop()
	samples := time.NewTicker(*sample)
	defer samples.Stop()
	slots := make(chan struct{}, *inflight)
	var wg sync.WaitGroup
loop:
	for {
		select {
		case <-wctx.Done():
			break loop
		case <-samples.C:
			row(time.Since(start))
		case <-tick.C:
			select {
			case slots <- struct{}{}:
				wg.Go(func() {
					defer func() { <-slots }()
					d.op(ctx)
				})
			default:
				d.shed.Add(1)
			}
		}
	}
	wg.Wait()
	fake.release()
	row(time.Since(start))

	bad := d.verifyAll(ctx)
	s := d.stats()
	fmt.Fprintf(stdout, "\nops=%d chat=%d stream=%d screen=%d admin=%d accepted=%d failed=%d shed=%d llm: requests=%d hung=%d errors=%d floods=%d\n",
		s.ops, d.chats.Load(), d.streams.Load(), d.screens.Load(), d.admins.Load(), s.accepted, s.failed, s.shed,
		fake.requests.Load(), fake.hung.Load(), fake.errored.Load(), fake.floods.Load())
	fmt.Fprintf(stdout, "history check: %d sessions, %d accepted turns, %d recorded without an answer (client gave up)\n",
		d.checkedSessions, d.checkedTurns, d.unanswered)
	if len(bad) > 0 {
		for _, b := range bad[:min(len(bad), 10)] {
			fmt.Fprintln(stdout, "  ", b)
		}
		return fmt.Errorf("bench soak: %d history problems", len(bad))
	}
	fmt.Fprintln(stdout, "history check: ok, every accepted turn recorded exactly once")
	return nil
}

// soakSession is one session of the pool and the turns it had answered.
type soakSession struct {
	id, token string
	mu        sync.Mutex
	sent      int
	accepted  map[string]bool
	screen    int
}

// soakDriver sends the workload and keeps the tally.
type soakDriver struct {
	base, admin, secret string
	http                *http.Client

	mu      sync.Mutex
	pool    []*soakSession
	retired []*soakSession

	ops, accepted, failed, shed     atomic.Int64
	chats, streams, screens, admins atomic.Int64
	checkedSessions, checkedTurns   int
	unanswered                      int
}

type soakStats struct{ ops, accepted, failed, shed int64 }

func (d *soakDriver) stats() soakStats {
	return soakStats{d.ops.Load(), d.accepted.Load(), d.failed.Load(), d.shed.Load()}
}

func (d *soakDriver) fillPool(ctx context.Context, n int) error {
	for range n {
		s, err := d.newSession(ctx)
		if err != nil {
			return err
		}
		d.pool = append(d.pool, s)
	}
	return nil
}

func (d *soakDriver) newSession(ctx context.Context) (*soakSession, error) {
	var out struct {
		SessionID    string `json:"session_id"`
		SessionToken string `json:"session_token"`
	}
	if _, err := d.do(ctx, http.MethodPost, "/v1/sessions", "", nil, []byte(`{"locale":"en"}`), &out); err != nil {
		return nil, fmt.Errorf("bench soak: create session: %w", err)
	}
	return &soakSession{id: out.SessionID, token: out.SessionToken, accepted: map[string]bool{}}, nil
}

// session picks a session of the pool for a turn and numbers the turn; a
// session that had its share is replaced in the pool and retired (checked
// at the end with the others).
func (d *soakDriver) session(ctx context.Context) (*soakSession, string) {
	d.mu.Lock()
	i := mrand.IntN(len(d.pool))
	s := d.pool[i]
	d.mu.Unlock()
	s.mu.Lock()
	s.sent++
	n := s.sent
	s.mu.Unlock()
	if n == soakTurnsPerSession {
		// Only this turn's goroutine sees exactly the limit: it replaces s.
		// Turns picked meanwhile stay well inside the history window.
		if ns, err := d.newSession(ctx); err == nil {
			d.mu.Lock()
			d.pool[i] = ns
			d.retired = append(d.retired, s)
			d.mu.Unlock()
		}
	}
	return s, fmt.Sprintf("soak %s turn %d: tell me about Kaelith", s.id[:8], n)
}

func (d *soakDriver) anySession() *soakSession {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.pool[mrand.IntN(len(d.pool))]
}

// op runs one operation of the mix.
func (d *soakDriver) op(ctx context.Context) {
	d.ops.Add(1)
	var err error
	switch p := mrand.IntN(100); {
	case p < 45:
		d.chats.Add(1)
		err = d.turn(ctx, false)
	case p < 65:
		d.streams.Add(1)
		err = d.turn(ctx, true)
	case p < 85:
		d.screens.Add(1)
		err = d.screen(ctx)
	default:
		d.admins.Add(1)
		err = d.adminRead(ctx)
	}
	if err != nil {
		d.failed.Add(1)
	}
}

func (d *soakDriver) turn(ctx context.Context, stream bool) error {
	s, msg := d.session(ctx)
	body, _ := json.Marshal(map[string]any{"session_id": s.id, "message": msg, "stream": stream})
	var reply struct {
		Reply string `json:"reply"`
	}
	var err error
	if stream {
		err = d.stream(ctx, s.token, body, &reply)
	} else {
		_, err = d.do(ctx, http.MethodPost, "/v1/chat", s.token, nil, body, &reply)
	}
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.accepted[msg] = true
	s.mu.Unlock()
	d.accepted.Add(1)
	return nil
}

// stream reads a streamed turn to its done event.
func (d *soakDriver) stream(ctx context.Context, token string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.base+"/v1/chat", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := d.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("stream: status %d", resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:") && event == "done":
			return json.Unmarshal([]byte(strings.TrimPrefix(line, "data:")), out)
		case strings.HasPrefix(line, "data:") && event == "error":
			return fmt.Errorf("stream: error event %s", strings.TrimPrefix(line, "data:"))
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("stream: ended without done")
}

func (d *soakDriver) screen(ctx context.Context) error {
	s := d.anySession()
	s.mu.Lock()
	s.screen++
	n := s.screen
	s.mu.Unlock()
	sc := map[string]any{"name": "ChampionFeatureModelsPresenter", "data": map[string]any{"ChampionConfigId": 1001 + n%5}}
	if n%3 == 0 {
		sc = map[string]any{"name": "BossBattlePresenter", "data": map[string]any{"BossConfigId": 5001, "Phase": 1 + n%3}}
	}
	body, _ := json.Marshal(map[string]any{"session_id": s.id, "screen": sc})
	h := map[string]string{"X-Signature": api.Sign(d.secret, body, time.Now())}
	_, err := d.do(ctx, http.MethodPost, "/v1/screens/events", "", h, body, nil)
	return err
}

func (d *soakDriver) adminRead(ctx context.Context) error {
	s := d.anySession()
	paths := []string{"/admin/sessions/" + s.id, "/admin/sessions/" + s.id + "/cache", "/admin/stats", "/metrics"}
	_, err := d.do(ctx, http.MethodGet, paths[mrand.IntN(len(paths))], d.admin, nil, nil, nil)
	return err
}

// do sends one request and decodes a 2xx JSON answer into out (when set).
func (d *soakDriver) do(ctx context.Context, method, path, token string, header map[string]string, body []byte, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, d.base+path, rd)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := d.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, fmt.Errorf("%s %s: status %d: %.200s", method, path, resp.StatusCode, raw)
	}
	if out != nil {
		return resp.StatusCode, json.Unmarshal(raw, out)
	}
	return resp.StatusCode, nil
}

// verifyAll reads every session's history through the admin API: each
// accepted turn must be there exactly once, with its answer.
func (d *soakDriver) verifyAll(ctx context.Context) []string {
	d.mu.Lock()
	all := append(append([]*soakSession(nil), d.retired...), d.pool...)
	d.mu.Unlock()
	seen := map[*soakSession]bool{}
	var bad []string
	for _, s := range all {
		if s == nil || seen[s] {
			continue
		}
		seen[s] = true
		var view struct {
			History []struct {
				Role     string `json:"role"`
				Content  string `json:"content"`
				Exchange int    `json:"exchange"`
			} `json:"history"`
		}
		if _, err := d.do(ctx, http.MethodGet, "/admin/sessions/"+s.id, d.admin, nil, nil, &view); err != nil {
			bad = append(bad, "session "+s.id+": "+err.Error())
			continue
		}
		count := map[string]int{}
		for i, m := range view.History {
			if m.Role != "user" {
				continue
			}
			count[m.Content]++
			if i+1 >= len(view.History) || view.History[i+1].Role != "assistant" || view.History[i+1].Exchange != m.Exchange {
				bad = append(bad, "session "+s.id+": turn without its answer: "+m.Content)
			}
		}
		d.checkedSessions++
		s.mu.Lock()
		for msg := range s.accepted {
			d.checkedTurns++
			if c := count[msg]; c != 1 {
				bad = append(bad, "session "+s.id+": accepted turn recorded "+strconv.Itoa(c)+" times: "+msg)
			}
		}
		for msg, c := range count {
			if c > 1 && !s.accepted[msg] {
				bad = append(bad, "session "+s.id+": turn recorded "+strconv.Itoa(c)+" times: "+msg)
			}
			if !s.accepted[msg] {
				d.unanswered++
			}
		}
		s.mu.Unlock()
	}
	return bad
}

// chaosLLM is an OpenAI-compatible chat server that answers most requests
// (a tool call, then text) and, in turn, hangs until the client leaves,
// fails with 500, or floods the answer with tool calls.
type chaosLLM struct {
	n, requests, hung, errored, floods atomic.Int64
	once                               sync.Once
	stop                               chan struct{}
	mu                                 sync.Mutex
}

func (f *chaosLLM) stopped() chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stop == nil {
		f.stop = make(chan struct{})
	}
	return f.stop
}

// release ends every hung request (at the end of the soak).
func (f *chaosLLM) release() { f.once.Do(func() { close(f.stopped()) }) }

type chaosCall struct {
	ID        string
	Name      string
	Arguments string
}

func (f *chaosLLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	f.requests.Add(1)
	var req struct {
		Stream   bool `json:"stream"`
		Tools    []json.RawMessage
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 8<<20)).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad request","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	afterTools := len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == "tool"
	switch n := f.n.Add(1) % 20; {
	case n == 0:
		f.hung.Add(1)
		select {
		case <-r.Context().Done():
		case <-f.stopped():
		}
		return
	case n == 1 || n == 2:
		f.errored.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`)
		return
	case n == 3 && len(req.Tools) > 0 && !afterTools:
		f.floods.Add(1)
		calls := make([]chaosCall, 60)
		for i := range calls {
			calls[i] = chaosCall{ID: "call_f" + strconv.Itoa(i), Name: "db_get_lore_details", Arguments: `{"query":"lore ` + strconv.Itoa(i) + `"}`}
		}
		f.answer(w, req.Stream, "", calls)
	case len(req.Tools) > 0 && !afterTools && n%2 == 0:
		f.answer(w, req.Stream, "", []chaosCall{{ID: "call_1", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Kaelith"}`}})
	default:
		f.answer(w, req.Stream, "Kaelith is a Legendary Magic attacker; she decreases DEF.", nil)
	}
}

// answer writes a completion, as JSON or as an SSE stream.
func (f *chaosLLM) answer(w http.ResponseWriter, stream bool, text string, calls []chaosCall) {
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	type fn struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
	type tc struct {
		Index    *int   `json:"index,omitempty"`
		ID       string `json:"id,omitempty"`
		Type     string `json:"type,omitempty"`
		Function fn     `json:"function"`
	}
	tcs := make([]tc, len(calls))
	for i, c := range calls {
		tcs[i] = tc{ID: c.ID, Type: "function", Function: fn{Name: c.Name, Arguments: c.Arguments}}
	}
	usage := map[string]int{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
	if !stream {
		msg := map[string]any{"role": "assistant", "content": text}
		if len(tcs) > 0 {
			msg["tool_calls"] = tcs
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-soak", "object": "chat.completion", "created": 0, "model": "soak",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) {
		b, _ := json.Marshal(map[string]any{
			"id": "chatcmpl-soak", "object": "chat.completion.chunk", "created": 0, "model": "soak",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		})
		_, _ = fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	for _, word := range strings.SplitAfter(text, " ") {
		if word != "" {
			chunk(map[string]any{"content": word}, nil)
		}
	}
	for i := range tcs {
		idx := i
		tcs[i].Index = &idx
		chunk(map[string]any{"tool_calls": []tc{tcs[i]}}, nil)
	}
	chunk(map[string]any{}, finish)
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// rssBytes is this process's resident set size (0 when unknown).
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// openFDs counts this process's open file descriptors (-1 when unknown).
func openFDs() int {
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(es)
}
