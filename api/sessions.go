package api

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/tool"
)

type createSessionRequest struct {
	PlayerID string `json:"player_id"`
	Locale   string `json:"locale"`
}

type createSessionResponse struct {
	SessionID    string `json:"session_id"`
	SessionToken string `json:"session_token"`
	Locale       string `json:"locale"`
	Note         string `json:"note,omitempty"`
}

// sessionLocale is the locale a new session gets: the requested one when
// chat supports it (a region such as fr-CA counts as its language), else
// the first supported one (en) with a note saying so; "" asks for the
// default.
func sessionLocale(requested string) (locale, note string) {
	supported := chat.Locales()
	l := strings.ToLower(strings.TrimSpace(requested))
	if i := strings.IndexAny(l, "-_"); i > 0 {
		l = l[:i]
	}
	switch {
	case l == "":
		return supported[0], ""
	case slices.Contains(supported, l):
		return l, ""
	}
	return supported[0], fmt.Sprintf("locale %q is not supported (%s); the session replies in %s",
		strings.ToValidUTF8(tool.Clip(requested, 20), ""), strings.Join(supported, ", "), supported[0])
}

// createSession opens a session; the body is optional. Creation is rate
// limited per client IP.
func (s *Server) createSession(c *gin.Context) {
	if s.deps.Chat == nil {
		s.fail(c, errUnavailable("chat"))
		return
	}
	if !s.allow(c, "sessions", "ip:"+c.ClientIP(), s.opts.SessionRatePerMinute) {
		return
	}
	body, err := readBody(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req createSessionRequest
	if len(body) > 0 {
		if err := decodeJSON(c, body, &req); err != nil {
			s.fail(c, err)
			return
		}
	}
	locale, note := sessionLocale(req.Locale)
	id, token, err := s.deps.Chat.CreateSession(c.Request.Context(), req.PlayerID, locale)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.deps.Metrics.ObserveSessionCreated()
	c.JSON(http.StatusCreated, createSessionResponse{SessionID: id, SessionToken: token, Locale: locale, Note: note})
}

// allow applies a per-minute limit on key; it writes the 429 itself and
// reports whether the request may go on. A limiter failure lets the request
// through (the limit is a guard, not a dependency) and is logged.
func (s *Server) allow(c *gin.Context, scope, key string, perMinute int) bool {
	if s.deps.Limiter == nil || perMinute <= 0 {
		return true
	}
	d, err := s.deps.Limiter.Allow(c.Request.Context(), scope+":"+key, perMinute, time.Minute)
	if err != nil {
		s.log.WarnContext(c.Request.Context(), "rate limiter unavailable", "scope", scope, "error", err.Error(), "request_id", requestID(c))
		return true
	}
	if d.Allowed {
		return true
	}
	s.rateLimited(c, scope, d.RetryAfter)
	return false
}

// rateLimited answers a request refused by the rate limit of scope: 429,
// with Retry-After in whole seconds (at least one).
func (s *Server) rateLimited(c *gin.Context, scope string, retryAfter time.Duration) {
	s.deps.Metrics.ObserveRateLimited(scope)
	secs := max(int(retryAfter.Round(time.Second)/time.Second), 1)
	c.Header("Retry-After", strconv.Itoa(secs))
	s.fail(c, httpErr(http.StatusTooManyRequests, "rate_limited", "too many requests; retry after "+strconv.Itoa(secs)+"s", nil))
}
