package memory

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/internal/memo"
	"github.com/gameassist/gameassist/tool"
)

// ErrNotHeld is returned by Lock.Release and Lock.Refresh when the lock is
// no longer held by its owner (it expired and someone else may hold it).
var ErrNotHeld = errors.New("memory: lock not held")

// maxIDLen bounds session ids; ids come from clients.
const maxIDLen = 128

// Options tunes a Store. Zero values take the defaults.
type Options struct {
	// Prefix starts every key (default "ga"). It must not hold '{' or '}'.
	Prefix string
	// SessionTTL is how long an idle session lives; each turn renews it
	// (default 24h).
	SessionTTL time.Duration
	// HistoryMax is how many history messages are kept (default 200).
	HistoryMax int
	// LockTTL bounds how long a holder that is gone (a crashed instance,
	// a cancelled turn) keeps a session's turn lock; a live holder renews
	// it every third of it (default 6s).
	LockTTL time.Duration
	// LockPoll is the first wait between lock attempts; it doubles up to
	// 50ms (default 5ms).
	LockPoll time.Duration
	// Logger receives warnings about damaged stored data (default: discard).
	Logger *slog.Logger
	// Now is the clock for last-activity scores and creation times
	// (default time.Now).
	Now func() time.Time
	// TurnQuota caps the turns each session may begin (LockAndBegin
	// answers a *RateLimitError past it); the count is kept with the
	// session and checked in the lock's own round trip. Zero: no cap.
	TurnQuota Quota
}

// DefaultLockTTL is Options.LockTTL's default: short, so a session whose
// turn's holder is gone is free again within seconds (a player retrying
// after a crash or a Redis restart waits at most this once).
const DefaultLockTTL = 6 * time.Second

// maxLockPoll caps the backoff between lock attempts.
const maxLockPoll = 50 * time.Millisecond

// Store keeps chat sessions in Redis, shared by every gameassist instance.
// Keys of a session are "<prefix>:{<id>}:<part>" with parts meta (hash),
// history (list of Message JSON, zstd-compressed when smaller, see
// encodeMessage), cache (hash key → entry reference naming a shared
// payload, see payload.go), hits (hash key → count), cexp (sorted set key →
// last exchange served), exchanges and lock; "<prefix>:pl:<id>" are the
// shared payloads of cached results and "<prefix>:active" is a sorted set of
// session ids by last write.
type Store struct {
	rdb    redis.UniversalClient
	opts   Options
	log    *slog.Logger
	script scripts
	// after paces lock renewals (time.AfterFunc's Stop); renewed, when
	// set, hears each renewal's outcome (tests replace both).
	after   func(d time.Duration, f func()) func() bool
	renewed func(error)
	// known remembers each session's player id (it never changes, so the
	// turn that loads a session can fetch its player's state in the same
	// round trip) and refs the shared payloads it referenced (see
	// loadRound).
	known *memo.Map[string, string]
	refs  refMemo
	// z compresses stored messages and payloads.
	z zcodec
	// hist remembers each session's last decoded history, for its next turn.
	hist histMemo
	// pls remembers the shared payloads written or read lately, compressed
	// and not.
	pls payloadMemo
	// metaMemo remembers the summaries and screens of metas it decoded.
	metaMemo metaMemo
	// entryMemo remembers the cache hash values it decoded.
	entryMemo entryMemo
}

// New returns a Store over rdb (a single node, Sentinel or Cluster client).
func New(rdb redis.UniversalClient, opts Options) (*Store, error) {
	if rdb == nil {
		return nil, errors.New("memory: new: nil redis client")
	}
	if opts.Prefix == "" {
		opts.Prefix = "ga"
	}
	if strings.ContainsAny(opts.Prefix, "{}") {
		return nil, fmt.Errorf("memory: new: prefix %q holds a hash tag brace", opts.Prefix)
	}
	if opts.SessionTTL == 0 {
		opts.SessionTTL = 24 * time.Hour
	}
	if opts.HistoryMax == 0 {
		opts.HistoryMax = 200
	}
	if opts.LockTTL == 0 {
		opts.LockTTL = DefaultLockTTL
	}
	if opts.LockPoll == 0 {
		opts.LockPoll = 5 * time.Millisecond
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	switch {
	case opts.SessionTTL < time.Millisecond:
		return nil, fmt.Errorf("memory: new: session TTL %s too small", opts.SessionTTL)
	case opts.HistoryMax < 0:
		return nil, fmt.Errorf("memory: new: negative history max %d", opts.HistoryMax)
	case opts.LockTTL < time.Millisecond:
		return nil, fmt.Errorf("memory: new: lock TTL %s too small", opts.LockTTL)
	case opts.LockPoll < 0:
		return nil, fmt.Errorf("memory: new: negative lock poll %s", opts.LockPoll)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	z, err := newZcodec()
	if err != nil {
		return nil, fmt.Errorf("memory: new: %w", err)
	}
	return &Store{rdb: rdb, opts: opts, log: log, script: newScripts(), after: defaultAfter, z: z,
		known: memo.New[string, string](maxKnownPlayers), pls: newPayloadMemo(), entryMemo: newEntryMemo()}, nil
}

// Turn is what a chat turn starts from.
type Turn struct {
	// Meta.Exchange is the exchange this turn runs as.
	Meta Meta
	// History is the stored history, oldest first; its messages up to
	// SummarizedThrough(Meta, History) have no Context and no Shown. The
	// slice is the caller's; the messages' own slices and pointers (Shown,
	// Tools, About) may be shared with the next turn's: read them only.
	History []Message
	// Cache holds the entries served at this exchange, oldest first.
	Cache []CacheEntry
	// Player is the state of the session's player, nil when the session
	// has no player id or the player has no state.
	Player *PlayerState
}

// Finish is what a chat turn leaves behind.
type Finish struct {
	// Draft, when set, is the turn's first message, encoded ahead by
	// Store.Draft: it is appended before Messages.
	Draft *Draft
	// Messages are appended to the history in order (after Draft's).
	Messages []Message
	// Put stores these cache entries (Duration must be positive).
	Put []CacheEntry
	// Hits names cache keys served from the cache this turn.
	Hits []string
	// Release, when set, is the turn's lease (from LockAndBegin), released
	// in the same round trip.
	Release Lease
	// Screen, when set, becomes the session's screen in the same round
	// trip, before the messages and cache entries: a turn that carried a
	// new screen records it only when it records anything.
	Screen *Screen
	// Versions records tool versions assigned to the session this turn
	// (tool name → version, see Meta.Versions), in the same round trip.
	Versions map[string]int
	// Exchange, when set, is recorded as SaveExchange records it, in the
	// same round trip (its Exchange must be from 1). A failure to record
	// it costs only the rating of that exchange: it is logged and the
	// turn's write stands.
	Exchange *Exchange
	// SummaryThrough, when set, receives the last exchange the session's
	// stored summary covers (0: none), as the write found it: past the
	// one the turn read, a summary fold saved while the turn ran.
	SummaryThrough *int
}

func validID(id string) bool {
	if id == "" || len(id) > maxIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c <= ' ' || c == '{' || c == '}' || c == 0x7f {
			return false
		}
	}
	return true
}

func (s *Store) keys(id string) []string {
	base := s.opts.Prefix + ":{" + id + "}:"
	// Room for the keys scripts take after the session's (finishKeys, lockAnd).
	ks := make([]string, numSessionKeys, numSessionKeys+2)
	ks[keyMeta] = base + "meta"
	ks[keyHistory] = base + "history"
	ks[keyCache] = base + "cache"
	ks[keyHits] = base + "hits"
	ks[keyExpiry] = base + "cexp"
	return ks
}

func (s *Store) lockKey(id string) string { return s.opts.Prefix + ":{" + id + "}:lock" }

// quotaKey is the session's sliding log of turn times (Options.TurnQuota).
func (s *Store) quotaKey(id string) string { return s.opts.Prefix + ":{" + id + "}:quota" }

func (s *Store) activeKey() string { return s.opts.Prefix + ":active" }

func (s *Store) ttlMillis() int64 { return s.opts.SessionTTL.Milliseconds() }

// historyKept is how many messages a session's history list keeps: the
// window and chainMax more, so the window's first chain is whole.
func (s *Store) historyKept() int { return s.opts.HistoryMax + chainMax }

// notFound is the error for an id that cannot name a stored session.
func notFound(op, id string) error {
	return fmt.Errorf("memory: %s %q: %w", op, id, ErrNotFound)
}

// wrap adds the operation to err and maps redis.Nil to ErrNotFound.
func wrap(op, id string, err error) error {
	if errors.Is(err, redis.Nil) {
		err = ErrNotFound
	}
	return fmt.Errorf("memory: %s %s: %w", op, id, redisErr(err))
}

// Ping checks that Redis answers, for readiness probes.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("memory: ping: %w", redisErr(err))
	}
	return nil
}

// CreateSession stores a new session from m (ID, TokenHash, Locale,
// PlayerID, CreatedAt; Exchange starts at 0). It fails if the id exists.
func (s *Store) CreateSession(ctx context.Context, m Meta) error {
	if !validID(m.ID) {
		return fmt.Errorf("memory: create %q: invalid session id", m.ID)
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = s.opts.Now()
	}
	// The meta keeps "id" although its key names the session: earlier
	// versions refuse a meta without it (rolling upgrades). An empty player
	// id is not stored.
	args := []any{
		s.ttlMillis(),
		"id", m.ID,
		"locale", m.Locale,
		"token_hash", m.TokenHash,
		"created_at", m.CreatedAt.UTC().Format(time.RFC3339Nano),
		"exchange", 0,
	}
	if m.PlayerID != "" {
		args = append(args, "player_id", m.PlayerID)
	}
	if m.Screen != nil {
		b, err := json.Marshal(m.Screen)
		if err != nil {
			return fmt.Errorf("memory: create %s: encode screen: %w", m.ID, err)
		}
		args = append(args, "screen", string(b))
	}
	created, err := s.script.create.Run(ctx, s.rdb, s.keys(m.ID), args...).Int()
	if err != nil {
		return wrap("create", m.ID, err)
	}
	if created == 0 {
		return fmt.Errorf("memory: create %s: session exists", m.ID)
	}
	s.touch(ctx, m.ID)
	s.indexPlayer(ctx, m)
	s.known.Put(m.ID, m.PlayerID)
	return nil
}

// touch records id as active. Failing to do so only skews ActiveSessions,
// so it is logged, not returned.
func (s *Store) touch(ctx context.Context, id string) {
	pipe := s.rdb.Pipeline()
	s.markActive(ctx, pipe, id, nil)
	_, err := pipe.Exec(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "memory: mark session active", "session", id, "err", err)
	}
}

// markActive queues, on pipe, the write that records id as active (its
// result is returned) and the renewal of the indexes' TTLs: the active
// index and, with lock taken with the session's meta, the player's index
// live as long as their newest session can.
func (s *Store) markActive(ctx context.Context, pipe redis.Pipeliner, id string, lock *Lock) *redis.IntCmd {
	active := pipe.ZAdd(ctx, s.activeKey(), redis.Z{Score: float64(s.opts.Now().UnixMilli()), Member: id})
	pipe.PExpire(ctx, s.activeKey(), s.opts.SessionTTL)
	if lock != nil && lock.player != "" {
		pipe.PExpire(ctx, s.playerKey(lock.player), s.opts.SessionTTL)
	}
	return active
}

// Session returns a session's meta, or ErrNotFound.
func (s *Store) Session(ctx context.Context, id string) (Meta, error) {
	if !validID(id) {
		return Meta{}, notFound("session", id)
	}
	fields, err := s.rdb.HGetAll(ctx, s.keys(id)[keyMeta]).Result()
	if err != nil {
		return Meta{}, wrap("session", id, err)
	}
	if len(fields) == 0 {
		return Meta{}, notFound("session", id)
	}
	m, err := parseMeta(fields, &s.metaMemo)
	if err != nil {
		return Meta{}, wrap("session", id, err)
	}
	s.known.Put(id, m.PlayerID)
	return m, nil
}

// BeginTurn advances the session's exchange counter, drops cache entries
// past their last exchange, renews the session's TTL and returns the meta,
// the history window and the live cache, in one round trip.
func (s *Store) BeginTurn(ctx context.Context, id string) (Turn, error) {
	if !validID(id) {
		return Turn{}, notFound("begin turn", id)
	}
	read, known := s.hist.known(id)
	v, _, _, _, payloads, err := s.loadRound(ctx, s.script.begin, false, id, s.keys(id), s.ttlMillis(), s.historyKept(), known)
	if err != nil {
		return Turn{}, wrap("begin turn", id, err)
	}
	res, ok := v.([]any)
	if !ok {
		return Turn{}, fmt.Errorf("memory: begin turn %s: script returned %T", id, v)
	}
	t, _, err := s.parseTurnChain(ctx, id, res, payloads, read, true)
	return t, err
}

// turnLoad is what parseTurnChain decodes beside the Turn: the history's
// last chain and the read of it the session's memo now holds.
type turnLoad struct {
	chain chain
	read  *histRead
}

// parseTurnChain decodes beginSrc's answer; payloads are the shared
// payload reads the load's pipeline made (by id), the others are read
// now. read is the session's read whose last element the load named as
// known: when the answer says the list is unchanged, its list is the
// history. It also returns the history's last chain and the new read.
// Without withHistory (a load that does not advance, whose answer holds
// no history), the history is left empty and the memo alone.
func (s *Store) parseTurnChain(ctx context.Context, id string, res []any, payloads map[string]*redis.StringCmd, read *histRead, withHistory bool) (Turn, turnLoad, error) {
	if len(res) != 4 && len(res) != 5 {
		return Turn{}, turnLoad{}, fmt.Errorf("memory: begin turn %s: script returned %d parts", id, len(res))
	}
	unchanged := false
	if len(res) == 5 {
		n, ok := res[4].(int64)
		if !ok {
			return Turn{}, turnLoad{}, fmt.Errorf("memory: begin turn %s: script returned %T for unchanged", id, res[4])
		}
		unchanged = n == 1
		res = res[:4]
	}
	if unchanged && read == nil {
		return Turn{}, turnLoad{}, fmt.Errorf("memory: begin turn %s: history unchanged from no known read", id)
	}
	var err error
	parts := make([][]string, len(res))
	for i, r := range res {
		if parts[i], err = strs(r); err != nil {
			return Turn{}, turnLoad{}, fmt.Errorf("memory: begin turn %s: %w", id, err)
		}
	}
	if unchanged {
		parts[1] = read.tail(s.historyKept())
	}
	meta, err := parseMeta(pairs(parts[0]), &s.metaMemo)
	if err != nil {
		return Turn{}, turnLoad{}, fmt.Errorf("memory: begin turn %s: %w", id, err)
	}
	summary := 0
	if meta.Summary != nil {
		summary = meta.Summary.Through
	}
	var history []Message
	var load turnLoad
	if withHistory {
		if history, load.chain, load.read, err = s.z.turnHistory(&s.hist, id, parts[1], s.opts.HistoryMax, summary); err != nil {
			return Turn{}, turnLoad{}, fmt.Errorf("memory: begin turn %s: %w", id, err)
		}
	}
	cache, err := s.loadEntries(ctx, id, pairs(parts[2]), pairs(parts[3]), payloads, true)
	if err != nil {
		return Turn{}, turnLoad{}, fmt.Errorf("memory: begin turn %s: %w", id, err)
	}
	slices.SortFunc(cache, func(a, b CacheEntry) int {
		return cmp.Or(cmp.Compare(a.CachedAt, b.CachedAt), strings.Compare(a.Key, b.Key))
	})
	return Turn{Meta: meta, History: history, Cache: cache}, load, nil
}

// loadEntries decodes a session's cache hash (key → stored value) with
// its hit counts and fills the references from their shared payloads
// (payloads: those already read). For a turn (forTurn), reading renews
// the payloads' TTL, a damaged entry is left out (a miss) and the payloads
// the entries reference are remembered for the session's next load; for
// the admin view, a damaged entry is an error. Either way an entry whose
// payload is gone is left out, a miss.
func (s *Store) loadEntries(ctx context.Context, id string, raw, hits map[string]string, payloads map[string]*redis.StringCmd, forTurn bool) ([]CacheEntry, error) {
	cache := make([]CacheEntry, 0, len(raw))
	var pending []pendingEntry
	refs := make([]string, 0, len(raw))
	for key, js := range raw {
		e, payload, err := parseEntry(key, js, hits[key], &s.entryMemo)
		if err != nil && !forTurn {
			return nil, err
		}
		if err != nil {
			// A damaged entry costs only a re-run of its tool; keep the
			// session usable.
			s.log.WarnContext(ctx, "memory: skip damaged cache entry", "session", id, "key", key, "err", err)
			continue
		}
		if payload == "" {
			cache = append(cache, e)
			continue
		}
		pending = append(pending, pendingEntry{entry: e, payload: payload})
		if !slices.Contains(refs, payload) {
			refs = append(refs, payload)
		}
	}
	filled, err := s.fillPayloads(ctx, id, pending, payloads, forTurn)
	if err != nil {
		return nil, err
	}
	if forTurn {
		s.refs.set(id, refs)
	}
	return append(cache, filled...), nil
}

// FinishTurn appends the turn's messages, stores its new cache entries and
// counts its cache hits, in one round trip.
func (s *Store) FinishTurn(ctx context.Context, id string, f Finish) error {
	if !validID(id) {
		return notFound("finish turn", id)
	}
	release, err := s.heldLock("finish turn", id, f.Release)
	if err != nil {
		return err
	}
	x, err := s.encodeExchange(f.Exchange)
	if err != nil {
		return fmt.Errorf("memory: finish turn %s: %w", id, err)
	}
	msgs := f.Messages
	if f.Draft != nil {
		msgs = append([]Message{f.Draft.msg}, f.Messages...)
	}
	// A turn that sets the screen releases its lock after the screen's
	// script (see saveScreen); any other, in finishSrc.
	owner := ""
	if release != nil && f.Screen == nil {
		owner = release.owner
	}
	args := s.finishHead(make([]any, 0, 12+2*len(msgs)+4*len(f.Put)+len(f.Hits)+2*len(f.Versions)), owner, x)
	args = append(args, len(msgs))
	var enc encoded
	if len(msgs) > 0 {
		var c chain
		if release != nil {
			c = release.chain
		}
		e, err := s.encodeTurn(f.Draft, release, c, msgs)
		if err != nil {
			return fmt.Errorf("memory: finish turn %s: encode message: %w", id, err)
		}
		enc = e
		whole, after := e.whole, e.after
		if after == nil {
			args = append(args, "")
			for _, w := range whole {
				args = append(args, w)
			}
		} else {
			args = append(args, c.last)
			for i := range whole {
				args = append(args, after[i], whole[i])
			}
		}
	}
	args, pls, err := s.appendPuts(args, f.Put)
	if err != nil {
		return fmt.Errorf("memory: finish turn %s: %w", id, err)
	}
	args = appendHits(args, f.Hits)
	if args, err = appendVersions(args, f.Versions); err != nil {
		return fmt.Errorf("memory: finish turn %s: %w", id, err)
	}
	var fin finishReply
	if f.Screen != nil {
		err = s.saveScreen(ctx, "finish turn", id, f.Screen, nil, args, pls, release, &fin)
	} else {
		err = s.writeAndRelease(ctx, "finish turn", id, args, pls, release, &fin)
	}
	if err == nil && f.SummaryThrough != nil {
		*f.SummaryThrough = fin.summaryThrough
	}
	if err == nil && fin.appended == finishAfter && enc.after != nil && release != nil {
		// The list is the one the turn loaded and the after forms.
		s.hist.appended(id, release.read, enc.after, msgs, enc.texts, enc.next)
	}
	return err
}

// encodeTurn encodes a turn's messages (msgs, d's first when d is set)
// after chain c, going on from d's encoding when it was made under lock
// and a message follows it.
func (s *Store) encodeTurn(d *Draft, lock *Lock, c chain, msgs []Message) (encoded, error) {
	m := d.take(lock, len(msgs) > 1)
	if m == nil {
		return s.z.encodeMessages(msgs, c)
	}
	return m.addAll(msgs[1:])
}

// finishAfter is finishSrc's appended answer when it appended the after
// forms.
const finishAfter = 2

// finishReply is finishSrc's answer: appended (finishAfter when the
// "after" forms went in), the stored summary's last exchange and whether
// it released the lock.
type finishReply struct {
	appended       int64
	summaryThrough int
	released       bool
}

// parseFinish reads finishSrc's answer from cmd.
func parseFinish(cmd *redis.Cmd) (finishReply, error) {
	vals, err := cmd.Int64Slice()
	if err != nil {
		return finishReply{}, err
	}
	if len(vals) != 3 {
		return finishReply{}, fmt.Errorf("finish script answered %d values, want 3", len(vals))
	}
	return finishReply{appended: vals[0], summaryThrough: int(vals[1]), released: vals[2] == 1}, nil
}

// PutCache stores cache entries for a session outside a turn. Entries need
// a key and a positive Duration (error results are never cached).
func (s *Store) PutCache(ctx context.Context, id string, entries ...CacheEntry) error {
	if !validID(id) {
		return notFound("put cache", id)
	}
	args, pls, err := s.appendPuts(append(s.finishHead(nil, "", nil), 0), entries)
	if err != nil {
		return fmt.Errorf("memory: put cache %s: %w", id, err)
	}
	return s.writeAndRelease(ctx, "put cache", id, append(args, 0, 0), pls, nil, nil)
}

// appendPuts adds finishSrc's cache arguments (the count, then key,
// reference, last exchange and hits of each entry) and returns the shared
// payloads the references name, to be written in the same pipeline.
func (s *Store) appendPuts(args []any, entries []CacheEntry) ([]any, []payloadWrite, error) {
	pls := make([]payloadWrite, 0, len(entries))
	args = append(args, len(entries))
	for _, e := range entries {
		switch {
		case e.Key == "":
			return nil, nil, fmt.Errorf("cache entry for %s without key", e.Tool)
		case e.Duration <= 0:
			return nil, nil, fmt.Errorf("cache entry %s: duration %d, want > 0", e.Key, e.Duration)
		case e.CachedAt < 0:
			return nil, nil, fmt.Errorf("cache entry %s: negative exchange %d", e.Key, e.CachedAt)
		}
		ref, pl, err := s.encodeEntry(e)
		if err != nil {
			return nil, nil, err
		}
		pls = append(pls, pl)
		// Hits are counted in the hits hash.
		args = append(args, e.Key, ref, e.ExpiresAfter(), e.Hits)
	}
	return args, pls, nil
}

// appendHits adds finishSrc's hit arguments: the count, then the keys.
func appendHits(args []any, hits []string) []any {
	args = append(args, len(hits))
	for _, h := range hits {
		args = append(args, h)
	}
	return args
}

// versionField starts the meta fields holding assigned tool versions.
const versionField = "version:"

// appendVersions adds finishSrc's version arguments: the count, then tool
// and version pairs in name order. Tool names and versions come from the
// registry; they are checked anyway, as the field names are built from them.
func appendVersions(args []any, versions map[string]int) ([]any, error) {
	names := slices.Sorted(maps.Keys(versions))
	args = append(args, len(names))
	for _, name := range names {
		v := versions[name]
		if name == "" || len(name) > maxToolName || v < 1 {
			return nil, fmt.Errorf("tool version %q=%d: want a tool name of 1 to %d bytes and a version from 1", tool.Clip(name, 40), v, maxToolName)
		}
		args = append(args, name, v)
	}
	return args, nil
}

// maxToolName bounds a tool name recorded with its version.
const maxToolName = 200

// finishHead starts finishSrc's arguments on args: the TTL, the history
// kept, the owner of the lock the script releases ("": none) and the
// exchange record x (nil: none).
func (s *Store) finishHead(args []any, owner string, x *exchangeRecord) []any {
	args = append(args, s.ttlMillis(), s.historyKept(), owner)
	if x == nil {
		return append(args, 0, "", 0)
	}
	return append(args, x.n, x.val, s.exchangesKept())
}

// finishKeys are finishSrc's keys for session id: the session's, its
// exchanges hash and its lock, all under the session's hash tag.
func (s *Store) finishKeys(id string) []string {
	return append(s.keys(id), s.exchangesKey(id), s.lockKey(id))
}

// writeAndRelease writes the shared payloads pls, runs finishSrc (which
// records the exchange and releases lock when args name them) and marks
// the session active, in one pipeline; fin (when not nil) gets finishSrc's
// answer.
func (s *Store) writeAndRelease(ctx context.Context, op, id string, args []any, pls []payloadWrite, lock *Lock, fin *finishReply) error {
	keys := s.finishKeys(id)
	pipe := s.rdb.Pipeline()
	s.queuePayloadWrites(ctx, pipe, pls)
	res := s.script.finish.EvalSha(ctx, pipe, keys, args...)
	active := s.markActive(ctx, pipe, id, lock)
	_, _ = pipe.Exec(ctx)
	answer, err := parseFinish(res)
	if redis.HasErrorPrefix(err, "NOSCRIPT") {
		answer, err = parseFinish(s.script.finish.Eval(ctx, s.rdb, keys, args...))
	}
	if fin != nil {
		*fin = answer
	}
	// The script released the lock, or found no session and released the
	// lock if it was still the turn's: either way the turn holds none.
	if lock != nil && (answer.released || errors.Is(err, redis.Nil)) {
		lock.released.Store(true)
		lock.done()
	}
	if errors.Is(err, redis.Nil) {
		// Do not leave a vanished session counted as active.
		if zerr := s.rdb.ZRem(ctx, s.activeKey(), id).Err(); zerr != nil {
			s.log.WarnContext(ctx, "memory: unmark session active", "session", id, "err", zerr)
		}
		return notFound(op, id)
	}
	if err != nil {
		return wrap(op, id, err)
	}
	s.refs.add(id, payloadIDs(pls))
	if err := active.Err(); err != nil {
		s.log.WarnContext(ctx, "memory: mark session active", "session", id, "err", err)
	}
	return nil
}

// ScreenSave is what a screen event leaves behind.
type ScreenSave struct {
	// Screen becomes the session's screen; nil clears it.
	Screen *Screen
	// Put stores the proactive results (Duration must be positive).
	Put []CacheEntry
	// Hits names cache keys the screen's rules were served from, counted
	// as a turn's hits are.
	Hits []string
	// Release, when set, is the event's lease (from LockAndLoad), released
	// in the same round trip.
	Release Lease
	// Versions records tool versions assigned to the session by the
	// screen's calls (tool name → version, see Meta.Versions).
	Versions map[string]int
	// Event, when set, becomes Meta.ScreenEvent: the order of this screen
	// event, against which later events are ordered.
	Event *ScreenEvent
}

// SaveScreen stores a screen event's outcome in one round trip: the
// screen (with its injection), the proactive cache entries, the hits on
// entries that still exist and, when w.Release is set, the release of the
// event's lock.
func (s *Store) SaveScreen(ctx context.Context, id string, w ScreenSave) error {
	if !validID(id) {
		return notFound("save screen", id)
	}
	release, err := s.heldLock("save screen", id, w.Release)
	if err != nil {
		return err
	}
	var args []any
	var pls []payloadWrite
	if len(w.Put) > 0 || len(w.Hits) > 0 || len(w.Versions) > 0 {
		if args, pls, err = s.appendPuts(append(s.finishHead(nil, "", nil), 0), w.Put); err != nil {
			return fmt.Errorf("memory: save screen %s: %w", id, err)
		}
		args = appendHits(args, w.Hits)
		if args, err = appendVersions(args, w.Versions); err != nil {
			return fmt.Errorf("memory: save screen %s: %w", id, err)
		}
	}
	return s.saveScreen(ctx, "save screen", id, w.Screen, w.Event, args, pls, release, nil)
}

// saveScreen writes the shared payloads pls, runs finishSrc with args
// (when not nil; they release no lock), sets the session's screen and
// releases release (when not nil), in one round trip. A turn's write (op
// "finish turn") also marks the session active; fin (when not nil) gets
// finishSrc's answer.
func (s *Store) saveScreen(ctx context.Context, op, id string, sc *Screen, ev *ScreenEvent, args []any, pls []payloadWrite, release *Lock, fin *finishReply) error {
	val, event := "", ""
	if sc != nil {
		b, err := json.Marshal(sc)
		if err != nil {
			return fmt.Errorf("memory: %s %s: %w", op, id, err)
		}
		val = string(b)
	}
	if ev != nil {
		b, err := json.Marshal(ev)
		if err != nil {
			return fmt.Errorf("memory: %s %s: %w", op, id, err)
		}
		event = string(b)
	}
	keys := s.finishKeys(id)
	pipe := s.rdb.Pipeline()
	var finish, unlock *redis.Cmd
	s.queuePayloadWrites(ctx, pipe, pls)
	if args != nil {
		finish = s.script.finish.EvalSha(ctx, pipe, keys, args...)
	}
	scr := s.script.screen.EvalSha(ctx, pipe, keys[:numSessionKeys], val, event)
	var active *redis.IntCmd
	if op == "finish turn" {
		active = s.markActive(ctx, pipe, id, release)
	}
	if release != nil {
		unlock = s.script.unlock.EvalSha(ctx, pipe, []string{release.key}, release.owner)
	}
	_, _ = pipe.Exec(ctx)
	// A script not yet loaded in this Redis is sent whole, once.
	retry := func(cmd *redis.Cmd, script *redis.Script, keys []string, args ...any) error {
		err := cmd.Err()
		if redis.HasErrorPrefix(err, "NOSCRIPT") {
			err = script.Run(ctx, s.rdb, keys, args...).Err()
		}
		return err
	}
	var err error
	if finish != nil {
		var answer finishReply
		answer, err = parseFinish(finish)
		if redis.HasErrorPrefix(err, "NOSCRIPT") {
			answer, err = parseFinish(s.script.finish.Run(ctx, s.rdb, keys, args...))
		}
		if fin != nil {
			*fin = answer
		}
	}
	if err == nil {
		err = retry(scr, s.script.screen, keys[:numSessionKeys], val, event)
	}
	if unlock != nil {
		if uerr := retry(unlock, s.script.unlock, []string{release.key}, release.owner); uerr == nil {
			release.released.Store(true)
			release.done()
		}
	}
	if errors.Is(err, redis.Nil) {
		return notFound(op, id)
	}
	if err != nil {
		return wrap(op, id, err)
	}
	s.refs.add(id, payloadIDs(pls))
	if active != nil {
		if err := active.Err(); err != nil {
			s.log.WarnContext(ctx, "memory: mark session active", "session", id, "err", err)
		}
	}
	return nil
}

// FirstUse records key (under the store's prefix, one key per use, so it
// works on Redis Cluster) for ttl with SET NX and reports whether it was
// not recorded yet. Webhook signatures use it against replays.
func (s *Store) FirstUse(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	if ttl < time.Second {
		ttl = time.Second
	}
	ok, err := s.rdb.SetNX(ctx, s.opts.Prefix+":once:"+key, 1, ttl).Result()
	if err != nil {
		return false, fmt.Errorf("memory: first use %s: %w", key, redisErr(err))
	}
	return ok, nil
}

// Forget drops a key recorded by FirstUse; failures are logged.
func (s *Store) Forget(ctx context.Context, key string) {
	if err := s.rdb.Del(ctx, s.opts.Prefix+":once:"+key).Err(); err != nil {
		s.log.WarnContext(ctx, "memory: forget", "key", key, "err", err)
	}
}

// SetScreen records the screen the player is on; nil clears it.
func (s *Store) SetScreen(ctx context.Context, id string, sc *Screen) error {
	if !validID(id) {
		return notFound("set screen", id)
	}
	val := ""
	if sc != nil {
		b, err := json.Marshal(sc)
		if err != nil {
			return fmt.Errorf("memory: set screen %s: %w", id, err)
		}
		val = string(b)
	}
	if err := s.script.screen.Run(ctx, s.rdb, s.keys(id), val).Err(); err != nil {
		return wrap("set screen", id, err)
	}
	return nil
}

// Cache returns every stored cache entry of a session, sorted by key, for
// the admin view (entries past their last exchange stay until the next turn).
func (s *Store) Cache(ctx context.Context, id string) ([]CacheEntry, error) {
	if !validID(id) {
		return nil, notFound("cache", id)
	}
	keys := s.keys(id)
	pipe := s.rdb.Pipeline()
	exists := pipe.Exists(ctx, keys[keyMeta])
	entries := pipe.HGetAll(ctx, keys[keyCache])
	hits := pipe.HGetAll(ctx, keys[keyHits])
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, wrap("cache", id, err)
	}
	if exists.Val() == 0 {
		return nil, notFound("cache", id)
	}
	out, err := s.loadEntries(ctx, id, entries.Val(), hits.Val(), nil, false)
	if err != nil {
		return nil, fmt.Errorf("memory: cache %s: %w", id, err)
	}
	slices.SortFunc(out, func(a, b CacheEntry) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// CacheEntry returns one stored cache entry, or ErrNotFound.
func (s *Store) CacheEntry(ctx context.Context, id, key string) (CacheEntry, error) {
	if !validID(id) {
		return CacheEntry{}, notFound("cache entry", id)
	}
	keys := s.keys(id)
	pipe := s.rdb.Pipeline()
	entry := pipe.HGet(ctx, keys[keyCache], key)
	hits := pipe.HGet(ctx, keys[keyHits], key)
	_, _ = pipe.Exec(ctx)
	if err := entry.Err(); err != nil {
		return CacheEntry{}, wrap("cache entry", id+" "+key, err)
	}
	if err := hits.Err(); err != nil && !errors.Is(err, redis.Nil) {
		return CacheEntry{}, wrap("cache entry", id+" "+key, err)
	}
	es, err := s.loadEntries(ctx, id, map[string]string{key: entry.Val()}, map[string]string{key: hits.Val()}, nil, false)
	if err != nil {
		return CacheEntry{}, fmt.Errorf("memory: cache entry %s %s: %w", id, key, err)
	}
	if len(es) == 0 {
		// Its shared payload is gone: the entry is a miss.
		return CacheEntry{}, fmt.Errorf("memory: cache entry %s %s: %w", id, key, ErrNotFound)
	}
	return es[0], nil
}

// DeleteCache removes one cache entry, or returns ErrNotFound.
func (s *Store) DeleteCache(ctx context.Context, id, key string) error {
	if !validID(id) {
		return notFound("delete cache", id)
	}
	keys := s.keys(id)
	var deleted *redis.IntCmd
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		deleted = p.HDel(ctx, keys[keyCache], key)
		p.HDel(ctx, keys[keyHits], key)
		p.ZRem(ctx, keys[keyExpiry], key)
		return nil
	})
	if err != nil {
		return wrap("delete cache", id+" "+key, err)
	}
	if deleted.Val() == 0 {
		return fmt.Errorf("memory: delete cache %s %s: %w", id, key, ErrNotFound)
	}
	return nil
}

// ClearCache removes every cache entry of a session and says how many.
func (s *Store) ClearCache(ctx context.Context, id string) (int, error) {
	if !validID(id) {
		return 0, notFound("clear cache", id)
	}
	keys := s.keys(id)
	var exists, n *redis.IntCmd
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		exists = p.Exists(ctx, keys[keyMeta])
		n = p.HLen(ctx, keys[keyCache])
		p.Del(ctx, keys[keyCache], keys[keyHits], keys[keyExpiry])
		return nil
	})
	if err != nil {
		return 0, wrap("clear cache", id, err)
	}
	if exists.Val() == 0 {
		return 0, notFound("clear cache", id)
	}
	return int(n.Val()), nil
}

// SaveSummary stores a session's rolling summary unless the stored one
// already covers sm.Through or later (a slower writer never undoes a newer
// summary). It reports whether it stored. An unknown session is ErrNotFound.
func (s *Store) SaveSummary(ctx context.Context, id string, sm Summary) (bool, error) {
	if !validID(id) {
		return false, notFound("save summary", id)
	}
	b, err := json.Marshal(sm)
	if err != nil {
		return false, fmt.Errorf("memory: save summary %s: %w", id, err)
	}
	n, err := s.script.summary.Run(ctx, s.rdb, s.keys(id)[:1], sm.Through, string(b)).Int()
	if err != nil {
		return false, wrap("save summary", id, err)
	}
	if n < 0 {
		return false, notFound("save summary", id)
	}
	return n == 1, nil
}

// History returns a session's stored history, oldest first.
func (s *Store) History(ctx context.Context, id string) ([]Message, error) {
	if !validID(id) {
		return nil, notFound("history", id)
	}
	keys := s.keys(id)
	pipe := s.rdb.Pipeline()
	exists := pipe.Exists(ctx, keys[keyMeta])
	list := pipe.LRange(ctx, keys[keyHistory], 0, -1)
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, wrap("history", id, err)
	}
	if exists.Val() == 0 {
		return nil, notFound("history", id)
	}
	h, _, err := s.z.decodeHistory(list.Val(), s.opts.HistoryMax, 0)
	if err != nil {
		return nil, fmt.Errorf("memory: history %s: %w", id, err)
	}
	return h, nil
}

// ActiveSessions counts sessions written within SessionTTL, across all
// instances, for metrics.
func (s *Store) ActiveSessions(ctx context.Context) (int64, error) {
	cutoff := s.opts.Now().Add(-s.opts.SessionTTL).UnixMilli()
	pipe := s.rdb.Pipeline()
	pipe.ZRemRangeByScore(ctx, s.activeKey(), "-inf", "("+strconv.FormatInt(cutoff, 10))
	n := pipe.ZCard(ctx, s.activeKey())
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, fmt.Errorf("memory: active sessions: %w", redisErr(err))
	}
	return n.Val(), nil
}

// parseMeta decodes a stored meta hash; metas (nil: none) remembers the
// summaries and screens it decoded.
func parseMeta(f map[string]string, metas *metaMemo) (Meta, error) {
	m := Meta{ID: f["id"], PlayerID: f["player_id"], Locale: f["locale"], TokenHash: f["token_hash"]}
	if m.ID == "" {
		return Meta{}, errors.New("stored meta has no id")
	}
	var err error
	if m.Exchange, err = strconv.Atoi(f["exchange"]); err != nil {
		return Meta{}, fmt.Errorf("stored exchange: %w", err)
	}
	if m.CreatedAt, err = time.Parse(time.RFC3339Nano, f["created_at"]); err != nil {
		return Meta{}, fmt.Errorf("stored created_at: %w", err)
	}
	if sm := f["summary"]; sm != "" {
		if metas == nil {
			metas = new(metaMemo)
		}
		if m.Summary, err = metas.summary(sm); err != nil {
			return Meta{}, fmt.Errorf("stored summary: %w", err)
		}
	}
	for k, v := range f {
		tool, ok := strings.CutPrefix(k, versionField)
		if !ok {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			// A damaged assignment only costs a new pick; keep the session.
			continue
		}
		if m.Versions == nil {
			m.Versions = map[string]int{}
		}
		m.Versions[tool] = n
	}
	if sc := f["screen"]; sc != "" {
		if metas == nil {
			metas = new(metaMemo)
		}
		if m.Screen, err = metas.screen(sc); err != nil {
			return Meta{}, fmt.Errorf("stored screen: %w", err)
		}
	}
	if ev := f["screen_event"]; ev != "" {
		m.ScreenEvent = new(ScreenEvent)
		if err := json.Unmarshal([]byte(ev), m.ScreenEvent); err != nil {
			return Meta{}, fmt.Errorf("stored screen event: %w", err)
		}
	}
	return m, nil
}

// strs converts a script's array reply of bulk strings.
func strs(v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("script reply %T, want array", v)
	}
	out := make([]string, len(arr))
	for i, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("script reply item %T, want string", x)
		}
		out[i] = s
	}
	return out, nil
}

// pairs turns a flat HGETALL reply into a map.
func pairs(flat []string) map[string]string {
	m := make(map[string]string, len(flat)/2)
	for i := 0; i+1 < len(flat); i += 2 {
		m[flat[i]] = flat[i+1]
	}
	return m
}
