package chat

import (
	"encoding/json"
	"hash/maphash"
	"sync"
)

// Bounds of a resultMemo: at most maxResultMemo texts and about
// maxResultMemoBytes of keys and texts together, the oldest forgotten
// first; a result longer than maxResultMemoText is rendered every time
// rather than push the others out.
const (
	maxResultMemo      = 4096
	maxResultMemoBytes = 8 << 20
	maxResultMemoText  = 256 << 10
)

// resultMemo remembers tool results as the model reads them (resultText),
// keyed by what decides the text: the envelope as the model would read it
// before the rendering (tool.Result.ForLLM) or, for a cached result, its
// stored payload; and the locale whose words name the game's identifiers
// in it (see Labeler). A cached payload never changes, and the data block
// of every turn that shows it, in any session, renders it again; a tool
// result rendered for its tool message is the data block's cached result
// of the next turn. The zero value is ready; safe for concurrent use.
type resultMemo struct {
	mu    sync.Mutex
	seed  maphash.Seed
	m     map[resultKey]resultEntry
	order []resultKey // insertion order, for eviction
	bytes int
}

// resultKey identifies a remembered text: the hash and length of its
// input, whether the input is a stored payload or an envelope's ForLLM
// text, and the locale.
type resultKey struct {
	hash    uint64
	n       int
	payload bool
	locale  string
}

// resultEntry is a remembered text with its whole input, compared on a
// hit so that two inputs with the same hash never share a text.
type resultEntry struct{ in, out string }

// text is resultText(r, locale, words(locale)) of the result whose ForLLM text
// is view, rendered once per envelope and locale.
func (m *resultMemo) text(view, locale string, words func(string) Words) string {
	if out, ok := m.get(view, false, locale); ok {
		return out
	}
	out := viewText(view, locale, words(locale))
	m.put(view, false, locale, out)
	return out
}

// stored is the text of a cached result's stored payload, as resultText
// renders the result it decodes to; false when the payload does not decode
// (nothing is remembered then).
func (m *resultMemo) stored(raw json.RawMessage, locale string, words func(string) Words) (string, bool) {
	if out, ok := m.getPayload(raw, locale); ok {
		return out, true
	}
	res, err := decodeResult(raw)
	if err != nil {
		return "", false
	}
	out := m.text(res.ForLLM(), locale, words)
	m.put(string(raw), true, locale, out)
	return out, true
}

// get looks up the text of an envelope's ForLLM text.
func (m *resultMemo) get(in string, payload bool, locale string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		return "", false
	}
	e, ok := m.m[resultKey{hash: maphash.String(m.seed, in), n: len(in), payload: payload, locale: locale}]
	if !ok || e.in != in {
		return "", false
	}
	return e.out, true
}

// getPayload looks up the text of a stored payload, without copying it.
func (m *resultMemo) getPayload(raw []byte, locale string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		return "", false
	}
	// maphash.Bytes and maphash.String agree on equal content.
	e, ok := m.m[resultKey{hash: maphash.Bytes(m.seed, raw), n: len(raw), payload: true, locale: locale}]
	if !ok || e.in != string(raw) {
		return "", false
	}
	return e.out, true
}

// put remembers out as the text of in, forgetting the oldest texts while
// the memo is over its bounds.
func (m *resultMemo) put(in string, payload bool, locale, out string) {
	size := len(in) + len(out)
	if size > maxResultMemoText {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.seed = maphash.MakeSeed()
		m.m = make(map[resultKey]resultEntry)
	}
	k := resultKey{hash: maphash.String(m.seed, in), n: len(in), payload: payload, locale: locale}
	if old, ok := m.m[k]; ok {
		if old.in == in {
			return
		}
		// Another input with the same hash: the newer one takes the slot
		// (its place in the eviction order is the older one's).
		m.bytes += size - len(old.in) - len(old.out)
		m.m[k] = resultEntry{in: in, out: out}
		return
	}
	for len(m.order) > 0 && (len(m.order) >= maxResultMemo || m.bytes+size > maxResultMemoBytes) {
		oldest := m.order[0]
		m.order = m.order[1:]
		e := m.m[oldest]
		m.bytes -= len(e.in) + len(e.out)
		delete(m.m, oldest)
	}
	m.m[k] = resultEntry{in: in, out: out}
	m.order = append(m.order, k)
	m.bytes += size
}
