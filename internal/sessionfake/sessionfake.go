// Package sessionfake is an in-memory session store for tests: the calls
// package chat makes of its session store (chat.Store), with the semantics
// of memory.Store, in one process and without Redis. Contract checks those
// semantics and runs against both, so tests on the fake stand for the real
// store. It waits only on channels and timers, so it runs inside
// testing/synctest bubbles, where a lock wait takes no real time.
//
// Unlike memory.Store it has no lock expiry and no session TTL.
package sessionfake

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gameassist/gameassist/memory"
)

// HistoryMax is how many history messages a session keeps, as
// memory.Store's default.
const HistoryMax = 200

// maxToolName bounds a tool name recorded with its version, as memory does.
const maxToolName = 200

// Store is the fake. The zero value is not usable; call New.
type Store struct {
	calls atomic.Int64

	mu       sync.Mutex
	sessions map[string]*session
	players  map[string]memory.PlayerState
	locks    map[string]*lease
	// freed is closed, and replaced, whenever a lock is freed.
	freed chan struct{}
	// evicted holds the shared payloads dropped by EvictPayloads (by
	// payloadOf) until a write stores them again: entries referencing
	// them are misses, as memory.Store's are.
	evicted map[string]bool
	// quota and counted are memory.Options.TurnQuota and each session's
	// counted turn times.
	quota   memory.Quota
	counted map[string][]time.Time
}

// SetTurnQuota caps the turns each session may begin, as
// memory.Options.TurnQuota does.
func (s *Store) SetTurnQuota(q memory.Quota) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota, s.counted = q, map[string][]time.Time{}
}

// admit counts a turn in its session's quota, or refuses it as
// memory.Store does: an unknown session is not found, a turn over the
// quota changes nothing.
func (s *Store) admit(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sessions[id]; !ok {
		return memory.ErrNotFound
	}
	q := s.quota
	if q.Turns <= 0 || q.Per <= 0 {
		return nil
	}
	now := time.Now()
	log := slices.DeleteFunc(s.counted[id], func(at time.Time) bool { return !at.After(now.Add(-q.Per)) })
	if len(log) >= q.Turns {
		s.counted[id] = log
		return &memory.RateLimitError{RetryAfter: max(log[0].Add(q.Per).Sub(now), time.Millisecond)}
	}
	s.counted[id] = append(log, now)
	return nil
}

// payloadOf identifies an entry's shared payload as memory.Store does: its
// data version and result.
func payloadOf(e memory.CacheEntry) string { return e.DataVersion + "\x00" + string(e.Result) }

// EvictPayloads drops every cached result's shared payload, as Redis
// eviction would; later loads treat the entries as misses.
func (s *Store) EvictPayloads(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.evicted == nil {
		s.evicted = map[string]bool{}
	}
	for _, sess := range s.sessions {
		for _, e := range sess.cache {
			s.evicted[payloadOf(e)] = true
		}
	}
	return nil
}

// served reports whether e's shared payload is there.
func (s *Store) served(e memory.CacheEntry) bool { return !s.evicted[payloadOf(e)] }

type session struct {
	meta    memory.Meta
	history [][]byte // message JSON, oldest first
	cache   map[string]memory.CacheEntry
	// exchanges holds each recorded exchange's JSON, by number.
	exchanges map[int][]byte
}

// New returns an empty store.
func New() *Store {
	return &Store{sessions: map[string]*session{}, players: map[string]memory.PlayerState{}, locks: map[string]*lease{}, freed: make(chan struct{})}
}

// Calls counts the calls made of the store so far, each standing for one
// round trip of memory.Store.
func (s *Store) Calls() int64 { return s.calls.Load() }

// validID is memory's rule for session ids.
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c <= ' ' || c == '{' || c == '}' || c == 0x7f {
			return false
		}
	}
	return true
}

func notFound(op, id string) error {
	return fmt.Errorf("sessionfake: %s %q: %w", op, id, memory.ErrNotFound)
}

// CreateSession stores a new session from m (ID, TokenHash, Locale,
// PlayerID, CreatedAt, Screen; Exchange starts at 0). It fails if the id
// exists.
func (s *Store) CreateSession(_ context.Context, m memory.Meta) error {
	s.calls.Add(1)
	if !validID(m.ID) {
		return fmt.Errorf("sessionfake: create %q: invalid session id", m.ID)
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = time.Now()
	}
	stored := memory.Meta{
		ID: m.ID, PlayerID: m.PlayerID, Locale: m.Locale, TokenHash: m.TokenHash,
		CreatedAt: m.CreatedAt.UTC().Round(0), Screen: cloneScreen(m.Screen),
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sessions[m.ID]; ok {
		return fmt.Errorf("sessionfake: create %s: session exists", m.ID)
	}
	s.sessions[m.ID] = &session{meta: stored, cache: map[string]memory.CacheEntry{}}
	return nil
}

// Session returns a session's meta, or ErrNotFound.
func (s *Store) Session(_ context.Context, id string) (memory.Meta, error) {
	s.calls.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok || !validID(id) {
		return memory.Meta{}, notFound("session", id)
	}
	return cloneMeta(sess.meta), nil
}

// Lock takes the turn lock of session id as memory.Store.Lock does; tests
// use it to hold a session busy.
func (s *Store) Lock(ctx context.Context, id string, wait time.Duration) (memory.Lease, error) {
	s.calls.Add(1)
	if !validID(id) {
		return nil, notFound("lock", id)
	}
	l, err := s.acquire(ctx, id, wait, false)
	if err != nil {
		return nil, fmt.Errorf("sessionfake: lock %s: %w", id, err)
	}
	return l, nil
}

// LockAndBegin takes the session's turn lock, waiting up to wait for the
// holder (ErrBusy after that, the context's error when ctx ends first), and
// begins the turn: the exchange advances and entries past their last
// exchange are dropped.
func (s *Store) LockAndBegin(ctx context.Context, id string, wait time.Duration) (memory.Turn, memory.Lease, error) {
	return s.lockAnd(ctx, "lock and begin", id, wait, true)
}

// LockAndLoad takes the lock as LockAndBegin does and reads the session's
// meta and stored cache (expired entries included), advancing nothing.
func (s *Store) LockAndLoad(ctx context.Context, id string, wait time.Duration) (memory.Turn, memory.Lease, error) {
	return s.lockAnd(ctx, "lock and load", id, wait, false)
}

func (s *Store) lockAnd(ctx context.Context, op, id string, wait time.Duration, advance bool) (memory.Turn, memory.Lease, error) {
	s.calls.Add(1)
	if !validID(id) {
		return memory.Turn{}, nil, notFound(op, id)
	}
	if advance {
		if err := s.admit(id); err != nil {
			return memory.Turn{}, nil, fmt.Errorf("sessionfake: %s %s: %w", op, id, err)
		}
	}
	l, err := s.acquire(ctx, id, wait, true)
	if err != nil {
		return memory.Turn{}, nil, fmt.Errorf("sessionfake: %s %s: %w", op, id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.sessions[id]
	t := memory.Turn{History: []memory.Message{}}
	if advance {
		sess.meta.Exchange++
		for k, e := range sess.cache {
			if !e.Live(sess.meta.Exchange) {
				delete(sess.cache, k)
			}
		}
		t.History = decodeHistory(sess.history)
		// As memory.Store: the messages the summary covers come without
		// their data blocks.
		through := memory.SummarizedThrough(sess.meta, t.History)
		for i := range t.History {
			if t.History[i].Exchange <= through {
				t.History[i].Context, t.History[i].Shown = "", nil
			}
		}
	}
	t.Meta = cloneMeta(sess.meta)
	if ps, ok := s.players[t.Meta.PlayerID]; ok && t.Meta.PlayerID != "" {
		ps.State = slices.Clone(ps.State)
		t.Player = &ps
	}
	t.Cache = make([]memory.CacheEntry, 0, len(sess.cache))
	for _, e := range sess.cache {
		if s.served(e) {
			t.Cache = append(t.Cache, cloneEntry(e))
		}
	}
	slices.SortFunc(t.Cache, func(a, b memory.CacheEntry) int {
		return cmp.Or(cmp.Compare(a.CachedAt, b.CachedAt), strings.Compare(a.Key, b.Key))
	})
	return t, l, nil
}

// acquire takes id's lock; with mustExist, the session must exist (checked
// at every try, as memory's script does).
func (s *Store) acquire(ctx context.Context, id string, wait time.Duration, mustExist bool) (*lease, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		s.mu.Lock()
		if _, ok := s.sessions[id]; mustExist && !ok {
			s.mu.Unlock()
			return nil, memory.ErrNotFound
		}
		if s.locks[id] == nil {
			l := &lease{s: s, id: id}
			s.locks[id] = l
			s.mu.Unlock()
			return l, nil
		}
		freed := s.freed
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
			return nil, memory.ErrBusy
		case <-freed:
		}
	}
}

// unlockLocked frees l's lock if l holds it. The caller holds s.mu.
func (s *Store) unlockLocked(l *lease) bool {
	if s.locks[l.id] != l {
		return false
	}
	delete(s.locks, l.id)
	close(s.freed)
	s.freed = make(chan struct{})
	return true
}

// lease is a held lock.
type lease struct {
	s  *Store
	id string
	// released is set when a write released it.
	released bool
}

// Release frees the lock if this lease still holds it; otherwise it
// returns memory.ErrNotHeld (nil after a write released it).
func (l *lease) Release(context.Context) error {
	l.s.calls.Add(1)
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if l.released {
		return nil
	}
	if !l.s.unlockLocked(l) {
		return fmt.Errorf("sessionfake: release %s: %w", l.id, memory.ErrNotHeld)
	}
	return nil
}

// Refresh succeeds while this lease holds the lock (there is no expiry
// to renew); otherwise memory.ErrNotHeld (nil after a write released it).
func (l *lease) Refresh(context.Context) error {
	l.s.calls.Add(1)
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if l.released || l.s.locks[l.id] == l {
		return nil
	}
	return fmt.Errorf("sessionfake: refresh lock %s: %w", l.id, memory.ErrNotHeld)
}

// held returns the lease behind a Finish or ScreenSave release.
func (s *Store) held(op, id string, release memory.Lease) (*lease, error) {
	if release == nil {
		return nil, nil
	}
	l, ok := release.(*lease)
	switch {
	case !ok:
		return nil, fmt.Errorf("sessionfake: %s %s: the lease to release is a %T, not a lock of this store", op, id, release)
	case l == nil:
		return nil, nil
	case l.s != s:
		return nil, fmt.Errorf("sessionfake: %s %s: the lock to release belongs to another store", op, id)
	case l.id != id:
		return nil, fmt.Errorf("sessionfake: %s %s: the lock to release belongs to session %s", op, id, l.id)
	}
	return l, nil
}

// write is one of memory's writes: messages, puts, hits and versions, then
// the screen when setScreen, then the release, all at once.
type write struct {
	messages   []memory.Message
	puts       []memory.CacheEntry
	hits       []string
	versions   map[string]int
	setScreen  bool
	screen     *memory.Screen
	event      *memory.ScreenEvent // becomes Meta.ScreenEvent when set
	release    *lease
	onlyScreen bool // nothing but the screen (a screen save without results)
	// summaryThrough, when set, receives the stored summary's last
	// exchange (see memory.Finish.SummaryThrough).
	summaryThrough *int
}

func (w write) check() error {
	for _, e := range w.puts {
		switch {
		case e.Key == "":
			return fmt.Errorf("cache entry for %s without key", e.Tool)
		case e.Duration <= 0:
			return fmt.Errorf("cache entry %s: duration %d, want > 0", e.Key, e.Duration)
		case e.CachedAt < 0:
			return fmt.Errorf("cache entry %s: negative exchange %d", e.Key, e.CachedAt)
		}
	}
	for name, v := range w.versions {
		if name == "" || len(name) > maxToolName || v < 1 {
			return fmt.Errorf("tool version %q=%d: want a tool name of 1 to %d bytes and a version from 1", name, v, maxToolName)
		}
	}
	return nil
}

func (s *Store) apply(op, id string, w write) error {
	msgs := make([][]byte, len(w.messages))
	for i, m := range w.messages {
		b, err := json.Marshal(m)
		if err != nil {
			return fmt.Errorf("sessionfake: %s %s: encode message: %w", op, id, err)
		}
		msgs[i] = b
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.release != nil && s.unlockLocked(w.release) {
		w.release.released = true
	}
	sess, ok := s.sessions[id]
	if !ok {
		return notFound(op, id)
	}
	if !w.onlyScreen {
		sess.history = append(sess.history, msgs...)
		if len(sess.history) > HistoryMax {
			sess.history = slices.Clone(sess.history[len(sess.history)-HistoryMax:])
		}
		for _, e := range w.puts {
			sess.cache[e.Key] = cloneEntry(e)
			delete(s.evicted, payloadOf(e))
		}
		for _, k := range w.hits {
			if e, ok := sess.cache[k]; ok {
				e.Hits++
				sess.cache[k] = e
			}
		}
		for name, v := range w.versions {
			if sess.meta.Versions == nil {
				sess.meta.Versions = map[string]int{}
			}
			sess.meta.Versions[name] = v
		}
	}
	if w.setScreen {
		sess.meta.Screen = cloneScreen(w.screen)
	}
	if w.event != nil {
		ev := *w.event
		sess.meta.ScreenEvent = &ev
	}
	if w.summaryThrough != nil {
		*w.summaryThrough = 0
		if sess.meta.Summary != nil {
			*w.summaryThrough = sess.meta.Summary.Through
		}
	}
	return nil
}

// Draft returns a draft of m for Finish.Draft; the fake encodes nothing
// ahead.
func (s *Store) Draft(_ memory.Lease, m memory.Message) *memory.Draft { return memory.NewDraft(m) }

// FinishTurn appends the turn's messages (the history keeps the last
// HistoryMax), stores its cache entries, counts its hits on entries that
// exist, records versions and, with f.Screen, the screen; f.Release is
// released with it.
func (s *Store) FinishTurn(_ context.Context, id string, f memory.Finish) error {
	s.calls.Add(1)
	if !validID(id) {
		return notFound("finish turn", id)
	}
	msgs := f.Messages
	if f.Draft != nil {
		msgs = append([]memory.Message{f.Draft.Message()}, msgs...)
	}
	w := write{messages: msgs, puts: f.Put, hits: f.Hits, versions: f.Versions, setScreen: f.Screen != nil, screen: f.Screen, summaryThrough: f.SummaryThrough}
	if err := w.check(); err != nil {
		return fmt.Errorf("sessionfake: finish turn %s: %w", id, err)
	}
	var x []byte
	if f.Exchange != nil {
		var err error
		if x, err = encodeExchange(*f.Exchange); err != nil {
			return fmt.Errorf("sessionfake: finish turn %s: %w", id, err)
		}
	}
	l, err := s.held("finish turn", id, f.Release)
	if err != nil {
		return err
	}
	w.release = l
	if err := s.apply("finish turn", id, w); err != nil {
		return err
	}
	if x != nil {
		// Recorded with the turn, as memory records it in the same round
		// trip.
		s.keepExchange(id, f.Exchange.Exchange, x)
	}
	return nil
}

// SaveScreen stores a screen event's outcome: the screen (nil clears it),
// the cache entries, the hits, the versions; w.Release is released with it.
func (s *Store) SaveScreen(_ context.Context, id string, w memory.ScreenSave) error {
	s.calls.Add(1)
	if !validID(id) {
		return notFound("save screen", id)
	}
	wr := write{puts: w.Put, hits: w.Hits, versions: w.Versions, setScreen: true, screen: w.Screen, event: w.Event}
	wr.onlyScreen = len(w.Put) == 0 && len(w.Hits) == 0 && len(w.Versions) == 0
	if err := wr.check(); err != nil {
		return fmt.Errorf("sessionfake: save screen %s: %w", id, err)
	}
	l, err := s.held("save screen", id, w.Release)
	if err != nil {
		return err
	}
	wr.release = l
	return s.apply("save screen", id, wr)
}

// PutPlayerState stores state for playerID as pushed at at (the fake keeps
// no TTL). A push older than the stored one changes nothing: applied is
// false and the result is the stored state.
func (s *Store) PutPlayerState(_ context.Context, playerID string, state []byte, at time.Time, ttl time.Duration) (memory.PlayerState, bool, error) {
	s.calls.Add(1)
	if !memory.ValidPlayerID(playerID) {
		return memory.PlayerState{}, false, fmt.Errorf("sessionfake: put player state %q: invalid player id", playerID)
	}
	if ttl < time.Millisecond {
		return memory.PlayerState{}, false, fmt.Errorf("sessionfake: put player state %s: ttl %s too small", playerID, ttl)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	at = time.UnixMilli(at.UnixMilli()).UTC()
	if cur, ok := s.players[playerID]; ok && cur.UpdatedAt.After(at) {
		cur.State = slices.Clone(cur.State)
		return cur, false, nil
	}
	ps := memory.PlayerState{PlayerID: playerID, UpdatedAt: at, Version: memory.PlayerVersion(state), State: slices.Clone(state)}
	s.players[playerID] = ps
	ps.State = slices.Clone(state)
	return ps, true, nil
}

// SaveExchange records what exchange e.Exchange of session id was answered
// with; only the last HistoryMax/2 exchanges are kept, as memory does.
func (s *Store) SaveExchange(_ context.Context, id string, e memory.Exchange) error {
	s.calls.Add(1)
	if !validID(id) {
		return notFound("save exchange", id)
	}
	b, err := encodeExchange(e)
	if err != nil {
		return fmt.Errorf("sessionfake: save exchange %s: %w", id, err)
	}
	if !s.keepExchange(id, e.Exchange, b) {
		return notFound("save exchange", id)
	}
	return nil
}

// encodeExchange checks and encodes an exchange record.
func encodeExchange(e memory.Exchange) ([]byte, error) {
	if e.Exchange < 1 {
		return nil, fmt.Errorf("exchange %d, want from 1", e.Exchange)
	}
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("exchange %d: %w", e.Exchange, err)
	}
	return b, nil
}

// keepExchange stores record b of exchange n of session id, dropping the
// one that left the bound; false when the session does not exist.
func (s *Store) keepExchange(id string, n int, b []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok {
		return false
	}
	if sess.exchanges == nil {
		sess.exchanges = map[int][]byte{}
	}
	sess.exchanges[n] = b
	delete(sess.exchanges, n-max(1, HistoryMax/2))
	return true
}

// Exchanges returns the recorded exchanges of session id among ns.
func (s *Store) Exchanges(_ context.Context, id string, ns ...int) (map[int]memory.Exchange, error) {
	s.calls.Add(1)
	if !validID(id) {
		return nil, notFound("exchanges", id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[int]memory.Exchange, len(ns))
	sess, ok := s.sessions[id]
	if !ok {
		return out, nil
	}
	for _, n := range ns {
		if b, ok := sess.exchanges[n]; ok {
			var e memory.Exchange
			if err := json.Unmarshal(b, &e); err != nil {
				return nil, fmt.Errorf("sessionfake: exchange %d of %s: %w", n, id, err)
			}
			out[n] = e
		}
	}
	return out, nil
}

// SaveSummary stores sm unless the stored summary covers sm.Through or
// later, and reports whether it stored; an unknown session is ErrNotFound.
func (s *Store) SaveSummary(_ context.Context, id string, sm memory.Summary) (bool, error) {
	s.calls.Add(1)
	b, err := json.Marshal(sm)
	if err != nil {
		return false, fmt.Errorf("sessionfake: save summary %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok || !validID(id) {
		return false, notFound("save summary", id)
	}
	if cur := sess.meta.Summary; cur != nil && cur.Through >= sm.Through {
		return false, nil
	}
	stored := new(memory.Summary)
	if err := json.Unmarshal(b, stored); err != nil {
		return false, fmt.Errorf("sessionfake: save summary %s: %w", id, err)
	}
	sess.meta.Summary = stored
	return true, nil
}

// History returns a session's stored history, oldest first.
func (s *Store) History(_ context.Context, id string) ([]memory.Message, error) {
	s.calls.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok {
		return nil, notFound("history", id)
	}
	return decodeHistory(sess.history), nil
}

// Cache returns every stored cache entry of a session, sorted by key
// (entries past their last exchange stay until the next turn begins).
func (s *Store) Cache(_ context.Context, id string) ([]memory.CacheEntry, error) {
	s.calls.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok {
		return nil, notFound("cache", id)
	}
	out := make([]memory.CacheEntry, 0, len(sess.cache))
	for _, e := range sess.cache {
		if s.served(e) {
			out = append(out, cloneEntry(e))
		}
	}
	slices.SortFunc(out, func(a, b memory.CacheEntry) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

func decodeHistory(raw [][]byte) []memory.Message {
	out := make([]memory.Message, len(raw))
	for i, b := range raw {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			panic(errors.New("sessionfake: a message it encoded does not decode: " + err.Error()))
		}
	}
	return out
}

func cloneMeta(m memory.Meta) memory.Meta {
	m.Screen = cloneScreen(m.Screen)
	m.Versions = maps.Clone(m.Versions)
	if m.ScreenEvent != nil {
		ev := *m.ScreenEvent
		m.ScreenEvent = &ev
	}
	if m.Summary != nil {
		sm := *m.Summary
		if sm.Prev != nil {
			p := *sm.Prev
			sm.Prev = &p
		}
		m.Summary = &sm
	}
	return m
}

func cloneScreen(sc *memory.Screen) *memory.Screen {
	if sc == nil {
		return nil
	}
	c := *sc
	c.Data = slices.Clone(c.Data)
	return &c
}

func cloneEntry(e memory.CacheEntry) memory.CacheEntry {
	e.Parameters = slices.Clone(e.Parameters)
	e.Result = slices.Clone(e.Result)
	return e
}
