package chat

import (
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm"
)

// promptTokens counts a request's messages as the service budgets them.
func promptTokens(t testing.TB, s *Service, r openai.ChatCompletionRequest) int {
	t.Helper()
	n := 0
	for _, m := range r.Messages {
		lm := llm.Message{Role: m.Role, Content: m.Content}
		for _, c := range m.ToolCalls {
			lm.ToolCalls = append(lm.ToolCalls, llm.ToolCall{Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
		n += s.messageTokens(lm)
	}
	return n
}

// sameMessages reports whether a and b hold the same roles and contents.
func sameMessages(a, b []openai.ChatCompletionMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Role != b[i].Role || a[i].Content != b[i].Content {
			return false
		}
	}
	return true
}
