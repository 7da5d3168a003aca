package llmtest

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// created is the fixed "created" timestamp of every generated answer, so
// bodies are deterministic.
const created = 1727346166

// argPieceBytes is the largest piece of tool-call arguments in one stream
// delta; real streams carry a few characters per chunk.
const argPieceBytes = 6

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type wireFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type wireToolCall struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function wireFunction `json:"function"`
}

type wireMessage struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	ToolCalls []wireToolCall `json:"tool_calls,omitempty"`
	Refusal   *string        `json:"refusal"`
}

type wireChoice struct {
	Index        int         `json:"index"`
	Message      wireMessage `json:"message"`
	Logprobs     *struct{}   `json:"logprobs"`
	FinishReason string      `json:"finish_reason"`
}

type wireCompletion struct {
	ID                string       `json:"id"`
	Object            string       `json:"object"`
	Created           int64        `json:"created"`
	Model             string       `json:"model"`
	Choices           []wireChoice `json:"choices"`
	Usage             usage        `json:"usage"`
	SystemFingerprint string       `json:"system_fingerprint"`
}

type wireDelta struct {
	Role      string         `json:"role,omitempty"`
	Content   *string        `json:"content,omitempty"`
	ToolCalls []wireToolCall `json:"tool_calls,omitempty"`
}

type wireChunkChoice struct {
	Index        int       `json:"index"`
	Delta        wireDelta `json:"delta"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

type wireChunk struct {
	ID                string            `json:"id"`
	Object            string            `json:"object"`
	Created           int64             `json:"created"`
	Model             string            `json:"model"`
	SystemFingerprint string            `json:"system_fingerprint"`
	Choices           []wireChunkChoice `json:"choices"`
	Usage             *usage            `json:"usage,omitempty"`
}

type wireEmbedding struct {
	Object    string    `json:"object"`
	Embedding []float32 `json:"embedding"`
	Index     int       `json:"index"`
}

type wireEmbeddings struct {
	Object string          `json:"object"`
	Data   []wireEmbedding `json:"data"`
	Model  string          `json:"model"`
	Usage  struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

type wireError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

// errorBody renders OpenAI's error envelope; an empty code is a JSON null.
func errorBody(msg, typ, code string) []byte {
	var e wireError
	e.Error.Message, e.Error.Type = msg, typ
	if code != "" {
		e.Error.Code = &code
	}
	b, err := json.Marshal(e)
	if err != nil { // cannot happen: plain strings
		return []byte(`{"error":{"message":"llmtest: encode error","type":"server_error","param":null,"code":null}}`)
	}
	return b
}

// Tokens is the fake's deterministic token estimate: a quarter of the bytes,
// at least 1 for non-empty text.
func Tokens(s string) int {
	if s == "" {
		return 0
	}
	return max(1, len(s)/4)
}

// PromptTokens is the prompt_tokens the fake reports for a request: Tokens of
// all message contents, text parts and tool-call arguments together.
func PromptTokens(req openai.ChatCompletionRequest) int {
	var b strings.Builder
	for _, m := range req.Messages {
		b.WriteString(m.Content)
		for _, p := range m.MultiContent {
			b.WriteString(p.Text)
		}
		for _, tc := range m.ToolCalls {
			b.WriteString(tc.Function.Arguments)
		}
	}
	return Tokens(b.String())
}

// CompletionTokens is the completion_tokens the fake reports for an answer of
// text and tool calls.
func CompletionTokens(text string, calls []Call) int {
	var b strings.Builder
	b.WriteString(text)
	for _, c := range calls {
		b.WriteString(c.Name)
		b.WriteString(c.Arguments)
	}
	return Tokens(b.String())
}

func (r Reply) usageFor(req openai.ChatCompletionRequest) usage {
	if r.usage != nil {
		return *r.usage
	}
	p, c := PromptTokens(req), CompletionTokens(r.text, r.calls)
	return usage{PromptTokens: p, CompletionTokens: c, TotalTokens: p + c}
}

func (r Reply) finishReason() string {
	switch {
	case r.finish != "":
		return r.finish
	case r.kind == kindToolCalls:
		return "tool_calls"
	default:
		return "stop"
	}
}

func callID(c Call, i int) string {
	if c.ID != "" {
		return c.ID
	}
	return "call_llmtest_" + strconv.Itoa(i)
}

// completionBody renders a non-streamed chat.completion for a Text or ToolCalls reply.
func (r Reply) completionBody(id string, req openai.ChatCompletionRequest) []byte {
	msg := wireMessage{Role: "assistant"}
	if r.text != "" || r.kind == kindText {
		text := r.text
		msg.Content = &text
	}
	for i, c := range r.calls {
		msg.ToolCalls = append(msg.ToolCalls, wireToolCall{
			ID: callID(c, i), Type: "function",
			Function: wireFunction{Name: c.Name, Arguments: c.Arguments},
		})
	}
	body, err := json.Marshal(wireCompletion{
		ID: id, Object: "chat.completion", Created: created, Model: req.Model,
		Choices:           []wireChoice{{Message: msg, FinishReason: r.finishReason()}},
		Usage:             r.usageFor(req),
		SystemFingerprint: "fp_llmtest",
	})
	if err != nil { // cannot happen: plain values
		return errorBody("llmtest: encode completion", "server_error", "")
	}
	return body
}

// streamEvents renders the SSE events ("data: ...\n\n") of a streamed Text or
// ToolCalls reply, in the order OpenAI sends them.
func (r Reply) streamEvents(id string, req openai.ChatCompletionRequest) [][]byte {
	var events [][]byte
	add := func(c wireChunk) {
		c.ID, c.Object, c.Created, c.Model, c.SystemFingerprint = id, "chat.completion.chunk", created, req.Model, "fp_llmtest"
		if c.Choices == nil {
			c.Choices = []wireChunkChoice{}
		}
		b, err := json.Marshal(c)
		if err != nil { // cannot happen: plain values
			return
		}
		events = append(events, append(append([]byte("data: "), b...), '\n', '\n'))
	}
	delta := func(d wireDelta) {
		add(wireChunk{Choices: []wireChunkChoice{{Delta: d}}})
	}

	first := wireDelta{Role: "assistant"}
	if r.kind == kindText {
		empty := ""
		first.Content = &empty
	}
	delta(first)
	for _, piece := range splitWords(r.text) {
		delta(wireDelta{Content: &piece})
	}
	for i, c := range r.calls {
		delta(wireDelta{ToolCalls: []wireToolCall{{
			Index: &i, ID: callID(c, i), Type: "function",
			Function: wireFunction{Name: c.Name, Arguments: ""},
		}}})
		for _, piece := range splitRunes(c.Arguments, argPieceBytes) {
			delta(wireDelta{ToolCalls: []wireToolCall{{
				Index: &i, Function: wireFunction{Arguments: piece},
			}}})
		}
	}
	if r.cut {
		return events
	}
	finish := r.finishReason()
	add(wireChunk{Choices: []wireChunkChoice{{FinishReason: &finish}}})
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		u := r.usageFor(req)
		add(wireChunk{Usage: &u})
	}
	return append(events, []byte("data: [DONE]\n\n"))
}

// splitWords cuts text before each space, the way token deltas arrive:
// "a b" gives "a", " b".
func splitWords(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s[1:], ' ')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// splitRunes cuts s into pieces of at most n bytes without splitting a UTF-8
// sequence (a split sequence would not survive JSON encoding).
func splitRunes(s string, n int) []string {
	var out []string
	for s != "" {
		end := min(n, len(s))
		for end < len(s) && end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		if end == 0 {
			_, end = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}
