package api

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/screens"
)

type screenEventRequest struct {
	SessionID string      `json:"session_id"`
	Screen    *screenBody `json:"screen"`
}

// screenEvent is the game server's webhook: a player changed screen. The raw
// body must carry a valid HMAC-SHA256 signature before anything is parsed.
func (s *Server) screenEvent(c *gin.Context) {
	if s.opts.WebhookSecret == "" {
		s.fail(c, httpErr(http.StatusForbidden, "webhook_disabled", "screen events are disabled: WEBHOOK_SECRET is not set", nil))
		return
	}
	body, err := readBody(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	if !validSignature(s.opts.WebhookSecret, body, c.GetHeader("X-Signature")) {
		s.fail(c, httpErr(http.StatusUnauthorized, "bad_signature", "missing or invalid X-Signature", nil))
		return
	}
	if s.deps.Chat == nil {
		s.fail(c, errUnavailable("chat"))
		return
	}
	var req screenEventRequest
	if err := decodeJSON(c, body, &req); err != nil {
		s.fail(c, err)
		return
	}
	if req.SessionID == "" || req.Screen == nil || req.Screen.Name == "" {
		s.fail(c, httpErr(http.StatusBadRequest, "bad_request", "session_id and screen.name are required", nil))
		return
	}
	c.Set(sessionIDKey, req.SessionID)
	reply, err := s.deps.Chat.ScreenEvent(c.Request.Context(), req.SessionID, screens.Screen{Name: req.Screen.Name, Data: req.Screen.Data})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, reply)
}

// validSignature checks "sha256=<hex HMAC-SHA256 of body>" in constant time.
func validSignature(secret string, body []byte, header string) bool {
	const prefix = "sha256="
	if !strings.HasPrefix(header, prefix) {
		return false
	}
	got, err := hex.DecodeString(strings.TrimPrefix(header, prefix))
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hmac.Equal(got, mac.Sum(nil))
}

// Sign returns the X-Signature header value of body, for game servers and tests.
func Sign(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}
