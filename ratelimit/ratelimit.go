// Package ratelimit limits request rates across every gameassist instance:
// the count lives in Redis and is checked and updated by one Lua script, so
// two instances behind a load balancer share one budget per key.
package ratelimit

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// maxKeyLen bounds the key text kept verbatim in Redis key names; longer
// keys (they may come from clients) are hashed.
const maxKeyLen = 128

// slidingLogSrc keeps, per key, a sorted set of the admitted requests'
// times (µs, from the Redis clock so instances agree, unless the limiter
// has a clock of its own) within the window.
// KEYS: the key. ARGV: limit, window_ms, unique member suffix, now in µs
// or "" for the Redis clock.
// Returns {allowed 0|1, remaining, retry_after_µs}.
const slidingLogSrc = `
local now, stamp
if ARGV[4] ~= '' then
  now, stamp = tonumber(ARGV[4]), ARGV[4]
else
  local t = redis.call('TIME')
  now, stamp = tonumber(t[1]) * 1000000 + tonumber(t[2]), t[1] .. '.' .. t[2]
end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2]) * 1000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, stamp .. '-' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, limit - count - 1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local retry = window
if oldest[2] then retry = tonumber(oldest[2]) + window - now end
return {0, 0, retry}
`

// Decision is the outcome of one Allow call.
type Decision struct {
	// Allowed says whether the request may proceed; it was counted if so.
	Allowed bool
	// Remaining is how many more requests the window admits now.
	Remaining int
	// RetryAfter is, for a denied request, when a slot frees up (for the
	// Retry-After header).
	RetryAfter time.Duration
}

// Limiter is a sliding-window-log rate limiter over Redis.
type Limiter struct {
	rdb    redis.UniversalClient
	prefix string
	script *redis.Script
	now    func() time.Time
}

// Option configures a Limiter.
type Option func(*Limiter)

// WithClock times the windows with now instead of the Redis server's
// clock. Instances that share keys must share the clock, so this is for
// tests and single-instance tools; by default every instance uses Redis's.
func WithClock(now func() time.Time) Option { return func(l *Limiter) { l.now = now } }

// New returns a Limiter whose keys start with prefix + ":rl:" (prefix
// defaults to "ga").
func New(rdb redis.UniversalClient, prefix string, opts ...Option) (*Limiter, error) {
	if rdb == nil {
		return nil, errors.New("ratelimit: new: nil redis client")
	}
	if prefix == "" {
		prefix = "ga"
	}
	l := &Limiter{rdb: rdb, prefix: prefix + ":rl:", script: redis.NewScript(slidingLogSrc)}
	for _, o := range opts {
		o(l)
	}
	return l, nil
}

// Allow counts one request for key and says whether it fits in limit
// requests per window. A denied request is not counted.
func (l *Limiter) Allow(ctx context.Context, key string, limit int, window time.Duration) (Decision, error) {
	if limit < 1 {
		return Decision{}, fmt.Errorf("ratelimit: allow %s: limit %d, want >= 1", key, limit)
	}
	if window < time.Millisecond {
		return Decision{}, fmt.Errorf("ratelimit: allow %s: window %s, want >= 1ms", key, window)
	}
	name := key
	if len(name) > maxKeyLen {
		sum := sha256.Sum256([]byte(key))
		name = "h:" + hex.EncodeToString(sum[:])
	}
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return Decision{}, fmt.Errorf("ratelimit: allow %s: %w", key, err)
	}
	now := ""
	if l.now != nil {
		now = strconv.FormatInt(l.now().UnixMicro(), 10)
	}
	res, err := l.script.Run(ctx, l.rdb, []string{l.prefix + name}, limit, window.Milliseconds(), hex.EncodeToString(b), now).Int64Slice()
	if err != nil {
		return Decision{}, fmt.Errorf("ratelimit: allow %s: %w", key, err)
	}
	if len(res) != 3 {
		return Decision{}, fmt.Errorf("ratelimit: allow %s: script returned %d values", key, len(res))
	}
	d := Decision{Allowed: res[0] == 1, Remaining: int(res[1])}
	if !d.Allowed {
		d.RetryAfter = max(time.Duration(res[2])*time.Microsecond, time.Millisecond)
	}
	return d, nil
}
