package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"
)

// DefaultMCPMaxBatch bounds the JSON-RPC requests of one POST /mcp batch
// when Options.MCPMaxBatch is 0.
const DefaultMCPMaxBatch = 16

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
	if c.Request.Method == http.MethodPost && !s.limitMCPBatch(c) {
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.opts.RequestTimeout)
	defer cancel()
	s.deps.MCP.ServeHTTP(c.Writer, c.Request.WithContext(ctx))
}

// limitMCPBatch reads a POST /mcp body and, when it is a JSON-RPC batch,
// refuses it past the batch limit (400 with a JSON-RPC error) and counts
// each tools/call in it against the per-IP limit (limitMCP counted the
// request as one; a batch of n calls costs n). It puts the body back for
// the MCP handler. A body that is not JSON is left to the handler, which
// refuses it.
func (s *Server) limitMCPBatch(c *gin.Context) bool {
	body, err := io.ReadAll(c.Request.Body) // bounded by limitBody
	if err != nil {
		var mbe *http.MaxBytesError
		if !errors.As(err, &mbe) {
			err = httpErr(http.StatusBadRequest, "bad_request", "cannot read the request body", err)
		}
		s.fail(c, err)
		return false
	}
	c.Request.Body = io.NopCloser(bytes.NewReader(body))
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return true
	}
	var batch []struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(body, &batch) != nil {
		return true
	}
	if limit := s.opts.MCPMaxBatch; len(batch) > limit {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"jsonrpc": "2.0", "id": nil, "error": gin.H{
			"code":    -32600,
			"message": fmt.Sprintf("batch of %d requests, over the limit of %d: send fewer per POST", len(batch), limit),
		}})
		return false
	}
	calls := 0
	for _, r := range batch {
		if r.Method == "tools/call" {
			calls++
		}
	}
	for range calls - 1 {
		if !s.allow(c, "mcp", "ip:"+c.ClientIP(), s.opts.MCPRatePerMinute) {
			return false
		}
	}
	return true
}
