package llm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// Stream asks for a streamed chat completion: text deltas go to onText (may
// be nil) as they arrive, tool-call deltas are assembled by index, and the
// whole answer with its usage is returned. A failed attempt is retried only
// while no text has reached onText; a stream that ends without a
// finish_reason is a failure.
func (c *Client) Stream(ctx context.Context, req Request, onText StreamHandler) (Response, error) {
	oreq, msgs, tools, err := c.chatRequest(req)
	if err != nil {
		return Response{}, invalidRequest(opStream, err)
	}
	if ctx, err = withWire(ctx, c.ph, msgs, tools, c.cacheKeyOf(req)); err != nil {
		return Response{}, invalidRequest(opStream, err)
	}
	oreq.Stream = true
	oreq.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	var out Response
	n, err := c.retry(ctx, opStream, func(actx context.Context) (bool, error) {
		r, sent, err := streamOnce(actx, c.api, oreq, onText)
		out = r
		return sent, err
	})
	if err != nil {
		return Response{}, err
	}
	out.Attempts = n
	return out, nil
}

func streamOnce(ctx context.Context, api *openai.Client, req openai.ChatCompletionRequest, onText StreamHandler) (Response, bool, error) {
	stream, err := api.CreateChatCompletionStream(ctx, req)
	if err != nil {
		return Response{}, false, err
	}
	defer stream.Close()
	var acc streamAccumulator
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Response{}, acc.sent, err
		}
		acc.add(chunk, onText)
	}
	r, err := acc.response()
	return r, acc.sent, err
}

// streamAccumulator assembles a streamed answer chunk by chunk.
type streamAccumulator struct {
	content strings.Builder
	tools   toolAccumulator
	finish  string
	usage   Usage
	sent    bool
}

func (a *streamAccumulator) add(chunk openai.ChatCompletionStreamResponse, onText StreamHandler) {
	if chunk.Usage != nil {
		a.usage = Usage{PromptTokens: chunk.Usage.PromptTokens, CompletionTokens: chunk.Usage.CompletionTokens}
	}
	for _, ch := range chunk.Choices {
		if ch.Index != 0 { // only one choice is ever asked for
			continue
		}
		for _, text := range [...]string{ch.Delta.Content, ch.Delta.Refusal} {
			if text == "" {
				continue
			}
			a.content.WriteString(text)
			a.sent = true
			if onText != nil {
				onText(text)
			}
		}
		for _, tc := range ch.Delta.ToolCalls {
			a.tools.add(tc)
		}
		if ch.FinishReason != "" {
			a.finish = string(ch.FinishReason)
		}
	}
}

func (a *streamAccumulator) response() (Response, error) {
	if a.finish == "" {
		return Response{}, &Error{Code: CodeIncompleteStream, Message: "stream ended before its finish_reason", Retryable: true}
	}
	calls, err := a.tools.calls()
	if err != nil {
		return Response{}, &Error{Code: CodeInvalidResponse, Message: err.Error(), Retryable: true}
	}
	return Response{Content: a.content.String(), ToolCalls: calls, FinishReason: a.finish, Usage: a.usage}, nil
}

// toolAccumulator joins streamed tool-call deltas: the id and name come in
// the first delta of each index, the arguments in pieces.
type toolAccumulator struct {
	parts []toolPart
}

type toolPart struct {
	index int
	id    string
	name  string
	args  []byte
}

func (a *toolAccumulator) add(d openai.ToolCall) {
	p := a.part(d)
	if p.id == "" {
		p.id = d.ID
	}
	if p.name == "" {
		p.name = d.Function.Name
	}
	p.args = append(p.args, d.Function.Arguments...)
}

// part finds the call a delta belongs to. Deltas without an index (some
// compatible servers omit it) start a new call when they bring a new id and
// continue the last call otherwise.
func (a *toolAccumulator) part(d openai.ToolCall) *toolPart {
	if d.Index != nil {
		for i := range a.parts {
			if a.parts[i].index == *d.Index {
				return &a.parts[i]
			}
		}
		a.parts = append(a.parts, toolPart{index: *d.Index})
		return &a.parts[len(a.parts)-1]
	}
	if n := len(a.parts); n > 0 && (d.ID == "" || d.ID == a.parts[n-1].id) {
		return &a.parts[n-1]
	}
	next := 0
	for _, p := range a.parts {
		next = max(next, p.index+1)
	}
	a.parts = append(a.parts, toolPart{index: next})
	return &a.parts[len(a.parts)-1]
}

// calls returns the assembled calls in index order.
func (a *toolAccumulator) calls() ([]ToolCall, error) {
	if len(a.parts) == 0 {
		return nil, nil
	}
	parts := make([]*toolPart, len(a.parts))
	for i := range a.parts {
		parts[i] = &a.parts[i]
	}
	slices.SortStableFunc(parts, func(x, y *toolPart) int { return cmp.Compare(x.index, y.index) })
	out := make([]ToolCall, 0, len(parts))
	for i, p := range parts {
		if p.name == "" {
			return nil, fmt.Errorf("streamed tool call %d has no name", p.index)
		}
		out = append(out, ToolCall{ID: orCallID(p.id, i), Name: p.name, Arguments: normalizeArgs(string(p.args))})
	}
	return out, nil
}
