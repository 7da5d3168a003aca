package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/http"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"
)

// A chat request's messages are encoded here, not by go-openai.
// openai.ChatCompletionMessage has a MarshalJSON method that encodes each
// message with json.Marshal, and encoding/json then scans that output
// again to check and compact it: three passes over every message's text
// on every call, though the system prompt and the history are most of a
// long session's request. wireMessage has the members go-openai writes
// for the messages this package sends, in the same order, and no method:
// one json.Marshal encodes them in one pass, to the same bytes
// (TestWireMessagesAsGoOpenAI holds them to it).
//
// go-openai still encodes the rest of the request (model, tools, stream
// options) and sends it: the request it is given has no messages, which
// it encodes as "messages":null right after the model, and wireTransport
// writes the encoded messages in their place. It also writes the
// provider's prompt cache key, which go-openai's request type has no
// member for.
type wireMessage struct {
	Role       string            `json:"role"`
	Content    string            `json:"content,omitempty"`
	ToolCalls  []openai.ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string            `json:"tool_call_id,omitempty"`
}

// encodeMessages checks msgs as the API would and encodes them as a
// request's "messages" array. A long message's encoding is remembered
// (see encMemo): a turn's second call repeats its first call's messages,
// and each turn the system prompt and the history of the turn before. The
// others are encoded together, a run of them at a time.
func (c *Client) encodeMessages(msgs []Message) ([]byte, error) {
	if len(msgs) == 0 {
		return nil, errors.New("request has no messages")
	}
	n := 2
	for _, m := range msgs {
		n += len(m.Content) + len(`{"role":"assistant","content":""},`)
	}
	out := make([]byte, 1, n+n/8)
	out[0] = '['
	add := func(enc []byte) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, enc...)
	}
	var run []wireMessage
	flush := func() error {
		if len(run) == 0 {
			return nil
		}
		enc, err := json.Marshal(run)
		if err != nil {
			return err
		}
		add(enc[1 : len(enc)-1])
		run = run[:0]
		return nil
	}
	for i, m := range msgs {
		om, err := toMessage(m)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		w := wireMessage{Role: om.Role, Content: om.Content, ToolCalls: om.ToolCalls, ToolCallID: om.ToolCallID}
		if !memoable(m) {
			run = append(run, w)
			continue
		}
		if err := flush(); err != nil {
			return nil, err
		}
		enc, ok := c.encoded.get(m)
		if !ok {
			if enc, err = json.Marshal(w); err != nil {
				return nil, fmt.Errorf("message %d: %w", i, err)
			}
			c.encoded.put(m, enc)
		}
		add(enc)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return append(out, ']'), nil
}

// Bounds of encMemo: the shortest text it remembers (a shorter one costs
// about as much to encode as to look up) and the bytes it holds, texts
// and encodings; past that it starts over.
const (
	minMemoText  = 128
	maxMemoBytes = 16 << 20
)

// encMemo remembers the encodings of messages with a text of minMemoText
// bytes or more and no tool calls, by role, text and tool call id. A
// lookup hashes the text and compares it with the remembered one, which
// costs a tenth of encoding it.
type encMemo struct {
	seed  maphash.Seed
	mu    sync.Mutex
	m     map[uint64]encoded
	bytes int
}

// encoded is a message and its encoding.
type encoded struct {
	role, content, id string
	enc               []byte
}

func memoable(m Message) bool { return len(m.Content) >= minMemoText && len(m.ToolCalls) == 0 }

func (e *encMemo) hash(m Message) uint64 {
	var h maphash.Hash
	h.SetSeed(e.seed)
	h.WriteString(m.Role)
	h.WriteByte(0)
	h.WriteString(m.ToolCallID)
	h.WriteByte(0)
	h.WriteString(m.Content)
	return h.Sum64()
}

// get returns m's remembered encoding.
func (e *encMemo) get(m Message) ([]byte, bool) {
	h := e.hash(m)
	e.mu.Lock()
	got, ok := e.m[h]
	e.mu.Unlock()
	if !ok || got.role != m.Role || got.id != m.ToolCallID || got.content != m.Content {
		return nil, false
	}
	return got.enc, true
}

// put remembers enc as m's encoding.
func (e *encMemo) put(m Message, enc []byte) {
	h := e.hash(m)
	size := len(m.Content) + len(enc)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.m == nil || e.bytes+size > maxMemoBytes {
		e.m, e.bytes = make(map[uint64]encoded), 0
	}
	if old, ok := e.m[h]; ok {
		e.bytes -= len(old.content) + len(old.enc)
	}
	e.m[h] = encoded{role: m.Role, content: m.Content, id: m.ToolCallID, enc: enc}
	e.bytes += size
}

// maxCacheKey bounds a prompt cache key (OpenAI accepts up to 64 characters
// for its prompt_cache_key).
const maxCacheKey = 64

// wire is what wireTransport writes into the body of one call's attempts.
type wire struct {
	key      []byte // the prompt cache key, as a JSON string; nil: none
	messages []byte // the messages, as encodeMessages encodes them
}

type wireCtx struct{}

// withWire gives the attempts of one call what their bodies lack: the
// messages and the cache key (key "": none).
func withWire(ctx context.Context, messages []byte, key string) (context.Context, error) {
	w := &wire{messages: messages}
	if key != "" {
		k, err := json.Marshal(key)
		if err != nil {
			return ctx, err
		}
		w.key = k
	}
	return context.WithValue(ctx, wireCtx{}, w), nil
}

// The members wireTransport writes, as JSON.
const (
	keyMember    = `"prompt_cache_key":`
	modelMember  = `{"model":`
	nullMessages = `,"messages":null`
)

// wireTransport completes the body of a chat completion that Complete or
// Stream started (see wireMessage): the cache key as its first member,
// the messages in place of "messages":null; the rest of the body is sent
// byte for byte, in one buffer. That buffer is also what lets the request
// leave in one write: net/http sends the headers on their own, and the
// body through a copy loop, unless the body is a reader it knows to be in
// memory (a *bytes.Reader). Other requests pass through unchanged.
type wireTransport struct {
	next http.RoundTripper
}

// RoundTrip forwards r, its body completed when it is a chat completion
// of this package.
func (t wireTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	w, ok := r.Context().Value(wireCtx{}).(*wire)
	if !ok || r.Method != http.MethodPost || r.Body == nil || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		return t.next.RoundTrip(r)
	}
	got, err := readAppend(make([]byte, 0, max(int(r.ContentLength), 0)+1), r.Body)
	_ = r.Body.Close()
	if err != nil {
		return nil, err
	}
	body, err := w.complete(got)
	if err != nil {
		return nil, err
	}
	// A shallow copy: only the body changes, and nothing below changes
	// the headers it shares with r.
	out := r.WithContext(r.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return t.next.RoundTrip(out)
}

// errNoMessagesPlace is a body that does not begin with its model and
// "messages":null, as go-openai encodes a request without messages.
var errNoMessagesPlace = errors.New(`llm: the request body does not begin with its model and "messages":null; its messages cannot be written`)

// complete returns got, a body go-openai encoded for a request without
// messages, with w's cache key and messages written in.
func (w *wire) complete(got []byte) ([]byte, error) {
	at := modelEnd(got)
	if at < 0 || !bytes.HasPrefix(got[at:], []byte(nullMessages)) {
		return nil, errNoMessagesPlace
	}
	rest := got[at+len(nullMessages):]
	n := len(got) + len(w.messages)
	if w.key != nil {
		n += len(keyMember) + len(w.key) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '{')
	if w.key != nil {
		out = append(out, keyMember...)
		out = append(out, w.key...)
		out = append(out, ',')
	}
	out = append(out, got[1:at]...)
	out = append(out, nullMessages[:len(nullMessages)-len("null")]...)
	out = append(out, w.messages...)
	return append(out, rest...), nil
}

// modelEnd returns where the model's JSON string ends in body, a body
// that begins with modelMember and that string; -1 for another body.
func modelEnd(body []byte) int {
	i := len(modelMember)
	if !bytes.HasPrefix(body, []byte(modelMember)) || len(body) <= i || body[i] != '"' {
		return -1
	}
	for i++; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

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
