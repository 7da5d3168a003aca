package llm

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm/llmtest"
)

const fixtureText = "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or a weather app."

// collector gathers the text deltas a stream forwards.
type collector struct {
	mu     sync.Mutex
	pieces []string
}

func (c *collector) add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pieces = append(c.pieces, s)
}

func (c *collector) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.pieces, "")
}

func TestStream(t *testing.T) {
	fixtureCalls := []ToolCall{
		{ID: "call_JMW1whyEaYG438VE1OIflxA2", Name: "GetWeatherArgs", Arguments: `{"city": "Edinburgh", "country": "GB", "units": "c"}`},
		{ID: "call_DNYTawLBoN8fj3KN6qU9N1Ou", Name: "get_stock_price", Arguments: `{"ticker": "AAPL", "exchange": "NASDAQ"}`},
	}
	genCalls := []llmtest.Call{
		{ID: "call_a", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Aria the Ünbroken"}`},
		{ID: "call_b", Name: "rag_get_boss_details", Arguments: `{"boss_name":"Grom","fields":["weakness","lore"]}`},
	}
	tests := []struct {
		name       string
		reply      llmtest.Reply
		want       Response
		wantPieces int // minimum number of text deltas
	}{
		{
			name:  "text fixture",
			reply: llmtest.Fixture("stream_text.sse"),
			want:  Response{Content: fixtureText, FinishReason: "stop", Usage: Usage{14, 30}, Attempts: 1}, wantPieces: 10,
		},
		{
			name:  "tool calls fixture",
			reply: llmtest.Fixture("stream_tool_calls.sse"),
			want:  Response{ToolCalls: fixtureCalls, FinishReason: "tool_calls", Usage: Usage{149, 60}, Attempts: 1},
		},
		{
			name:  "generated text",
			reply: llmtest.Text("Grom is weak to fire and slow to turn.").WithUsage(7, 9),
			want:  Response{Content: "Grom is weak to fire and slow to turn.", FinishReason: "stop", Usage: Usage{7, 9}, Attempts: 1}, wantPieces: 5,
		},
		{
			name:  "text before tool calls",
			reply: llmtest.ToolCalls(genCalls...).WithText("Let me look that up.").WithUsage(3, 4),
			want: Response{
				Content: "Let me look that up.",
				ToolCalls: []ToolCall{
					{ID: "call_a", Name: genCalls[0].Name, Arguments: genCalls[0].Arguments},
					{ID: "call_b", Name: genCalls[1].Name, Arguments: genCalls[1].Arguments},
				},
				FinishReason: "tool_calls", Usage: Usage{3, 4}, Attempts: 1,
			},
			wantPieces: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(tt.reply)
			c, _ := newTestClient(t, s, nil)
			var col collector
			got, err := c.Stream(context.Background(), ask("weather?"), col.add)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if col.text() != tt.want.Content || len(col.pieces) < tt.wantPieces {
				t.Errorf("forwarded %d pieces %q", len(col.pieces), col.text())
			}
			reqs := s.Requests()
			if len(reqs) != 1 || !reqs[0].Stream || reqs[0].StreamOptions == nil || !reqs[0].StreamOptions.IncludeUsage {
				t.Errorf("request did not ask for a stream with usage: %+v", reqs)
			}
		})
	}
}

func TestStreamCut(t *testing.T) {
	tests := []struct {
		name          string
		replies       []llmtest.Reply
		wantErr       bool
		wantRetryable bool
		wantAttempts  int
	}{
		{
			name:    "cut after text is final",
			replies: []llmtest.Reply{llmtest.Text("half an answer").Cut(), llmtest.Text("never asked")},
			wantErr: true, wantAttempts: 1,
		},
		{
			name:         "cut tool calls are retried",
			replies:      []llmtest.Reply{llmtest.Fixture("stream_tool_calls.sse").Cut(), llmtest.Text("fine")},
			wantAttempts: 2,
		},
		{
			name:    "cut every time",
			replies: []llmtest.Reply{llmtest.ToolCalls(llmtest.Call{Name: "f"}).Cut(), llmtest.ToolCalls(llmtest.Call{Name: "f"}).Cut(), llmtest.ToolCalls(llmtest.Call{Name: "f"}).Cut()},
			wantErr: true, wantRetryable: true, wantAttempts: 3,
		},
		{
			name:         "500 before the stream opens",
			replies:      []llmtest.Reply{llmtest.Fixture("err_500.json"), llmtest.Text("fine")},
			wantAttempts: 2,
		},
		{
			name:         "error event mid-stream",
			replies:      []llmtest.Reply{llmtest.SSE([]byte("data: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\",\"code\":null}}\n\n")), llmtest.Text("fine")},
			wantAttempts: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.Enqueue(tt.replies...)
			c, _ := newTestClient(t, s, nil)
			var col collector
			resp, err := c.Stream(context.Background(), ask("hi"), col.add)
			if s.RequestCount() != tt.wantAttempts {
				t.Errorf("server saw %d requests, want %d", s.RequestCount(), tt.wantAttempts)
			}
			if !tt.wantErr {
				if err != nil {
					t.Fatal(err)
				}
				if resp.Content != "fine" || resp.Attempts != tt.wantAttempts || col.text() != "fine" {
					t.Errorf("resp = %+v, forwarded %q", resp, col.text())
				}
				return
			}
			e := asLLMError(t, err)
			if e.Code != CodeIncompleteStream || e.Retryable != tt.wantRetryable || e.Attempts != tt.wantAttempts || e.Op != opStream {
				t.Errorf("err = %+v", e)
			}
		})
	}
}

func TestToolAccumulatorWithoutIndex(t *testing.T) {
	var a toolAccumulator
	for _, d := range []openai.ToolCall{
		{ID: "x", Function: openai.FunctionCall{Name: "first", Arguments: `{"a"`}},
		{Function: openai.FunctionCall{Arguments: `:1}`}},
		{ID: "y", Function: openai.FunctionCall{Name: "second"}},
	} {
		a.add(d)
	}
	got, err := a.calls()
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{{ID: "x", Name: "first", Arguments: `{"a":1}`}, {ID: "y", Name: "second", Arguments: "{}"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}

	var nameless toolAccumulator
	i := 0
	nameless.add(openai.ToolCall{Index: &i, Function: openai.FunctionCall{Arguments: "{}"}})
	if _, err := nameless.calls(); err == nil {
		t.Error("a call without a name was accepted")
	}
}

// FuzzToolAccumulator splits two calls' arguments at arbitrary points and
// interleaves their deltas arbitrarily (each call's own deltas stay in
// order); the assembled calls must always equal the originals.
func FuzzToolAccumulator(f *testing.F) {
	f.Add(`{"city": "Edinburgh", "country": "GB", "units": "c"}`, `{"ticker": "AAPL", "exchange": "NASDAQ"}`, []byte{3, 7, 1, 200, 5})
	f.Add("", `{}`, []byte{})
	f.Add(`{"name":"Ünbroken"}`, `{"x":[1,2,3]}`, []byte{1, 1, 1, 1, 1, 1, 1, 1, 255})
	f.Fuzz(func(t *testing.T, args0, args1 string, cuts []byte) {
		want := []ToolCall{
			{ID: "call_0", Name: "first", Arguments: normalizeArgs(args0)},
			{ID: "call_1", Name: "second", Arguments: normalizeArgs(args1)},
		}
		pieces := [2][]string{split(args0, cuts), split(args1, reverse(cuts))}
		var seqs [2][]openai.ToolCall
		for w := range 2 {
			idx := w
			seqs[w] = append(seqs[w], openai.ToolCall{
				Index: &idx, ID: want[w].ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: want[w].Name},
			})
			for _, p := range pieces[w] {
				seqs[w] = append(seqs[w], openai.ToolCall{Index: &idx, Function: openai.FunctionCall{Arguments: p}})
			}
		}
		var a toolAccumulator
		pos := [2]int{}
		for k := 0; pos[0] < len(seqs[0]) || pos[1] < len(seqs[1]); k++ {
			w := 0
			if len(cuts) > 0 {
				w = int(cuts[k%len(cuts)]>>3) % 2
			}
			if pos[w] >= len(seqs[w]) {
				w = 1 - w
			}
			a.add(seqs[w][pos[w]])
			pos[w]++
		}
		got, err := a.calls()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %+v, want %+v", got, want)
		}
	})
}

// split cuts s at positions derived from cuts (possibly inside UTF-8
// sequences: the accumulator joins bytes, not runes).
func split(s string, cuts []byte) []string {
	var out []string
	for i := 0; s != ""; i++ {
		n := len(s)
		if len(cuts) > 0 {
			n = min(len(s), 1+int(cuts[i%len(cuts)])%8)
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

func reverse(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[len(b)-1-i] = c
	}
	return out
}

// sseBody answers every request with body as a 200 event stream, without a
// network, so the fuzzer spends its time in the stream parsing.
type sseBody []byte

func (b sseBody) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": {"text/event-stream"}},
		Body:    io.NopCloser(bytes.NewReader(b)),
		Request: r,
	}, nil
}

// FuzzStreamBody feeds arbitrary bytes to Stream as an SSE body: it must
// never panic, and a success must carry a finish reason.
func FuzzStreamBody(f *testing.F) {
	for _, name := range []string{"stream_text.sse", "stream_tool_calls.sse"} {
		b, err := os.ReadFile("llmtest/testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte("data: [DONE]\n\n"))
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n"))
	f.Add([]byte("data: {not json\n\n"))
	f.Add([]byte(": keep-alive\n\nevent: ping\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := New(Options{Model: "m", MaxAttempts: 1, HTTPClient: &http.Client{Transport: sseBody(body)}})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Stream(context.Background(), ask("hi"), func(string) {})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err %v is not an *Error", err)
			}
			return
		}
		if resp.FinishReason == "" {
			t.Fatalf("success without finish reason: %+v", resp)
		}
		for _, tc := range resp.ToolCalls {
			if tc.Name == "" || tc.ID == "" {
				t.Fatalf("incomplete tool call %+v", tc)
			}
		}
	})
}
