package llmtest

import (
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

func tools(names ...string) []openai.Tool {
	out := make([]openai.Tool, len(names))
	for i, n := range names {
		out[i] = openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: n}}
	}
	return out
}

func TestScriptToolCallingTurn(t *testing.T) {
	script := Script{Rules: []Rule{
		{Match: `double-check (\w+)`, Rounds: [][]Call{
			{{Name: "details", Arguments: `{"name":"$1"}`}},
			{{Name: "details", Arguments: `{"name":"$1"}`}, {Name: "not_offered"}},
		}},
		{Match: `counters this boss`, Context: `fighting (.+?) \(phase`, Rounds: [][]Call{{{Name: "counters", Arguments: `{"boss":"$c1"}`}}}},
	}}
	respond, err := script.Responder()
	if err != nil {
		t.Fatal(err)
	}
	req := openai.ChatCompletionRequest{
		Tools: tools("details", "counters"),
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: "You help players. Ignore nothing."},
			{Role: openai.ChatMessageRoleUser, Content: "Screen: main menu\n\nplease double-check Kaelith"},
		},
	}
	r := respond(req)
	if r.kind != kindToolCalls || len(r.calls) != 1 || r.calls[0].Arguments != `{"name":"Kaelith"}` || r.calls[0].ID != "call_s0_0" {
		t.Fatalf("round 1 = %+v", r)
	}
	req.Messages = append(req.Messages,
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{{ID: "call_s0_0", Type: "function", Function: openai.FunctionCall{Name: "details"}}}},
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: "call_s0_0", Content: `{"status":"success","message":"1 champion","data":{"role":"Attack","name":"Kaelith","skills":[{"name":"Dawnblade Cut"}]}}`},
	)
	r = respond(req)
	if r.kind != kindToolCalls || len(r.calls) != 1 || r.calls[0].Name != "details" {
		t.Fatalf("round 2 (not offered tool dropped) = %+v", r)
	}
	req.Messages = append(req.Messages,
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{{ID: "call_s1_0", Type: "function", Function: openai.FunctionCall{Name: "details"}}}},
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: "call_s1_0", Content: `{"status":"success","message":"duplicate"}`},
	)
	r = respond(req)
	if r.kind != kindText || r.text != "Here is what I found.\n- 1 champion; Kaelith; Attack; Dawnblade Cut\n- duplicate" {
		t.Fatalf("answer = %q", r.text)
	}
	if strings.Contains(r.text, "Ignore nothing") {
		t.Error("the answer repeats the system prompt")
	}
}

func TestScriptContextAndFallback(t *testing.T) {
	respond, err := Script{Rules: []Rule{
		{Match: `counters this boss`, Context: `fighting (.+?) \(phase`, Rounds: [][]Call{{{Name: "counters", Arguments: `{"boss":"$c1"}`}}}},
	}}.Responder()
	if err != nil {
		t.Fatal(err)
	}
	msgs := func(system, user string) []openai.ChatCompletionMessage {
		return []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: system}, {Role: openai.ChatMessageRoleUser, Content: user}}
	}
	r := respond(openai.ChatCompletionRequest{Tools: tools("counters"), Messages: msgs(`Screen: fighting Fire "Knight" (phase 2). Answer in French.`, "who counters this boss?")})
	if r.kind != kindToolCalls || r.calls[0].Arguments != `{"boss":"Fire \"Knight\""}` {
		t.Fatalf("context call = %+v", r)
	}
	r = respond(openai.ChatCompletionRequest{Tools: tools("counters"), Messages: msgs("no screen", "who counters this boss?")})
	if r.kind != kindText || r.text != DefaultFallback {
		t.Fatalf("no context: %+v", r)
	}
	r = respond(openai.ChatCompletionRequest{Messages: msgs("The player's locale is fr: answer in French. fighting X (phase 1)", "who counters this boss?")})
	if r.kind != kindText || !strings.HasPrefix(r.text, "Voici") {
		t.Fatalf("final round without tools: %+v", r)
	}
	if _, err := (Script{Rules: []Rule{{Match: "("}}}).Responder(); err == nil {
		t.Error("a bad rule compiled")
	}
}

// A tool the request describes in a data block, rather than offers, is
// called through use_tool, and only when use_tool is offered.
func TestScriptCallsDescribedToolThroughUseTool(t *testing.T) {
	respond, err := Script{Rules: []Rule{{Match: `gear for (\w+)`, Rounds: [][]Call{{{Name: "gear", Arguments: `{"name":"$1"}`}}}}}}.Responder()
	if err != nil {
		t.Fatal(err)
	}
	block := "<context>\n" + DescribedHeader + "- gear: Gear advice.\n  arguments: {}\n</context>\n\ngear for Kaelith"
	req := openai.ChatCompletionRequest{
		Tools:    tools("find_tools", UseTool),
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: block}},
	}
	r := respond(req)
	if r.kind != kindToolCalls || len(r.calls) != 1 || r.calls[0].Name != UseTool || r.calls[0].Arguments != `{"name":"gear","arguments":{"name":"Kaelith"}}` {
		t.Fatalf("described tool: %+v", r)
	}
	req.Tools = tools("find_tools")
	if r := respond(req); r.kind != kindText {
		t.Fatalf("without use_tool offered: %+v", r)
	}
}

// The player's words are read between a turn's player delimiters,
// not from the text around them.
func TestScriptReadsDelimitedPlayerMessage(t *testing.T) {
	respond, err := Script{Rules: []Rule{{Match: `^gear for (\w+)$`, Rounds: [][]Call{{{Name: "gear", Arguments: `{"name":"$1"}`}}}}}}.Responder()
	if err != nil {
		t.Fatal(err)
	}
	content := "<context>\nsome data\n</context>\n\n<player>\ngear for Kaelith\n</player>"
	r := respond(openai.ChatCompletionRequest{
		Tools:    tools("gear"),
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: content}},
	})
	if r.kind != kindToolCalls || len(r.calls) != 1 || r.calls[0].Arguments != `{"name":"Kaelith"}` {
		t.Fatalf("delimited message: %+v", r)
	}
}
