// Command gameassist is the in-game assistant chat backend: it serves the
// HTTP API (serve), prepares the GCS database (migrate), indexes RAG content
// (ingest), talks to a running server from a terminal (chat), serves MCP
// clients over stdio (mcp), measures itself (bench) and scores scenario
// files (eval).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/telemetry"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gameassist:", err)
		os.Exit(1)
	}
}

const usage = `usage: gameassist <command> [flags]

commands:
  serve     start the HTTP server (embedded defaults need no Redis, Qdrant or LLM key)
  migrate   --sample builds or upgrades the sample game's database; without it, says what GCS_DB_PATH holds
  ingest    chunk, embed and index the RAG content (idempotent)
  chat      talk to a running server from the terminal
  mcp       serve the MCP tools, resources and prompts over stdio (for desktop MCP clients)
  bench     measure a running server (turns per second, latency)
  bench soak  run the server in-process against real Redis (REDIS_URL) and a
            faulty fake LLM under a mixed load; -duration, -rate, -sessions
  eval      run scenario files and score the answers (see gameassist eval -h)
  healthcheck  exit 0 when a running server's /healthz answers 200 (container HEALTHCHECK)

configuration is read from the environment; see docs/operations.md.
`

// run is main without the process: arguments, environment and streams are
// passed in so tests can drive every subcommand.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("no command given")
	}
	cmd, rest := args[0], args[1:]
	if wantsHelp(rest) {
		// Help shows the built-in defaults and never fails on the
		// environment: `gameassist serve -h` works before anything is set.
		getenv = func(string) string { return "" }
	}
	err := dispatch(ctx, cmd, rest, getenv, stdin, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil // -h printed the command's flags: asked for, not a failure
	}
	return err
}

// wantsHelp says whether a subcommand's arguments ask for its flags.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

func dispatch(ctx context.Context, cmd string, rest []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	switch cmd {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	case "chat":
		return runChat(ctx, rest, getenv, stdin, stdout)
	case "bench":
		return runBench(ctx, rest, getenv, stdout)
	case "eval":
		return runEval(ctx, rest, getenv, stdout, stderr)
	case "healthcheck":
		return runHealthcheck(ctx, rest, getenv, stdout)
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	logger := newLogger(cfg, stderr)
	switch cmd {
	case "serve":
		return runServe(ctx, rest, cfg, logger)
	case "migrate":
		return runMigrate(ctx, rest, cfg, logger, stdout)
	case "ingest":
		return runIngest(ctx, rest, cfg, logger, stdout)
	case "mcp":
		return runMCP(ctx, rest, cfg, logger, stdin, stdout)
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", cmd)
	}
}

// newLogger logs text a person reads on a terminal (short times, durations
// like 1.2s) and JSON otherwise, or as LOG_FORMAT says; records inside a
// span carry its trace id. JSON durations are Go duration strings
// ("1.234567s", "24h0m0s"), not nanosecond counts.
func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var h slog.Handler
	if cfg.LogFormat == "text" || (cfg.LogFormat == "auto" && isTerminal(w)) {
		h = slog.NewTextHandler(w, &slog.HandlerOptions{Level: cfg.LogLevel, ReplaceAttr: humanAttr})
	} else {
		h = slog.NewJSONHandler(w, &slog.HandlerOptions{Level: cfg.LogLevel, ReplaceAttr: durationString})
	}
	return slog.New(telemetry.LogHandler(h))
}

// isTerminal says whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && isatty.IsTerminal(f.Fd())
}

// humanAttr shortens the time to the clock and rounds durations to three
// significant digits (1.23s, 4.56ms) for text logs.
func humanAttr(groups []string, a slog.Attr) slog.Attr {
	switch {
	case len(groups) == 0 && a.Key == slog.TimeKey && a.Value.Kind() == slog.KindTime:
		return slog.String(a.Key, a.Value.Time().Format("15:04:05.000"))
	case a.Value.Kind() == slog.KindDuration:
		return slog.String(a.Key, roundDuration(a.Value.Duration()).String())
	}
	return a
}

// durationString writes durations as Go duration strings in JSON logs.
func durationString(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		return slog.String(a.Key, a.Value.Duration().String())
	}
	return a
}

// roundDuration keeps three significant digits of d.
func roundDuration(d time.Duration) time.Duration {
	for unit := time.Duration(1); unit < time.Second; unit *= 10 {
		if d < 1000*unit && d > -1000*unit {
			return d.Round(unit)
		}
	}
	return d.Round(time.Second)
}
