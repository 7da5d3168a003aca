package api

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/memory"
)

type sessionMetaView struct {
	ID        string         `json:"id"`
	PlayerID  string         `json:"player_id,omitempty"`
	Locale    string         `json:"locale"`
	CreatedAt time.Time      `json:"created_at"`
	Exchange  int            `json:"exchange"`
	Screen    *memory.Screen `json:"screen,omitempty"`
}

type sessionView struct {
	Session sessionMetaView  `json:"session"`
	History []memory.Message `json:"history"`
}

// sessionMeta reads the meta of the session named in the route; on failure
// it has answered and reports false.
func (s *Server) sessionMeta(c *gin.Context) (memory.Meta, bool) {
	if s.deps.Sessions == nil {
		s.fail(c, errUnavailable("session store"))
		return memory.Meta{}, false
	}
	meta, err := s.deps.Sessions.Session(c.Request.Context(), c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return memory.Meta{}, false
	}
	return meta, true
}

func (s *Server) adminSession(c *gin.Context) {
	meta, ok := s.sessionMeta(c)
	if !ok {
		return
	}
	hist, err := s.deps.Sessions.History(c.Request.Context(), meta.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	if hist == nil {
		hist = []memory.Message{}
	}
	c.JSON(http.StatusOK, sessionView{
		Session: sessionMetaView{ID: meta.ID, PlayerID: meta.PlayerID, Locale: meta.Locale, CreatedAt: meta.CreatedAt, Exchange: meta.Exchange, Screen: meta.Screen},
		History: hist,
	})
}

type cacheEntryView struct {
	Key                  string          `json:"key"`
	Tool                 string          `json:"tool"`
	Version              int             `json:"version,omitempty"`
	Parameters           json.RawMessage `json:"parameters"`
	CachedAtExchange     int             `json:"cached_at_exchange"`
	ExpiresAfterExchange int             `json:"expires_after_exchange"`
	RemainingExchanges   int             `json:"remaining_exchanges"`
	Hits                 int             `json:"hits"`
	SizeBytes            int             `json:"size_bytes"`
}

type cacheView struct {
	Exchange int              `json:"exchange"`
	Entries  []cacheEntryView `json:"entries"`
}

func (s *Server) adminCache(c *gin.Context) {
	meta, ok := s.sessionMeta(c)
	if !ok {
		return
	}
	entries, err := s.deps.Sessions.Cache(c.Request.Context(), meta.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := cacheView{Exchange: meta.Exchange, Entries: make([]cacheEntryView, 0, len(entries))}
	for _, e := range entries {
		params := e.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{}`)
		}
		out.Entries = append(out.Entries, cacheEntryView{
			Key: e.Key, Tool: e.Tool, Version: e.Version, Parameters: params, CachedAtExchange: e.CachedAt,
			ExpiresAfterExchange: e.ExpiresAfter(), RemainingExchanges: e.Remaining(meta.Exchange),
			Hits: e.Hits, SizeBytes: e.Size(),
		})
	}
	c.JSON(http.StatusOK, out)
}

func (s *Server) adminClearCache(c *gin.Context) {
	meta, ok := s.sessionMeta(c)
	if !ok {
		return
	}
	n, err := s.deps.Sessions.ClearCache(c.Request.Context(), meta.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"deleted": n})
}

func (s *Server) adminDeleteCacheEntry(c *gin.Context) {
	if s.deps.Sessions == nil {
		s.fail(c, errUnavailable("session store"))
		return
	}
	if err := s.deps.Sessions.DeleteCache(c.Request.Context(), c.Param("id"), c.Param("key")); err != nil {
		s.fail(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (s *Server) adminStats(c *gin.Context) {
	if s.deps.Stats == nil {
		s.fail(c, errUnavailable("stats"))
		return
	}
	rep, err := s.deps.Stats.Snapshot(c.Request.Context())
	if err != nil {
		s.fail(c, err)
		return
	}
	if s.deps.Feedback != nil {
		// Players' ratings next to latency and errors: the thumbs-down
		// rate per tool, tool version and screen.
		fb, err := s.deps.Feedback.Stats(c.Request.Context())
		if err != nil {
			s.fail(c, err)
			return
		}
		c.JSON(http.StatusOK, statsWithFeedback{Report: rep, Feedback: &fb})
		return
	}
	c.JSON(http.StatusOK, rep)
}

func (s *Server) reloadScreens(c *gin.Context) {
	if s.deps.Rules == nil {
		s.fail(c, errUnavailable("screen rules"))
		return
	}
	if err := s.deps.Rules.Reload(c.Request.Context()); err != nil {
		s.fail(c, err)
		return
	}
	names := s.deps.Rules.Rules()
	c.JSON(http.StatusOK, gin.H{"screens": names, "count": len(names)})
}
