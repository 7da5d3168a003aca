// Package llm talks to any OpenAI-compatible chat and embeddings API through
// go-openai: retries with backoff and jitter, per-call timeouts, streaming with
// tool-call deltas accumulated by index, and embeddings in batches. go-openai
// types stay inside this package.
package llm

import "github.com/gameassist/gameassist/tool"

// Roles of chat messages.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// ToolCall is a function call requested by the model.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // raw JSON text as the model wrote it
}

// Message is one chat message in a request.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`   // assistant messages
	ToolCallID string     `json:"tool_call_id,omitempty"` // tool messages
}

// Request is one chat completion request.
type Request struct {
	Messages []Message
	// Tools are offered to the model; nil means no tools (a final answer).
	Tools []tool.Spec
	// CacheKey, when set, is sent as the provider's prompt cache key
	// (OpenAI's prompt_cache_key): requests with the same key and prefix
	// are routed to the same prompt cache. At most 64 characters; a longer
	// key is not sent. Not sent when Options.NoCacheKey is set.
	CacheKey string
}

// Usage is the token count of one call.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Response is the model's answer: text, tool calls, or both.
type Response struct {
	Content      string
	ToolCalls    []ToolCall
	FinishReason string
	Usage        Usage
	// Attempts is how many HTTP attempts the answer took (1 without retries),
	// for logs and metrics.
	Attempts int
}

// StreamHandler receives text deltas as they arrive during streaming.
type StreamHandler func(text string)
