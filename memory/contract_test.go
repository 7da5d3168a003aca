package memory_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/internal/sessionfake"
	"github.com/gameassist/gameassist/memory"
	"github.com/redis/go-redis/v9"
)

// TestSessionContract runs the session store contract package chat's
// tests rely on (they run on sessionfake) against the real store, on a
// single Redis and on a Redis Cluster.
func TestSessionContract(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		sessionfake.Contract(t, func(t *testing.T) sessionfake.Sessions {
			e := newEnv(t, b, memory.Options{})
			return evictable{Store: e.store, env: e}
		})
	})
}

func TestSessionQuotaContract(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		sessionfake.QuotaContract(t, func(t *testing.T, q memory.Quota) sessionfake.Sessions {
			return newEnv(t, b, memory.Options{TurnQuota: q}).store
		})
	})
}

// evictable is the real store with EvictPayloads, which deletes the
// shared payload keys of its prefix (on every master of a cluster).
type evictable struct {
	*memory.Store
	env env
}

func (v evictable) EvictPayloads(ctx context.Context) error {
	del := func(ctx context.Context, c *redis.Client) error {
		keys, err := c.Keys(ctx, v.env.prefix+":pl:*").Result()
		if err != nil || len(keys) == 0 {
			return err
		}
		for _, k := range keys { // one by one: the keys are in several slots
			if err := c.Del(ctx, k).Err(); err != nil {
				return err
			}
		}
		return nil
	}
	switch c := v.env.rdb.(type) {
	case *redis.ClusterClient:
		return c.ForEachMaster(ctx, del)
	case *redis.Client:
		return del(ctx, c)
	}
	return fmt.Errorf("evict payloads: client %T", v.env.rdb)
}
