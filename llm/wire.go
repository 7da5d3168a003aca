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

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/internal/memo"
	"github.com/gameassist/gameassist/tool"
)

// A chat request's messages and tools are encoded here, not by go-openai.
// openai.ChatCompletionMessage and openai.Tool have MarshalJSON methods
// that encode each message or tool with json.Marshal, and encoding/json
// then scans that output again to check and compact it: three passes
// over every message's text and every tool's schema on every call, though
// the system prompt, the history and the tool list are most of a long
// session's request. wireMessage and wireTool have the members go-openai
// writes for the messages and tools this package sends, in the same
// order, and no method: one json.Marshal encodes them in one pass, to the
// same bytes (TestWireMessagesAsGoOpenAI holds them to it).
//
// go-openai still encodes the rest of the request (model, stream options)
// and sends it: the request it is given holds a placeholder message and,
// when the call offers tools, a placeholder tool, each naming the
// client's wire marker, and wireTransport writes the encoded messages and
// tools in their place. It also writes the provider's prompt cache key,
// which go-openai's request type has no member for.
type wireMessage struct {
	Role       string            `json:"role"`
	Content    string            `json:"content,omitempty"`
	ToolCalls  []openai.ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string            `json:"tool_call_id,omitempty"`
}

// wireTool is a tool as openai.Tool's MarshalJSON writes one (the members
// of a map, so sorted by name).
type wireTool struct {
	Function wireFunction `json:"function"`
	Type     string       `json:"type"`
}

// wireFunction is a function as openai.FunctionDefinition is encoded.
type wireFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
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
		h := c.encoded.hash(m)
		enc, ok := c.encoded.get(h, m)
		if !ok {
			if enc, err = json.Marshal(w); err != nil {
				return nil, fmt.Errorf("message %d: %w", i, err)
			}
			c.encoded.put(h, m, enc)
		}
		add(enc)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return append(out, ']'), nil
}

// encodeTools offers specs as functions whose parameters are the specs'
// JSON Schemas, sent verbatim, encoded as a request's "tools" array; nil
// for none. A list encoded before is not encoded again: a session offers
// the same list on every call (TOOL_SELECTION=auto), and so do most
// sessions. The caller must not modify what it gets.
func (c *Client) encodeTools(specs []tool.Spec) ([]byte, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	h := c.tools.hash(specs)
	if enc, ok := c.tools.get(h, specs); ok {
		return enc, nil
	}
	enc, err := c.encodeToolsAnew(specs)
	if err != nil {
		return nil, err
	}
	c.tools.put(h, specs, enc)
	return enc, nil
}

func (c *Client) encodeToolsAnew(specs []tool.Spec) ([]byte, error) {
	ws := make([]wireTool, len(specs))
	for i, s := range specs {
		if s.Name == "" {
			return nil, errors.New("tool without a name")
		}
		params := s.Parameters
		if len(params) == 0 {
			params = json.RawMessage(emptyObjectSchema)
		}
		if !c.validSchema(params) {
			return nil, fmt.Errorf("tool %s: parameters are not valid JSON", s.Name)
		}
		ws[i] = wireTool{Type: string(openai.ToolTypeFunction), Function: wireFunction{Name: s.Name, Description: s.Description, Parameters: params}}
	}
	return json.Marshal(ws)
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
	seed maphash.Seed
	m    *memo.Map[uint64, encoded]
}

func newEncMemo() encMemo {
	return encMemo{seed: maphash.MakeSeed(), m: memo.NewCosted(maxMemoBytes, func(_ uint64, e encoded) int {
		return len(e.content) + len(e.enc)
	})}
}

// encoded is a message and its encoding.
type encoded struct {
	role, content, id string
	enc               []byte
}

func memoable(m Message) bool { return len(m.Content) >= minMemoText && len(m.ToolCalls) == 0 }

func (e encMemo) hash(m Message) uint64 {
	var h maphash.Hash
	h.SetSeed(e.seed)
	h.WriteString(m.Role)
	h.WriteByte(0)
	h.WriteString(m.ToolCallID)
	h.WriteByte(0)
	h.WriteString(m.Content)
	return h.Sum64()
}

// get returns m's remembered encoding; h is m's hash.
func (e encMemo) get(h uint64, m Message) ([]byte, bool) {
	got, ok := e.m.Get(h)
	if !ok || got.role != m.Role || got.id != m.ToolCallID || got.content != m.Content {
		return nil, false
	}
	return got.enc, true
}

// put remembers enc as m's encoding; h is m's hash.
func (e encMemo) put(h uint64, m Message, enc []byte) {
	e.m.Put(h, encoded{role: m.Role, content: m.Content, id: m.ToolCallID, enc: enc})
}

// maxToolLists bounds toolsMemo: past it the memo starts over.
const maxToolLists = 256

// toolsMemo remembers the encodings of tool lists, by each tool's name,
// description and parameters. A lookup hashes them and compares them with
// the remembered list's.
type toolsMemo struct {
	seed maphash.Seed
	m    *memo.Map[uint64, toolList]
}

func newToolsMemo() toolsMemo {
	return toolsMemo{seed: maphash.MakeSeed(), m: memo.New[uint64, toolList](maxToolLists)}
}

// toolList is an encoded tool list: what it was encoded from, and the
// encoding.
type toolList struct {
	names, descs, params []string
	enc                  []byte
}

func (t toolsMemo) hash(specs []tool.Spec) uint64 {
	var h maphash.Hash
	h.SetSeed(t.seed)
	for _, s := range specs {
		h.WriteString(s.Name)
		h.WriteByte(0)
		h.WriteString(s.Description)
		h.WriteByte(0)
		h.Write(s.Parameters)
		h.WriteByte(0)
	}
	return h.Sum64()
}

// get returns the remembered encoding of specs; h is their hash.
func (t toolsMemo) get(h uint64, specs []tool.Spec) ([]byte, bool) {
	got, ok := t.m.Get(h)
	if !ok || len(got.names) != len(specs) {
		return nil, false
	}
	for i, s := range specs {
		if got.names[i] != s.Name || got.descs[i] != s.Description || got.params[i] != string(s.Parameters) {
			return nil, false
		}
	}
	return got.enc, true
}

// put remembers enc as the encoding of specs; h is their hash.
func (t toolsMemo) put(h uint64, specs []tool.Spec, enc []byte) {
	l := toolList{names: make([]string, len(specs)), descs: make([]string, len(specs)), params: make([]string, len(specs)), enc: enc}
	for i, s := range specs {
		l.names[i], l.descs[i], l.params[i] = s.Name, s.Description, string(s.Parameters)
	}
	t.m.Put(h, l)
}

// maxCacheKey bounds a prompt cache key (OpenAI accepts up to 64 characters
// for its prompt_cache_key).
const maxCacheKey = 64

// wire is what wireTransport writes into the body of one call's attempts.
type wire struct {
	ph       *placeholders
	key      []byte // the prompt cache key, as a JSON string; nil: none
	messages []byte // the messages, as encodeMessages encodes them
	tools    []byte // the tools, as encodeTools encodes them; nil: none
}

type wireCtx struct{}

// withWire gives the attempts of one call what their bodies lack: the
// messages, the tools (nil: the call offers none) and the cache key (key
// "": none).
func withWire(ctx context.Context, ph *placeholders, messages, tools []byte, key string) (context.Context, error) {
	w := &wire{ph: ph, messages: messages, tools: tools}
	if key != "" {
		k, err := json.Marshal(key)
		if err != nil {
			return ctx, err
		}
		w.key = k
	}
	return context.WithValue(ctx, wireCtx{}, w), nil
}

// placeholders are what a Client gives go-openai in place of a request's
// messages and tools, and those members as go-openai encodes them.
type placeholders struct {
	message         openai.ChatCompletionMessage
	tool            openai.Tool
	messages, tools []byte
}

// newPlaceholders makes placeholders that name marker, a string of the
// client's own that no other part of a request holds.
func newPlaceholders(marker string) (*placeholders, error) {
	p := &placeholders{
		message: openai.ChatCompletionMessage{Role: RoleUser, Content: marker},
		tool:    openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: marker}},
	}
	m, err := json.Marshal([]openai.ChatCompletionMessage{p.message})
	if err != nil {
		return nil, err
	}
	t, err := json.Marshal([]openai.Tool{p.tool})
	if err != nil {
		return nil, err
	}
	p.messages = append([]byte(`"messages":`), m...)
	p.tools = append([]byte(`"tools":`), t...)
	return p, nil
}

// keyMember opens the cache key's member.
const keyMember = `"prompt_cache_key":`

// emptyObjectSchema stands in for a tool without parameters: the API wants
// an object schema for every function.
const emptyObjectSchema = `{"type":"object","properties":{}}`

// wireTransport completes the body of a chat completion that Complete or
// Stream started (see wireMessage): the cache key as its first member,
// the messages and tools in place of their placeholders; the rest of the
// body is sent byte for byte, in one buffer. That buffer is also what
// lets the request leave in one write: net/http sends the headers on
// their own, and the body through a copy loop, unless the body is a
// reader it knows to be in memory (a *bytes.Reader). A request is
// completed when its context carries a wire, whatever its URL (a
// gateway's path included): only Complete and Stream give one, to their
// chat completion's attempts. Other requests pass through unchanged.
type wireTransport struct {
	next http.RoundTripper
}

// RoundTrip forwards r, its body completed when it is a chat completion
// of this package.
func (t wireTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	w, ok := r.Context().Value(wireCtx{}).(*wire)
	if !ok || r.Body == nil {
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

// errNoPlaceholder is a body without the placeholders of its call's
// messages or tools, once each.
var errNoPlaceholder = errors.New("llm: the request body does not hold the placeholders of its messages and tools once each; they cannot be written")

// complete returns got, a body go-openai encoded for a request with w's
// placeholders, with w's cache key, messages and tools written in.
func (w *wire) complete(got []byte) ([]byte, error) {
	if len(got) < 2 || got[0] != '{' {
		return nil, errNoPlaceholder
	}
	type fill struct {
		at     int
		ph     []byte
		member string
		with   []byte
	}
	fills := make([]fill, 0, 2)
	for _, f := range []fill{
		{ph: w.ph.messages, member: `"messages":`, with: w.messages},
		{ph: w.ph.tools, member: `"tools":`, with: w.tools},
	} {
		if f.with == nil {
			continue
		}
		f.at = bytes.Index(got, f.ph)
		if f.at < 0 || bytes.Contains(got[f.at+len(f.ph):], f.ph) {
			return nil, errNoPlaceholder
		}
		fills = append(fills, f)
	}
	if len(fills) == 2 && fills[1].at < fills[0].at {
		fills[0], fills[1] = fills[1], fills[0]
	}
	n := len(got)
	for _, f := range fills {
		n += len(f.member) + len(f.with) - len(f.ph)
	}
	if w.key != nil {
		n += len(keyMember) + len(w.key) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '{')
	if w.key != nil {
		out = append(out, keyMember...)
		out = append(out, w.key...)
		if got[1] != '}' {
			out = append(out, ',')
		}
	}
	from := 1
	for _, f := range fills {
		out = append(out, got[from:f.at]...)
		out = append(out, f.member...)
		out = append(out, f.with...)
		from = f.at + len(f.ph)
	}
	return append(out, got[from:]...), nil
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
