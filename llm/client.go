package llm

import (
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/internal/memo"
)

// Defaults of Options.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultMaxAttempts = 3
	DefaultBaseBackoff = 200 * time.Millisecond
	DefaultMaxBackoff  = 5 * time.Second
)

// retryAfterFactor times MaxBackoff is the longest Retry-After the client
// waits; an API asking for more gets no retry, so the caller can fall back
// instead of hanging.
const retryAfterFactor = 4

// minSecretLen is the shortest API key redacted from messages; shorter keys
// would garble ordinary words.
const minSecretLen = 6

// Options configures a Client. Zero values take the defaults.
type Options struct {
	// BaseURL is the API root, like "http://localhost:8080/v1"; empty is OpenAI.
	BaseURL string
	// APIKey is sent as a bearer token; it never appears in errors or logs.
	APIKey string
	// Model is the chat model; required.
	Model string
	// EmbeddingsModel is the embeddings model; empty disables Embed.
	EmbeddingsModel string
	// Timeout bounds one HTTP attempt, a whole stream included (default 30s).
	Timeout time.Duration
	// MaxAttempts is the number of attempts of a retryable call (default 3).
	MaxAttempts int
	// BaseBackoff is the first retry's backoff ceiling (default 200ms); it
	// doubles per attempt, with full jitter.
	BaseBackoff time.Duration
	// MaxBackoff caps the backoff (default 5s); a Retry-After over four
	// times this is not waited for.
	MaxBackoff time.Duration
	// HTTPClient is used for the requests (default: a new client over
	// http.DefaultTransport); its Timeout should be zero, Timeout rules.
	HTTPClient *http.Client
	// Logger receives one warning per retry; nil discards.
	Logger *slog.Logger
	// NoCacheKey leaves Request.CacheKey out of the requests, for an
	// OpenAI-compatible server that refuses unknown fields.
	NoCacheKey bool
}

// Client calls an OpenAI-compatible API with retries, per-attempt timeouts and
// streaming; it is safe for concurrent use.
type Client struct {
	api         *openai.Client
	model       string
	embedModel  string
	timeout     time.Duration
	maxAttempts int
	baseBackoff time.Duration
	maxBackoff  time.Duration
	log         *slog.Logger
	secret      string
	noCacheKey  bool
	// sleep waits between attempts; tests replace it to record the waits.
	sleep func(ctx context.Context, d time.Duration) error
	// schemas remembers tool parameter schemas already checked: the same
	// specs go out with every request of every turn.
	schemas *memo.Map[string, struct{}]
	// encoded remembers encoded messages (see encodeMessages).
	encoded encMemo
	// tools remembers encoded tool lists (see encodeTools).
	tools toolsMemo
	// ph are the placeholders of a request's messages and tools.
	ph *placeholders
}

// maxValidSchemas bounds the schemas a Client remembers as valid.
const maxValidSchemas = 1024

// validSchema reports whether doc is valid JSON, remembering the documents
// found valid (a list's schemas are the same call after call).
func (c *Client) validSchema(doc []byte) bool {
	if _, ok := memo.GetBytes(c.schemas, doc); ok {
		return true
	}
	if !json.Valid(doc) {
		return false
	}
	c.schemas.Put(string(doc), struct{}{})
	return true
}

// cacheKeyOf is the key the attempts of req carry: none when keys are off
// or the key is too long to be accepted.
func (c *Client) cacheKeyOf(req Request) string {
	if c.noCacheKey || len(req.CacheKey) > maxCacheKey {
		return ""
	}
	return req.CacheKey
}

// New checks opts and builds a Client; it makes no request.
func New(opts Options) (*Client, error) {
	if strings.TrimSpace(opts.Model) == "" {
		return nil, errors.New("llm: new: model is required")
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"timeout", opts.Timeout}, {"base backoff", opts.BaseBackoff}, {"max backoff", opts.MaxBackoff}} {
		if d.v < 0 {
			return nil, fmt.Errorf("llm: new: %s %s is negative", d.name, d.v)
		}
	}
	if opts.MaxAttempts < 0 {
		return nil, fmt.Errorf("llm: new: max attempts %d is negative", opts.MaxAttempts)
	}
	cfg := openai.DefaultConfig(opts.APIKey)
	if opts.BaseURL != "" {
		u, err := url.Parse(opts.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, errors.New("llm: new: base URL must be an absolute http(s) URL")
		}
		cfg.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	}
	hc := &http.Client{}
	if opts.HTTPClient != nil {
		c := *opts.HTTPClient
		hc = &c
	}
	next := hc.Transport
	if next == nil {
		next = newTransport()
	}
	hc.Transport = retryAfterTransport{next: wireTransport{next: next}}
	cfg.HTTPClient = hc

	c := &Client{
		api:         openai.NewClientWithConfig(cfg),
		model:       opts.Model,
		embedModel:  opts.EmbeddingsModel,
		timeout:     orDefault(opts.Timeout, DefaultTimeout),
		maxAttempts: opts.MaxAttempts,
		baseBackoff: orDefault(opts.BaseBackoff, DefaultBaseBackoff),
		maxBackoff:  orDefault(opts.MaxBackoff, DefaultMaxBackoff),
		log:         opts.Logger,
		sleep:       sleepCtx,
		noCacheKey:  opts.NoCacheKey,
		schemas:     memo.New[string, struct{}](maxValidSchemas),
		encoded:     newEncMemo(),
		tools:       newToolsMemo(),
	}
	ph, err := newPlaceholders("gameassist-wire-" + crand.Text())
	if err != nil {
		return nil, fmt.Errorf("llm: new: %w", err)
	}
	c.ph = ph
	if c.maxAttempts == 0 {
		c.maxAttempts = DefaultMaxAttempts
	}
	if c.maxBackoff < c.baseBackoff {
		c.maxBackoff = c.baseBackoff
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if len(opts.APIKey) >= minSecretLen {
		c.secret = opts.APIKey
	}
	return c, nil
}

func orDefault(v, def time.Duration) time.Duration {
	if v == 0 {
		return def
	}
	return v
}

// Model is the chat model the client asks for, for logs and usage records.
func (c *Client) Model() string { return c.model }

// EmbeddingsModel is the embeddings model, empty when Embed is disabled.
func (c *Client) EmbeddingsModel() string { return c.embedModel }

// Ping checks that the API answers (GET /models) with one attempt. Any HTTP
// answer but 401 or 403 counts as reachable: compatible servers without a
// model list answer 404, 405 or 501, and a refused key is the one answer
// that proves the endpoint cannot be used.
func (c *Client) Ping(ctx context.Context) error {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	_, err := c.api.ListModels(actx)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return canceled(opPing, 1, ctx.Err())
	}
	e := c.classify(opPing, err, errors.Is(actx.Err(), context.DeadlineExceeded))
	if reachable(e.Status) {
		return nil
	}
	e.Attempts = 1
	return e
}

// reachable reports whether an HTTP status from GET /models shows a usable
// endpoint: any answer but a refused key (0 is no HTTP answer at all).
func reachable(status int) bool {
	return status != 0 && status != http.StatusUnauthorized && status != http.StatusForbidden
}

// redact removes the API key from text bound for errors and logs.
func (c *Client) redact(s string) string {
	if c.secret == "" {
		return s
	}
	return strings.ReplaceAll(s, c.secret, "[redacted]")
}

// Operations named in errors and logs.
const (
	opChat   = "chat"
	opStream = "stream"
	opEmbed  = "embed"
	opPing   = "ping"
)

// attemptFunc runs one attempt under ctx; sent reports that output already
// reached the caller (stream text), which makes a failure final.
type attemptFunc func(ctx context.Context) (sent bool, err error)

// retry runs fn until it succeeds, fails for good, or MaxAttempts is reached,
// with full-jitter exponential backoff or the server's Retry-After between
// attempts. It returns the attempts made and an *Error on failure.
func (c *Client) retry(ctx context.Context, op string, fn attemptFunc) (int, error) {
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return n - 1, canceled(op, n-1, err)
		}
		meta := &responseMeta{}
		actx, cancel := context.WithTimeout(withMeta(ctx, meta), c.timeout)
		sent, err := fn(actx)
		timedOut := errors.Is(actx.Err(), context.DeadlineExceeded)
		cancel()
		if err == nil {
			return n, nil
		}
		if ctx.Err() != nil {
			return n, canceled(op, n, ctx.Err())
		}
		e := c.classify(op, err, timedOut)
		e.Attempts = n
		if sent {
			e.Retryable = false
		}
		if !e.Retryable || n >= c.maxAttempts {
			return n, e
		}
		wait := c.backoff(n)
		if ra, ok := meta.retryAfter(time.Now()); ok {
			if ra > retryAfterFactor*c.maxBackoff {
				e.Code, e.Message = CodeRetryAfterTooLong, fmt.Sprintf("%s (server asked to wait %s)", e.Message, ra.Round(time.Second))
				return n, e
			}
			wait = ra
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
			return n, e
		}
		c.log.LogAttrs(ctx, slog.LevelWarn, "llm retry",
			slog.String("op", op), slog.Int("attempt", n), slog.Int("status", e.Status),
			slog.String("code", e.Code), slog.Duration("wait", wait))
		if err := c.sleep(ctx, wait); err != nil {
			return n, canceled(op, n, err)
		}
	}
}

// backoff is full jitter: uniform in [0, min(MaxBackoff, BaseBackoff*2^(n-1))].
func (c *Client) backoff(n int) time.Duration {
	ceiling := c.maxBackoff
	if n-1 < 32 {
		if d := c.baseBackoff << (n - 1); d > 0 && d < ceiling {
			ceiling = d
		}
	}
	return rand.N(ceiling + 1)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// responseMeta holds the retry headers of one attempt's last response; the
// transport fills it on the attempt's own goroutine.
type responseMeta struct {
	retryAfterS  string
	retryAfterMS string
}

type metaKey struct{}

func withMeta(ctx context.Context, m *responseMeta) context.Context {
	return context.WithValue(ctx, metaKey{}, m)
}

// retryAfterTransport copies Retry-After headers into the request's
// responseMeta, since go-openai's errors do not carry response headers.
type retryAfterTransport struct {
	next http.RoundTripper
}

// RoundTrip forwards the request and notes the response's retry headers.
func (t retryAfterTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if resp != nil {
		if m, ok := r.Context().Value(metaKey{}).(*responseMeta); ok {
			m.retryAfterS = resp.Header.Get("Retry-After")
			m.retryAfterMS = resp.Header.Get("Retry-After-Ms")
		}
	}
	return resp, err
}

// retryAfter reads OpenAI's retry-after-ms, else Retry-After in seconds or
// as an HTTP date; ok is false when there is no usable positive value.
func (m *responseMeta) retryAfter(now time.Time) (time.Duration, bool) {
	if ms, err := strconv.ParseFloat(strings.TrimSpace(m.retryAfterMS), 64); err == nil && ms > 0 && ms < 1e9 {
		return time.Duration(ms * float64(time.Millisecond)), true
	}
	return parseRetryAfter(m.retryAfterS, now)
}

// parseRetryAfter reads a Retry-After value: delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 || secs > 1e6 {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d := t.Sub(now)
	if d <= 0 {
		return 0, false
	}
	return d, true
}

// newTransport is the client's own transport when the caller gives none:
// http.DefaultTransport's settings, with a write buffer that holds a
// whole request (headers and a long session's body leave in one write
// instead of one per 4 KB), and idle connections kept for as many
// concurrent turns as a server runs (the default keeps 2 per host, so
// a busy server dialled, and shook TLS hands, for most calls).
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.WriteBufferSize = 64 << 10
	t.MaxIdleConns = 0 // no limit overall; per host below
	t.MaxIdleConnsPerHost = 256
	return t
}
