package chat

import "sync"

// tokenMemoMax bounds the sessions a tokenMemo remembers: about 100 bytes
// each.
const tokenMemoMax = 8192

// tokenMemo remembers the token hash of sessions whose token this
// instance has checked against the store, so a session's later requests
// are checked without a store round trip. A session's token hash never
// changes and its id (a random UUID) is never given to another session,
// so a remembered hash cannot go stale: a deleted or expired session
// still passes this check, and the turn's own store access then finds no
// session. Only hashes read from the store are remembered.
type tokenMemo struct {
	mu     sync.Mutex
	hashes map[string]string
}

// get returns the remembered token hash of session id.
func (m *tokenMemo) get(id string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	h, ok := m.hashes[id]
	return h, ok
}

// put remembers session id's token hash; when full it forgets about half
// of the sessions first (map order: no bookkeeping per request).
func (m *tokenMemo) put(id, hash string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.hashes == nil {
		m.hashes = make(map[string]string)
	}
	if len(m.hashes) >= tokenMemoMax {
		n := 0
		for k := range m.hashes {
			delete(m.hashes, k)
			if n++; n >= tokenMemoMax/2 {
				break
			}
		}
	}
	m.hashes[id] = hash
}
