package llm

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	openai "github.com/sashabaranov/go-openai"
)

// Complete asks for one chat completion, retrying transient failures, and
// returns the text and tool calls (in the model's order) with the usage.
func (c *Client) Complete(ctx context.Context, req Request) (Response, error) {
	oreq, msgs, tools, err := c.chatRequest(req)
	if err != nil {
		return Response{}, invalidRequest(opChat, err)
	}
	if ctx, err = withWire(ctx, c.ph, msgs, tools, c.cacheKeyOf(req)); err != nil {
		return Response{}, invalidRequest(opChat, err)
	}
	var out Response
	n, err := c.retry(ctx, opChat, func(actx context.Context) (bool, error) {
		resp, err := c.api.CreateChatCompletion(actx, oreq)
		if err != nil {
			return false, err
		}
		r, err := fromCompletion(resp)
		if err != nil {
			return false, err
		}
		out = r
		return false, nil
	})
	if err != nil {
		return Response{}, err
	}
	out.Attempts = n
	return out, nil
}

func invalidRequest(op string, err error) *Error {
	return &Error{Op: op, Code: CodeInvalidRequest, Message: err.Error(), err: err}
}

// chatRequest converts our request to go-openai's, with the client's
// placeholders for its messages and tools, and encodes those (see
// wireMessage), refusing what the API would reject anyway.
func (c *Client) chatRequest(req Request) (oreq openai.ChatCompletionRequest, msgs, tools []byte, err error) {
	if msgs, err = c.encodeMessages(req.Messages); err != nil {
		return oreq, nil, nil, err
	}
	if tools, err = c.encodeTools(req.Tools); err != nil {
		return oreq, nil, nil, err
	}
	oreq = openai.ChatCompletionRequest{Model: c.model, Messages: []openai.ChatCompletionMessage{c.ph.message}}
	if tools != nil {
		oreq.Tools = []openai.Tool{c.ph.tool}
	}
	return oreq, msgs, tools, nil
}

func toMessage(m Message) (openai.ChatCompletionMessage, error) {
	om := openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	switch m.Role {
	case RoleSystem, RoleUser:
		if len(m.ToolCalls) > 0 || m.ToolCallID != "" {
			return om, fmt.Errorf("%s message with tool fields", m.Role)
		}
	case RoleAssistant:
		for j, tc := range m.ToolCalls {
			if tc.ID == "" || tc.Name == "" {
				return om, fmt.Errorf("tool call %d needs an id and a name", j)
			}
			om.ToolCalls = append(om.ToolCalls, openai.ToolCall{
				ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: normalizeArgs(tc.Arguments)},
			})
		}
	case RoleTool:
		if m.ToolCallID == "" {
			return om, errors.New("tool message without tool_call_id")
		}
		om.ToolCallID = m.ToolCallID
	default:
		return om, fmt.Errorf("unknown role %q", m.Role)
	}
	return om, nil
}

func fromCompletion(resp openai.ChatCompletionResponse) (Response, error) {
	if len(resp.Choices) == 0 {
		return Response{}, &Error{Code: CodeInvalidResponse, Message: "answer has no choices"}
	}
	ch := resp.Choices[0]
	out := Response{
		Content:      ch.Message.Content,
		FinishReason: string(ch.FinishReason),
		Usage:        Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens},
	}
	if out.Content == "" {
		out.Content = ch.Message.Refusal
	}
	for i, tc := range ch.Message.ToolCalls {
		if tc.Function.Name == "" {
			return Response{}, &Error{Code: CodeInvalidResponse, Message: fmt.Sprintf("tool call %d has no name", i)}
		}
		out.ToolCalls = append(out.ToolCalls, ToolCall{
			ID: orCallID(tc.ID, i), Name: tc.Function.Name, Arguments: normalizeArgs(tc.Function.Arguments),
		})
	}
	return out, nil
}

// orCallID invents an id for servers that send tool calls without one, so
// tool messages can still answer them.
func orCallID(id string, i int) string {
	if id != "" {
		return id
	}
	return "call_" + strconv.Itoa(i)
}

// normalizeArgs turns the empty arguments some servers send for
// parameterless calls into an empty JSON object.
func normalizeArgs(a string) string {
	if a == "" {
		return "{}"
	}
	return a
}
