package memory

import (
	"bytes"
	"crypto/sha1" //nolint:gosec // sha1 tells list elements apart; it guards nothing.
	"encoding/hex"
	"encoding/json"
	"slices"
	"sync"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// maxHistMemo bounds the bytes of stored history a histMemo keeps (its
// sessions' list elements, which its decoded messages are about the size
// of): past it the memo starts over.
const maxHistMemo = 32 << 20

// histMemo remembers, for each session this instance loaded, the history
// list as read and its decoded messages, so the next turn decodes only
// the elements added since. What is reused is found by comparing the
// elements themselves: a list another instance appended to, trimmed or
// rewrote decodes the same as without the memo, only the elements the
// two reads share are not decoded again. The messages it hands out share
// their slices and pointers with the memo: callers do not modify them.
//
// A turn's write that found the list as its load read it adds its own
// elements to the session's read (appended), and the next load names the
// SHA-1 of that read's last element: while the list still ends with it
// (nobody appended since; the list is only ever appended to and trimmed
// from the front), beginSrc answers "unchanged" instead of sending the
// list, and the read is the history, with nothing to decode.
type histMemo struct {
	mu    sync.Mutex
	m     map[string]*histRead
	bytes int
}

// histRead is one decoded read of a history list: msgs[i] is raw[i]
// decoded (zero for the skip leading deltas), those before summarized
// without their data block and Shown; c is the chain after the last.
type histRead struct {
	raw        []string
	msgs       []Message
	skip       int
	summarized int
	c          chain
	size       int
	// Reads may share an array of messages (see same and appended): grown
	// is, for all of them, how far into the array messages were written,
	// and end where this read's messages end in it. Both change under the
	// memo's lock only.
	grown *int
	end   int
}

// own makes r the only read of its (new) array of messages.
func (r *histRead) own() *histRead {
	end := len(r.msgs)
	r.grown, r.end = &end, end
	return r
}

func (h *histMemo) get(id string) *histRead {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.m[id]
}

func (h *histMemo) set(id string, r *histRead) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.setLocked(id, r)
}

func (h *histMemo) setLocked(id string, r *histRead) {
	if old := h.m[id]; old != nil {
		h.bytes -= old.size
	}
	if h.m == nil || h.bytes+r.size > maxHistMemo {
		h.m, h.bytes = map[string]*histRead{}, 0
	}
	if r.size > maxHistMemo {
		return
	}
	h.m[id] = r
	h.bytes += r.size
}

// overlap returns k and n such that raw[:n] is prev[k:], the longest such
// run (n 0: none): the elements a read shares with the one before it,
// whose end it follows.
func overlap(prev, raw []string) (k, n int) {
	for k = range prev {
		n = len(prev) - k
		if n > len(raw) || raw[0] != prev[k] {
			continue
		}
		same := true
		for j := 1; j < n; j++ {
			if raw[j] != prev[k+j] {
				same = false
				break
			}
		}
		if same {
			return k, n
		}
	}
	return 0, 0
}

// turnHistory is decodeHistory for a session's turn, reusing what the
// session's previous read on this instance decoded (see histMemo). It
// also returns the read it remembered.
func (z zcodec) turnHistory(memo *histMemo, id string, raw []string, keep, summary int) ([]Message, chain, *histRead, error) {
	prev := memo.get(id)
	k, n := 0, 0
	if prev != nil && len(raw) > 0 {
		k, n = overlap(prev.raw, raw)
	}
	skip := 0
	for skip < len(raw) && len(raw[skip]) > 0 && raw[skip][0] == deltaMark {
		skip++
	}
	if n == 0 || skip >= n || k+skip < prev.skip {
		// Nothing to reuse: decode it all.
		return z.decodeRead(memo, id, raw, keep, summary)
	}
	if n == len(raw) {
		if r := prev.same(raw, k, skip, summary); r != nil {
			r.measure()
			memo.set(id, r)
			return r.window(keep), r.c, r, nil
		}
	}
	c := prev.c
	var texts [][]byte
	if n < len(raw) {
		var err error
		if texts, _, c, err = z.decodeTexts(raw[n:], n, prev.c, true); err != nil {
			return nil, chain{}, nil, err
		}
	}
	r := &histRead{raw: raw, msgs: make([]Message, len(raw), len(raw)+spareMsgs), skip: skip, c: c}
	copy(r.msgs[skip:n], prev.msgs[k+skip:k+n])
	v1 := jsonv2.Options(jsonv1.DefaultOptionsV1())
	for i, js := range texts {
		if err := jsonv2.Unmarshal(js, &r.msgs[n+i], v1); err != nil {
			// parseTurnHistory may not decode it whole: let it say.
			return z.decodeRead(memo, id, raw, keep, summary)
		}
	}
	// The messages the summary covers, as parseTurnHistory finds them;
	// every one after must have been decoded whole.
	cut := cutoff(r.msgs[skip:], summary) + skip
	if k+cut+1 < prev.summarized {
		return z.decodeRead(memo, id, raw, keep, summary)
	}
	r.summarized = max(prev.summarized-k, skip)
	// The messages the summary now covers lose their data blocks here,
	// once, as decodeRead's do, so the window shares r's messages.
	for i := r.summarized; i <= cut; i++ {
		r.msgs[i].Context, r.msgs[i].Shown = "", nil
	}
	r.summarized = max(r.summarized, cut+1)
	r.own().measure()
	memo.set(id, r)
	return r.window(keep), c, r, nil
}

// same returns the read of raw, the elements of r from k on (skip of
// them leading deltas), when the summary covers no message r did not
// already have summarized: a read that shares r's messages instead of
// copying them. Else nil.
func (r *histRead) same(raw []string, k, skip, summary int) *histRead {
	if k+len(raw) != len(r.msgs) {
		return nil
	}
	msgs := r.msgs[k : k+len(raw)]
	cut := cutoff(msgs[skip:], summary) + skip
	summarized := max(r.summarized-k, skip)
	if k+cut+1 < r.summarized || cut >= summarized {
		return nil
	}
	return &histRead{raw: raw, msgs: msgs, skip: skip, summarized: summarized, c: r.c, grown: r.grown, end: r.end}
}

// spareMsgs is the room a read's messages leave for the turn's own, so
// that appended does not copy them.
const spareMsgs = 8

// decodeRead decodes raw without the memo and remembers it.
func (z zcodec) decodeRead(memo *histMemo, id string, raw []string, keep, summary int) ([]Message, chain, *histRead, error) {
	msgs, skip, c, err := z.decodeAll(raw, summary)
	if err != nil {
		return nil, chain{}, nil, err
	}
	r := &histRead{raw: raw, msgs: make([]Message, len(raw), len(raw)+spareMsgs), skip: skip, c: c}
	copy(r.msgs[skip:], msgs)
	cut := cutoff(msgs, summary) + skip
	r.summarized = cut + 1
	r.own().measure()
	memo.set(id, r)
	return r.window(keep), c, r, nil
}

// measure sets the read's size: its elements and, about, its messages.
func (r *histRead) measure() {
	for i, s := range r.raw {
		m := &r.msgs[i]
		r.size += len(s) + len(m.Content) + len(m.Context) + 256
	}
}

// cutoff is the last of msgs (oldest first) that parseTurnHistory decodes
// as summarized, -1 for none: the newest at or before the exchange the
// summary covers for the newest player message.
func cutoff(msgs []Message, summary int) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		through := min(summary, msgs[i].SummaryThrough)
		for j := i; j >= 0; j-- {
			if msgs[j].Exchange <= through {
				return j
			}
		}
		return -1
	}
	return -1
}

// window returns the read's messages as a turn gets them, the last keep
// of them: those up to the summary's cut are stored without their data
// block and Shown (see histRead.summarized). It shares r's messages,
// clipped, so an append copies them; callers do not modify them.
func (r *histRead) window(keep int) []Message {
	start := max(r.skip, len(r.msgs)-keep)
	return r.msgs[start:len(r.msgs):len(r.msgs)]
}

// known is the session's last read on this instance and the SHA-1 (hex)
// of its last element, for beginSrc to answer "unchanged" instead of the
// list when the list still ends with it; nil and "" for none.
func (h *histMemo) known(id string) (*histRead, string) {
	r := h.get(id)
	if r == nil || len(r.raw) == 0 {
		return nil, ""
	}
	sum := sha1.Sum([]byte(r.raw[len(r.raw)-1])) //nolint:gosec // sha1 tells list elements apart; it guards nothing.
	return r, hex.EncodeToString(sum[:])
}

// tail is the read's list as a load of its last kept elements gets it.
func (r *histRead) tail(kept int) []string {
	return r.raw[max(0, len(r.raw)-kept):]
}

// appended remembers, as the session's read, r followed by the elements
// a turn appended to the list r was read from (finishSrc answered that
// the list was as read): raw, the turn's messages msgs, whose JSON are
// texts, with the chain c after them. The next load then gets "unchanged"
// instead of the list when nobody appended since, and decodes nothing.
// It does nothing unless r is still the session's read.
func (h *histMemo) appended(id string, r *histRead, raw []string, msgs []Message, texts [][]byte, c chain) {
	if r == nil || len(raw) != len(texts) || len(msgs) != len(texts) || h.get(id) != r {
		return
	}
	read := make([]Message, len(texts))
	for i, js := range texts {
		if m, ok := asLoaded(&msgs[i]); ok {
			read[i] = m
			continue
		}
		if err := jsonv2.Unmarshal(js, &read[i], jsonv1.DefaultOptionsV1()); err != nil {
			// The next load decodes it and says what is wrong.
			return
		}
	}
	msgs = read
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m[id] != r {
		return
	}
	nr := &histRead{raw: append(r.raw[:len(r.raw):len(r.raw)], raw...), skip: r.skip, summarized: r.summarized, c: c}
	if r.grown != nil && *r.grown == r.end && cap(r.msgs)-len(r.msgs) >= len(msgs) {
		// No read has messages past r's in the array: the turn's go there.
		nr.msgs = append(r.msgs, msgs...)
		*r.grown += len(msgs)
		nr.grown, nr.end = r.grown, *r.grown
	} else {
		nr.msgs = make([]Message, len(r.msgs), len(r.msgs)+len(msgs)+spareMsgs)
		copy(nr.msgs, r.msgs)
		nr.msgs = append(nr.msgs, msgs...)
		nr.own()
	}
	nr.measure()
	h.setLocked(id, nr)
}

// asLoaded returns m as a load decodes it from the JSON it was stored as,
// without that round trip, when it can tell the two apart from m alone:
// every string valid UTF-8 (the JSON would replace the rest), tool
// arguments compacted as the encoder stores them (nothing to escape), empty
// lists absent (omitempty) and the time decoded from its own JSON (its
// zone as the load sees it, no monotonic reading). Else false: the
// caller decodes the JSON. The copy shares m's strings, not its slices
// or pointers.
func asLoaded(m *Message) (Message, bool) {
	out := Message{Role: m.Role, Content: m.Content, Exchange: m.Exchange, Context: m.Context, SummaryThrough: m.SummaryThrough, Tokens: m.Tokens, WordsTokens: m.WordsTokens}
	if !utf8.ValidString(m.Role) || !utf8.ValidString(m.Content) || !utf8.ValidString(m.Context) {
		return Message{}, false
	}
	// The JSON holds the time as its text, which a load parses back
	// (time.Time.UnmarshalText).
	at, err := m.At.MarshalText()
	if err != nil || out.At.UnmarshalText(at) != nil {
		return Message{}, false
	}
	var ok bool
	if out.Tools, ok = loadedStrings(m.Tools); !ok {
		return Message{}, false
	}
	if out.Offered, ok = loadedStrings(m.Offered); !ok {
		return Message{}, false
	}
	if len(m.About) > 0 {
		out.About = make([]Subject, len(m.About))
		for i, s := range m.About {
			if !utf8.ValidString(s.Kind) || !utf8.ValidString(s.ID) {
				return Message{}, false
			}
			out.About[i] = s
		}
	}
	if m.Shown != nil {
		sh := m.Shown
		out.Shown = &Shown{}
		if out.Shown.Screen, ok = loadedString(sh.Screen); !ok {
			return Message{}, false
		}
		if out.Shown.Player, ok = loadedString(sh.Player); !ok {
			return Message{}, false
		}
		if out.Shown.Results, ok = loadedResults(sh.Results); !ok {
			return Message{}, false
		}
		if out.Shown.Retired, ok = loadedResults(sh.Retired); !ok {
			return Message{}, false
		}
		if out.Shown.Tools, ok = loadedStrings(sh.Tools); !ok {
			return Message{}, false
		}
	}
	return out, true
}

// loadedStrings is asLoaded for a list of strings stored with omitempty.
func loadedStrings(in []string) ([]string, bool) {
	if len(in) == 0 {
		return nil, true
	}
	for _, s := range in {
		if !utf8.ValidString(s) {
			return nil, false
		}
	}
	return slices.Clone(in), true
}

// loadedString is asLoaded for an optional string.
func loadedString(p *string) (*string, bool) {
	if p == nil {
		return nil, true
	}
	if !utf8.ValidString(*p) {
		return nil, false
	}
	s := *p
	return &s, true
}

// loadedResults is asLoaded for results stored with omitempty: their
// arguments (never omitted) are stored compacted, and a load gets them as
// stored; arguments the encoder would also escape are left to decoding.
func loadedResults(in []ShownResult) ([]ShownResult, bool) {
	if len(in) == 0 {
		return nil, true
	}
	out := make([]ShownResult, len(in))
	for i, r := range in {
		p := r.Parameters
		if len(p) == 0 || !utf8.ValidString(r.Key) || !utf8.ValidString(r.Tool) || !utf8.Valid(p) || bytes.ContainsAny(p, "<>&\u2028\u2029") {
			return nil, false
		}
		var compact bytes.Buffer
		compact.Grow(len(p))
		if json.Compact(&compact, p) != nil {
			return nil, false
		}
		r.Parameters = compact.Bytes()
		out[i] = r
	}
	return out, true
}
