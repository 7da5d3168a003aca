package api

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/telemetry"
	"github.com/gameassist/gameassist/tool"
)

const requestIDKey = "request_id"

func requestID(c *gin.Context) string { return c.GetString(requestIDKey) }

// requestID accepts a sane X-Request-ID or makes one, and echoes it.
func (s *Server) requestID() gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader("X-Request-ID")
		if !validRequestID(id) {
			var b [12]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		c.Set(requestIDKey, id)
		c.Header("X-Request-ID", id)
		c.Next()
	}
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		if r != '-' && r != '_' && r != '.' && (r < '0' || r > '9') && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}

// observe logs one line per request and feeds the HTTP metrics.
func (s *Server) observe() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		d := time.Since(start)
		route := routeOf(c)
		status := statusOf(c)
		s.deps.Metrics.ObserveHTTP(route, c.Request.Method, status, d)
		attrs := []slog.Attr{
			slog.String("request_id", requestID(c)),
			slog.String("method", c.Request.Method),
			slog.String("route", route),
			slog.Int("status", status),
			slog.Float64("duration_ms", float64(d.Microseconds())/1000),
		}
		if sid := c.GetString(sessionIDKey); sid != "" {
			attrs = append(attrs, slog.String("session_id", sid))
		}
		if route == "unmatched" {
			// No route to name it by: the path (clipped; the client chose it).
			attrs = append(attrs, slog.String("path", strings.ToValidUTF8(tool.Clip(c.Request.URL.Path, 200), "?")))
		}
		telemetry.SetRoute(c.Request.Context(), c.Request.Method, route)
		s.log.LogAttrs(c.Request.Context(), slog.LevelInfo, "http request", attrs...)
	}
}

func routeOf(c *gin.Context) string {
	if r := c.FullPath(); r != "" {
		return r
	}
	return "unmatched"
}

// limitBody refuses bodies over the limit: at once when Content-Length says
// so, and while reading otherwise.
func (s *Server) limitBody() gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.Request.ContentLength > s.opts.BodyLimit {
			s.fail(c, httpErr(http.StatusRequestEntityTooLarge, "body_too_large", "request body is over the 1 MiB limit", nil))
			return
		}
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.opts.BodyLimit)
		c.Next()
	}
}

func (s *Server) recoverer() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if p := recover(); p != nil {
				s.log.LogAttrs(c.Request.Context(), slog.LevelError, "handler panicked",
					slog.String("request_id", requestID(c)), slog.Any("panic", p))
				if !c.Writer.Written() {
					c.AbortWithStatusJSON(http.StatusInternalServerError, errorBody{Error: errorDetail{Code: "internal", Message: "internal error"}})
				}
			}
		}()
		c.Next()
	}
}

// bearer returns the token of an Authorization: Bearer header.
func bearer(c *gin.Context) (string, bool) {
	h := c.GetHeader("Authorization")
	const prefix = "bearer "
	if len(h) <= len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return "", false
	}
	return strings.TrimSpace(h[len(prefix):]), true
}

// requireAdmin lets a request through only with the admin token; with no
// admin token configured it refuses everything.
func (s *Server) requireAdmin() gin.HandlerFunc {
	want := sha256.Sum256([]byte(s.opts.AdminToken))
	return func(c *gin.Context) {
		if s.opts.AdminToken == "" {
			s.fail(c, httpErr(http.StatusForbidden, "admin_disabled", "admin API is disabled: ADMIN_TOKEN is not set", nil))
			return
		}
		// A missing or wrong token is a failed authentication (RFC 6750
		// section 3): 401 with the scheme to authenticate with.
		tok, ok := bearer(c)
		if !ok {
			c.Header("WWW-Authenticate", `Bearer realm="gameassist-admin"`)
			s.fail(c, httpErr(http.StatusUnauthorized, "unauthorized", "admin token required", nil))
			return
		}
		got := sha256.Sum256([]byte(tok))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			c.Header("WWW-Authenticate", `Bearer realm="gameassist-admin", error="invalid_token"`)
			s.fail(c, httpErr(http.StatusUnauthorized, "unauthorized", "invalid admin token", nil))
			return
		}
		c.Next()
	}
}
