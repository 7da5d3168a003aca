package memory

import (
	"sync"

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
}

func (h *histMemo) get(id string) *histRead {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.m[id]
}

func (h *histMemo) set(id string, r *histRead) {
	h.mu.Lock()
	defer h.mu.Unlock()
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
// session's previous read on this instance decoded (see histMemo).
func (z zcodec) turnHistory(memo *histMemo, id string, raw []string, keep, summary int) ([]Message, chain, error) {
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
	texts, _, c, err := z.decodeTexts(raw[n:], n, prev.c, true)
	if err != nil {
		return nil, chain{}, err
	}
	r := &histRead{raw: raw, msgs: make([]Message, len(raw)), skip: skip, c: c}
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
	r.measure()
	memo.set(id, r)
	return r.window(keep), c, nil
}

// decodeRead decodes raw without the memo and remembers it.
func (z zcodec) decodeRead(memo *histMemo, id string, raw []string, keep, summary int) ([]Message, chain, error) {
	msgs, skip, c, err := z.decodeAll(raw, summary)
	if err != nil {
		return nil, chain{}, err
	}
	r := &histRead{raw: raw, msgs: make([]Message, len(raw)), skip: skip, c: c}
	copy(r.msgs[skip:], msgs)
	cut := cutoff(msgs, summary) + skip
	r.summarized = cut + 1
	r.measure()
	memo.set(id, r)
	return r.window(keep), c, nil
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
