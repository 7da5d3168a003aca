// Package cassette records and replays the LLM traffic of an evaluation: an
// http.RoundTripper placed in front of the OpenAI-compatible base URL. Each
// request is keyed by a hash of its endpoint and body; the recorded file
// holds the response status, content type and body, and never a request
// header (so no Authorization or api-key). Replaying serves the recorded
// answers without any network; a request that was not recorded is a miss,
// answered 404 and reported to the Probe of the request's context, so the
// evaluation fails that step with "cassette miss" instead of re-recording
// silently.
//
// The same Transport in pass-through mode only counts: a Probe learns how
// many LLM calls a turn made, whatever the mode.
package cassette

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// maxBody bounds a request or response body the transport reads.
const maxBody = 32 << 20

// Mode says what a Transport does with a request.
type Mode int

// The modes of a Transport.
const (
	// Pass sends requests on and only counts them.
	Pass Mode = iota
	// Record sends requests on and stores each successful answer.
	Record
	// Replay answers from the stored files only.
	Replay
)

// Probe collects what the LLM requests made under one context did: how many
// chat calls, how many cassette misses. Attach it with WithProbe.
type Probe struct {
	calls  atomic.Int64
	misses atomic.Int64
}

// Calls is the number of chat completion requests answered 200 (attempts
// that failed and were retried are not counted).
func (p *Probe) Calls() int { return int(p.calls.Load()) }

// Misses is the number of requests a replay had no recording for.
func (p *Probe) Misses() int { return int(p.misses.Load()) }

type probeKey struct{}

// WithProbe returns ctx carrying p; LLM requests made under it report to p.
func WithProbe(ctx context.Context, p *Probe) context.Context {
	return context.WithValue(ctx, probeKey{}, p)
}

func probeFrom(ctx context.Context) *Probe {
	p, _ := ctx.Value(probeKey{}).(*Probe)
	return p
}

// Entry is one recorded exchange, stored as DIR/<key>.json.
type Entry struct {
	Key      string `json:"key"`
	Endpoint string `json:"endpoint"`
	// Model and LastMessage help a person see what was asked; they are not
	// used for matching.
	Model       string `json:"model,omitempty"`
	LastMessage string `json:"last_message,omitempty"`
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	Body        string `json:"body"`
}

// Transport is the http.RoundTripper of an evaluation's LLM client.
type Transport struct {
	mode Mode
	dir  string
	next http.RoundTripper
	// recorded counts files written; hits and misses count replays.
	recorded, hits, misses atomic.Int64
}

// New returns a Transport. Record needs dir (created when missing) and next
// (the real transport; nil means http.DefaultTransport); Replay needs an
// existing dir; Pass needs next only.
func New(mode Mode, dir string, next http.RoundTripper) (*Transport, error) {
	if next == nil {
		next = http.DefaultTransport
	}
	t := &Transport{mode: mode, dir: dir, next: next}
	switch mode {
	case Pass:
	case Record:
		if dir == "" {
			return nil, errors.New("cassette: record: no directory")
		}
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("cassette: record: %w", err)
		}
	case Replay:
		st, err := os.Stat(dir)
		if err != nil {
			return nil, fmt.Errorf("cassette: replay: %w", err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("cassette: replay: %s is not a directory", dir)
		}
	default:
		return nil, fmt.Errorf("cassette: unknown mode %d", mode)
	}
	return t, nil
}

// Stats reports the files recorded, replay hits and replay misses so far.
func (t *Transport) Stats() (recorded, hits, misses int) {
	return int(t.recorded.Load()), int(t.hits.Load()), int(t.misses.Load())
}

// RoundTrip records, replays or passes req.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(io.LimitReader(req.Body, maxBody))
		_ = req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("cassette: read request: %w", err)
		}
		body = b
	}
	endpoint := Endpoint(req.URL.Path)
	probe := probeFrom(req.Context())
	// answered counts a chat call the API answered; retried failures do
	// not make a round.
	answered := func(status int) {
		if probe != nil && endpoint == "chat/completions" && status == http.StatusOK {
			probe.calls.Add(1)
		}
	}
	key := Key(req.Method, endpoint, body)
	if t.mode == Replay {
		e, err := t.load(key)
		if err != nil {
			t.misses.Add(1)
			if probe != nil {
				probe.misses.Add(1)
			}
			return missResponse(req, key, t.dir), nil
		}
		t.hits.Add(1)
		answered(e.Status)
		return response(req, e.Status, e.ContentType, []byte(e.Body)), nil
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	resp, err := t.next.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	answered(resp.StatusCode)
	if t.mode != Record || resp.StatusCode != http.StatusOK {
		return resp, nil
	}
	rb, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	_ = resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("cassette: read response: %w", err)
	}
	e := Entry{Key: key, Endpoint: endpoint, Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: string(rb)}
	e.Model, e.LastMessage = describe(body)
	if err := t.store(e); err != nil {
		return nil, err
	}
	t.recorded.Add(1)
	return response(req, e.Status, e.ContentType, rb), nil
}

// Endpoint names the API call of a URL path by its last segments, so a
// recording made against one base URL replays under another:
// /v1/chat/completions and /openai/v1/chat/completions are both
// "chat/completions".
func Endpoint(path string) string {
	path = strings.Trim(path, "/")
	if strings.HasSuffix(path, "chat/completions") {
		return "chat/completions"
	}
	if i := strings.LastIndex(path, "/"); i >= 0 {
		return path[i+1:]
	}
	return path
}

// Key is the hash a request is recorded under: method, endpoint and the
// exact body bytes (headers, where credentials travel, are not part of it),
// but for the prompt cache key the LLM client puts first in the body: a
// per-session routing hint that differs in every run.
func Key(method, endpoint string, body []byte) string {
	h := sha256.New()
	h.Write([]byte(method + " " + endpoint + "\n"))
	h.Write(withoutCacheKey(body))
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// withoutCacheKey returns body without a leading "prompt_cache_key" member.
func withoutCacheKey(body []byte) []byte {
	const lead = `{"prompt_cache_key":`
	if !bytes.HasPrefix(body, []byte(lead)) {
		return body
	}
	dec := json.NewDecoder(bytes.NewReader(body[len(lead):]))
	var key string
	if dec.Decode(&key) != nil {
		return body
	}
	rest := body[len(lead)+int(dec.InputOffset()):]
	rest = bytes.TrimPrefix(rest, []byte(","))
	return append([]byte("{"), rest...)
}

func (t *Transport) path(key string) string { return filepath.Join(t.dir, key+".json") }

func (t *Transport) load(key string) (Entry, error) {
	b, err := os.ReadFile(t.path(key))
	if err != nil {
		return Entry{}, err
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return Entry{}, fmt.Errorf("cassette: %s: %w", t.path(key), err)
	}
	if e.Key != key || e.Status == 0 {
		return Entry{}, fmt.Errorf("cassette: %s: key or status does not match", t.path(key))
	}
	return e, nil
}

// store writes e atomically (a temporary file renamed), so concurrent
// scenarios never leave half a file.
func (t *Transport) store(e Entry) error {
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return fmt.Errorf("cassette: %w", err)
	}
	f, err := os.CreateTemp(t.dir, ".rec-*")
	if err != nil {
		return fmt.Errorf("cassette: %w", err)
	}
	_, werr := f.Write(append(b, '\n'))
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("cassette: write: %w", err)
	}
	if err := os.Rename(f.Name(), t.path(e.Key)); err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("cassette: write: %w", err)
	}
	return nil
}

// describe extracts the model and the last message of a chat request body,
// for people reading a cassette.
func describe(body []byte) (model, last string) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Content any `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return "", ""
	}
	if n := len(req.Messages); n > 0 {
		if s, ok := req.Messages[n-1].Content.(string); ok {
			last = s
		}
	}
	if r := []rune(last); len(r) > 200 {
		last = string(r[:200]) + "…"
	}
	return req.Model, last
}

// MissReason is the step failure reason of a replay without a recording.
const MissReason = "cassette miss"

func missResponse(req *http.Request, key, dir string) *http.Response {
	msg := fmt.Sprintf("%s: no recording %s.json in %s (the request changed since it was recorded)", MissReason, key, dir)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": "cassette_miss"}})
	return response(req, http.StatusNotFound, "application/json", b)
}

func response(req *http.Request, status int, contentType string, body []byte) *http.Response {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", status, http.StatusText(status)),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}
