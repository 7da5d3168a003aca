package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/internal/memo"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/tool"
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

// TestWireMessagesAsGoOpenAI: the body a request leaves with, through
// go-openai and the transport, is the body go-openai encodes for the
// same request with its messages (and the cache key first): messages of
// every role, tool calls, and text that JSON escapes (HTML, quotes,
// control characters, line separators, invalid UTF-8), on Complete and
// Stream.
func TestWireMessagesAsGoOpenAI(t *testing.T) {
	s := llmtest.New(t)
	var bodies []string
	capture := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, string(b))
		r.Body = io.NopCloser(bytes.NewReader(b))
		return http.DefaultTransport.RoundTrip(r)
	})
	c, _ := newTestClient(t, s, func(o *Options) { o.HTTPClient = &http.Client{Transport: capture} })
	ctx := context.Background()
	for i, text := range wireTexts {
		req := wireRequest(text)
		req.CacheKey = []string{"", "sess-1", "k<&>\u2028"}[i%3]
		want := goOpenAIBody(t, c, req, false)
		if _, err := c.Complete(ctx, req); err != nil {
			t.Fatal(err)
		}
		if got := bodies[len(bodies)-1]; got != want {
			t.Errorf("Complete, text %q:\nsent %s\nwant %s", text, got, want)
		}
		s.Enqueue(llmtest.Text("ok"))
		want = goOpenAIBody(t, c, req, true)
		if _, err := c.Stream(ctx, req, nil); err != nil {
			t.Fatal(err)
		}
		if got := bodies[len(bodies)-1]; got != want {
			t.Errorf("Stream, text %q:\nsent %s\nwant %s", text, got, want)
		}
	}
}

// wireTexts are message texts whose JSON needs escapes.
var wireTexts = []string{
	"plain",
	"<context>\n## Screen\nA & B</context>\n\n<player>who wins?</player>",
	`quotes " and \ backslashes \"`,
	"controls \x00\x01\b\f\n\r\t\x1f\x7f",
	"separators \u2028 and \u2029, emoji 🐉, accents é",
	"invalid UTF-8 \xff\xfe and a cut rune \xe2\x82",
	"",
}

// wireRequest is a request of every role and a tool call, with text in
// each message and argument.
func wireRequest(text string) Request {
	return Request{
		Messages: []Message{
			{Role: RoleSystem, Content: "sys " + text},
			{Role: RoleUser, Content: text},
			{Role: RoleAssistant, ToolCalls: []ToolCall{
				{ID: "c1", Name: "gcs_get_champion_details", Arguments: `{"champion_name":` + strconv.Quote(text) + `}`},
				{ID: "c2", Name: "rag_search_faq"},
			}},
			{Role: RoleTool, ToolCallID: "c1", Content: `{"data":` + strconv.Quote(text) + `}`},
			{Role: RoleTool, ToolCallID: "c2", Content: "none"},
			{Role: RoleAssistant, Content: "answer: " + text},
			{Role: RoleUser, Content: "and " + text},
		},
		Tools: []tool.Spec{
			{Name: "find_t1", Description: "does " + text, Parameters: json.RawMessage(`{"type":"object", "properties":{"q":{"type":"string","description":"<&>"}}}`)},
			{Name: "find_t2"},
		},
	}
}

// goOpenAIBody is req's body as go-openai encodes it with its messages
// and tools, the cache key inserted first.
func goOpenAIBody(t *testing.T, c *Client, req Request, stream bool) string {
	t.Helper()
	oreq := openai.ChatCompletionRequest{Model: c.model}
	for _, m := range req.Messages {
		om, err := toMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		oreq.Messages = append(oreq.Messages, om)
	}
	for _, sp := range req.Tools {
		params := sp.Parameters
		if len(params) == 0 {
			params = json.RawMessage(emptyObjectSchema)
		}
		oreq.Tools = append(oreq.Tools, openai.Tool{Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{Name: sp.Name, Description: sp.Description, Parameters: params}})
	}
	if stream {
		oreq.Stream = true
		oreq.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	b, err := json.Marshal(oreq)
	if err != nil {
		t.Fatal(err)
	}
	if key := c.cacheKeyOf(req); key != "" {
		k, _ := json.Marshal(key)
		return `{"prompt_cache_key":` + string(k) + `,` + string(b[1:])
	}
	return string(b)
}

// FuzzWireMessages: any message text is encoded as go-openai encodes it,
// and so again from the remembered encodings.
func FuzzWireMessages(f *testing.F) {
	for _, s := range wireTexts {
		f.Add(s)
	}
	c := newEncoder()
	f.Fuzz(func(t *testing.T, text string) {
		msgs := wireRequest(text).Messages
		// Long enough to be remembered.
		msgs[0].Content += strings.Repeat(" padding", minMemoText/8)
		oms := make([]openai.ChatCompletionMessage, len(msgs))
		for i, m := range msgs {
			var err error
			if oms[i], err = toMessage(m); err != nil {
				t.Fatal(err)
			}
		}
		want, err := json.Marshal(oms)
		if err != nil {
			t.Fatal(err)
		}
		for _, pass := range []string{"first", "remembered"} {
			got, err := c.encodeMessages(msgs)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s encoding of text %q:\nencoded %s\ngo-openai %s", pass, text, got, want)
			}
		}
	})
}

// newEncoder is a Client that only encodes messages.
func newEncoder() *Client {
	return &Client{schemas: memo.New[string, struct{}](maxValidSchemas), encoded: newEncMemo(), tools: newToolsMemo()}
}

// TestEncodeToolsRemembers: a tool list is encoded once, and a list is
// served only its own encoding: another name, description or schema, or
// another order, is another list; a list with an invalid schema is
// refused every time; the memo stays within its bound.
func TestEncodeToolsRemembers(t *testing.T) {
	c := newEncoder()
	base := sessionTools()
	variant := func(change func([]tool.Spec)) []tool.Spec {
		v := slices.Clone(base)
		change(v)
		return v
	}
	lists := map[string][]tool.Spec{
		"base":        base,
		"name":        variant(func(v []tool.Spec) { v[1].Name += "x" }),
		"description": variant(func(v []tool.Spec) { v[2].Description += "." }),
		"schema":      variant(func(v []tool.Spec) { v[3].Parameters = json.RawMessage(`{"type":"object"}`) }),
		"order":       variant(func(v []tool.Spec) { v[0], v[1] = v[1], v[0] }),
		"shorter":     base[:3],
		// Name and description running into each other.
		"joints": variant(func(v []tool.Spec) {
			v[0].Name, v[0].Description = v[0].Name+v[0].Description[:4], v[0].Description[4:]
		}),
	}
	for pass := range 2 {
		for name, specs := range lists {
			got, err := c.encodeTools(specs)
			if err != nil {
				t.Fatal(err)
			}
			want, err := c.encodeToolsAnew(specs)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("pass %d, list %s:\nencoded %s\nwant %s", pass, name, got, want)
			}
		}
	}
	if n := c.tools.m.Len(); n != len(lists) {
		t.Errorf("%d lists remembered, want %d", n, len(lists))
	}
	bad := variant(func(v []tool.Spec) { v[0].Parameters = json.RawMessage(`{"type":`) })
	for range 2 {
		if _, err := c.encodeTools(bad); err == nil {
			t.Fatal("a list with an invalid schema was encoded")
		}
	}
	for i := range 3 * maxToolLists {
		if _, err := c.encodeTools(variant(func(v []tool.Spec) { v[0].Name = "t" + strconv.Itoa(i) })); err != nil {
			t.Fatal(err)
		}
		if n := c.tools.m.Len(); n > maxToolLists {
			t.Fatalf("after %d lists the memo holds %d, over %d", i+1, n, maxToolLists)
		}
	}
}

// TestEncodeMessagesRemembers: long texts without tool calls are
// remembered and a message is served only its own encoding: the same text
// under another role or tool call id is another message; the memo's bytes
// stay within their bound.
func TestEncodeMessagesRemembers(t *testing.T) {
	c := newEncoder()
	long := strings.Repeat("<context>Eira & Kaelith</context> ", 20)
	msgs := []Message{
		{Role: RoleSystem, Content: long},
		{Role: RoleUser, Content: long},
		{Role: RoleAssistant, Content: long},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "t", Arguments: `{"q":"` + long + `"}`}}},
		{Role: RoleTool, ToolCallID: "c1", Content: long},
		{Role: RoleTool, ToolCallID: "c2", Content: long},
		{Role: RoleUser, Content: "short"},
	}
	oms := make([]openai.ChatCompletionMessage, len(msgs))
	for i, m := range msgs {
		oms[i], _ = toMessage(m)
	}
	want, _ := json.Marshal(oms)
	for pass := range 2 {
		got, err := c.encodeMessages(msgs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("pass %d:\nencoded %s\nwant %s", pass, got, want)
		}
	}
	if n := c.encoded.m.Len(); n != 5 {
		t.Errorf("%d encodings remembered, want 5 (the long texts without tool calls)", n)
	}
	for i := range maxMemoBytes / (2 * len(long)) * 3 {
		m := Message{Role: RoleUser, Content: long + strconv.Itoa(i)}
		if _, err := c.encodeMessages([]Message{m}); err != nil {
			t.Fatal(err)
		}
		if c.encoded.m.Cost() > maxMemoBytes {
			t.Fatalf("after %d messages the memo holds %d bytes, over %d", i+1, c.encoded.m.Cost(), maxMemoBytes)
		}
	}
}

// The placeholders of the transport's tests, and the members go-openai
// writes for them.
const (
	testMarker = "MARK"
	phMessages = `"messages":[{"role":"user","content":"MARK"}]`
	phTools    = `"tools":[{"function":{"name":"MARK","parameters":null},"type":"function"}]`
)

func testPlaceholders(t testing.TB) *placeholders {
	ph, err := newPlaceholders(testMarker)
	if err != nil {
		t.Fatal(err)
	}
	if string(ph.messages) != phMessages || string(ph.tools) != phTools {
		t.Fatalf("placeholders %s and %s, want %s and %s", ph.messages, ph.tools, phMessages, phTools)
	}
	return ph
}

// wireBodies are bodies go-openai might send for a call with the messages
// [1] and the tools (when set) [2], and what the transport makes of them
// with the key "k" ("": refused).
var wireBodies = []struct {
	body  string
	tools bool
	want  string
}{
	{`{"model":"m",` + phMessages + `}`, false, `{"prompt_cache_key":"k","model":"m","messages":[1]}`},
	{`{"model":"m",` + phMessages + `,"stream":true,` + phTools + `,"stream_options":{"include_usage":true}}`, true,
		`{"prompt_cache_key":"k","model":"m","messages":[1],"stream":true,"tools":[2],"stream_options":{"include_usage":true}}`},
	{`{` + phTools + `,` + phMessages + `}`, true, `{"prompt_cache_key":"k","tools":[2],"messages":[1]}`},
	// A model that names the placeholder is not the placeholder.
	{`{"model":"\"messages\":[{\"role\":\"user\",\"content\":\"MARK\"}]",` + phMessages + `}`, false,
		`{"prompt_cache_key":"k","model":"\"messages\":[{\"role\":\"user\",\"content\":\"MARK\"}]","messages":[1]}`},
	{`{"model":"m","messages":null}`, false, ``},
	{`{"model":"m",` + phMessages + `,` + phMessages + `}`, false, ``},
	{`{"model":"m",` + phMessages + `}`, true, ``},
	{`{"model":"m",` + phMessages + `,` + phTools + `,` + phTools + `}`, true, ``},
	{`[` + phMessages + `]`, false, ``},
	{`{`, false, ``},
	{``, false, ``},
}

// TestWireTransportBodies: the transport sends the key first, the
// messages and tools in place of their placeholders and the rest of the
// body byte for byte, with a Content-Length and a GetBody that agree with
// what it sends, whether the body's length is known or not; without a
// key, only the messages and tools; a body without their placeholders
// once each is refused, not sent; a request without a wire in its
// context passes unchanged, and one with it is completed whatever its URL.
func TestWireTransportBodies(t *testing.T) {
	ph := testPlaceholders(t)
	for _, tc := range wireBodies {
		var tools []byte
		if tc.tools {
			tools = []byte(`[2]`)
		}
		for _, key := range []string{"k", ""} {
			for _, known := range []bool{true, false} {
				want := tc.want
				if key == "" && want != "" {
					want = "{" + strings.TrimPrefix(want, `{"prompt_cache_key":"k",`)
				}
				var got *http.Request
				var sent string
				tr := wireTransport{next: roundTripFunc(func(r *http.Request) (*http.Response, error) {
					got = r
					b, err := io.ReadAll(r.Body)
					if err != nil {
						t.Fatal(err)
					}
					sent = string(b)
					return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(""))}, nil
				})}
				ctx, err := withWire(context.Background(), ph, []byte(`[1]`), tools, key)
				if err != nil {
					t.Fatal(err)
				}
				req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://x/v1/chat/completions", strings.NewReader(tc.body))
				if err != nil {
					t.Fatal(err)
				}
				if !known {
					req.ContentLength, req.GetBody = -1, nil
				}
				_, err = tr.RoundTrip(req)
				if want == "" {
					if !errors.Is(err, errNoPlaceholder) || got != nil {
						t.Errorf("body %q: error %v, sent %v; want it refused, not sent", tc.body, err, got != nil)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if sent != want {
					t.Errorf("key %q, known length %v: sent %q, want %q", key, known, sent, want)
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
	// A call of this package's at a gateway's path is completed too; a
	// request without a wire in its context passes unchanged.
	ctx, _ := withWire(context.Background(), ph, []byte(`[1]`), nil, "")
	body := `{"model":"m",` + phMessages + `}`
	for _, r := range []struct {
		ctx        context.Context
		path, want string
	}{
		{ctx, "/gateway/openai/deployments/m/chat/completions?api-version=1", `{"model":"m","messages":[1]}`},
		{context.Background(), "/v1/chat/completions", body},
	} {
		var sent string
		tr := wireTransport{next: roundTripFunc(func(req *http.Request) (*http.Response, error) {
			b, _ := io.ReadAll(req.Body)
			sent = string(b)
			return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
		})}
		req, err := http.NewRequestWithContext(r.ctx, http.MethodPost, "http://x"+r.path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.RoundTrip(req); err != nil || sent != r.want {
			t.Errorf("%s: sent %q, %v; want %q", r.path, sent, err, r.want)
		}
	}
}

// TestWireOneWrite: through the client's own transport, a long
// session's request leaves in one write (headers and body together),
// with a cache key or without: completing the body costs the provider's
// connection no extra packets.
func TestWireOneWrite(t *testing.T) {
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
	msgs := `[` + strings.Repeat(`{"role":"user","content":"a long session's message"},`, 400) + `{"role":"user","content":"x"}]`
	for _, key := range []string{"", "session-1", ""} {
		ctx, err := withWire(context.Background(), testPlaceholders(t), []byte(msgs), nil, key)
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions", bytes.NewBufferString(`{"model":"m",`+phMessages+`}`))
		if err != nil {
			t.Fatal(err)
		}
		before := writes.Load()
		resp, err := wireTransport{next: tr}.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if n := writes.Load() - before; n != 1 {
			t.Errorf("key %q: a %d-byte request left in %d writes, want 1", key, len(msgs), n)
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

// longMessages are a long session's messages (15 KB) as a warm turn's
// second call sends them: a system prompt, a summary, a history of
// player messages behind data blocks (short, and long when a screen
// brought results) and answers, the turn's tool call and its result.
func longMessages() []Message {
	line := "- gcs_get_champion_details {\"champion_name\":\"Eira\"} → {\"stats\":{\"hp\":14520,\"atk\":1407}}\n"
	msgs := []Message{
		{Role: RoleSystem, Content: strings.Repeat("You are the in-game assistant. Look facts up with the tools. ", 95)},
		{Role: RoleUser, Content: "<summary>\n- The player asked about several champions.\n</summary>"},
	}
	for i := 0; len(msgs) < 12; i++ {
		block := "<context>\n## Cached tool results\n" + strings.Repeat(line, 1+i%2*14) + "</context>\n\n<player>and her skills?</player>"
		msgs = append(msgs, Message{Role: RoleUser, Content: block},
			Message{Role: RoleAssistant, Content: "Here is the answer, taken from the game data: Eira's skills are Blazing Smite, Savage Cascade, Crushing Vortex."})
	}
	return append(msgs,
		Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "gcs_get_champion_skills", Arguments: `{"champion_name":"Eira"}`}}},
		Message{Role: RoleTool, ToolCallID: "c1", Content: `{"data":{"skills":{"columns":["slot","name"],"rows":[[1,"Blazing Smite"]]}}}`})
}

// TestEncodeMessagesConcurrent: turns encoding at once, some of the same
// messages, each get their own messages' encodings (run with -race).
func TestEncodeMessagesConcurrent(t *testing.T) {
	c := newEncoder()
	long := strings.Repeat("a shared system prompt ", 20)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				msgs := []Message{{Role: RoleSystem, Content: long}, {Role: RoleUser, Content: fmt.Sprintf("%s turn %d of %d", long, i, g)}}
				oms := make([]openai.ChatCompletionMessage, len(msgs))
				for j, m := range msgs {
					oms[j], _ = toMessage(m)
				}
				want, _ := json.Marshal(oms)
				got, err := c.encodeMessages(msgs)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("goroutine %d, turn %d: %s, %v; want %s", g, i, got, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkEncodeMessages encodes a long session's messages as a request
// does, anew (wire) and as a turn's second call or the next turn find
// them (remembered), and as go-openai does (its messages' MarshalJSON,
// checked and compacted again by encoding/json).
func BenchmarkEncodeMessages(b *testing.B) {
	msgs := longMessages()
	b.Run("wire", func(b *testing.B) {
		benchEncode(b, func() ([]byte, error) { return newEncoder().encodeMessages(msgs) })
	})
	b.Run("remembered", func(b *testing.B) {
		c := newEncoder()
		benchEncode(b, func() ([]byte, error) { return c.encodeMessages(msgs) })
	})
	b.Run("go-openai", func(b *testing.B) {
		oms := make([]openai.ChatCompletionMessage, len(msgs))
		for i, m := range msgs {
			oms[i], _ = toMessage(m)
		}
		benchEncode(b, func() ([]byte, error) { return json.Marshal(oms) })
	})
}

// benchEncode measures encode, with its output's size as the bytes of an
// operation.
func benchEncode(b *testing.B, encode func() ([]byte, error)) {
	out, err := encode()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encode(); err != nil {
			b.Fatal(err)
		}
	}
}

// sessionTools are a session's tool list (1.7 KB): four tools with
// descriptions and schemas.
func sessionTools() []tool.Spec {
	schema := json.RawMessage(`{"properties":{"champion_name":{"description":"Champion name, case-insensitive, e.g. Kaelith.","type":"string"}},"required":["champion_name"],"type":"object"}`)
	var specs []tool.Spec
	for _, name := range []string{"find_tools", "gcs_get_champion_details", "search_conversation", "use_tool"} {
		specs = append(specs, tool.Spec{Name: name, Description: "Exact data of one champion by name: faction, rarity, affinity, role, base stats, skills with effects, bosses it is strong against.", Parameters: schema})
	}
	return specs
}

// BenchmarkEncodeTools encodes a session's tool list as a request does
// (wire) and as go-openai does (its tools' MarshalJSON, checked and
// compacted again by encoding/json).
func BenchmarkEncodeTools(b *testing.B) {
	specs := sessionTools()
	b.Run("wire", func(b *testing.B) {
		c := newEncoder()
		benchEncode(b, func() ([]byte, error) { return c.encodeToolsAnew(specs) })
	})
	b.Run("remembered", func(b *testing.B) {
		c := newEncoder()
		benchEncode(b, func() ([]byte, error) { return c.encodeTools(specs) })
	})
	b.Run("go-openai", func(b *testing.B) {
		var ts []openai.Tool
		for _, sp := range specs {
			ts = append(ts, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: sp.Name, Description: sp.Description, Parameters: sp.Parameters}})
		}
		benchEncode(b, func() ([]byte, error) { return json.Marshal(ts) })
	})
}

// BenchmarkWireTransport completes the body of a long session's request
// (14 KB of messages, the key) and drains what it would send.
func BenchmarkWireTransport(b *testing.B) {
	msgs, err := newEncoder().encodeMessages(longMessages())
	if err != nil {
		b.Fatal(err)
	}
	tools, err := newEncoder().encodeTools([]tool.Spec{{Name: "find_tools", Description: "Find tools for a need.", Parameters: json.RawMessage(`{"type":"object","properties":{"need":{"type":"string"}}}`)}})
	if err != nil {
		b.Fatal(err)
	}
	body := `{"model":"gpt-4o-mini",` + phMessages + `,` + phTools + `}`
	tr := wireTransport{next: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return nil, err
		}
		return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
	})}
	ctx, err := withWire(context.Background(), testPlaceholders(b), msgs, tools, "session-0123456789")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body) + len(msgs)))
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
