package memory

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrBadCursor is returned by Recent for a cursor it did not issue.
var ErrBadCursor = errors.New("memory: bad cursor")

// maxPlayerSessions bounds how many of one player's sessions Recent reads.
const maxPlayerSessions = 1000

// RecentQuery selects a page of sessions by last activity, newest first.
type RecentQuery struct {
	// Limit is the page size (1..100).
	Limit int
	// Cursor is a previous page's NextCursor, "" for the first page.
	Cursor string
	// PlayerID keeps only that player's sessions when set.
	PlayerID string
}

// RecentSession is one session of a page with its last activity.
type RecentSession struct {
	Meta
	LastActive time.Time `json:"last_active"`
}

// RecentPage is one page of sessions; NextCursor is "" on the last page.
type RecentPage struct {
	Sessions   []RecentSession
	NextCursor string
}

// playerKey is the sorted set of one player's session ids (score: creation
// time). Like the active index it is a single key, so it works on Redis
// Cluster; ids of expired sessions are pruned when it is read.
func (s *Store) playerKey(playerID string) string { return s.opts.Prefix + ":player:" + playerID }

// indexPlayer records a new session under its player.
func (s *Store) indexPlayer(ctx context.Context, m Meta) {
	if m.PlayerID == "" {
		return
	}
	key := s.playerKey(m.PlayerID)
	pipe := s.rdb.Pipeline()
	pipe.ZAdd(ctx, key, redis.Z{Score: float64(m.CreatedAt.UnixMilli()), Member: m.ID})
	// Bounded: only the newest sessions are listed anyway; and it lives
	// as long as its newest session can (each turn renews that).
	pipe.ZRemRangeByRank(ctx, key, 0, -maxPlayerSessions-1)
	pipe.PExpire(ctx, key, s.opts.SessionTTL)
	_, err := pipe.Exec(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "memory: index session by player", "session", m.ID, "err", err)
	}
}

type scored struct {
	id    string
	score int64
}

// after reports whether a comes after the cursor position c in the
// newest-first order (score descending, then id descending).
func (a scored) after(c scored) bool {
	return a.score < c.score || (a.score == c.score && a.id < c.id)
}

func encodeCursor(c scored) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(c.score, 10) + ":" + c.id))
}

func decodeCursor(raw string) (scored, error) {
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return scored{}, ErrBadCursor
	}
	ms, id, ok := strings.Cut(string(b), ":")
	n, err := strconv.ParseInt(ms, 10, 64)
	if !ok || err != nil || !validID(id) {
		return scored{}, ErrBadCursor
	}
	return scored{id: id, score: n}, nil
}

// Recent lists sessions by last activity (any write: creation, a turn, a
// screen), newest first, from the active index; with PlayerID set, only
// that player's sessions. Sessions past SessionTTL are left out.
func (s *Store) Recent(ctx context.Context, q RecentQuery) (RecentPage, error) {
	if q.Limit < 1 || q.Limit > 100 {
		return RecentPage{}, fmt.Errorf("memory: recent: limit %d, want 1..100", q.Limit)
	}
	var from *scored
	if q.Cursor != "" {
		c, err := decodeCursor(q.Cursor)
		if err != nil {
			return RecentPage{}, err
		}
		from = &c
	}
	cutoff := s.opts.Now().Add(-s.opts.SessionTTL).UnixMilli()
	if err := s.rdb.ZRemRangeByScore(ctx, s.activeKey(), "-inf", "("+strconv.FormatInt(cutoff, 10)).Err(); err != nil {
		return RecentPage{}, fmt.Errorf("memory: recent: %w", redisErr(err))
	}
	var (
		cands []scored
		err   error
	)
	if q.PlayerID != "" {
		cands, err = s.playerCandidates(ctx, q.PlayerID, from, q.Limit+1)
	} else {
		cands, err = s.activeCandidates(ctx, cutoff, from, q.Limit+1)
	}
	if err != nil {
		return RecentPage{}, err
	}
	page := RecentPage{Sessions: []RecentSession{}}
	if len(cands) > q.Limit {
		cands = cands[:q.Limit]
		page.NextCursor = encodeCursor(cands[len(cands)-1])
	}
	metas, err := s.metas(ctx, cands)
	if err != nil {
		return RecentPage{}, err
	}
	for i, c := range cands {
		if m, ok := metas[i]; ok {
			page.Sessions = append(page.Sessions, RecentSession{Meta: m, LastActive: time.UnixMilli(c.score).UTC()})
		}
	}
	return page, nil
}

// activeCandidates reads up to n ids of the active index after from.
func (s *Store) activeCandidates(ctx context.Context, cutoff int64, from *scored, n int) ([]scored, error) {
	maxScore := "+inf"
	if from != nil {
		maxScore = strconv.FormatInt(from.score, 10)
	}
	var out []scored
	for offset := int64(0); len(out) < n; {
		batch, err := s.rdb.ZRevRangeByScoreWithScores(ctx, s.activeKey(), &redis.ZRangeBy{
			Max: maxScore, Min: strconv.FormatInt(cutoff, 10), Offset: offset, Count: int64(n),
		}).Result()
		if err != nil {
			return nil, fmt.Errorf("memory: recent: %w", redisErr(err))
		}
		for _, z := range batch {
			c := scored{id: fmt.Sprint(z.Member), score: int64(z.Score)}
			if (from == nil || c.after(*from)) && len(out) < n {
				out = append(out, c)
			}
		}
		if len(batch) < n {
			break
		}
		offset += int64(len(batch))
	}
	return out, nil
}

// playerCandidates reads up to n of one player's live sessions after from,
// ordered by last activity, pruning ids whose session is gone.
func (s *Store) playerCandidates(ctx context.Context, playerID string, from *scored, n int) ([]scored, error) {
	key := s.playerKey(playerID)
	ids, err := s.rdb.ZRevRange(ctx, key, 0, maxPlayerSessions-1).Result()
	if err != nil {
		return nil, fmt.Errorf("memory: recent: %w", redisErr(err))
	}
	if len(ids) == 0 {
		return nil, nil
	}
	scores, err := s.rdb.ZMScore(ctx, s.activeKey(), ids...).Result()
	if err != nil {
		return nil, fmt.Errorf("memory: recent: %w", redisErr(err))
	}
	var gone []any
	var all []scored
	for i, id := range ids {
		if scores[i] == 0 { // not in the active index: expired
			gone = append(gone, id)
			continue
		}
		all = append(all, scored{id: id, score: int64(scores[i])})
	}
	if len(gone) > 0 {
		if err := s.rdb.ZRem(ctx, key, gone...).Err(); err != nil {
			s.log.WarnContext(ctx, "memory: prune player index", "err", err)
		}
	}
	slices.SortFunc(all, func(a, b scored) int { return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(b.id, a.id)) })
	out := make([]scored, 0, n)
	for _, c := range all {
		if (from == nil || c.after(*from)) && len(out) < n {
			out = append(out, c)
		}
	}
	return out, nil
}

// metas reads the meta of each candidate in one pipeline (split by slot on
// a cluster); a session gone meanwhile is absent from the map.
func (s *Store) metas(ctx context.Context, cands []scored) (map[int]Meta, error) {
	out := make(map[int]Meta, len(cands))
	if len(cands) == 0 {
		return out, nil
	}
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.MapStringStringCmd, len(cands))
	for i, c := range cands {
		cmds[i] = pipe.HGetAll(ctx, s.keys(c.id)[keyMeta])
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fmt.Errorf("memory: recent: %w", redisErr(err))
	}
	for i, cmd := range cmds {
		fields := cmd.Val()
		if len(fields) == 0 {
			continue
		}
		m, err := parseMeta(fields, &s.metaMemo)
		if err != nil {
			s.log.WarnContext(ctx, "memory: recent: damaged meta", "session", cands[i].id, "err", err)
			continue
		}
		out[i] = m
	}
	return out, nil
}
