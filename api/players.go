package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/memory"
)

// MaxPlayerStateBytes bounds a pushed player state.
const MaxPlayerStateBytes = 256 << 10

// PlayerStates keeps each player's state; *memory.Store satisfies it.
type PlayerStates interface {
	PutPlayerState(ctx context.Context, playerID string, state []byte, at time.Time, ttl time.Duration) (memory.PlayerState, bool, error)
	PlayerState(ctx context.Context, playerID string) (memory.PlayerState, error)
}

// playerStateReply answers a push.
type playerStateReply struct {
	PlayerID  string    `json:"player_id"`
	UpdatedAt time.Time `json:"updated_at"`
	Version   string    `json:"version"`
	// Applied is false when the stored state was pushed later than this
	// one, which then changed nothing.
	Applied bool `json:"applied"`
}

// adminPlayerState is GET /admin/players/:player_id/state.
type adminPlayerState struct {
	PlayerID  string          `json:"player_id"`
	UpdatedAt time.Time       `json:"updated_at"`
	Version   string          `json:"version"`
	State     json.RawMessage `json:"state"`
}

// putPlayerState is the game server telling who a player is: a signed JSON
// object stored for every session of that player. The signature is checked
// on the raw body before anything is parsed, as for screen events.
func (s *Server) putPlayerState(c *gin.Context) {
	if s.opts.WebhookSecret == "" {
		s.fail(c, httpErr(http.StatusForbidden, "webhook_disabled", "player state pushes are disabled: WEBHOOK_SECRET is not set", nil))
		return
	}
	if s.deps.Players == nil || s.deps.Replay == nil {
		s.fail(c, errUnavailable("player state"))
		return
	}
	tooBig := httpErr(http.StatusRequestEntityTooLarge, "body_too_large", "a player state is limited to 256 KiB", nil)
	if c.Request.ContentLength > MaxPlayerStateBytes {
		s.fail(c, tooBig)
		return
	}
	body, err := io.ReadAll(io.LimitReader(c.Request.Body, MaxPlayerStateBytes+1))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			s.fail(c, tooBig)
			return
		}
		s.fail(c, httpErr(http.StatusBadRequest, "bad_body", "could not read the request body", err))
		return
	}
	if len(body) > MaxPlayerStateBytes {
		s.fail(c, tooBig)
		return
	}
	sig, err := verifySignature(s.opts.WebhookSecret, body, c.GetHeader("X-Signature"), s.opts.Now(), s.opts.WebhookTolerance)
	if err != nil {
		s.fail(c, err)
		return
	}
	playerID := c.Param("player_id")
	if !memory.ValidPlayerID(playerID) {
		s.fail(c, httpErr(http.StatusBadRequest, "bad_player_id", "player_id must be 1 to 128 bytes without spaces, control characters or braces", nil))
		return
	}
	state, err := playerObject(c, body)
	if err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	keep := sig.at.Add(s.opts.WebhookTolerance).Sub(s.opts.Now()) + time.Second
	key := "player:" + sig.mac
	use, err := s.deps.Replay.Claim(ctx, key, keep)
	if err != nil {
		s.fail(c, err)
		return
	}
	if use != memory.UseFirst {
		s.fail(c, httpErr(http.StatusUnauthorized, "signature_replayed", "this signature was already accepted; sign each delivery anew", nil))
		return
	}
	ps, applied, err := s.deps.Players.PutPlayerState(ctx, playerID, state, sig.at, s.opts.PlayerStateTTL)
	if err != nil {
		s.deps.Replay.Forget(context.WithoutCancel(ctx), key)
		s.fail(c, err)
		return
	}
	if err := s.deps.Replay.Settle(context.WithoutCancel(ctx), key); err != nil {
		// A retry of this push is refused as a replay either way.
		s.log.WarnContext(ctx, "player state: settle delivery", "error", err.Error(), "request_id", requestID(c))
	}
	c.JSON(http.StatusOK, playerStateReply{PlayerID: playerID, UpdatedAt: ps.UpdatedAt, Version: ps.Version, Applied: applied})
}

// playerObject checks a pushed state (JSON, UTF-8, an object, at most 32
// levels deep) and returns it compacted.
func playerObject(c *gin.Context, body []byte) ([]byte, error) {
	if ct := c.GetHeader("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return nil, httpErr(http.StatusUnsupportedMediaType, "unsupported_media_type", "Content-Type must be application/json", err)
		}
	}
	bad := func(msg string) error { return httpErr(http.StatusBadRequest, "bad_player_state", msg, nil) }
	t := bytes.TrimSpace(body)
	switch {
	case len(t) == 0:
		return nil, bad("the player state is empty; send a JSON object")
	case !utf8.Valid(t):
		return nil, bad("the player state is not valid UTF-8")
	case !json.Valid(t):
		return nil, bad("the player state is not valid JSON")
	case t[0] != '{':
		return nil, bad("the player state must be a JSON object")
	}
	if err := checkDepth(t, maxJSONDepth); err != nil {
		return nil, bad(err.Error())
	}
	var out bytes.Buffer
	if err := json.Compact(&out, t); err != nil {
		return nil, bad("the player state is not valid JSON")
	}
	return out.Bytes(), nil
}

// adminPlayerState shows one player's stored state.
func (s *Server) adminPlayerState(c *gin.Context) {
	if s.deps.Players == nil {
		s.fail(c, errUnavailable("player state"))
		return
	}
	id := c.Param("player_id")
	ps, err := s.deps.Players.PlayerState(c.Request.Context(), id)
	if err != nil {
		if errors.Is(err, memory.ErrNotFound) {
			s.fail(c, httpErr(http.StatusNotFound, "not_found", "this player has no state", err))
			return
		}
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, adminPlayerState{PlayerID: ps.PlayerID, UpdatedAt: ps.UpdatedAt, Version: ps.Version, State: ps.State})
}
