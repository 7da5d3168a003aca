package main

import (
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
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/eval"
	"github.com/gameassist/gameassist/eval/cassette"
	"github.com/gameassist/gameassist/eval/scenario"
)

const evalUsage = `usage: gameassist eval [--server URL] [--json] [--html FILE] [--min-pass X]
                     [--record DIR | --replay DIR] [--concurrency N] FILES|DIRS...

Runs scenario files (YAML, schemas/eval_scenario.json; a directory means its
*.yaml and *.yml files) through the HTTP API of a server: the one at --server,
or one wired in-process exactly as 'serve' wires it from the environment.
--record/--replay store or serve the LLM's answers (in-process only).
Exit status 1 when the pass rate is under --min-pass.
'gameassist eval export -h' writes scenarios from players' ratings.

`

// errUnderMinPass is returned when the run's pass rate is under --min-pass.
var errUnderMinPass = errors.New("eval: pass rate under --min-pass")

// evalFlags are the parsed arguments of `gameassist eval`.
type evalFlags struct {
	server, html, record, replay string
	json                         bool
	minPass                      float64
	concurrency                  int
	files                        []string
}

func parseEvalFlags(args []string, stderr io.Writer) (evalFlags, error) {
	var f evalFlags
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, evalUsage); fs.PrintDefaults() }
	fs.StringVar(&f.server, "server", "", "root URL of a running server; in-process with the serve wiring when empty")
	fs.BoolVar(&f.json, "json", false, "print the report as JSON")
	fs.StringVar(&f.html, "html", "", "also write the report as one static HTML page to this file")
	fs.Float64Var(&f.minPass, "min-pass", -1, "exit 1 when the pass rate (0..1) is under this")
	fs.StringVar(&f.record, "record", "", "record the LLM's answers into this directory")
	fs.StringVar(&f.replay, "replay", "", "answer LLM requests from the recordings in this directory only")
	fs.IntVar(&f.concurrency, "concurrency", 4, "scenarios run at once")
	// Flags may follow file names: parse, take a file, parse the rest.
	for {
		if err := fs.Parse(args); err != nil {
			return f, err
		}
		if fs.NArg() == 0 {
			break
		}
		f.files = append(f.files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(f.files) == 0:
		return f, errors.New("eval: no scenario file given")
	case f.record != "" && f.replay != "":
		return f, errors.New("eval: --record and --replay exclude each other")
	case f.server != "" && (f.record != "" || f.replay != ""):
		return f, errors.New("eval: --record and --replay need the in-process mode: a remote server makes its LLM calls itself (drop --server)")
	case f.minPass != -1 && (f.minPass < 0 || f.minPass > 1):
		return f, fmt.Errorf("eval: --min-pass %v is not between 0 and 1", f.minPass)
	case f.concurrency < 1 || f.concurrency > 64:
		return f, fmt.Errorf("eval: --concurrency %d is not between 1 and 64", f.concurrency)
	}
	return f, nil
}

// scenarioFiles expands directories into their YAML files, sorted.
func scenarioFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		for _, pat := range []string{"*.yaml", "*.yml"} {
			m, err := filepath.Glob(filepath.Join(a, pat))
			if err != nil {
				return nil, fmt.Errorf("eval: %w", err)
			}
			found = append(found, m...)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("eval: %s holds no .yaml or .yml file", a)
		}
		slices.Sort(found)
		out = append(out, found...)
	}
	return out, nil
}

// loadScenarios parses every file; the first bad one stops everything,
// named with its line and field. Names must be unique across files.
func loadScenarios(files []string) ([]scenario.Scenario, error) {
	p, err := scenario.NewParser()
	if err != nil {
		return nil, err
	}
	var all []scenario.Scenario
	where := map[string]string{}
	for _, f := range files {
		scs, err := p.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, sc := range scs {
			at := fmt.Sprintf("%s:%d", sc.File, sc.Line)
			if prev, dup := where[sc.Name]; dup {
				return nil, &scenario.Error{File: sc.File, Line: sc.Line, Field: "name", Msg: fmt.Sprintf("scenario %q is already defined at %s", sc.Name, prev)}
			}
			where[sc.Name] = at
		}
		all = append(all, scs...)
	}
	return all, nil
}

func runEval(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "export" {
		return runEvalExport(ctx, args[1:], getenv, stdout, stderr)
	}
	f, err := parseEvalFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	files, err := scenarioFiles(f.files)
	if err != nil {
		return err
	}
	scs, err := loadScenarios(files)
	if err != nil {
		return err
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	opts := eval.Options{Concurrency: f.concurrency, Progress: stderr}
	var tr *cassette.Transport
	if f.server != "" {
		opts.BaseURL = f.server
		opts.WebhookSecret = cfg.WebhookSecret
		if err := preflight(ctx, &http.Client{Timeout: 10 * time.Second}, f.server, true); err != nil {
			return err
		}
		if slices.ContainsFunc(scs, hasMaxRounds) {
			fmt.Fprintln(stderr, "eval: max_rounds is not checked against a remote server (its LLM calls are not visible)")
		}
	} else {
		if cfg.WebhookSecret == "" {
			// player: steps push states signed like the game server's.
			b := make([]byte, 16)
			if _, err := rand.Read(b); err != nil {
				return fmt.Errorf("eval: webhook secret: %w", err)
			}
			cfg.WebhookSecret = hex.EncodeToString(b)
		}
		a, t, err := startInProcess(ctx, cfg, f, stderr)
		if err != nil {
			return err
		}
		defer a.close()
		tr = t
		opts.BaseURL = inProcessURL
		ht := handlerTransport{h: a.handler}
		if a.chat != nil && (f.record != "" || f.replay != "") {
			// A cassette replays requests byte for byte: each turn's
			// background summary is written before the next request, as
			// when it was recorded.
			ht.settle = a.chat.Wait
		}
		opts.HTTPClient = &http.Client{Transport: ht, Timeout: 5 * time.Minute}
		opts.RoundsMeasured = true
		opts.WebhookSecret = cfg.WebhookSecret
		if err := preflight(ctx, opts.HTTPClient, inProcessURL, f.replay == "" && cfg.LLMEnabled()); err != nil {
			return err
		}
		if !cfg.LLMEnabled() && f.replay == "" {
			fmt.Fprintln(stderr, "eval: no LLM configured (OPENAI_API_KEY / OPENAI_BASE_URL): the offline responder answers")
		}
	}
	if cfg.LLMEnabled() || f.replay != "" {
		opts.Model = cfg.OpenAIModel
		if p, ok := cfg.EvalPrices[cfg.OpenAIModel]; ok {
			opts.Price = &eval.Price{Input: p.Input, Output: p.Output}
		}
	}
	runner, err := eval.New(opts)
	if err != nil {
		return err
	}
	rep, err := runner.Run(ctx, scs)
	if err != nil {
		return err
	}
	if tr != nil {
		recorded, hits, misses := tr.Stats()
		switch {
		case f.record != "":
			fmt.Fprintf(stderr, "eval: recorded %d LLM answers in %s\n", recorded, f.record)
		case f.replay != "":
			fmt.Fprintf(stderr, "eval: replayed %d LLM answers from %s, %d cassette misses\n", hits, f.replay, misses)
		}
	}
	if f.json {
		err = rep.WriteJSON(stdout)
	} else {
		err = rep.WriteText(stdout)
	}
	if err != nil {
		return err
	}
	if f.html != "" {
		var b bytes.Buffer
		if err := rep.WriteHTML(&b); err != nil {
			return err
		}
		if err := writeReadable(f.html, b.Bytes()); err != nil {
			return fmt.Errorf("eval: --html: %w", err)
		}
	}
	if f.minPass >= 0 && rep.Summary.PassRate < f.minPass {
		return fmt.Errorf("%w: %.4f < %.4f", errUnderMinPass, rep.Summary.PassRate, f.minPass)
	}
	return nil
}

func hasMaxRounds(sc scenario.Scenario) bool {
	return slices.ContainsFunc(sc.Steps, func(st scenario.Step) bool { return st.Expect != nil && st.Expect.MaxRounds != nil })
}

// inProcessURL is the base URL of the in-process server; requests to it
// never leave the process.
const inProcessURL = "http://gameassist.in-process"

// replayBaseURL is the LLM base URL of a replay without one configured:
// the cassette answers every request, nothing is dialed.
const replayBaseURL = "http://cassette.invalid/v1"

// startInProcess wires the server as serve does, with the LLM client's
// requests going through the cassette transport.
func startInProcess(ctx context.Context, cfg config.Config, f evalFlags, stderr io.Writer) (*app, *cassette.Transport, error) {
	mode, dir := cassette.Pass, ""
	switch {
	case f.record != "":
		if !cfg.LLMEnabled() {
			return nil, nil, errors.New("eval: --record needs an LLM: set OPENAI_BASE_URL (and OPENAI_API_KEY for a hosted API)")
		}
		mode, dir = cassette.Record, f.record
	case f.replay != "":
		mode, dir = cassette.Replay, f.replay
		if !cfg.LLMEnabled() {
			cfg.OpenAIBaseURL = replayBaseURL
		}
	}
	tr, err := cassette.New(mode, dir, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("eval: %w", err)
	}
	// The evaluation is one client with many sessions: no per-IP or
	// per-session rate limit applies to it.
	cfg.SessionRatePerMinute, cfg.ChatRatePerMinute = 100_000, 100_000
	// The report tells what went wrong in a turn; the server's own
	// start-up warnings (no ADMIN_TOKEN, no REDIS_URL, ...) are noise
	// here. LOG_LEVEL=debug shows everything.
	level := slog.LevelError
	if cfg.LogLevel <= slog.LevelDebug {
		level = cfg.LogLevel
	}
	logger := newLogger(config.Config{LogLevel: level, LogFormat: cfg.LogFormat}, stderr)
	a, err := newApp(ctx, cfg, logger, withLLMHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		return nil, nil, err
	}
	return a, tr, nil
}

// preflight fails fast, with a clear message, when the server is not
// there or (checkLLM) its LLM does not answer, instead of failing every step.
func preflight(ctx context.Context, hc *http.Client, base string, checkLLM bool) error {
	base = strings.TrimRight(base, "/")
	get := func(path string) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
		if err != nil {
			return 0, nil, err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer func() { _ = resp.Body.Close() }()
		b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return resp.StatusCode, b, err
	}
	code, _, err := get("/healthz")
	if err != nil {
		return fmt.Errorf("eval: server %s is unreachable: %w", base, err)
	}
	if code != http.StatusOK {
		return fmt.Errorf("eval: server %s answered /healthz with HTTP %d: is it a gameassist server?", base, code)
	}
	if !checkLLM {
		return nil
	}
	_, body, err := get("/readyz")
	if err != nil {
		return fmt.Errorf("eval: server %s: readiness: %w", base, err)
	}
	var ready struct {
		Checks map[string]struct {
			Status string `json:"status"`
			Error  string `json:"error"`
		} `json:"checks"`
	}
	if err := json.Unmarshal(body, &ready); err != nil {
		return fmt.Errorf("eval: server %s: readiness answer is not JSON: %w", base, err)
	}
	if c, ok := ready.Checks["llm"]; ok && c.Status != "ok" {
		return fmt.Errorf("eval: the LLM of server %s is unreachable (%s); every turn would be answered offline", base, c.Error)
	}
	return nil
}

// handlerTransport serves HTTP requests with an in-process handler: the
// real routes and middleware, no socket. The request's context reaches the
// handler, so the step's cassette probe sees the turn's LLM calls. settle,
// when set, runs after each request is served.
type handlerTransport struct {
	h      http.Handler
	settle func()
}

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	in := req.Clone(req.Context())
	in.RemoteAddr = "127.0.0.1:1"
	in.RequestURI = req.URL.RequestURI()
	if in.Body == nil {
		in.Body = http.NoBody
	}
	w := &bufferedResponse{header: http.Header{}}
	t.h.ServeHTTP(w, in)
	if t.settle != nil {
		t.settle()
	}
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return &http.Response{
		Status: fmt.Sprintf("%d %s", w.status, http.StatusText(w.status)), StatusCode: w.status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: w.header, Body: io.NopCloser(&w.body), ContentLength: int64(w.body.Len()), Request: req,
	}, nil
}

// bufferedResponse is the http.ResponseWriter of handlerTransport.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *bufferedResponse) Header() http.Header { return w.header }

func (w *bufferedResponse) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *bufferedResponse) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	n, err := w.body.Write(b)
	if err != nil {
		return n, fmt.Errorf("eval: buffer response: %w", err)
	}
	return n, nil
}

// Flush lets streaming handlers run (the eval itself does not stream).
func (w *bufferedResponse) Flush() {}
