package llm

import (
	"context"
	"errors"
	"fmt"

	openai "github.com/sashabaranov/go-openai"
)

// EmbedBatch is the number of inputs sent in one embeddings request.
const EmbedBatch = 64

// Embed returns one vector per input, in input order, sending batches of
// EmbedBatch inputs, each retried like a chat call. Every vector has the same
// dimension; an answer that breaks that, or misses an input, is an error.
func (c *Client) Embed(ctx context.Context, inputs []string) ([][]float32, error) {
	if c.embedModel == "" {
		return nil, invalidRequest(opEmbed, errors.New("no embeddings model configured"))
	}
	for i, in := range inputs {
		if in == "" {
			return nil, invalidRequest(opEmbed, fmt.Errorf("input %d is empty", i))
		}
	}
	out := make([][]float32, 0, len(inputs))
	dim := 0
	for start := 0; start < len(inputs); start += EmbedBatch {
		batch := inputs[start:min(start+EmbedBatch, len(inputs))]
		var vecs [][]float32
		_, err := c.retry(ctx, opEmbed, func(actx context.Context) (bool, error) {
			resp, err := c.api.CreateEmbeddings(actx, openai.EmbeddingRequestStrings{
				Input: batch, Model: openai.EmbeddingModel(c.embedModel),
			})
			if err != nil {
				return false, err
			}
			vecs, err = orderEmbeddings(resp.Data, len(batch))
			return false, err
		})
		if err != nil {
			return nil, err
		}
		for i, v := range vecs {
			if dim == 0 {
				dim = len(v)
			}
			if len(v) != dim {
				return nil, &Error{
					Op: opEmbed, Code: CodeInvalidResponse, Attempts: 1,
					Message: fmt.Sprintf("input %d has dimension %d, earlier ones %d", start+i, len(v), dim),
				}
			}
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// orderEmbeddings places each vector at its index and checks that every
// input got exactly one non-empty vector.
func orderEmbeddings(data []openai.Embedding, n int) ([][]float32, error) {
	if len(data) != n {
		return nil, &Error{Code: CodeInvalidResponse, Message: fmt.Sprintf("%d vectors for %d inputs", len(data), n)}
	}
	vecs := make([][]float32, n)
	for _, d := range data {
		if d.Index < 0 || d.Index >= n || vecs[d.Index] != nil {
			return nil, &Error{Code: CodeInvalidResponse, Message: fmt.Sprintf("vector index %d out of range or repeated", d.Index)}
		}
		if len(d.Embedding) == 0 {
			return nil, &Error{Code: CodeInvalidResponse, Message: fmt.Sprintf("vector %d is empty", d.Index)}
		}
		vecs[d.Index] = d.Embedding
	}
	return vecs, nil
}
