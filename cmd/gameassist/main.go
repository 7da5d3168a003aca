// Command gameassist is the in-game assistant chat backend: it serves the
// HTTP API (serve), prepares the GCS database (migrate), indexes RAG content
// (ingest), talks to a running server from a terminal (chat), serves MCP
// clients over stdio (mcp), measures itself (bench) and scores scenario
// files (eval).
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/gameassist/gameassist/config"
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

configuration is read from the environment; see README.md.
`

// run is main without the process: arguments, environment and streams are
// passed in so tests can drive every subcommand.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("no command given")
	}
	cmd, rest := args[0], args[1:]
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

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}
