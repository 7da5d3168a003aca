package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
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

// addCacheKey is what the transport does to a body it has read whole:
// body with the key added by insertKey.
func addCacheKey(body []byte, key string) []byte {
	k, err := json.Marshal(key)
	if err != nil {
		return body
	}
	head := len(keyMember) + len(k) + 1
	buf := make([]byte, head+len(body))
	copy(buf[head:], body)
	return insertKey(buf, head, k)
}

// keyedBodies are bodies and what they are with the cache key "k" added.
var keyedBodies = []struct{ body, want string }{
	{`{"model":"m"}`, `{"prompt_cache_key":"k","model":"m"}`},
	{` { "model":"m"}`, `{"prompt_cache_key":"k","model":"m"}`},
	{`{}`, `{"prompt_cache_key":"k"}`},
	{`{"prompt_cache_key":"x","model":"m"}`, `{"prompt_cache_key":"x","model":"m"}`},
	{`{ "prompt_cache_key":"x"}`, `{ "prompt_cache_key":"x"}`},
	// A schema property or a message naming the member is not the member.
	{`{"model":"m","tools":[{"parameters":{"properties":{"prompt_cache_key":{}}}}]}`,
		`{"prompt_cache_key":"k","model":"m","tools":[{"parameters":{"properties":{"prompt_cache_key":{}}}}]}`},
	{`{"messages":[{"content":"\"prompt_cache_key\""}]}`, `{"prompt_cache_key":"k","messages":[{"content":"\"prompt_cache_key\""}]}`},
	{`[1]`, `[1]`},
}

func TestAddCacheKey(t *testing.T) {
	for _, tc := range append(slices.Clone(keyedBodies), struct{ body, want string }{``, ``}) {
		if got := string(addCacheKey([]byte(tc.body), "k")); got != tc.want {
			t.Errorf("addCacheKey(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}

// TestCacheKeyTransportBodies: the transport sends the member first and
// the rest of the body byte for byte, with a Content-Length and a GetBody
// that agree with what it sends, whether the body's length is known or
// not; a body it cannot place the member in is sent unchanged.
func TestCacheKeyTransportBodies(t *testing.T) {
	long := `{"model":"m","messages":[` + strings.Repeat(`{"role":"user","content":"hi"},`, 40) + `{"role":"user","content":"x"}]}`
	blank := `{` + strings.Repeat(" ", 40) + `"a":1}`
	for _, tc := range append(slices.Clone(keyedBodies), []struct{ body, want string }{
		{long, `{"prompt_cache_key":"k",` + long[1:]},
		{blank, `{"prompt_cache_key":"k","a":1}`},
	}...) {
		for _, known := range []bool{true, false} {
			want := tc.want
			var got *http.Request
			var sent string
			tr := cacheKeyTransport{next: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				got = r
				b, err := io.ReadAll(r.Body)
				if err != nil {
					t.Fatal(err)
				}
				sent = string(b)
				return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(""))}, nil
			})}
			req, err := http.NewRequestWithContext(withCacheKey(context.Background(), "k"), http.MethodPost, "http://x/v1/chat/completions", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if !known {
				req.ContentLength, req.GetBody = -1, nil
			}
			if _, err := tr.RoundTrip(req); err != nil {
				t.Fatal(err)
			}
			if sent != want {
				t.Errorf("known length %v: sent %q, want %q", known, sent, want)
			}
			if got.ContentLength != int64(len(sent)) {
				t.Errorf("known length %v, body %q: Content-Length %d, sent %d bytes", known, tc.body, got.ContentLength, len(sent))
			}
			again, err := got.GetBody()
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := io.ReadAll(again); string(b) != sent {
				t.Errorf("known length %v: GetBody gives %q, the request sent %q", known, b, sent)
			}
		}
	}
}

// TestCacheKeyOneWrite: through the client's own transport, a request
// with a cache key leaves in as many writes as one without (headers and
// body together): the key costs the provider's connection no extra
// packets.
func TestCacheKeyOneWrite(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = w.Write([]byte("{}"))
	}))
	defer srv.Close()
	var writes atomic.Int64
	tr := newTransport()
	var d net.Dialer
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return countedConn{c, &writes}, nil
	}
	defer tr.CloseIdleConnections()
	body := `{"model":"m","messages":[` + strings.Repeat(`{"role":"user","content":"a long session's message"},`, 400) + `{"role":"user","content":"x"}]}`
	for _, key := range []string{"", "session-1", ""} {
		var rt http.RoundTripper = tr
		if key != "" {
			rt = cacheKeyTransport{next: tr}
		}
		req, err := http.NewRequestWithContext(withCacheKey(context.Background(), key), http.MethodPost, srv.URL+"/v1/chat/completions", bytes.NewBufferString(body))
		if err != nil {
			t.Fatal(err)
		}
		before := writes.Load()
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if n := writes.Load() - before; n != 1 {
			t.Errorf("key %q: a %d-byte request left in %d writes, want 1", key, len(body), n)
		}
	}
}

// countedConn counts its writes in n.
type countedConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countedConn) Write(p []byte) (int, error) {
	c.n.Add(1)
	return c.Conn.Write(p)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// BenchmarkCacheKeyTransport adds the key to a long session's request
// body (14 KB, a tool list and a history) and drains what it would send.
func BenchmarkCacheKeyTransport(b *testing.B) {
	msg := `{"role":"user","content":"<context>\n## Cached tool results\n- gcs_get_champion_details {\"champion_name\":\"Eira\"} → {\"stats\":{\"hp\":14520}}\n</context>\n\n<player>and her skills?</player>"},`
	body := `{"model":"gpt-4o-mini","messages":[` + strings.Repeat(msg, 14<<10/len(msg)) + `{"role":"user","content":"hi"}]}`
	tr := cacheKeyTransport{next: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return nil, err
		}
		return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
	})}
	ctx := withCacheKey(context.Background(), "session-0123456789")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://x/v1/chat/completions", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tr.RoundTrip(req); err != nil {
			b.Fatal(err)
		}
	}
}
