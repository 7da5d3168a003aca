package api

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/screens"
)

type screenEventRequest struct {
	SessionID string      `json:"session_id"`
	Screen    *screenBody `json:"screen"`
}

// signatureScheme is the X-Signature format, named in refusals.
const signatureScheme = `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`

// screenEvent is the game server's webhook: a player changed screen. The raw
// body must carry a valid, fresh, never-used timestamped signature before
// anything is parsed.
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
	sig, err := verifySignature(s.opts.WebhookSecret, body, c.GetHeader("X-Signature"), s.opts.Now(), s.opts.WebhookTolerance)
	if err != nil {
		s.fail(c, err)
		return
	}
	if s.deps.Chat == nil || s.deps.Replay == nil {
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
	// Remember the signature until its timestamp leaves the window, in
	// Redis, so a replay is refused by every instance.
	ctx := c.Request.Context()
	keep := sig.at.Add(s.opts.WebhookTolerance).Sub(s.opts.Now()) + time.Second
	first, err := s.deps.Replay.FirstUse(ctx, "webhook:"+sig.mac, keep)
	if err != nil {
		s.fail(c, err)
		return
	}
	if !first {
		s.fail(c, httpErr(http.StatusUnauthorized, "signature_replayed", "this signature was already accepted; sign each delivery anew", nil))
		return
	}
	reply, err := s.deps.Chat.ScreenEventAt(ctx, req.SessionID, screens.Screen{Name: req.Screen.Name, Data: req.Screen.Data}, sig.at)
	if err != nil {
		if he := s.classify(err); he.Status >= http.StatusInternalServerError {
			// Nothing was applied: let the game server retry the same delivery.
			s.deps.Replay.Forget(context.WithoutCancel(ctx), "webhook:"+sig.mac)
		}
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, reply)
}

// signature is a verified X-Signature: its timestamp and the MAC that matched.
type signature struct {
	at  time.Time
	mac string
}

// verifySignature checks header against body: the scheme, the MAC (in
// constant time) and that the timestamp is within tolerance of now.
func verifySignature(secret string, body []byte, header string, now time.Time, tolerance time.Duration) (signature, error) {
	bad := func(msg string) error {
		return httpErr(http.StatusUnauthorized, "bad_signature", msg+"; expected "+signatureScheme, nil)
	}
	header = strings.TrimSpace(header)
	switch {
	case header == "":
		return signature{}, bad("missing X-Signature")
	case strings.HasPrefix(header, "sha256="):
		return signature{}, bad("the sha256= signature of the body alone is no longer accepted")
	case len(header) > 1024:
		return signature{}, bad("X-Signature is too long")
	}
	var ts string
	var macs []string
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return signature{}, bad("malformed X-Signature")
		}
		switch k {
		case "t":
			if ts != "" {
				return signature{}, bad("X-Signature has more than one t")
			}
			ts = v
		case "v1":
			macs = append(macs, v)
		}
	}
	if ts == "" || len(macs) == 0 {
		return signature{}, bad("X-Signature needs t and v1")
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || unix <= 0 || len(ts) > 12 {
		return signature{}, bad("X-Signature t is not a unix time in seconds")
	}
	want := signPayload(secret, ts, body)
	var matched string
	for _, m := range macs {
		got, err := hex.DecodeString(m)
		if err == nil && hmac.Equal(got, want) {
			matched = strings.ToLower(m)
		}
	}
	if matched == "" {
		return signature{}, bad("invalid X-Signature")
	}
	at := time.Unix(unix, 0)
	if d := now.Sub(at); d > tolerance || d < -tolerance {
		return signature{}, httpErr(http.StatusUnauthorized, "signature_expired",
			"the X-Signature timestamp is more than "+tolerance.String()+" away from the server's clock; sign each delivery when sending it", nil)
	}
	return signature{at: at, mac: matched}, nil
}

func signPayload(secret, ts string, body []byte) []byte {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return mac.Sum(nil)
}

// Sign returns the X-Signature header value of body sent at t, for game
// servers and tests.
func Sign(secret string, body []byte, t time.Time) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(signPayload(secret, ts, body))
}
