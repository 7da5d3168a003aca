package api

import (
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/memory"
)

const (
	defaultSessionsLimit = 20
	maxSessionsLimit     = 100
	maxPlayerIDLen       = 128
)

type recentSessionView struct {
	sessionMetaView
	LastActive time.Time `json:"last_active"`
}

type recentPageView struct {
	Sessions   []recentSessionView `json:"sessions"`
	NextCursor *string             `json:"next_cursor"`
}

// adminSessions lists sessions by last activity, newest first.
func (s *Server) adminSessions(c *gin.Context) {
	if s.deps.Sessions == nil {
		s.fail(c, errUnavailable("session store"))
		return
	}
	q := memory.RecentQuery{Limit: defaultSessionsLimit, Cursor: c.Query("cursor"), PlayerID: c.Query("player_id")}
	if raw, ok := c.GetQuery("limit"); ok {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxSessionsLimit {
			s.fail(c, httpErr(http.StatusBadRequest, "bad_request", "limit must be an integer from 1 to 100", err))
			return
		}
		q.Limit = n
	}
	if len(q.PlayerID) > maxPlayerIDLen || !utf8.ValidString(q.PlayerID) {
		s.fail(c, httpErr(http.StatusBadRequest, "bad_request", "player_id must be valid UTF-8 of at most 128 bytes", nil))
		return
	}
	if len(q.Cursor) > 512 {
		s.fail(c, memory.ErrBadCursor)
		return
	}
	page, err := s.deps.Sessions.Recent(c.Request.Context(), q)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := recentPageView{Sessions: make([]recentSessionView, 0, len(page.Sessions))}
	for _, r := range page.Sessions {
		m := r.Meta
		out.Sessions = append(out.Sessions, recentSessionView{
			sessionMetaView: sessionMetaView{ID: m.ID, PlayerID: m.PlayerID, Locale: m.Locale, CreatedAt: m.CreatedAt, Exchange: m.Exchange, Screen: m.Screen},
			LastActive:      r.LastActive,
		})
	}
	if page.NextCursor != "" {
		out.NextCursor = &page.NextCursor
	}
	c.JSON(http.StatusOK, out)
}
