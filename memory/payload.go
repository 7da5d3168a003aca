package memory

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/internal/memo"
)

// Shared tool payloads. A cached tool result is game data, the same for
// every session that asked the same thing, so its bytes are stored once:
// "<prefix>:pl:<id>", where id hashes the game data version and the
// result envelope. A session's cache hash holds only a small reference
// (tool, arguments, exchanges, data version, payload id); the reference
// expires by exchange as before, the payload by its own TTL (the session
// TTL), renewed whenever a session reads or writes it.
//
// Payload keys are in other slots than a session's keys, so no session
// script touches them: a write sends them in the same pipeline as the
// session script (a plain SET with its TTL: the same id always holds the
// same bytes), a turn reads them with GETEX in the pipeline of its load
// when this instance knows the session's references from an earlier turn,
// else in one more round trip. A reference whose payload is gone (evicted,
// flushed) is a cache miss: the entry is left out and its tool runs again.

// payloadID names the payload of result computed from game data version
// dataVersion: 128 bits of SHA-256, base64url.
func payloadID(dataVersion string, result []byte) string {
	h := sha256.New()
	h.Write([]byte(dataVersion))
	h.Write([]byte{0})
	h.Write(result)
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:16])
}

func (s *Store) payloadKey(id string) string { return s.opts.Prefix + ":pl:" + id }

// entryRef is a cache entry as a session's cache hash stores it since the
// payloads are shared: everything but the result, and the payload's id.
// The data version is under "dv" so an earlier version reading it sees an
// entry of no data version, one it never serves.
type entryRef struct {
	Tool        string          `json:"t"`
	Version     int             `json:"v,omitempty"`
	Parameters  json.RawMessage `json:"p,omitempty"`
	CachedAt    int             `json:"c,omitempty"`
	Duration    int             `json:"d"`
	DataVersion string          `json:"dv,omitempty"`
	Payload     string          `json:"r"`
}

// storedEntry decodes both forms of a cache hash value: an entryRef, or a
// whole CacheEntry as earlier versions wrote it (result inline).
type storedEntry struct {
	CacheEntry
	entryRef
}

// payloadWrite is one shared payload a write stores.
type payloadWrite struct {
	id  string
	key string
	val []byte
}

func payloadIDs(ws []payloadWrite) []string {
	ids := make([]string, len(ws))
	for i, w := range ws {
		ids[i] = w.id
	}
	return ids
}

// encodeEntry returns the value a session's cache hash stores for e and
// the payload it references.
func (s *Store) encodeEntry(e CacheEntry) (string, payloadWrite, error) {
	id := payloadID(e.DataVersion, e.Result)
	ref := entryRef{
		Tool: e.Tool, Version: e.Version, Parameters: e.Parameters, CachedAt: e.CachedAt,
		Duration: e.Duration, DataVersion: e.DataVersion, Payload: id,
	}
	b, err := json.Marshal(ref)
	if err != nil {
		return "", payloadWrite{}, fmt.Errorf("encode cache entry %s: %w", e.Key, err)
	}
	res := e.Result
	if len(res) == 0 {
		res = json.RawMessage("null")
	}
	val := s.pls.stored(id, res)
	if val == nil {
		val = s.z.pack(res)
		s.pls.put(id, val, res)
	}
	return string(b), payloadWrite{id: id, key: s.payloadKey(id), val: val}, nil
}

// parseEntry decodes a cache hash value. For a reference, the entry's
// Result is empty and payload names what fills it. entries (nil: none)
// remembers the values it decoded.
func parseEntry(key, js, hits string, entries *entryMemo) (e CacheEntry, payload string, err error) {
	if entries == nil {
		m := newEntryMemo()
		entries = &m
	}
	if e, payload, err = entries.parse(js); err != nil {
		return CacheEntry{}, "", fmt.Errorf("stored cache entry %s: %w", key, err)
	}
	e.Key = key
	if hits != "" {
		n, err := strconv.Atoi(hits)
		if err != nil {
			return CacheEntry{}, "", fmt.Errorf("stored hits of %s: %w", key, err)
		}
		e.Hits = n
	}
	return e, payload, nil
}

// decodeEntry decodes a cache hash value (whose key and hits parseEntry
// sets).
func decodeEntry(js string) (e CacheEntry, payload string, err error) {
	var st storedEntry
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		return CacheEntry{}, "", err
	}
	if st.Payload != "" {
		r := st.entryRef
		e = CacheEntry{Tool: r.Tool, Version: r.Version, Parameters: r.Parameters, CachedAt: r.CachedAt, Duration: r.Duration, DataVersion: r.DataVersion}
		payload = r.Payload
	} else {
		e = st.CacheEntry
	}
	return e, payload, nil
}

// maxEntryMemo bounds the bytes of stored values an entryMemo keeps;
// past it the memo starts over.
const maxEntryMemo = 4 << 20

// entryMemo remembers cache hash values as decodeEntry decoded them, by
// the stored value: a session's entries are read back unchanged turn
// after turn. Callers get copies of their own.
type entryMemo struct {
	m *memo.Map[string, decodedEntry]
}

func newEntryMemo() entryMemo {
	return entryMemo{memo.NewCosted(maxEntryMemo, func(js string, _ decodedEntry) int { return 2 * len(js) })}
}

type decodedEntry struct {
	e       CacheEntry
	payload string
}

// parse is decodeEntry through the memo.
func (m entryMemo) parse(js string) (CacheEntry, string, error) {
	if d, ok := m.m.Get(js); ok {
		return d.e.clone(), d.payload, nil
	}
	e, payload, err := decodeEntry(js)
	if err != nil {
		return CacheEntry{}, "", err
	}
	if 2*len(js) <= maxEntryMemo/8 {
		m.m.Put(js, decodedEntry{e: e.clone(), payload: payload})
	}
	return e, payload, nil
}

// clone is e with slices of its own.
func (e CacheEntry) clone() CacheEntry {
	e.Parameters, e.Result = bytes.Clone(e.Parameters), bytes.Clone(e.Result)
	return e
}

// pendingEntry is a decoded reference waiting for its payload.
type pendingEntry struct {
	entry   CacheEntry
	payload string
}

// fillPayloads sets the Result of each pending entry from fetched (payload
// id → stored value, from the load's pipeline) or, for the ids not
// fetched, from one more pipelined read (with renew, a turn's: it renews
// their TTL, and a damaged payload is a miss rather than an error).
// Entries whose payload is gone are left out: a miss, never an error to
// the player. It returns the entries it filled.
func (s *Store) fillPayloads(ctx context.Context, sess string, pending []pendingEntry, fetched map[string]*redis.StringCmd, renew bool) ([]CacheEntry, error) {
	if len(pending) == 0 {
		return nil, nil
	}
	var missing []string
	for _, p := range pending {
		if _, ok := fetched[p.payload]; !ok {
			missing = append(missing, p.payload)
		}
	}
	if len(missing) > 0 {
		more, err := s.readPayloads(ctx, missing, renew)
		if err != nil {
			return nil, err
		}
		if fetched == nil {
			fetched = make(map[string]*redis.StringCmd, len(more))
		}
		for id, cmd := range more {
			fetched[id] = cmd
		}
	}
	out := make([]CacheEntry, 0, len(pending))
	for _, p := range pending {
		raw, err := fetched[p.payload].Bytes()
		if errors.Is(err, redis.Nil) {
			s.log.DebugContext(ctx, "memory: cached payload gone, a miss", "session", sess, "key", p.entry.Key)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read payload of %s: %w", p.entry.Key, redisErr(err))
		}
		js := s.pls.json(p.payload, raw)
		if js == nil {
			if js, err = s.z.unpack(raw); err == nil && !json.Valid(js) {
				err = errors.New("not JSON")
			}
			if err == nil {
				s.pls.put(p.payload, raw, js)
			}
		}
		if err != nil && !renew {
			return nil, fmt.Errorf("stored payload of %s: %w", p.entry.Key, err)
		}
		if err != nil {
			s.log.WarnContext(ctx, "memory: skip damaged cached payload", "session", sess, "key", p.entry.Key, "err", err)
			continue
		}
		e := p.entry
		if string(js) != "null" {
			e.Result = js
		}
		out = append(out, e)
	}
	return out, nil
}

// readPayloads reads payloads by id in one pipeline (one batch per node on
// a cluster); with renew, each read renews the payload's TTL (GETEX).
func (s *Store) readPayloads(ctx context.Context, ids []string, renew bool) (map[string]*redis.StringCmd, error) {
	out := make(map[string]*redis.StringCmd, len(ids))
	pipe := s.rdb.Pipeline()
	for _, id := range ids {
		if _, ok := out[id]; ok {
			continue
		}
		out[id] = s.queuePayloadRead(ctx, pipe, id, renew)
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("read payloads: %w", redisErr(err))
	}
	return out, nil
}

func (s *Store) queuePayloadRead(ctx context.Context, pipe redis.Pipeliner, id string, renew bool) *redis.StringCmd {
	if renew {
		return pipe.GetEx(ctx, s.payloadKey(id), s.opts.SessionTTL)
	}
	return pipe.Get(ctx, s.payloadKey(id))
}

// queuePayloadWrites queues, on pipe, the writes of a write's payloads.
func (s *Store) queuePayloadWrites(ctx context.Context, pipe redis.Pipeliner, ws []payloadWrite) {
	for _, w := range ws {
		pipe.Set(ctx, w.key, w.val, s.opts.SessionTTL)
	}
}

// maxKnownRefs bounds the session → payload ids memo; past it the memo
// starts over.
const maxKnownRefs = 1 << 16

// refMemo remembers the payload ids each session referenced when this
// instance last loaded or wrote it, so the next load reads them in its
// own round trip. A stale memo costs only a wasted read or one more round
// trip.
type refMemo struct {
	mu sync.Mutex
	m  map[string][]string
}

func (r *refMemo) get(session string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[session]
}

func (r *refMemo) set(session string, ids []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil || len(r.m) >= maxKnownRefs {
		r.m = make(map[string][]string)
	}
	if len(ids) == 0 {
		delete(r.m, session)
		return
	}
	r.m[session] = ids
}

func (r *refMemo) add(session string, ids []string) {
	if len(ids) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil || len(r.m) >= maxKnownRefs {
		r.m = make(map[string][]string)
	}
	cur := r.m[session]
	for _, id := range ids {
		if !slices.Contains(cur, id) {
			cur = append(cur, id)
		}
	}
	r.m[session] = cur
}

// maxPayloadMemo bounds the bytes a payloadMemo keeps (stored values and
// their JSON); past it the memo starts over.
const maxPayloadMemo = 8 << 20

// payloadMemo remembers the shared payloads this instance wrote or read
// lately, by id: the value as stored and its JSON. The same tool results
// are cached and served turn after turn, so a write finds the stored form
// of a result it stored before instead of compressing it again, and a
// read the JSON of a stored value it decoded before instead of
// decompressing it again. Both sides are compared whole: a result that is
// not the one remembered is compressed, a stored value that is not the
// one remembered (another writer's, a damaged one) is decoded, as without
// the memo. Only valid JSON is remembered.
type payloadMemo struct {
	m *memo.Map[string, payloadForms]
}

func newPayloadMemo() payloadMemo {
	return payloadMemo{memo.NewCosted(maxPayloadMemo, func(id string, f payloadForms) int {
		return len(id) + len(f.stored) + len(f.js)
	})}
}

// payloadForms is one payload as stored and as JSON; neither is modified.
type payloadForms struct {
	stored, js []byte
}

// stored returns the stored form of js when id is remembered with that
// JSON, else nil.
func (p payloadMemo) stored(id string, js []byte) []byte {
	f, ok := p.m.Get(id)
	if !ok || !bytes.Equal(f.js, js) {
		return nil
	}
	return f.stored
}

// json returns the JSON of the stored value raw when id is remembered
// with that value, else nil. The caller owns what it gets.
func (p payloadMemo) json(id string, raw []byte) []byte {
	f, ok := p.m.Get(id)
	if !ok || !bytes.Equal(f.stored, raw) {
		return nil
	}
	return bytes.Clone(f.js)
}

// put remembers id as stored and js (copied), when js is valid JSON.
func (p payloadMemo) put(id string, stored, js []byte) {
	if len(id)+len(stored)+len(js) > maxPayloadMemo/8 || !json.Valid(js) {
		return
	}
	p.m.Put(id, payloadForms{stored: bytes.Clone(stored), js: bytes.Clone(js)})
}
