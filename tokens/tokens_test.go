package tokens

import "testing"

func TestCount(t *testing.T) {
	tests := []struct {
		name, model, enc, text string
		want                   int
	}{
		{name: "unknown model takes o200k", model: "llama-3-8b", enc: "o200k_base", text: "hello world", want: 2},
		{name: "gpt-4o", model: "gpt-4o-mini", enc: "o200k_base", text: "", want: 0},
		{name: "gpt-4 is cl100k", model: "gpt-4", enc: "cl100k_base", text: "hello world", want: 2},
		{name: "special tokens are text", model: "gpt-4o", enc: "o200k_base", text: "<|endoftext|>", want: 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ForModel(tt.model)
			if err != nil {
				t.Fatal(err)
			}
			if c.Encoding() != tt.enc {
				t.Errorf("encoding %s, want %s", c.Encoding(), tt.enc)
			}
			if got := c.Count(tt.text); got != tt.want {
				t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
			}
		})
	}
}

// TestCountRemembered: a long text counts the same when counted again
// (from the memo) and after the memo forgot it.
func TestCountRemembered(t *testing.T) {
	c, err := ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	long := ""
	for range 40 {
		long += "The Fire Knight's shield turns with every hit. "
	}
	first := c.Count(long)
	if first < 100 || c.Count(long) != first {
		t.Fatalf("count %d then %d", first, c.Count(long))
	}
	for i := range memoSize + 1 {
		c.Count(long + string(rune('a'+i%26)) + " " + long[:i%50])
	}
	if got := c.Count(long); got != first {
		t.Errorf("after eviction %d, want %d", got, first)
	}
	if len(c.memo) > memoSize || len(c.order) > memoSize {
		t.Errorf("memo holds %d/%d entries, bound %d", len(c.memo), len(c.order), memoSize)
	}
}
