package llm

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/llm/llmtest"
)

// TestCacheKeySent: a request's CacheKey reaches the API as
// prompt_cache_key, on Complete, Stream and their retries; the rest of the
// request is what it is without a key; NoCacheKey and an over-long key
// send none.
func TestCacheKeySent(t *testing.T) {
	s := llmtest.New(t)
	c, _ := newTestClient(t, s, nil)
	ctx := context.Background()
	msgs := []Message{{Role: RoleSystem, Content: "sys"}, {Role: RoleUser, Content: "hi"}}
	if _, err := c.Complete(ctx, Request{Messages: msgs, CacheKey: "sess-abc"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(ctx, Request{Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	s.Enqueue(llmtest.Status(500, nil), llmtest.Text("ok"))
	if _, err := c.Stream(ctx, Request{Messages: msgs, CacheKey: "sess-abc"}, func(string) {}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(ctx, Request{Messages: msgs, CacheKey: strings.Repeat("k", maxCacheKey+1)}); err != nil {
		t.Fatal(err)
	}
	off, _ := newTestClient(t, s, func(o *Options) { o.NoCacheKey = true })
	if _, err := off.Complete(ctx, Request{Messages: msgs, CacheKey: "sess-abc"}); err != nil {
		t.Fatal(err)
	}
	want := []string{"sess-abc", "", "sess-abc", "sess-abc", "", ""}
	if got := s.CacheKeys(); !reflect.DeepEqual(got, want) {
		t.Fatalf("cache keys %q, want %q (complete, none, stream's failed attempt and retry, too long, keys off)", got, want)
	}
	reqs := s.Requests()
	if !reflect.DeepEqual(reqs[0], reqs[1]) {
		t.Fatalf("the key changed the rest of the request:\n%+v\n%+v", reqs[0], reqs[1])
	}
}

func TestAddCacheKey(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"model":"m"}`, `{"prompt_cache_key":"k","model":"m"}`},
		{` { "model":"m"}`, `{"prompt_cache_key":"k","model":"m"}`},
		{`{}`, `{"prompt_cache_key":"k"}`},
		{`{"prompt_cache_key":"x","model":"m"}`, `{"prompt_cache_key":"x","model":"m"}`},
		{`[1]`, `[1]`},
		{``, ``},
	} {
		if got := string(addCacheKey([]byte(tc.body), "k")); got != tc.want {
			t.Errorf("addCacheKey(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}
