package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gameassist/gameassist/config"
)

// runMCP serves the MCP server over stdio for a local client (a desktop
// assistant or an IDE starts `gameassist mcp` as a subprocess): the same
// tools, resources and prompts as /mcp, with the same wiring as serve. Only
// JSON-RPC goes to stdout; logs go to stderr.
func runMCP(ctx context.Context, args []string, cfg config.Config, logger *slog.Logger, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, "usage: gameassist mcp\n\nserves the MCP tools, resources and prompts over stdio; configuration as for serve.\n")
			return nil
		}
		return err
	}
	a, err := newApp(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer a.close()
	logger.Info("serving MCP over stdio")
	err = a.mcp.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	if err != nil && ctx.Err() == nil && !errors.Is(err, mcp.ErrConnectionClosed) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// moduleVersion is the binary's module version for the MCP handshake.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
