package tokens

import (
	"strings"
	"testing"
)

// BenchmarkCountLongRun counts texts a model or a player can send in one
// piece: one long "word" of x (an LLM tool argument), a message of emoji
// without spaces, and ordinary prose of the same size for comparison.
func BenchmarkCountLongRun(b *testing.B) {
	c, err := ForModel("gpt-4o")
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name, text string
	}{
		{"x-50k", strings.Repeat("x", 50_000)},
		{"x-400k", strings.Repeat("x", 400_000)},
		{"emoji-3990", strings.Repeat("🐉", 3990)},
		{"prose-16k", strings.Repeat("The Fire Knight's shield turns. ", 500)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				c.mu.Lock()
				clear(c.memo) // count afresh every time
				c.order = c.order[:0]
				c.mu.Unlock()
				c.Count(tc.text)
			}
		})
	}
}
