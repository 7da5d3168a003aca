package api

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"

	"github.com/gin-gonic/gin"
)

// limitMCP applies the per-client-IP limit of /mcp before the token is
// checked, so guessing tokens is limited too.
func (s *Server) limitMCP() gin.HandlerFunc {
	return func(c *gin.Context) {
		if !s.allow(c, "mcp", "ip:"+c.ClientIP(), s.opts.MCPRatePerMinute) {
			c.Abort()
			return
		}
		c.Next()
	}
}

// requireMCPToken lets a request through only with the MCP token, compared
// in constant time; with no token configured it refuses everything. A
// missing or wrong token answers 401 with WWW-Authenticate, as MCP clients
// expect.
func (s *Server) requireMCPToken() gin.HandlerFunc {
	want := sha256.Sum256([]byte(s.opts.MCPToken))
	return func(c *gin.Context) {
		if s.opts.MCPToken == "" {
			s.fail(c, httpErr(http.StatusForbidden, "mcp_disabled", "the MCP endpoint is disabled: MCP_TOKEN is not set", nil))
			return
		}
		tok, ok := bearer(c)
		if !ok {
			c.Header("WWW-Authenticate", `Bearer realm="gameassist-mcp"`)
			s.fail(c, httpErr(http.StatusUnauthorized, "unauthorized", "MCP token required: Authorization: Bearer <MCP_TOKEN>", nil))
			return
		}
		got := sha256.Sum256([]byte(tok))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			c.Header("WWW-Authenticate", `Bearer realm="gameassist-mcp", error="invalid_token"`)
			s.fail(c, httpErr(http.StatusUnauthorized, "unauthorized", "invalid MCP token", nil))
			return
		}
		c.Next()
	}
}

func (s *Server) serveMCP(c *gin.Context) {
	if s.deps.MCP == nil {
		s.fail(c, errUnavailable("MCP"))
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.opts.RequestTimeout)
	defer cancel()
	s.deps.MCP.ServeHTTP(c.Writer, c.Request.WithContext(ctx))
}
