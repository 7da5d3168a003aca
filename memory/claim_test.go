package memory_test

import (
	"context"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

// TestClaimSettleForget: the first use claims a key; a second use sees it
// in flight until the first settles it (then done) or forgets it (then the
// next use is first again). Every claim expires.
func TestClaimSettleForget(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		claim := func(key string, want memory.Use) {
			t.Helper()
			got, err := e.store.Claim(ctx, key, time.Minute)
			if err != nil || got != want {
				t.Fatalf("Claim(%s) = %v, %v; want %v", key, got, err, want)
			}
		}
		claim("a", memory.UseFirst)
		claim("a", memory.UseInFlight)
		if err := e.store.Settle(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		claim("a", memory.UseDone)
		claim("b", memory.UseFirst)
		e.store.Forget(ctx, "b")
		claim("b", memory.UseFirst)
		if err := e.store.Settle(ctx, "never-claimed"); err != nil {
			t.Fatal(err)
		}
		claim("never-claimed", memory.UseFirst)
		for _, k := range redistest.Keys(t, e.rdb, e.prefix) {
			if ttl, err := e.rdb.PTTL(ctx, k).Result(); err != nil || ttl <= 0 || ttl > time.Minute {
				t.Errorf("key %s: PTTL %s, %v; want the claim's minute", k, ttl, err)
			}
		}
	})
}
