// Package eval runs `gameassist eval` scenarios against the HTTP API of a
// gameassist server (a remote one, or one wired in-process) and scores the
// answers: expected and forbidden tool calls, facts, forbidden content,
// tool rounds and prompt tokens per turn, with a summary of pass rate, tool
// precision and recall, fact coverage, degraded turns, tokens, estimated
// cost and latency. It talks to the server only through the public session
// and chat endpoints, so an evaluation writes nothing beyond normal sessions.
//
// The committed suite and its cassettes live next to this package, in
// eval/suite and eval/cassettes.
package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gameassist/gameassist/eval/cassette"
	"github.com/gameassist/gameassist/eval/scenario"
	"github.com/gameassist/gameassist/tool"
)

// maxReplyBytes bounds an API answer the runner reads.
const maxReplyBytes = 8 << 20

// maxRateLimitWaits bounds how often one request waits out a 429.
const maxRateLimitWaits = 5

// maxRetryAfter bounds one wait on a 429's Retry-After.
const maxRetryAfter = 60 * time.Second

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input  float64
	Output float64
}

// Options configures a Runner.
type Options struct {
	// BaseURL is the server root, like http://localhost:8080; required.
	BaseURL string
	// HTTPClient makes the API requests; nil uses one with a 3-minute timeout.
	HTTPClient *http.Client
	// Concurrency is how many scenarios run at once (default 4).
	Concurrency int
	// Progress receives a progress bar; nil shows none.
	Progress io.Writer
	// Model names the priced model in the report; Price is its price, nil
	// when unknown (the cost is then not estimated).
	Model string
	Price *Price
	// RoundsMeasured says the step probes see the server's LLM calls (the
	// in-process mode); otherwise max_rounds cannot be checked and is
	// reported as not measured.
	RoundsMeasured bool
	// WebhookSecret signs the player states of player: steps (the
	// server's WEBHOOK_SECRET); without it such steps fail.
	WebhookSecret string
}

// Runner runs scenarios; it is safe for one Run at a time.
type Runner struct {
	opts Options
	hc   *http.Client
	base string
}

// New checks opts and returns a Runner.
func New(opts Options) (*Runner, error) {
	base := strings.TrimRight(strings.TrimSpace(opts.BaseURL), "/")
	if base == "" {
		return nil, errors.New("eval: no server URL")
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 3 * time.Minute}
	}
	return &Runner{opts: opts, hc: hc, base: base}, nil
}

// Run runs every scenario, at most Concurrency at a time, and returns the
// report in the scenarios' order. It fails only when ctx ends.
func (r *Runner) Run(ctx context.Context, scs []scenario.Scenario) (Report, error) {
	results := make([]ScenarioResult, len(scs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	prog := newProgress(r.opts.Progress, len(scs))
	for range min(r.opts.Concurrency, max(len(scs), 1)) {
		wg.Go(func() {
			for i := range jobs {
				results[i] = r.scenario(ctx, scs[i])
				prog.done(results[i].Passed)
			}
		})
	}
feed:
	for i := range scs {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	prog.finish()
	if err := ctx.Err(); err != nil {
		return Report{}, fmt.Errorf("eval: %w", err)
	}
	return newReport(results, r.opts), nil
}

// session is an open chat session.
type session struct {
	id, token string
}

func (r *Runner) scenario(ctx context.Context, sc scenario.Scenario) ScenarioResult {
	res := ScenarioResult{Name: sc.Name, File: sc.File, Line: sc.Line, Passed: true, Steps: []StepResult{}}
	playerID := ""
	var err error
	if hasPlayer(sc) {
		playerID, err = newPlayerID()
	}
	var sess session
	if err == nil {
		sess, err = r.open(ctx, sc.Locale, playerID)
	}
	var screen *scenario.Screen
	var playerErr error
	for _, st := range sc.Steps {
		if st.Screen != nil {
			screen = st.Screen
			continue
		}
		if len(st.Player) > 0 {
			if err == nil {
				playerErr = r.pushPlayer(ctx, playerID, st.Player)
			}
			continue
		}
		if playerErr != nil {
			sr := StepResult{Say: st.Say, Line: st.Line, Reasons: []string{"player: " + playerErr.Error()}}
			res.Passed = false
			res.Steps = append(res.Steps, sr)
			continue
		}
		var sr StepResult
		if err != nil {
			sr = StepResult{Say: st.Say, Line: st.Line, Reasons: []string{"session: " + err.Error()}}
		} else {
			sr = r.step(ctx, sess, screen, st)
		}
		sr.Passed = len(sr.Reasons) == 0
		res.Passed = res.Passed && sr.Passed
		res.Steps = append(res.Steps, sr)
	}
	if err != nil && len(res.Steps) == 0 {
		res.Passed = false
		res.Error = "session: " + err.Error()
	}
	return res
}

func (r *Runner) open(ctx context.Context, locale, playerID string) (session, error) {
	body := map[string]string{}
	if locale != "" {
		body["locale"] = locale
	}
	if playerID != "" {
		body["player_id"] = playerID
	}
	var out struct {
		SessionID    string `json:"session_id"`
		SessionToken string `json:"session_token"`
	}
	if err := r.call(ctx, "/v1/sessions", "", body, &out); err != nil {
		return session{}, err
	}
	if out.SessionID == "" || out.SessionToken == "" {
		return session{}, errors.New("the server answered no session id or token")
	}
	return session{id: out.SessionID, token: out.SessionToken}, nil
}

// chatReply is the chat answer of the HTTP contract.
type chatReply struct {
	Exchange  int        `json:"exchange"`
	Reply     string     `json:"reply"`
	ToolCalls []toolCall `json:"tool_calls"`
	Usage     struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Degraded bool `json:"degraded"`
}

type toolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Source    tool.Source     `json:"source"`
	Status    string          `json:"status"`
	// Version is the tool version that answered (0: unversioned).
	Version int `json:"version,omitempty"`
}

func (r *Runner) step(ctx context.Context, sess session, screen *scenario.Screen, st scenario.Step) StepResult {
	sr := StepResult{Say: st.Say, Line: st.Line, Rounds: -1}
	body := map[string]any{"session_id": sess.id, "message": st.Say}
	if screen != nil {
		data := screen.Data
		if len(data) == 0 {
			data = json.RawMessage("{}")
		}
		body["screen"] = map[string]any{"name": screen.Name, "data": data}
	}
	probe := &cassette.Probe{}
	start := time.Now()
	var rep chatReply
	err := r.call(cassette.WithProbe(ctx, probe), "/v1/chat", sess.token, body, &rep)
	sr.LatencyMS = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		sr.Reasons = append(sr.Reasons, err.Error())
		return sr
	}
	sr.Reply = rep.Reply
	sr.Degraded = rep.Degraded
	sr.PromptTokens, sr.CompletionTokens = rep.Usage.PromptTokens, rep.Usage.CompletionTokens
	if r.opts.RoundsMeasured {
		sr.Rounds = max(probe.Calls()-1, 0)
	}
	for _, c := range rep.ToolCalls {
		sr.Tools = append(sr.Tools, c.Name+versionSuffix(c.Version)+" ("+string(c.Source)+")")
		if c.Version > 0 {
			sr.versions = append(sr.versions, versionCall{tool: c.Name, version: c.Version, failed: c.Status == "error"})
		}
	}
	if probe.Misses() > 0 {
		sr.Reasons = append(sr.Reasons, cassette.MissReason)
	}
	check(&sr, st.Expect, rep)
	return sr
}

// apiError is the error body of the HTTP contract.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call POSTs body as JSON and decodes a 2xx answer into out; a 429 is
// waited out (Retry-After, bounded) a few times, as a game client would.
func (r *Runner) call(ctx context.Context, path, token string, body, out any) error {
	payload, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.base+path, bytes.NewReader(payload))
		if err != nil {
			return fmt.Errorf("POST %s: %w", path, err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := r.hc.Do(req)
		if err != nil {
			return fmt.Errorf("POST %s: %w", path, err)
		}
		raw, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes))
		_ = resp.Body.Close()
		if err != nil {
			return fmt.Errorf("POST %s: read answer: %w", path, err)
		}
		if resp.StatusCode == http.StatusTooManyRequests && attempt < maxRateLimitWaits {
			if err := waitRetryAfter(ctx, resp.Header.Get("Retry-After")); err != nil {
				return fmt.Errorf("POST %s: %w", path, err)
			}
			continue
		}
		if resp.StatusCode/100 != 2 {
			var ae apiError
			if json.Unmarshal(raw, &ae) == nil && ae.Error.Message != "" {
				return fmt.Errorf("POST %s: HTTP %d %s: %s", path, resp.StatusCode, ae.Error.Code, ae.Error.Message)
			}
			return fmt.Errorf("POST %s: HTTP %d: %s", path, resp.StatusCode, tool.Clip(string(raw), 200))
		}
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("POST %s: answer is not the API's JSON: %w", path, err)
		}
		return nil
	}
}

func waitRetryAfter(ctx context.Context, h string) error {
	d := time.Second
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n >= 0 {
		d = time.Duration(n) * time.Second
	}
	d = min(d, maxRetryAfter)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// progress draws "[#####.....] 12/60 scenarios, 2 failed" on one line.
type progress struct {
	w            io.Writer
	mu           sync.Mutex
	total, n, ko int
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total}
	p.draw()
	return p
}

func (p *progress) done(passed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	if !passed {
		p.ko++
	}
	p.draw()
}

func (p *progress) draw() {
	if p.w == nil || p.total == 0 {
		return
	}
	const width = 30
	filled := p.n * width / p.total
	_, _ = fmt.Fprintf(p.w, "\r[%s%s] %d/%d scenarios, %d failed", strings.Repeat("#", filled), strings.Repeat(".", width-filled), p.n, p.total, p.ko)
}

func (p *progress) finish() {
	if p.w != nil && p.total > 0 {
		_, _ = fmt.Fprintln(p.w)
	}
}
