package redistest

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

// Keys lists every key under prefix (prefix:*), on each master of a
// cluster; it fails the test when a scan fails.
func Keys(t testing.TB, rdb redis.UniversalClient, prefix string) []string {
	t.Helper()
	ctx := context.Background()
	var keys []string
	scan := func(c redis.Cmdable) error {
		it := c.Scan(ctx, 0, prefix+":*", 1000).Iterator()
		for it.Next(ctx) {
			keys = append(keys, it.Val())
		}
		return it.Err()
	}
	var err error
	if cc, ok := rdb.(*redis.ClusterClient); ok {
		one := make(chan struct{}, 1)
		err = cc.ForEachMaster(ctx, func(_ context.Context, c *redis.Client) error {
			one <- struct{}{}
			defer func() { <-one }()
			return scan(c)
		})
	} else {
		err = scan(rdb)
	}
	if err != nil {
		t.Fatal(err)
	}
	return keys
}
