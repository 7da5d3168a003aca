// Package tokens counts the tokens of prompt text with a real BPE
// tokenizer (tiktoken), loaded offline from the ranks embedded in
// tiktoken-go-loader, so no file is downloaded at run time.
package tokens

import (
	"context"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

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
// of recent texts (a prompt's history and cached results come back every
// turn, and BPE encoding is the costly part of assembling a prompt; even a
// tool's name costs a few microseconds and dozens of allocations to
// encode, against a map lookup).
// It is safe for concurrent use.
type Counter struct {
	enc  *tiktoken.Tiktoken
	name string

	mu    sync.Mutex
	memo  map[uint64]int
	order []uint64 // insertion order, for eviction
	seed  maphash.Seed
}

// memoSize bounds the memo: memoSize counts are remembered, the oldest
// forgotten first.
const memoSize = 8192

func newCounter(enc *tiktoken.Tiktoken, name string) *Counter {
	return &Counter{enc: enc, name: name, memo: make(map[uint64]int, memoSize), seed: maphash.MakeSeed()}
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

// Bounds on the work of counting one text. BPE merging is quadratic in
// the length of a pre-tokenized piece, and one "word" can be as long as
// the text (400,000 x's, or thousands of emoji without a space), so a run
// of letters-and-symbols or of spaces longer than maxRun bytes is cut
// into pieces of at most maxRun bytes before BPE sees it. Pieces are
// encoded in chunks of about chunkBytes, and only the first exactBytes of
// a text are encoded at all: the rest is estimated at the rate of the part
// counted (never below one token per estimateFloor bytes).
const (
	maxRun        = 64
	chunkBytes    = 4 << 10
	exactBytes    = 64 << 10
	estimateFloor = 4
)

// Count returns the tokens of s; special-token text in s counts as
// ordinary text, as a provider treats player input. Long runs without a
// break are counted in bounded pieces, which can count a few more tokens
// than BPE over the whole run would; a text longer than 64 KiB is counted
// exactly up to there and estimated beyond. The count is never more than
// len(s): a token is at least one byte, and so is the estimate's rate.
func (c *Counter) Count(s string) int {
	n, _ := c.CountContext(context.Background(), s)
	return n
}

// CountContext is Count that stops encoding when ctx ends: it then
// returns the count so far plus an estimate of the rest, and ctx's error.
func (c *Counter) CountContext(ctx context.Context, s string) (int, error) {
	n, _, err := c.count(ctx, s)
	return n, err
}

// CountParts returns Count of the parts' concatenation, from the parts'
// own counts (remembered: see Count) when that is exact: when every part
// but the last ends with a newline and the next begins with an ASCII
// character that is neither a space nor '/', the encodings whose
// pre-tokenizer takes a run of whitespace up to its last newline as one
// piece (o200k_base, cl100k_base) split no piece across the joints, and a
// concatenation of at most one chunk (see nextChunk) is cut where its parts
// are. Otherwise the concatenation is counted. A prompt's data block is
// such parts: lines the budget has counted one by one.
func (c *Counter) CountParts(parts []string) int {
	if !c.joinable(parts) {
		return c.Count(strings.Join(parts, ""))
	}
	n := 0
	for _, p := range parts {
		n += c.Count(p)
	}
	return n
}

// joinable reports whether CountParts may add the parts' counts.
func (c *Counter) joinable(parts []string) bool {
	if c.name != "o200k_base" && c.name != "cl100k_base" {
		return false
	}
	total := 0
	prev := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		total += len(p)
		if prev != "" {
			if prev[len(prev)-1] != '\n' {
				return false
			}
			if b := p[0]; b <= ' ' || b >= 0x7f || b == '/' {
				return false
			}
		}
		prev = p
	}
	return total <= chunkBytes
}

// work is what counting one text did, for tests.
type work struct {
	// chunks were encoded; longest is the longest piece BPE saw without
	// a break of its own (an upper bound: a chunk's longest run).
	chunks, longest int
	// exact is how many bytes were encoded; the rest was estimated.
	exact int
	// memo reports a count served from the memo.
	memo bool
}

func (c *Counter) count(ctx context.Context, s string) (int, work, error) {
	var w work
	if s == "" {
		return 0, w, nil
	}
	// maphash reads s in place, a word at a time (fnv through io.Writer
	// copied the whole text first).
	key := maphash.String(c.seed, s) ^ uint64(len(s))
	c.mu.Lock()
	n, ok := c.memo[key]
	c.mu.Unlock()
	if ok {
		w.memo = true
		return n, w, nil
	}
	n, w, err := c.encodeBounded(ctx, s)
	if err != nil {
		return n, w, err // not remembered: part of it is an estimate
	}
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
	return n, w, nil
}

// encodeBounded encodes s chunk by chunk (see maxRun and chunkBytes), up
// to exactBytes, and estimates the rest.
func (c *Counter) encodeBounded(ctx context.Context, s string) (int, work, error) {
	var w work
	n := 0
	for rest := s; rest != ""; {
		if err := ctx.Err(); err != nil {
			return n + estimate(len(rest), n, w.exact), w, err
		}
		if w.exact >= exactBytes {
			return n + estimate(len(rest), n, w.exact), w, nil
		}
		chunk, longest := nextChunk(rest)
		rest = rest[len(chunk):]
		n += len(c.enc.EncodeOrdinary(chunk))
		w.chunks++
		w.longest = max(w.longest, longest)
		w.exact += len(chunk)
	}
	return n, w, nil
}

// estimate is the tokens of rest bytes at the rate of the tokens counted
// over the bytes counted, and never below one token per estimateFloor
// bytes.
func estimate(rest, counted, countedBytes int) int {
	floor := (rest + estimateFloor - 1) / estimateFloor
	if countedBytes == 0 {
		return floor
	}
	return max(floor, int((int64(rest)*int64(counted)+int64(countedBytes)-1)/int64(countedBytes)))
}

// nextChunk returns the first chunk of s: it ends before a space once it
// is chunkBytes long, or where a run of spaces or of non-spaces reaches
// maxRun bytes (on a rune boundary), whichever comes first; and the
// longest run it holds.
func nextChunk(s string) (string, int) {
	runStart, longest := 0, 0
	prevSpace := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		space := unicode.IsSpace(r)
		if i > 0 && space != prevSpace {
			longest = max(longest, i-runStart)
			runStart = i
			if space && i >= chunkBytes {
				return s[:i], longest
			}
		}
		if i > 0 && i+size-runStart > maxRun {
			return s[:i], max(longest, i-runStart)
		}
		prevSpace = space
		i += size
	}
	return s, max(longest, len(s)-runStart)
}
