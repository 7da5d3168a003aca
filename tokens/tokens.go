// Package tokens counts the tokens of prompt text with a real BPE
// tokenizer (tiktoken), loaded offline from the ranks embedded in
// tiktoken-go-loader, so no file is downloaded at run time.
package tokens

import (
	"fmt"
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

// Counter counts tokens of text in one encoding. It is safe for concurrent
// use.
type Counter struct {
	enc  *tiktoken.Tiktoken
	name string
}

// ForModel returns a Counter for model's encoding, or for DefaultEncoding
// when tiktoken does not know the model.
func ForModel(model string) (*Counter, error) {
	loaderOnce.Do(func() { tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader()) })
	if enc, err := tiktoken.EncodingForModel(model); err == nil {
		return &Counter{enc: enc, name: encodingName(model)}, nil
	}
	enc, err := tiktoken.GetEncoding(DefaultEncoding)
	if err != nil {
		return nil, fmt.Errorf("tokens: encoding %s: %w", DefaultEncoding, err)
	}
	return &Counter{enc: enc, name: DefaultEncoding}, nil
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
	return len(c.enc.EncodeOrdinary(s))
}
