package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gameassist/gameassist/tool"
)

// Keys of gameassist's _meta entries on tools and tool results.
const (
	MetaCategory      = "gameassist/category"
	MetaCacheDuration = "gameassist/llm_cache_duration"
	MetaAliases       = "gameassist/aliases"
)

// outputSchema describes every tool's structured content: the envelope's
// data, its message and how many exchanges a chat session would keep it.
var outputSchema = json.RawMessage(`{"type":"object",` +
	`"properties":{"data":{"description":"The tool's data: an object, a list, a value or null."},` +
	`"message":{"type":"string"},` +
	`"llm_cache_duration":{"type":"integer","minimum":0,"description":"Exchanges a chat session keeps this result; 0: not cached."}},` +
	`"required":["data","message","llm_cache_duration"]}`)

// structured is a successful call's structured content. internal_info is
// deliberately absent: it never leaves the server.
type structured struct {
	Data             json.RawMessage `json:"data"`
	Message          string          `json:"message"`
	LLMCacheDuration int             `json:"llm_cache_duration"`
}

// servedSpecs are the registry's tools an MCP client may call, in
// registration order.
func (s *Server) servedSpecs() []tool.Spec {
	return s.deps.Executor.Registry().Specs(s.opts.Offered)
}

func (s *Server) addTools(srv *mcp.Server, specs []tool.Spec) {
	for _, spec := range specs {
		schema, ok := inputSchema(spec.Parameters)
		if !ok {
			// The SDK refuses (panics on) a non-object input schema; the
			// registry compiles any schema, so skip such a tool loudly.
			s.log.Warn("mcp: tool not served: its parameter schema is not of type object", slog.String("tool", spec.Name))
			continue
		}
		closed := false
		meta := mcp.Meta{MetaCategory: string(spec.Category), MetaCacheDuration: spec.CacheDuration}
		if len(spec.Aliases) > 0 {
			meta[MetaAliases] = spec.Aliases
		}
		s.addTool(srv, &mcp.Tool{
			Name:         spec.Name,
			Title:        title(spec.Name),
			Description:  spec.Description,
			InputSchema:  schema,
			OutputSchema: outputSchema,
			Annotations: &mcp.ToolAnnotations{
				Title: title(spec.Name), ReadOnlyHint: true, IdempotentHint: true,
				DestructiveHint: &closed, OpenWorldHint: &closed,
			},
			Meta: meta,
		}, s.callTool(spec.Name))
	}
}

// addTool adds one tool; the SDK panics on a schema it refuses (an
// x-mcp-header annotation it does not accept, say, in a studio's tools
// file), so such a tool is skipped with a warning instead of taking every
// request down.
func (s *Server) addTool(srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandler) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Warn("mcp: tool not served: the MCP SDK refused it", slog.String("tool", t.Name), slog.Any("reason", p))
		}
	}()
	srv.AddTool(t, h)
}

// inputSchema returns a tool's parameter schema for MCP, or false when it
// is not a JSON object of type "object". An empty schema means no
// parameters, as in the registry.
func inputSchema(doc json.RawMessage) (json.RawMessage, bool) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`), true
	}
	var head struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(doc, &head); err != nil || head.Type != "object" {
		return nil, false
	}
	return doc, true
}

// title turns gcs_get_boss_details into "Gcs get boss details" for display.
func title(name string) string {
	t := strings.ReplaceAll(name, "_", " ")
	if t == "" {
		return t
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

// callTool runs a call through the executor (schema validation, timeout,
// retries, size cap) and reports it with source mcp.
func (s *Server) callTool(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		start := time.Now()
		r := s.deps.Executor.Execute(ctx, tool.Call{Name: name, Arguments: args})
		d := time.Since(start)
		out := tool.Outcome{
			Name: name, Arguments: r.InternalInfo.Parameters, Source: tool.SourceMCP, Status: r.Status,
			Version: r.InternalInfo.Version, DurationMS: float64(d.Microseconds()) / 1000, Result: r,
		}
		s.deps.Observer.ToolCalls(ctx, "", []tool.Outcome{out})
		s.log.LogAttrs(ctx, slog.LevelInfo, "tool call",
			slog.String("tool", name), slog.String("source", string(tool.SourceMCP)),
			slog.Float64("duration_ms", out.DurationMS), slog.String("status", string(r.Status)),
			slog.Int("rows", r.InternalInfo.Rows), slog.Bool("truncated", r.InternalInfo.Truncated))
		return toResult(r), nil
	}
}

// toResult renders an envelope for an MCP client: on success the data as
// structured content, the same JSON as a text block for clients that read
// only text, and llm_instruction as a text block of its own; on failure a
// tool error carrying the message, the details and the guidance.
func toResult(r tool.Result) *mcp.CallToolResult {
	if !r.OK() {
		var b strings.Builder
		b.WriteString(r.Message)
		if r.ErrorDetails != "" {
			b.WriteString("\nDetails: " + r.ErrorDetails)
		}
		if r.Guidance != "" {
			b.WriteString("\nGuidance: " + r.Guidance)
		}
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}
	}
	// The executor hands data over as encoded JSON; encode anything else.
	data, ok := r.Data.(json.RawMessage)
	if !ok || !json.Valid(data) {
		b, err := marshal(r.Data)
		if err != nil {
			b = json.RawMessage(`null`)
		}
		data = b
	}
	sc, err := marshal(structured{Data: data, Message: r.Message, LLMCacheDuration: max(r.LLMCacheDuration, 0)})
	if err != nil {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{
			Text: "The tool returned data that could not be encoded.\nGuidance: Try a different tool.",
		}}}
	}
	content := []mcp.Content{&mcp.TextContent{Text: string(sc)}}
	if r.LLMInstruction != "" {
		content = append(content, &mcp.TextContent{Text: r.LLMInstruction})
	}
	return &mcp.CallToolResult{
		StructuredContent: json.RawMessage(sc),
		Content:           content,
		Meta:              mcp.Meta{MetaCacheDuration: max(r.LLMCacheDuration, 0)},
	}
}

// marshal encodes v as compact JSON without HTML escaping, as the LLM sees
// tool results.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
