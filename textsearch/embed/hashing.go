// Package embed provides the embedders of the RAG stack: a deterministic
// lexical hashing embedder that needs no model download (the default), and
// an adapter over any OpenAI-compatible /v1/embeddings client.
package embed

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"

	"github.com/gameassist/gameassist/textsearch/terms"
)

// HashingOptions tunes the hashing embedder; zero values take the defaults.
type HashingOptions struct {
	// Dim is the vector size (default 1024, at least 64).
	Dim int
}

// Hashing embeds text by hashing its lexical features (stemmed word
// unigrams and bigrams, character n-grams of words) into a fixed number of
// dimensions with log-scaled term frequencies, L2-normalized. Equal texts
// give equal vectors on every machine; texts sharing words and word parts
// land close, which is what retrieval over a game's own vocabulary needs.
type Hashing struct {
	dim int
}

// Feature weights: whole words carry most of the meaning, word pairs add
// phrase matches, character n-grams tolerate typos and inflections.
const (
	weightUnigram = 1.0
	weightBigram  = 0.6
	weightNgram   = 0.22
)

// NewHashing returns the hashing embedder.
func NewHashing(opts HashingOptions) (*Hashing, error) {
	if opts.Dim == 0 {
		opts.Dim = 1024
	}
	if opts.Dim < 64 || opts.Dim > 1<<16 {
		return nil, fmt.Errorf("embed: hashing dimension %d out of range 64..65536", opts.Dim)
	}
	return &Hashing{dim: opts.Dim}, nil
}

// Name identifies the embedder in index metadata and collection names.
func (h *Hashing) Name() string { return "hash" + strconv.Itoa(h.dim) + "v1" }

// Dim is the vector size.
func (h *Hashing) Dim() int { return h.dim }

// Embed returns one vector per text. It never fails except on a cancelled
// context; an empty text gives the zero vector.
func (h *Hashing) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%64 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("embed: hashing: %w", ctx.Err())
		}
		out[i] = h.Vector(t)
	}
	return out, nil
}

// Vector embeds one text.
func (h *Hashing) Vector(text string) []float32 {
	tf := map[uint32]int{}
	weights := map[uint32]float64{}
	add := func(kind byte, parts ...string) {
		f := fnv.New32a()
		_, _ = f.Write([]byte{kind})
		for i, p := range parts {
			if i > 0 {
				_, _ = f.Write([]byte{' '})
			}
			_, _ = f.Write([]byte(p))
		}
		k := f.Sum32()
		tf[k]++
		switch kind {
		case 'w':
			weights[k] = weightUnigram
		case 'b':
			weights[k] = weightBigram
		default:
			weights[k] = weightNgram
		}
	}
	words := terms.Words(text)
	prev := ""
	for _, w := range words {
		if terms.IsStopWord(w) {
			continue
		}
		s := terms.Stem(w)
		add('w', s)
		if prev != "" {
			add('b', prev, s)
		}
		prev = s
		ngrams(w, func(g string) { add('c', g) })
	}
	vec := make([]float64, h.dim)
	for k, n := range tf {
		v := weights[k] * (1 + math.Log(float64(n)))
		idx := (k & 0x7fffffff) % uint32(h.dim)
		if k&0x80000000 != 0 {
			v = -v
		}
		vec[idx] += v
	}
	var norm float64
	for _, v := range vec {
		norm += v * v
	}
	out := make([]float32, h.dim)
	if norm == 0 {
		return out
	}
	norm = math.Sqrt(norm)
	for i, v := range vec {
		out[i] = float32(v / norm)
	}
	return out
}

// ngrams calls fn with the character 3- and 4-grams of "<word>", by rune.
// Words of one or two letters carry no useful n-grams.
func ngrams(word string, fn func(string)) {
	r := []rune("<" + word + ">")
	if len(r) < 5 {
		return
	}
	if len(r) > 34 {
		r = r[:34]
	}
	for n := 3; n <= 4; n++ {
		for i := 0; i+n <= len(r); i++ {
			fn(string(r[i : i+n]))
		}
	}
}
