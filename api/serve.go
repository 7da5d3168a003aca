package api

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Serve answers with hs on ln until ctx ends, then drains: the listener
// closes at once (new connections are refused) and requests in flight (a
// turn waiting on the LLM) may finish within shutdownTimeout. Requests
// still running then are cut (their connections closed, so their contexts
// end) and Serve returns an error wrapping the shutdown's, so the caller
// closes its dependencies under no running request.
func Serve(ctx context.Context, hs *http.Server, ln net.Listener, shutdownTimeout time.Duration, log *slog.Logger) error {
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down: no new requests, in-flight turns may finish", "timeout", shutdownTimeout)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		// Turns still running after the timeout are cut: closing their
		// connections cancels their contexts before the dependencies close.
		_ = hs.Close()
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	return nil
}
