package memory

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Use is what Claim found recorded under a key.
type Use int

const (
	// UseFirst: nothing was recorded; the key is now claimed by this use.
	UseFirst Use = iota
	// UseInFlight: an earlier use claimed the key and has not settled it.
	UseInFlight
	// UseDone: an earlier use claimed the key and completed (Settle).
	UseDone
)

// claimSrc returns the value recorded under KEYS[1], or records "pending"
// for ARGV[1] ms and returns nil.
const claimSrc = `
local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], 'pending', 'PX', ARGV[1])
return false
`

const (
	usePending = "pending"
	useDone    = "done"
)

func (s *Store) onceKey(key string) string { return s.opts.Prefix + ":once:" + key }

// Claim records key (under the store's prefix, one key per use, so it
// works on Redis Cluster) for ttl, atomically, and reports what an earlier
// use left: UseFirst when there was none (the key is now claimed), else
// whether that use is still in flight or completed. Webhook deliveries use
// it: a retried delivery learns it was already applied. The claimant ends
// its claim with Settle (it completed) or Forget (nothing was done).
func (s *Store) Claim(ctx context.Context, key string, ttl time.Duration) (Use, error) {
	ttl = max(ttl, time.Second)
	v, err := s.script.claim.Run(ctx, s.rdb, []string{s.onceKey(key)}, ttl.Milliseconds()).Text()
	switch {
	case errors.Is(err, redis.Nil):
		return UseFirst, nil
	case err != nil:
		return 0, fmt.Errorf("memory: claim %s: %w", key, redisErr(err))
	case v == usePending:
		return UseInFlight, nil
	default:
		// "done", or a key recorded by FirstUse (used, outcome unknown).
		return UseDone, nil
	}
}

// Settle marks a claimed key's use completed, keeping its TTL; a key that
// expired or was forgotten meanwhile stays absent.
func (s *Store) Settle(ctx context.Context, key string) error {
	err := s.rdb.SetArgs(ctx, s.onceKey(key), useDone, redis.SetArgs{Mode: "XX", KeepTTL: true}).Err()
	if err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("memory: settle %s: %w", key, redisErr(err))
	}
	return nil
}
