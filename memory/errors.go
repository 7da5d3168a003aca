package memory

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"github.com/redis/go-redis/v9"
)

// ErrUnavailable wraps a Redis failure that says nothing about the request:
// Redis is down or restarting (connection refused or reset), still loading
// its data (LOADING), or its cluster is reconfiguring (CLUSTERDOWN,
// TRYAGAIN, MASTERDOWN, READONLY after a failover). The same request is
// likely to succeed shortly, so callers answer "try again" (HTTP 503 with
// Retry-After) rather than an internal error. The Redis error stays in the
// chain for logs.
var ErrUnavailable = errors.New("memory: session store unavailable")

// redisErr marks err with ErrUnavailable when it is a Redis failure that a
// retry shortly after may not meet; other errors (redis.Nil, script
// errors, the context's end) are returned unchanged.
func redisErr(err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) || !unavailable(err) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

func unavailable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// The caller's own deadline or departure, not Redis's state.
		return false
	}
	switch {
	case redis.IsLoadingError(err), redis.IsClusterDownError(err), redis.IsTryAgainError(err),
		redis.IsMasterDownError(err), redis.IsReadOnlyError(err), redis.IsMaxClientsError(err),
		redis.HasErrorPrefix(err, "BUSY "):
		return true
	case errors.Is(err, redis.ErrClosed), errors.Is(err, redis.ErrPoolTimeout), errors.Is(err, redis.ErrPoolExhausted),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	var ne net.Error
	return errors.As(err, &ne)
}
