package llm

import (
	"context"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm/llmtest"
)

// BenchmarkComplete measures one Complete against the local fake, the
// wrapper's conversions and retry bookkeeping included.
func BenchmarkComplete(b *testing.B) {
	s := llmtest.New(b)
	c, _ := newTestClient(b, s, nil)
	req := ask("Which champion counters Grom?")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Complete(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBareGoOpenAI is the same request through go-openai alone, the
// baseline for the wrapper's overhead.
func BenchmarkBareGoOpenAI(b *testing.B) {
	s := llmtest.New(b)
	cfg := openai.DefaultConfig("sk-test-secret-key")
	cfg.BaseURL = s.URL()
	api := openai.NewClientWithConfig(cfg)
	req := openai.ChatCompletionRequest{
		Model: "gpt-4o-mini",
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: "You help players."},
			{Role: openai.ChatMessageRoleUser, Content: "Which champion counters Grom?"},
		},
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := api.CreateChatCompletion(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStream measures one streamed answer with text and usage.
func BenchmarkStream(b *testing.B) {
	s := llmtest.New(b)
	s.SetResponder(func(openai.ChatCompletionRequest) llmtest.Reply {
		return llmtest.Text("Grom is weak to fire, so Aria's flame lance counters him well.")
	})
	c, _ := newTestClient(b, s, nil)
	req := ask("Which champion counters Grom?")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Stream(ctx, req, func(string) {}); err != nil {
			b.Fatal(err)
		}
	}
}
