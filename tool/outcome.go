package tool

import "encoding/json"

// Source says where a session's tool result came from.
type Source string

// The sources of a tool result within a session.
const (
	// SourceExecuted: the tool ran for this call.
	SourceExecuted Source = "executed"
	// SourceCache: served from the session's tool cache.
	SourceCache Source = "cache"
	// SourceDuplicate: the same call was already answered in this turn; not run again.
	SourceDuplicate Source = "duplicate"
	// SourceProactive: run by the screen rules before the player asked.
	SourceProactive Source = "proactive"
	// SourceSkipped: not run (for example a screen field the rule maps was absent).
	SourceSkipped Source = "skipped"
	// SourceMCP: run for an MCP client (gameassist mcp, /mcp), outside any chat session.
	SourceMCP Source = "mcp"
)

// Sources lists every Source, for code that must check or label them all
// (statistics, metrics).
func Sources() []Source {
	return []Source{SourceExecuted, SourceCache, SourceDuplicate, SourceProactive, SourceSkipped, SourceMCP}
}

// Ran reports whether the tool ran for a call from s (executed, proactive,
// mcp), so its duration is the tool's own.
func (s Source) Ran() bool {
	return s == SourceExecuted || s == SourceProactive || s == SourceMCP
}

// Outcome is one tool call as reported to clients and admin views: the
// tool_calls entries of a chat reply and the tools of a screen event.
type Outcome struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Source    Source          `json:"source"`
	// Version is the version of the tool that answered (0: unversioned).
	Version    int     `json:"version,omitempty"`
	Status     Status  `json:"status"`
	DurationMS float64 `json:"duration_ms"`
	// Reason explains a skipped call.
	Reason string `json:"reason,omitempty"`
	// DisplayName is the tool's name for players in the session's locale
	// (see Spec.DisplayName); set by the chat engine for its clients.
	DisplayName string `json:"display_name,omitempty"`
	// Result is the full envelope, kept for the caller; never serialized here.
	Result Result `json:"-"`
	// View is Result.ForLLM(), when whoever made the outcome rendered it
	// once for those after it (empty: not rendered; see LLMView).
	View string `json:"-"`
}

// LLMView is the envelope as the LLM reads it (Result.ForLLM), rendered
// again only when View does not hold it.
func (o Outcome) LLMView() string {
	if o.View != "" {
		return o.View
	}
	return o.Result.ForLLM()
}
