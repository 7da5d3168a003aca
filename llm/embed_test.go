package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/gameassist/gameassist/llm/llmtest"
)

func TestEmbedBatches(t *testing.T) {
	tests := []struct {
		name      string
		n         int
		wantSizes []int
	}{
		{name: "one", n: 1, wantSizes: []int{1}},
		{name: "exactly one batch", n: 64, wantSizes: []int{64}},
		{name: "150 in three", n: 150, wantSizes: []int{64, 64, 22}},
		{name: "none", n: 0, wantSizes: []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			c, _ := newTestClient(t, s, nil)
			inputs := make([]string, tt.n)
			for i := range inputs {
				inputs[i] = fmt.Sprintf("champion lore paragraph %d", i)
			}
			vecs, err := c.Embed(context.Background(), inputs)
			if err != nil {
				t.Fatal(err)
			}
			if len(vecs) != tt.n {
				t.Fatalf("%d vectors for %d inputs", len(vecs), tt.n)
			}
			for i, v := range vecs {
				if !reflect.DeepEqual(v, llmtest.Vector(inputs[i], llmtest.DefaultEmbeddingDim)) {
					t.Fatalf("vector %d is not the one for its input", i)
				}
			}
			reqs := s.EmbeddingRequests()
			sizes := make([]int, len(reqs))
			var sent []string
			for i, r := range reqs {
				sizes[i] = len(r)
				sent = append(sent, r...)
			}
			if !reflect.DeepEqual(sizes, tt.wantSizes) {
				t.Errorf("batch sizes = %v, want %v", sizes, tt.wantSizes)
			}
			if tt.n > 0 && !reflect.DeepEqual(sent, inputs) {
				t.Errorf("inputs were not sent in order")
			}
		})
	}
}

func TestEmbedFixture(t *testing.T) {
	s := llmtest.New(t)
	s.EnqueueEmbeddings(llmtest.Fixture("err_500.json"), llmtest.Fixture("embeddings.json"))
	c, w := newTestClient(t, s, nil)
	vecs, err := c.Embed(context.Background(), []string{"Ruby is a programmer's best friend"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 1 || len(vecs[0]) != 1536 {
		t.Fatalf("got %d vectors of %d dims", len(vecs), len(vecs[0]))
	}
	if vecs[0][0] != -0.0472412109375 {
		t.Errorf("first component = %v", vecs[0][0])
	}
	if len(s.EmbeddingRequests()) != 2 || len(w.all()) != 1 {
		t.Errorf("500 was not retried once: %d requests, waits %v", len(s.EmbeddingRequests()), w.all())
	}
}

func TestEmbedErrors(t *testing.T) {
	tests := []struct {
		name     string
		model    string
		inputs   []string
		queue    []llmtest.Reply
		wantCode string
	}{
		{name: "no model", inputs: []string{"x"}, wantCode: CodeInvalidRequest},
		{name: "empty input", model: "m", inputs: []string{"x", ""}, wantCode: CodeInvalidRequest},
		{name: "wrong count", model: "m", inputs: []string{"a", "b"}, queue: []llmtest.Reply{llmtest.Fixture("embeddings.json")}, wantCode: CodeInvalidResponse},
		{
			name: "repeated index", model: "m", inputs: []string{"a", "b"},
			queue:    []llmtest.Reply{llmtest.Status(200, embeddingsBody(t, []int{0, 0}, 2))},
			wantCode: CodeInvalidResponse,
		},
		{
			name: "dimension changes between batches", model: "m", inputs: texts(65),
			queue:    []llmtest.Reply{llmtest.Status(200, embeddingsBody(t, seq(64), 2)), llmtest.Fixture("embeddings.json")},
			wantCode: CodeInvalidResponse,
		},
		{name: "401", model: "m", inputs: []string{"a"}, queue: []llmtest.Reply{llmtest.Fixture("err_401.json")}, wantCode: "invalid_api_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.New(t)
			s.EnqueueEmbeddings(tt.queue...)
			c, _ := newTestClient(t, s, func(o *Options) { o.EmbeddingsModel = tt.model })
			_, err := c.Embed(context.Background(), tt.inputs)
			if e := asLLMError(t, err); e.Code != tt.wantCode || e.Op != opEmbed || e.Retryable {
				t.Errorf("err = %+v", e)
			}
		})
	}
}

func TestEmbedOutOfOrderIndexes(t *testing.T) {
	s := llmtest.New(t)
	s.EnqueueEmbeddings(llmtest.Status(200, embeddingsBody(t, []int{2, 0, 1}, 3)))
	c, _ := newTestClient(t, s, nil)
	vecs, err := c.Embed(context.Background(), []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vecs {
		if v[0] != float32(i) {
			t.Errorf("vector %d carries index %v", i, v[0])
		}
	}
}

// embeddingsBody renders an embeddings answer whose vectors carry the given
// indexes, in that order, each vector's first component being its index.
func embeddingsBody(t *testing.T, indexes []int, dim int) []byte {
	t.Helper()
	type item struct {
		Object    string    `json:"object"`
		Embedding []float32 `json:"embedding"`
		Index     int       `json:"index"`
	}
	body := struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
		Model  string `json:"model"`
	}{Object: "list", Model: "m"}
	for _, i := range indexes {
		v := make([]float32, dim)
		v[0] = float32(i)
		body.Data = append(body.Data, item{Object: "embedding", Embedding: v, Index: i})
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func texts(n int) []string {
	in := make([]string, n)
	for i := range in {
		in[i] = fmt.Sprint("text ", i)
	}
	return in
}
