package memory

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Lease is a session's turn lock as its holder uses it: Refresh renews it,
// Release frees it (both fail with ErrNotHeld once another holder took it).
// It is an alias of an interface literal, so a consumer declaring the same
// literal (package chat does) names the very same type, and *Store satisfies
// the consumer's interface without the consumer naming this package's lock.
// The leases LockAndBegin and LockAndLoad hand out are *Lock.
type Lease = interface {
	Refresh(ctx context.Context) error
	Release(ctx context.Context) error
}

// Lock is a session's turn lock, held by one turn across all instances.
// Its TTL is short (Options.LockTTL, a few seconds) and its holder renews
// it every third of that while the context it was taken with lives, until
// it is released: a turn keeps its lock however long it runs, and the lock
// of a holder that is gone (a crashed instance, a cancelled turn, a Redis
// restart that kept the key) frees itself within one TTL. Refresh renews
// it at once.
type Lock struct {
	s        *Store
	id       string
	key      string
	owner    string
	released atomic.Bool // set when FinishTurn released it
	// player is the session's player, when the lock was taken with its
	// meta, so the turn's write renews the player's index.
	player string
	// chain is the history's last chain as the lock's load decoded it, so
	// the turn's messages can be stored as deltas after it; read is the
	// session's read of the history the load left in the memo, which the
	// turn's write extends (see histMemo.appended).
	chain chain
	read  *histRead

	// The renewal (see keep): a timer, not a goroutine, so a turn that
	// ends within a third of the TTL, as most do, starts none.
	ctx   context.Context // the context the lock was taken with
	every time.Duration
	mu    sync.Mutex
	// stopTimer cancels the pending renewal, unhook the renewal's end
	// when ctx ends; ended is set once the renewal is to end, renewing
	// while one runs.
	stopTimer, unhook func() bool
	ended, renewing   bool
	kept              chan struct{} // closed when the renewal ended
}

// keep renews the lock every third of its TTL until it is released, ctx
// ends or the lock turns out lost (ErrNotHeld).
func (l *Lock) keep(ctx context.Context) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ctx, l.every = ctx, max(l.s.opts.LockTTL/3, time.Millisecond)
	l.stopTimer = l.s.after(l.every, l.renew)
	// A context that already ended runs done on its own goroutine, which
	// waits for this one.
	l.unhook = context.AfterFunc(ctx, l.done)
}

// renew is one renewal, on the timer's goroutine: it renews the lock and
// arms the next one unless the renewal ended meanwhile or the lock is
// lost.
func (l *Lock) renew() {
	l.mu.Lock()
	if l.ended {
		l.mu.Unlock()
		return
	}
	l.renewing = true
	l.mu.Unlock()
	err := l.Refresh(l.ctx)
	if l.s.renewed != nil {
		l.s.renewed(err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.renewing = false
	switch {
	case errors.Is(err, ErrNotHeld):
		if !l.ended { // not released meanwhile: lost
			l.s.log.WarnContext(l.ctx, "memory: session lock lost while held", "session", l.id)
		}
		l.end()
		return
	case err != nil && l.ctx.Err() == nil:
		l.s.log.WarnContext(l.ctx, "memory: renew session lock", "session", l.id, "err", err)
	}
	if l.ended {
		close(l.kept)
		return
	}
	l.stopTimer = l.s.after(l.every, l.renew)
}

// done ends the renewal; the lock is released or given up.
func (l *Lock) done() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.end()
}

// end is done with l.mu held: a renewal running now closes kept when it
// returns.
func (l *Lock) end() {
	if l.ended {
		return
	}
	l.ended = true
	if l.stopTimer != nil {
		l.stopTimer()
	}
	if l.unhook != nil {
		l.unhook()
	}
	if !l.renewing {
		close(l.kept)
	}
}

// defaultAfter is Store.after outside tests: f runs on its own goroutine
// after d, unless the returned func stops it first.
func defaultAfter(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// Lock takes the turn lock of session id, waiting up to wait for the
// current holder; it returns ErrBusy when wait elapses and the context's
// error when ctx ends first.
func (s *Store) Lock(ctx context.Context, id string, wait time.Duration) (*Lock, error) {
	if !validID(id) {
		return nil, notFound("lock", id)
	}
	l, err := s.newLock(id)
	if err != nil {
		return nil, fmt.Errorf("memory: lock %s: %w", id, err)
	}
	err = s.poll(ctx, wait, func() (bool, error) {
		return s.rdb.SetNX(ctx, l.key, l.owner, s.opts.LockTTL).Result()
	})
	if err != nil {
		return nil, fmt.Errorf("memory: lock %s: %w", id, redisErr(err))
	}
	l.keep(ctx)
	return l, nil
}

// LockAndBegin takes the session's turn lock and begins the turn (as
// BeginTurn does) in one round trip when nobody else holds the lock; it
// waits for the holder like Lock. Pass the lock to Finish.Release so the
// turn ends in one round trip too.
func (s *Store) LockAndBegin(ctx context.Context, id string, wait time.Duration) (Turn, Lease, error) {
	return s.lockAnd(ctx, "lock and begin", id, wait, true)
}

// LockAndLoad takes the session's turn lock and reads its meta and stored
// cache entries in one round trip, advancing nothing (Turn.History is
// empty; Turn.Cache may hold entries past their last exchange). Screen
// events use it; SaveScreen can release the lock.
func (s *Store) LockAndLoad(ctx context.Context, id string, wait time.Duration) (Turn, Lease, error) {
	return s.lockAnd(ctx, "lock and load", id, wait, false)
}

func (s *Store) lockAnd(ctx context.Context, op, id string, wait time.Duration, advance bool) (Turn, Lease, error) {
	if !validID(id) {
		return Turn{}, nil, notFound(op, id)
	}
	flag := "0"
	if advance {
		flag = "1"
	}
	l, err := s.newLock(id)
	if err != nil {
		return Turn{}, nil, fmt.Errorf("memory: %s %s: %w", op, id, err)
	}
	keys := append(s.keys(id), l.key, s.quotaKey(id))
	// The quota counts the turn once, on its first attempt.
	limit, window := 0, int64(0)
	if q := s.opts.TurnQuota; advance && q.Turns > 0 && q.Per > 0 {
		limit, window = q.Turns, max(q.Per.Milliseconds(), 1)
	}
	member := l.owner[:8] // with the µs time, unique enough and short
	var refused time.Duration
	var res []any
	var praw, pid string
	var pfetched bool
	var payloads map[string]*redis.StringCmd
	var read *histRead
	err = s.poll(ctx, wait, func() (bool, error) {
		var known string
		read, known = s.hist.known(id)
		if !advance {
			read, known = nil, ""
		}
		v, raw, player, fetched, pls, err := s.loadRound(ctx, s.script.lockBegin, true, id, keys, s.ttlMillis(), s.historyKept(), l.owner, s.opts.LockTTL.Milliseconds(), flag, known, limit, window, member)
		praw, pid, pfetched, payloads = raw, player, fetched, pls
		limit = 0
		if errors.Is(err, redis.Nil) {
			return false, ErrNotFound
		}
		if err != nil {
			return false, err
		}
		if parts, ok := v.([]any); ok {
			res = parts
			return true, nil
		}
		if n, ok := v.(int64); ok && n < 0 {
			refused = time.Duration(-n) * time.Microsecond
			return true, nil
		}
		return false, nil
	})
	if err == nil && refused > 0 {
		return Turn{}, nil, fmt.Errorf("memory: %s %s: %w", op, id, &RateLimitError{RetryAfter: max(refused, time.Millisecond)})
	}
	if err != nil {
		return Turn{}, nil, fmt.Errorf("memory: %s %s: %w", op, id, redisErr(err))
	}
	t, load, err := s.parseTurnChain(ctx, id, res, payloads, read, advance)
	l.chain, l.read = load.chain, load.read
	if err != nil {
		_ = l.Release(context.WithoutCancel(ctx))
		return Turn{}, nil, err
	}
	s.attachPlayer(ctx, &t, praw, pid, pfetched)
	l.player = t.Meta.PlayerID
	l.keep(ctx)
	return t, l, nil
}

// heldLock returns the lock behind lease, a lease of session id that this
// store handed out, to release in a write's round trip; nil for none.
func (s *Store) heldLock(op, id string, lease Lease) (*Lock, error) {
	if lease == nil {
		return nil, nil
	}
	l, ok := lease.(*Lock)
	switch {
	case !ok:
		return nil, fmt.Errorf("memory: %s %s: the lease to release is a %T, not a lock of this store", op, id, lease)
	case l == nil:
		return nil, nil
	case l.s != s:
		return nil, fmt.Errorf("memory: %s %s: the lock to release belongs to another store", op, id)
	case l.id != id:
		return nil, fmt.Errorf("memory: %s %s: the lock to release belongs to session %s", op, id, l.id)
	}
	return l, nil
}

func (s *Store) newLock(id string) (*Lock, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	return &Lock{s: s, id: id, key: s.lockKey(id), owner: hex.EncodeToString(b), kept: make(chan struct{})}, nil
}

// poll calls try until it succeeds, fails, ctx ends (the context's error)
// or wait elapses (ErrBusy), backing off between tries.
func (s *Store) poll(ctx context.Context, wait time.Duration, try func() (bool, error)) error {
	deadline := time.Now().Add(wait)
	delay := s.opts.LockPoll
	var timer *time.Timer
	for {
		ok, err := try()
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			return err
		}
		if ok {
			return nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return ErrBusy
		}
		sleep := min(delay, left)
		if timer == nil {
			timer = time.NewTimer(sleep)
			defer timer.Stop()
		} else {
			timer.Reset(sleep)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		delay = min(max(2*delay, time.Millisecond), maxLockPoll)
	}
}

// Release frees the lock if this Lock still owns it; otherwise it returns
// ErrNotHeld and leaves the current holder's lock alone.
func (l *Lock) Release(ctx context.Context) error {
	l.done()
	if l.released.Load() {
		return nil
	}
	n, err := l.s.script.unlock.Run(ctx, l.s.rdb, []string{l.key}, l.owner).Int()
	if err != nil {
		return fmt.Errorf("memory: release %s: %w", l.id, redisErr(err))
	}
	if n == 0 {
		return fmt.Errorf("memory: release %s: %w", l.id, ErrNotHeld)
	}
	return nil
}

// Refresh renews the lock's TTL to Options.LockTTL if this Lock still owns
// it; otherwise ErrNotHeld. The holder's renewal calls it on its own.
func (l *Lock) Refresh(ctx context.Context) error {
	if l.released.Load() {
		return nil
	}
	n, err := l.s.script.extend.Run(ctx, l.s.rdb, []string{l.key}, l.owner, l.s.opts.LockTTL.Milliseconds()).Int()
	if err != nil {
		return fmt.Errorf("memory: refresh lock %s: %w", l.id, redisErr(err))
	}
	if n == 0 {
		return fmt.Errorf("memory: refresh lock %s: %w", l.id, ErrNotHeld)
	}
	return nil
}
