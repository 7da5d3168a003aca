package embed

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// RemoteEmbedder is what the adapter needs from an OpenAI-compatible client
// (the llm package's client satisfies it): one vector per input, in order.
type RemoteEmbedder interface {
	Embed(ctx context.Context, inputs []string) ([][]float32, error)
}

// RemoteOptions tunes the remote adapter.
type RemoteOptions struct {
	// Model names the embeddings model; it becomes part of the embedder's
	// name, so an index built with one model is never queried with another.
	Model string
	// Dim is the model's vector size; 0 asks the server once at construction.
	Dim int
	// BatchSize bounds inputs per request (default 64).
	BatchSize int
}

// Remote adapts an OpenAI-compatible embeddings client to the RAG stack:
// batching, checks of the answer's shape and values, L2 normalization.
type Remote struct {
	client RemoteEmbedder
	model  string
	dim    int
	batch  int
}

// NewRemote returns the adapter; with opts.Dim 0 it embeds one probe text to
// learn the dimension, so a misconfigured endpoint fails at start.
func NewRemote(ctx context.Context, client RemoteEmbedder, opts RemoteOptions) (*Remote, error) {
	if client == nil {
		return nil, errors.New("embed: remote embedder needs a client")
	}
	if opts.Model == "" {
		return nil, errors.New("embed: remote embedder needs a model name")
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = 64
	}
	r := &Remote{client: client, model: opts.Model, dim: opts.Dim, batch: opts.BatchSize}
	if r.dim == 0 {
		vecs, err := client.Embed(ctx, []string{"dimension probe"})
		if err != nil {
			return nil, fmt.Errorf("embed: remote %s: probe dimension: %w", opts.Model, err)
		}
		if len(vecs) != 1 || len(vecs[0]) == 0 {
			return nil, fmt.Errorf("embed: remote %s: probe returned %d vectors", opts.Model, len(vecs))
		}
		r.dim = len(vecs[0])
	}
	if r.dim < 1 || r.dim > 1<<16 {
		return nil, fmt.Errorf("embed: remote %s: dimension %d out of range", opts.Model, r.dim)
	}
	return r, nil
}

// Name identifies the model in index metadata and collection names.
func (r *Remote) Name() string { return "remote-" + r.model }

// Dim is the vector size.
func (r *Remote) Dim() int { return r.dim }

// Embed returns one normalized vector per text, in batches. An answer with
// the wrong count, the wrong dimension or non-finite values is an error.
func (r *Remote) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += r.batch {
		end := min(start+r.batch, len(texts))
		in := make([]string, end-start)
		for i, t := range texts[start:end] {
			if t == "" {
				t = " " // OpenAI refuses empty inputs
			}
			in[i] = t
		}
		vecs, err := r.client.Embed(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("embed: remote %s: %w", r.model, err)
		}
		if len(vecs) != len(in) {
			return nil, fmt.Errorf("embed: remote %s: got %d vectors for %d inputs", r.model, len(vecs), len(in))
		}
		for i, v := range vecs {
			if len(v) != r.dim {
				return nil, fmt.Errorf("embed: remote %s: vector %d has dimension %d, want %d", r.model, start+i, len(v), r.dim)
			}
			n, err := normalize(v)
			if err != nil {
				return nil, fmt.Errorf("embed: remote %s: vector %d: %w", r.model, start+i, err)
			}
			out = append(out, n)
		}
	}
	return out, nil
}

func normalize(v []float32) ([]float32, error) {
	var sum float64
	for _, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, errors.New("non-finite value")
		}
		sum += f * f
	}
	out := make([]float32, len(v))
	if sum == 0 {
		return out, nil
	}
	n := math.Sqrt(sum)
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out, nil
}
