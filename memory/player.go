package memory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// PlayerState is a player's state as the game server last pushed it: any
// JSON object, with the signed time of the push that stored it and a
// version (a digest of the object) that changes whenever the object does.
type PlayerState struct {
	PlayerID string `json:"player_id"`
	// UpdatedAt is the signed timestamp of the push that stored it.
	UpdatedAt time.Time `json:"updated_at"`
	// Version names the stored object (16 hex digits of its SHA-256).
	Version string `json:"version"`
	// State is the JSON object, byte for byte as pushed.
	State []byte `json:"-"`
}

// ValidPlayerID reports whether id can name a player: 1 to 128 bytes, no
// control characters, spaces or hash-tag braces.
func ValidPlayerID(id string) bool { return validID(id) }

// PlayerVersion is the version of a state object: 16 hex digits of its
// SHA-256.
func PlayerVersion(state []byte) string {
	sum := sha256.Sum256(state)
	return hex.EncodeToString(sum[:8])
}

// playerStateKey is where a player's state lives:
// "<prefix>:pstate:{<player_id>}" (hash-tagged by player, so on Cluster it
// sits in the player's slot, not in any session's).
func (s *Store) playerStateKey(playerID string) string {
	return s.opts.Prefix + ":pstate:{" + playerID + "}"
}

// putPlayerSrc stores a player's state unless the stored one was pushed
// later. The value is "<at_ms> <version> <json>", one string (the smallest
// Redis encoding of it).
// KEYS: the state key. ARGV: at_ms, version, json, ttl_ms.
// Returns {1, at_ms} when stored, {0, stored_at_ms} when the stored state is newer.
const putPlayerSrc = `
local cur = redis.call('GET', KEYS[1])
if cur then
  local at = tonumber(string.match(cur, '^(%d+) '))
  if at and at > tonumber(ARGV[1]) then return {0, at} end
end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2] .. ' ' .. ARGV[3], 'PX', ARGV[4])
return {1, tonumber(ARGV[1])}
`

var putPlayerScript = redis.NewScript(putPlayerSrc)

// PutPlayerState stores state (a JSON object, checked by the caller) for
// playerID as pushed at at, for ttl. A push older than the stored one
// changes nothing: applied is false and the result is the stored state's
// time and version.
func (s *Store) PutPlayerState(ctx context.Context, playerID string, state []byte, at time.Time, ttl time.Duration) (PlayerState, bool, error) {
	if !validID(playerID) {
		return PlayerState{}, false, fmt.Errorf("memory: put player state %q: invalid player id", playerID)
	}
	if ttl < time.Millisecond {
		return PlayerState{}, false, fmt.Errorf("memory: put player state %s: ttl %s too small", playerID, ttl)
	}
	v := PlayerVersion(state)
	res, err := putPlayerScript.Run(ctx, s.rdb, []string{s.playerStateKey(playerID)},
		at.UnixMilli(), v, state, ttl.Milliseconds()).Int64Slice()
	if err != nil {
		return PlayerState{}, false, wrap("put player state", playerID, err)
	}
	if len(res) != 2 {
		return PlayerState{}, false, fmt.Errorf("memory: put player state %s: script returned %d parts", playerID, len(res))
	}
	if res[0] == 1 {
		return PlayerState{PlayerID: playerID, UpdatedAt: time.UnixMilli(res[1]).UTC(), Version: v, State: state}, true, nil
	}
	cur, err := s.PlayerState(ctx, playerID)
	if err != nil {
		return PlayerState{}, false, err
	}
	return cur, false, nil
}

// PlayerState returns a player's stored state, or ErrNotFound.
func (s *Store) PlayerState(ctx context.Context, playerID string) (PlayerState, error) {
	if !validID(playerID) {
		return PlayerState{}, notFound("player state", playerID)
	}
	raw, err := s.rdb.Get(ctx, s.playerStateKey(playerID)).Result()
	if err != nil {
		return PlayerState{}, wrap("player state", playerID, err)
	}
	return parsePlayerState(playerID, raw)
}

// parsePlayerState decodes a stored "<at_ms> <version> <json>" value.
func parsePlayerState(playerID, raw string) (PlayerState, error) {
	atText, rest, ok1 := strings.Cut(raw, " ")
	version, state, ok2 := strings.Cut(rest, " ")
	at, err := strconv.ParseInt(atText, 10, 64)
	if !ok1 || !ok2 || err != nil || version == "" {
		return PlayerState{}, fmt.Errorf("memory: player state %s: %w", playerID, errDamagedPlayer)
	}
	return PlayerState{PlayerID: playerID, UpdatedAt: time.UnixMilli(at).UTC(), Version: version, State: []byte(state)}, nil
}

var errDamagedPlayer = errors.New("stored player state is damaged")

// maxKnownPlayers bounds the session → player memo; past it the memo starts over.
const maxKnownPlayers = 1 << 16

// loadRound runs script (beginSrc or lockBeginSrc) with args on the
// session keys and, in the same pipeline, reads what this instance already
// knows the session will need: its player's state, when the session's
// player is known, and the shared payloads of the cache entries it
// referenced at its last load or write here (renewing their TTL). That is
// one round trip on a single node, and on Cluster (where the player's and
// the payloads' keys are in other slots) one batch sent to the nodes at
// once. Without withPlayer, the player's state is not read. fetched reports whether the state was read (raw is "" when the
// player has none); payloads holds the payload reads, by id.
func (s *Store) loadRound(ctx context.Context, script *redis.Script, withPlayer bool, id string, keys []string, args ...any) (v any, raw string, player string, fetched bool, payloads map[string]*redis.StringCmd, err error) {
	player, known := s.known.Get(id)
	if !withPlayer {
		player, known = "", false
	}
	refs := s.refs.get(id)
	if (!known || player == "") && len(refs) == 0 {
		v, err = script.Run(ctx, s.rdb, keys, args...).Result()
		return v, "", player, known, nil, err
	}
	for _, eval := range []bool{false, true} {
		var sc *redis.Cmd
		var get *redis.StringCmd
		payloads = make(map[string]*redis.StringCmd, len(refs))
		_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			if eval {
				sc = script.Eval(ctx, p, keys, args...)
			} else {
				sc = script.EvalSha(ctx, p, keys, args...)
			}
			if known && player != "" {
				get = p.Get(ctx, s.playerStateKey(player))
			}
			for _, ref := range refs {
				payloads[ref] = s.queuePayloadRead(ctx, p, ref, true)
			}
			return nil
		})
		if err := sc.Err(); err != nil && !eval && redis.HasErrorPrefix(err, "NOSCRIPT") {
			continue // the script is not cached on that node yet: send its text
		}
		v, err = sc.Result()
		if err != nil {
			return nil, "", player, false, nil, err
		}
		if get == nil {
			return v, "", player, known, payloads, nil
		}
		raw, err = get.Result()
		if errors.Is(err, redis.Nil) {
			return v, "", player, true, payloads, nil
		}
		return v, raw, player, err == nil, payloads, err
	}
	return nil, "", player, false, nil, err
}

// attachPlayer sets t.Player from what lockBeginRound read, or reads it
// now when the session's player was not known before (the first turn of
// a session on this instance that never saw it).
func (s *Store) attachPlayer(ctx context.Context, t *Turn, raw, player string, fetched bool) {
	s.known.Put(t.Meta.ID, t.Meta.PlayerID)
	if t.Meta.PlayerID == "" {
		return
	}
	if !fetched || player != t.Meta.PlayerID {
		ps, err := s.PlayerState(ctx, t.Meta.PlayerID)
		if err != nil {
			if !errors.Is(err, ErrNotFound) {
				s.log.WarnContext(ctx, "memory: read player state", "session", t.Meta.ID, "err", err)
			}
			return
		}
		t.Player = &ps
		return
	}
	if raw == "" {
		return
	}
	ps, err := parsePlayerState(t.Meta.PlayerID, raw)
	if err != nil {
		s.log.WarnContext(ctx, "memory: read player state", "session", t.Meta.ID, "err", err)
		return
	}
	t.Player = &ps
}
