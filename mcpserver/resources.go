package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// URIs of gameassist's resources and resource templates.
const (
	ToolsURI           = "gameassist://tools"
	ScreenRulesURI     = "gameassist://screens/rules"
	sessionPrefix      = "gameassist://sessions/"
	SessionScreenURI   = sessionPrefix + "{session_id}/screen"
	SessionCacheURI    = sessionPrefix + "{session_id}/cache"
	SessionHistoryURI  = sessionPrefix + "{session_id}/history"
	SessionPlayerURI   = sessionPrefix + "{session_id}/player"
	jsonMIME           = "application/json"
	maxSessionIDLength = 64
)

func (s *Server) addResources(srv *mcp.Server) {
	srv.AddResource(&mcp.Resource{
		URI: ToolsURI, Name: "tools", Title: "Tool catalogue", MIMEType: jsonMIME,
		Description: "Every tool this server serves: name, description, category, aliases, parameter schema and cache duration (exchanges).",
	}, s.readTools)
	srv.AddResource(&mcp.Resource{
		URI: ScreenRulesURI, Name: "screen-rules", Title: "Screen rules", MIMEType: jsonMIME,
		Description: "The running screen rules: for each game screen, the context and data tools run when a player opens it, and the prompt injection.",
	}, s.readRules)
	for _, t := range []struct{ uri, name, title, desc string }{
		{SessionScreenURI, "session-screen", "Session screen", "The screen a chat session's player is on (name, data, rendered context), with the session's locale and exchange."},
		{SessionCacheURI, "session-cache", "Session tool cache", "A chat session's cached tool results: tool, parameters, exchanges left, hits and the result as the LLM sees it."},
		{SessionHistoryURI, "session-history", "Session history", "A chat session's history window: the player's messages and the assistant's replies with the tools used."},
		{SessionPlayerURI, "session-player", "Session player state", "The state the game server pushed for the session's player (roster, progress), as the session's rules, tools and prompt read it; null when the session has no player or the player no state."},
	} {
		srv.AddResourceTemplate(&mcp.ResourceTemplate{
			URITemplate: t.uri, Name: t.name, Title: t.title, Description: t.desc, MIMEType: jsonMIME,
		}, s.readSession)
	}
}

func (s *Server) readTools(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	specs := s.servedSpecs()
	out := make([]tool.Entry, 0, len(specs))
	for _, sp := range specs {
		params, ok := inputSchema(sp.Parameters)
		if !ok {
			continue
		}
		e := sp.Entry()
		e.Parameters = params
		out = append(out, e)
	}
	return jsonResource(req.Params.URI, map[string]any{"tools": out})
}

func (s *Server) readRules(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: req.Params.URI, MIMEType: jsonMIME, Text: string(s.deps.Rules.Document()),
	}}}, nil
}

// parseSessionURI splits gameassist://sessions/{id}/{view}.
func parseSessionURI(uri string) (id, view string, ok bool) {
	rest, found := strings.CutPrefix(uri, sessionPrefix)
	if !found {
		return "", "", false
	}
	id, view, found = strings.Cut(rest, "/")
	if !found || id == "" || len(id) > maxSessionIDLength || strings.ContainsAny(id, "?#%") {
		return "", "", false
	}
	switch view {
	case "screen", "cache", "history", "player":
		return id, view, true
	}
	return "", "", false
}

type sessionView struct {
	ID        string    `json:"session_id"`
	PlayerID  string    `json:"player_id,omitempty"`
	Locale    string    `json:"locale"`
	CreatedAt time.Time `json:"created_at"`
	Exchange  int       `json:"exchange"`
}

type screenView struct {
	Session sessionView   `json:"session"`
	Screen  *screenDetail `json:"screen"`
}

type screenDetail struct {
	Name      string          `json:"name"`
	Data      json.RawMessage `json:"data"`
	Injection string          `json:"injection,omitempty"`
}

type cacheEntryView struct {
	Key                  string          `json:"key"`
	Tool                 string          `json:"tool"`
	Parameters           json.RawMessage `json:"parameters"`
	CachedAtExchange     int             `json:"cached_at_exchange"`
	ExpiresAfterExchange int             `json:"expires_after_exchange"`
	RemainingExchanges   int             `json:"remaining_exchanges"`
	Hits                 int             `json:"hits"`
	SizeBytes            int             `json:"size_bytes"`
	Result               json.RawMessage `json:"result"`
}

type cacheView struct {
	Session sessionView      `json:"session"`
	Entries []cacheEntryView `json:"entries"`
}

type historyView struct {
	Session  sessionView      `json:"session"`
	Messages []memory.Message `json:"messages"`
}

// readSession answers the three per-session templates. An unknown or
// malformed session is "resource not found"; the store being down is an
// internal error that names no internals.
func (s *Server) readSession(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, view, ok := parseSessionURI(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	meta, err := s.deps.Sessions.Session(ctx, id)
	if err != nil {
		return nil, s.storeError(ctx, uri, err)
	}
	sv := sessionView{ID: meta.ID, PlayerID: meta.PlayerID, Locale: meta.Locale, CreatedAt: meta.CreatedAt, Exchange: meta.Exchange}
	switch view {
	case "screen":
		out := screenView{Session: sv}
		if sc := meta.Screen; sc != nil {
			data := sc.Data
			if len(data) == 0 {
				data = json.RawMessage(`{}`)
			}
			out.Screen = &screenDetail{Name: sc.Name, Data: data, Injection: sc.Injection}
		}
		return jsonResource(uri, out)
	case "cache":
		entries, err := s.deps.Sessions.Cache(ctx, id)
		if err != nil {
			return nil, s.storeError(ctx, uri, err)
		}
		out := cacheView{Session: sv, Entries: make([]cacheEntryView, 0, len(entries))}
		for _, e := range entries {
			params := e.Parameters
			if len(params) == 0 {
				params = json.RawMessage(`{}`)
			}
			out.Entries = append(out.Entries, cacheEntryView{
				Key: e.Key, Tool: e.Tool, Parameters: params, CachedAtExchange: e.CachedAt,
				ExpiresAfterExchange: e.ExpiresAfter(), RemainingExchanges: e.Remaining(meta.Exchange),
				Hits: e.Hits, SizeBytes: e.Size(), Result: llmView(e.Result),
			})
		}
		return jsonResource(uri, out)
	case "player":
		return s.readPlayer(ctx, uri, meta, sv)
	default: // history
		msgs, err := s.deps.Sessions.History(ctx, id)
		if err != nil {
			return nil, s.storeError(ctx, uri, err)
		}
		if msgs == nil {
			msgs = []memory.Message{}
		}
		return jsonResource(uri, historyView{Session: sv, Messages: msgs})
	}
}

// playerView is a session's player state resource.
type playerView struct {
	Session   sessionView     `json:"session"`
	UpdatedAt *time.Time      `json:"updated_at,omitempty"`
	Version   string          `json:"version,omitempty"`
	State     json.RawMessage `json:"state"`
}

// readPlayer shows the state of the session's own player only: the player
// id comes from the stored session, never from the request.
func (s *Server) readPlayer(ctx context.Context, uri string, meta memory.Meta, sv sessionView) (*mcp.ReadResourceResult, error) {
	out := playerView{Session: sv, State: json.RawMessage(`null`)}
	if meta.PlayerID == "" || s.deps.Players == nil {
		return jsonResource(uri, out)
	}
	ps, err := s.deps.Players.PlayerState(ctx, meta.PlayerID)
	switch {
	case errors.Is(err, memory.ErrNotFound):
		return jsonResource(uri, out)
	case err != nil:
		return nil, s.storeError(ctx, uri, err)
	}
	at := ps.UpdatedAt
	out.UpdatedAt, out.Version, out.State = &at, ps.Version, ps.State
	return jsonResource(uri, out)
}

// llmView is a cached envelope without internal_info, which never leaves
// the server; an entry that does not decode shows as null.
func llmView(raw json.RawMessage) json.RawMessage {
	var r tool.Result
	if err := json.Unmarshal(raw, &r); err != nil {
		return json.RawMessage(`null`)
	}
	return json.RawMessage(r.ForLLM())
}

func (s *Server) storeError(ctx context.Context, uri string, err error) error {
	if errors.Is(err, memory.ErrNotFound) {
		return mcp.ResourceNotFoundError(uri)
	}
	s.log.LogAttrs(ctx, slog.LevelWarn, "mcp: session resource unavailable", slog.String("uri", uri), slog.String("error", err.Error()))
	return errors.New("the session store is unavailable; try again later")
}

func jsonResource(uri string, v any) (*mcp.ReadResourceResult, error) {
	b, err := marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", uri, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: jsonMIME, Text: string(b)}}}, nil
}
