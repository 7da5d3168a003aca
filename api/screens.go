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

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

type screenEventRequest struct {
	SessionID string      `json:"session_id"`
	Screen    *screenBody `json:"screen"`
	// Seq is the game server's optional monotonic sequence number of the
	// session's screen events; when two events carry one it orders them
	// rather than their signed timestamps (whole seconds).
	Seq *int64 `json:"seq"`
}

// screenEventReply is the webhook's answer: what the chat engine reports,
// and whether the delivery was a replay of one already applied.
type screenEventReply struct {
	chat.ScreenReply
	// Duplicate: the same delivery (signature and body) was accepted
	// before; nothing changed this time.
	Duplicate bool `json:"duplicate"`
}

// signatureScheme is the X-Signature format, named in refusals.
const signatureScheme = `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`

// screenEvent is the game server's webhook: a player changed screen. The raw
// body must carry a valid, fresh, never-used timestamped signature before
// anything is parsed. The exact same delivery again (signature and body)
// is answered as a duplicate and changes nothing.
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
	ev := memory.ScreenEvent{At: sig.at}
	if req.Seq != nil {
		if *req.Seq < 1 {
			s.fail(c, httpErr(http.StatusBadRequest, "bad_request", "seq must be a positive integer", nil))
			return
		}
		ev.Seq = *req.Seq
	}
	c.Set(sessionIDKey, req.SessionID)
	// Remember the signature until its timestamp leaves the window, in
	// Redis, so every instance knows a delivery it sees again.
	ctx := c.Request.Context()
	key := "webhook:" + sig.mac
	keep := sig.at.Add(s.opts.WebhookTolerance).Sub(s.opts.Now()) + time.Second
	use, err := s.deps.Replay.Claim(ctx, key, keep)
	if err != nil {
		s.fail(c, err)
		return
	}
	switch use {
	case memory.UseDone:
		// The same delivery again (the game server retried after a
		// timeout): it was applied once; nothing changes.
		c.JSON(http.StatusOK, screenEventReply{
			ScreenReply: chat.ScreenReply{Screen: req.Screen.Name, Tools: []tool.Outcome{}},
			Duplicate:   true,
		})
		return
	case memory.UseInFlight:
		c.Header("Retry-After", strconv.Itoa(busyRetryAfterSeconds))
		s.fail(c, httpErr(http.StatusConflict, "delivery_in_progress", "this delivery is still being applied; retry it shortly", nil))
		return
	}
	reply, err := s.deps.Chat.ScreenEventAt(ctx, req.SessionID, screens.Screen{Name: req.Screen.Name, Data: req.Screen.Data}, ev)
	if err != nil {
		// Nothing was applied: the same delivery may be retried (and
		// meets the same answer if the refusal was ours to give).
		s.deps.Replay.Forget(context.WithoutCancel(ctx), key)
		s.fail(c, err)
		return
	}
	if err := s.deps.Replay.Settle(context.WithoutCancel(ctx), key); err != nil {
		// A retry of this delivery will wait for the claim to expire.
		s.log.WarnContext(ctx, "webhook: settle delivery", "error", err.Error(), "request_id", requestID(c))
	}
	c.JSON(http.StatusOK, screenEventReply{ScreenReply: reply})
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
