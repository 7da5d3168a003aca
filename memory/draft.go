package memory

// Draft is a turn's first message (the player's) encoded ahead of the
// turn's write, after the history the turn's lock loaded: a turn drafts
// it while the model answers, and FinishTurn then encodes only the
// messages after it. The stored bytes are the same either way.
type Draft struct {
	lock *Lock
	msg  Message
	enc  *msgEncoder // nil: encode at the write
}

// Draft encodes m, the first message the turn holding lease will record,
// for Finish.Draft. It does not touch Redis and may run on any goroutine
// while the turn goes on. When lease is not a lock of this store, or the
// encoding fails, the write encodes m itself, as without a draft.
func (s *Store) Draft(lease Lease, m Message) *Draft {
	d := NewDraft(m)
	l, ok := lease.(*Lock)
	if !ok || l == nil || l.s != s {
		return d
	}
	enc := s.z.newEncoder(l.chain, 2)
	// A reply follows the player's message in the same run.
	if err := enc.add(m, true); err != nil {
		enc.done()
		return d
	}
	d.lock, d.enc = l, enc
	return d
}

// NewDraft returns a draft of m that carries no encoding: a write encodes
// m itself. Stores that encode nothing ahead (a test double) hand these out.
func NewDraft(m Message) *Draft { return &Draft{msg: m} }

// Message is the drafted message.
func (d *Draft) Message() Message { return d.msg }

// take returns the draft's encoder, once, when the write holding lock can
// go on from it: a run expects a message after the draft's (more), so a
// draft recorded alone is encoded again, as without a draft. nil: the
// write encodes every message.
func (d *Draft) take(lock *Lock, more bool) *msgEncoder {
	if d == nil || d.enc == nil || lock == nil || d.lock != lock || !more {
		return nil
	}
	m := d.enc
	d.enc = nil
	return m
}
