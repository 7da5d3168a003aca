package embed

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func norm(v []float32) float64 { return math.Sqrt(cosine(v, v)) }

func TestHashingDeterministicAndNormalized(t *testing.T) {
	h1, err := NewHashing(HashingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := NewHashing(HashingOptions{})
	texts := []string{"Kaelith fires a Moonshot arrow", "", "ChampionFeatureModelsPresenter"}
	a, err := h1.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := h2.Embed(context.Background(), texts)
	for i := range texts {
		if !slices.Equal(a[i], b[i]) || len(a[i]) != 1024 || h1.Dim() != 1024 {
			t.Fatalf("text %d: vectors differ or wrong size", i)
		}
	}
	if n := norm(a[0]); math.Abs(n-1) > 1e-5 {
		t.Fatalf("norm = %v, want 1", n)
	}
	if n := norm(a[1]); n != 0 {
		t.Fatalf("empty text norm = %v, want 0", n)
	}
	if h1.Name() != "hash1024v1" {
		t.Fatalf("name = %q", h1.Name())
	}
}

func TestHashingSimilarTextsCloser(t *testing.T) {
	h, _ := NewHashing(HashingOptions{Dim: 512})
	tests := []struct {
		name             string
		query, near, far string
	}{
		{name: "shared words", query: "Kaelith abilities", near: "Kaelith's abilities: Moonshot and Verdant Volley", far: "Energy refills every three minutes"},
		{name: "inflection", query: "how do heals work", near: "healing restores HP of allies", far: "the market sells gear sets"},
		{name: "typo", query: "Kaelth", near: "Kaelith", far: "Brannoc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, _ := h.Embed(context.Background(), []string{tt.query, tt.near, tt.far})
			if cn, cf := cosine(v[0], v[1]), cosine(v[0], v[2]); cn <= cf {
				t.Fatalf("near %.3f <= far %.3f", cn, cf)
			}
		})
	}
}

func TestHashingRejectsBadDim(t *testing.T) {
	for _, d := range []int{-1, 10, 1 << 20} {
		if _, err := NewHashing(HashingOptions{Dim: d}); err == nil {
			t.Errorf("dim %d accepted", d)
		}
	}
}

func TestHashingCancelled(t *testing.T) {
	h, _ := NewHashing(HashingOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Embed(ctx, []string{"a"}); err == nil {
		t.Fatal("want context error")
	}
}

// openAIClient is the test's RemoteEmbedder over go-openai, as the llm
// package provides in production.
type openAIClient struct {
	c     *openai.Client
	model string
}

func (o openAIClient) Embed(ctx context.Context, in []string) ([][]float32, error) {
	resp, err := o.c.CreateEmbeddings(ctx, openai.EmbeddingRequestStrings{Input: in, Model: openai.EmbeddingModel(o.model)})
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(resp.Data))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(out) {
			return nil, os.ErrInvalid
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}

// fakeEmbeddings serves /v1/embeddings with the recorded OpenAI vector,
// one per input; mode changes the answer's shape.
func fakeEmbeddings(t *testing.T, mode *atomic.Value, requests *atomic.Int64) *httptest.Server {
	t.Helper()
	raw, err := os.ReadFile("testdata/embeddings.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Data []struct {
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil || len(rec.Data) != 1 {
		t.Fatalf("fixture: %v", err)
	}
	base := rec.Data[0].Embedding
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		requests.Add(1)
		var req struct {
			Input []string `json:"input"`
			Model string   `json:"model"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		m, _ := mode.Load().(string)
		if m == "500" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"error":{"message":"boom","type":"server_error"}}`))
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i, in := range req.Input {
			if in == "" {
				http.Error(w, `{"error":{"message":"empty input"}}`, http.StatusBadRequest)
				return
			}
			v := slices.Clone(base)
			v[i%len(v)] += float32(len(in)) // distinct per input
			if m == "short" {
				v = v[:10]
			}
			data = append(data, item{"embedding", i, v})
		}
		if m == "missing" && len(data) > 0 {
			data = data[:len(data)-1]
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"object": "list", "data": data, "model": req.Model,
			"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRemoteOverOpenAIWire(t *testing.T) {
	var mode atomic.Value
	mode.Store("")
	var requests atomic.Int64
	srv := fakeEmbeddings(t, &mode, &requests)
	cfg := openai.DefaultConfig("test-key")
	cfg.BaseURL = srv.URL + "/v1"
	client := openAIClient{c: openai.NewClientWithConfig(cfg), model: "text-embedding-3-small"}
	ctx := context.Background()

	r, err := NewRemote(ctx, client, RemoteOptions{Model: "text-embedding-3-small", BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Dim() != 1536 || r.Name() != "remote-text-embedding-3-small" {
		t.Fatalf("dim %d name %q", r.Dim(), r.Name())
	}
	requests.Store(0)
	vecs, err := r.Embed(ctx, []string{"a", "", "ccc", "dddd", "e"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 5 || requests.Load() != 3 {
		t.Fatalf("got %d vectors in %d requests, want 5 in 3 batches", len(vecs), requests.Load())
	}
	for i, v := range vecs {
		if math.Abs(norm(v)-1) > 1e-4 {
			t.Fatalf("vector %d not normalized", i)
		}
	}
	if slices.Equal(vecs[0], vecs[2]) {
		t.Fatal("vectors out of order or identical")
	}

	tests := []struct {
		name, mode, want string
	}{
		{name: "server error", mode: "500", want: "boom"},
		{name: "wrong dimension", mode: "short", want: "dimension 10"},
		{name: "missing vector", mode: "missing", want: "got 1 vectors for 2 inputs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mode.Store(tt.mode)
			defer mode.Store("")
			_, err := r.Embed(ctx, []string{"x", "y"})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestNewRemoteRefusesBadSetup(t *testing.T) {
	if _, err := NewRemote(context.Background(), nil, RemoteOptions{Model: "m"}); err == nil {
		t.Fatal("nil client accepted")
	}
	if _, err := NewRemote(context.Background(), openAIClient{}, RemoteOptions{}); err == nil {
		t.Fatal("empty model accepted")
	}
}

type fixedClient [][]float32

func (f fixedClient) Embed(context.Context, []string) ([][]float32, error) { return f, nil }

func TestRemoteRefusesNonFinite(t *testing.T) {
	r, err := NewRemote(context.Background(), fixedClient{{float32(math.NaN()), 1}}, RemoteOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Embed(context.Background(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "non-finite") {
		t.Fatalf("err = %v", err)
	}
}
