// Package tokens counts the tokens of prompt text with a real BPE
// tokenizer (tiktoken), loaded offline from the ranks embedded in
// tiktoken-go-loader, so no file is downloaded at run time.
package tokens

import (
	"fmt"
	"hash/fnv"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// DefaultEncoding is used for a model tiktoken does not know (local and
// open-weight models); it is the encoding of current OpenAI chat models.
const DefaultEncoding = "o200k_base"

// loaderOnce installs the offline BPE loader in tiktoken-go, whose loader is
// a package-level setting of that library; installing it once per process
// keeps the setting race-free.
var loaderOnce sync.Once

// Counter counts tokens of text in one encoding. It remembers the counts
// of recent long texts (a prompt's history and cached results come back
// every turn, and BPE encoding is the costly part of assembling a prompt).
// It is safe for concurrent use.
type Counter struct {
	enc  *tiktoken.Tiktoken
	name string

	mu    sync.Mutex
	memo  map[uint64]int
	order []uint64 // insertion order, for eviction
}

// Memo bounds: texts shorter than memoMinLen are counted every time;
// memoSize counts are remembered, the oldest forgotten first.
const (
	memoMinLen = 128
	memoSize   = 8192
)

func newCounter(enc *tiktoken.Tiktoken, name string) *Counter {
	return &Counter{enc: enc, name: name, memo: make(map[uint64]int, memoSize)}
}

// encoders holds one BPE encoder per encoding name for the process:
// building one takes about a second (200k ranks) and the result is
// immutable and safe for concurrent use, so every Counter of an encoding
// shares it — the same choice tiktoken-go makes for the ranks themselves.
var encoders = struct {
	sync.Mutex
	m map[string]*tiktoken.Tiktoken
}{m: map[string]*tiktoken.Tiktoken{}}

// encoder returns the shared encoder of an encoding.
func encoder(name string) (*tiktoken.Tiktoken, error) {
	loaderOnce.Do(func() { tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader()) })
	encoders.Lock()
	defer encoders.Unlock()
	if e, ok := encoders.m[name]; ok {
		return e, nil
	}
	e, err := tiktoken.GetEncoding(name)
	if err != nil {
		return nil, fmt.Errorf("tokens: encoding %s: %w", name, err)
	}
	encoders.m[name] = e
	return e, nil
}

// ForModel returns a Counter for model's encoding, or for DefaultEncoding
// when tiktoken does not know the model.
func ForModel(model string) (*Counter, error) {
	name := encodingName(model)
	enc, err := encoder(name)
	if err != nil {
		return nil, err
	}
	return newCounter(enc, name), nil
}

// encodingName is the encoding tiktoken picks for a model it knows.
func encodingName(model string) string {
	if n, ok := tiktoken.MODEL_TO_ENCODING[model]; ok {
		return n
	}
	for prefix, n := range tiktoken.MODEL_PREFIX_TO_ENCODING {
		if len(model) >= len(prefix) && model[:len(prefix)] == prefix {
			return n
		}
	}
	return DefaultEncoding
}

// Encoding names the counter's encoding.
func (c *Counter) Encoding() string { return c.name }

// Count returns the tokens of s; special-token text in s counts as
// ordinary text, as a provider treats player input.
func (c *Counter) Count(s string) int {
	if s == "" {
		return 0
	}
	if len(s) < memoMinLen {
		return len(c.enc.EncodeOrdinary(s))
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	key := h.Sum64() ^ uint64(len(s))
	c.mu.Lock()
	n, ok := c.memo[key]
	c.mu.Unlock()
	if ok {
		return n
	}
	n = len(c.enc.EncodeOrdinary(s))
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.memo[key]; !ok {
		if len(c.order) >= memoSize {
			delete(c.memo, c.order[0])
			c.order = c.order[1:]
		}
		c.memo[key] = n
		c.order = append(c.order, key)
	}
	return n
}
