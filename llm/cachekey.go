package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	k, err := json.Marshal(key)
	if err != nil {
		return t.next.RoundTrip(r)
	}
	// The body is read once, after room for the member, which is then
	// written in place of the opening brace: one buffer, one copy. The
	// copy is what lets the request leave in one write: net/http sends
	// the headers on their own, and the body through a copy loop, unless
	// the body is a reader it knows to be in memory (a *bytes.Reader).
	head := len(keyMember) + len(k) + 1
	buf := make([]byte, head, head+max(int(r.ContentLength), 0)+1)
	buf, err = readAppend(buf, r.Body)
	_ = r.Body.Close()
	if err != nil {
		return nil, err
	}
	body := insertKey(buf, head, k)
	// A shallow copy: only the body changes, and nothing below changes
	// the headers it shares with r.
	out := r.WithContext(r.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return t.next.RoundTrip(out)
}

// keyName is the cache key member's name, as JSON; keyMember opens a body
// with it.
const (
	keyName   = `"prompt_cache_key"`
	keyMember = `{` + keyName + `:`
)

// readAppend reads r to its end, appended to dst.
func readAppend(dst []byte, r io.Reader) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if errors.Is(err, io.EOF) {
			return dst, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// insertKey returns the body in buf, a JSON object, with
// "prompt_cache_key" (the encoded key k) as its first member; a body that
// is not an object, or already starts with the member (a body this
// transport has keyed), is returned as is. go-openai's request type has no
// such member, so the body is not searched for one: a tool's schema or a
// message that names it elsewhere does not keep the key out. The
// body starts at head and is preceded by room for the member (head bytes:
// keyMember, k and a comma): the member is written just before the body's
// first member, over the room and the body's opening brace.
func insertKey(buf []byte, head int, k []byte) []byte {
	body := buf[head:]
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) < 2 || trimmed[0] != '{' {
		return body
	}
	rest := bytes.TrimLeft(trimmed[1:], " \t\r\n")
	if bytes.HasPrefix(rest, []byte(keyName)) {
		return body
	}
	n := len(keyMember) + len(k)
	if len(rest) > 0 && rest[0] != '}' {
		n++
	}
	at := len(buf) - len(rest) - n
	w := copy(buf[at:], keyMember)
	w += copy(buf[at+w:], k)
	if w < n {
		buf[at+w] = ','
	}
	return buf[at:]
}
