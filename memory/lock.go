package memory

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// Lock is a session's turn lock, held by one turn across all instances.
// It expires after Options.LockTTL so a crashed instance cannot block a
// session for long; Refresh extends it for long turns.
type Lock struct {
	s     *Store
	id    string
	key   string
	owner string
}

// Lock takes the turn lock of session id, waiting up to wait for the
// current holder; it returns ErrBusy when wait elapses and the context's
// error when ctx ends first.
func (s *Store) Lock(ctx context.Context, id string, wait time.Duration) (*Lock, error) {
	if !validID(id) {
		return nil, notFound("lock", id)
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("memory: lock %s: %w", id, err)
	}
	l := &Lock{s: s, id: id, key: s.lockKey(id), owner: hex.EncodeToString(b)}
	deadline := time.Now().Add(wait)
	poll := s.opts.LockPoll
	var timer *time.Timer
	for {
		ok, err := s.rdb.SetNX(ctx, l.key, l.owner, s.opts.LockTTL).Result()
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			return nil, fmt.Errorf("memory: lock %s: %w", id, err)
		}
		if ok {
			return l, nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, fmt.Errorf("memory: lock %s: %w", id, ErrBusy)
		}
		sleep := min(poll, left)
		if timer == nil {
			timer = time.NewTimer(sleep)
			defer timer.Stop()
		} else {
			timer.Reset(sleep)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("memory: lock %s: %w", id, ctx.Err())
		case <-timer.C:
		}
		poll = min(max(2*poll, time.Millisecond), maxLockPoll)
	}
}

// Release frees the lock if this Lock still owns it; otherwise it returns
// ErrNotHeld and leaves the current holder's lock alone.
func (l *Lock) Release(ctx context.Context) error {
	n, err := l.s.script.unlock.Run(ctx, l.s.rdb, []string{l.key}, l.owner).Int()
	if err != nil {
		return fmt.Errorf("memory: release %s: %w", l.id, err)
	}
	if n == 0 {
		return fmt.Errorf("memory: release %s: %w", l.id, ErrNotHeld)
	}
	return nil
}

// Refresh renews the lock's TTL to Options.LockTTL if this Lock still owns
// it, for turns that run longer than expected; otherwise ErrNotHeld.
func (l *Lock) Refresh(ctx context.Context) error {
	n, err := l.s.script.extend.Run(ctx, l.s.rdb, []string{l.key}, l.owner, l.s.opts.LockTTL.Milliseconds()).Int()
	if err != nil {
		return fmt.Errorf("memory: refresh lock %s: %w", l.id, err)
	}
	if n == 0 {
		return fmt.Errorf("memory: refresh lock %s: %w", l.id, ErrNotHeld)
	}
	return nil
}
