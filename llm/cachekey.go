package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// maxCacheKey bounds a prompt cache key (OpenAI accepts up to 64 characters
// for its prompt_cache_key).
const maxCacheKey = 64

type cacheKeyCtx struct{}

// withCacheKey gives the attempts of one call the request's cache key.
func withCacheKey(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return context.WithValue(ctx, cacheKeyCtx{}, key)
}

// cacheKeyTransport adds "prompt_cache_key" to a chat completion's JSON
// body when the call carries a key: go-openai's request type has no such
// field, and providers that prefix-cache (OpenAI's prompt caching) route
// requests with the same key to the same cache. The key is inserted after
// the body's opening brace, so the rest of the body is sent byte for byte.
type cacheKeyTransport struct {
	next http.RoundTripper
}

// RoundTrip forwards r, with the cache key added to a chat completion.
func (t cacheKeyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	key, ok := r.Context().Value(cacheKeyCtx{}).(string)
	if !ok || r.Method != http.MethodPost || r.Body == nil || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		return t.next.RoundTrip(r)
	}
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	if err != nil {
		return nil, err
	}
	body = addCacheKey(body, key)
	out := r.Clone(r.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return t.next.RoundTrip(out)
}

// addCacheKey returns body, a JSON object, with "prompt_cache_key" as its
// first member; a body that is not an object, or already has the member,
// is returned as is.
func addCacheKey(body []byte, key string) []byte {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) < 2 || trimmed[0] != '{' || bytes.Contains(body, []byte(`"prompt_cache_key"`)) {
		return body
	}
	k, err := json.Marshal(key)
	if err != nil {
		return body
	}
	rest := bytes.TrimLeft(trimmed[1:], " \t\r\n")
	out := make([]byte, 0, len(body)+len(k)+24)
	out = append(out, `{"prompt_cache_key":`...)
	out = append(out, k...)
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...)
}
