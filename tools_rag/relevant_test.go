package toolsrag

import (
	"slices"
	"testing"

	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

// TestRelevant: next to passages of an entity the query names (boosted
// over 1), passages that only rank well are left out; hits that all rank
// alike are all kept, in order.
func TestRelevant(t *testing.T) {
	ids := func(hits []vectorstore.Hit) []string {
		var out []string
		for _, h := range hits {
			out = append(out, h.ID)
		}
		return out
	}
	tests := []struct {
		name   string
		scores []float64
		want   []string
	}{
		{"boosted and not", []float64{1.0328, 1.032, 0.0313, 1.031}, []string{"h0", "h1", "h3"}},
		{"all alike", []float64{0.0328, 0.0323, 0.0315}, []string{"h0", "h1", "h2"}},
		{"a quarter of the best is kept", []float64{0.8, 0.2, 0.19}, []string{"h0", "h1"}},
		{"none", nil, nil},
	}
	for _, tc := range tests {
		var hits []vectorstore.Hit
		for i, s := range tc.scores {
			hits = append(hits, vectorstore.Hit{ID: "h" + string(rune('0'+i)), Score: s})
		}
		in := slices.Clone(hits)
		if got := ids(relevant(hits)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: relevant kept %v, want %v", tc.name, got, tc.want)
		}
		if !slices.Equal(hits, in) {
			t.Errorf("%s: relevant changed its input", tc.name)
		}
	}
}
