package tokens

import (
	"context"
	"errors"
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

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

// TestCountBoundedWork counts texts whose one pre-tokenized "word" is the
// whole text, which BPE merges in quadratic time: no piece BPE sees is
// longer than maxRun, and past exactBytes the rest is estimated.
func TestCountBoundedWork(t *testing.T) {
	c, err := ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		text     string
		estimate bool
	}{
		{"400k x", strings.Repeat("x", 400_000), true},
		{"1 MB of spaces", strings.Repeat(" ", 1<<20), true},
		{"3990 emoji", strings.Repeat("🐉", 3990), false},
		{"prose", strings.Repeat("The Fire Knight's shield turns. ", 300), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, w, err := c.count(context.Background(), tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if w.longest > maxRun {
				t.Errorf("BPE saw a run of %d bytes, bound %d", w.longest, maxRun)
			}
			if max := exactBytes + chunkBytes + maxRun; w.exact > max {
				t.Errorf("encoded %d bytes, bound %d", w.exact, max)
			}
			if w.chunks > 1+(w.exact/maxRun)+1 {
				t.Errorf("%d chunks for %d bytes", w.chunks, w.exact)
			}
			if estimated := w.exact < len(tc.text); estimated != tc.estimate {
				t.Errorf("estimated %v (encoded %d of %d bytes), want %v", estimated, w.exact, len(tc.text), tc.estimate)
			}
			if tc.estimate && n < (len(tc.text)-w.exact)/estimateFloor {
				t.Errorf("count %d below the floor of one token per %d bytes estimated", n, estimateFloor)
			}
			if again, w2, _ := c.count(context.Background(), tc.text); again != n || !w2.memo {
				t.Errorf("second count %d (memo %v), want %d from the memo", again, w2.memo, n)
			}
		})
	}
}

// TestCountPiecesCloseToWhole: counting in pieces counts at least what BPE
// over the whole text does, and not much more, on texts short enough to
// encode whole.
func TestCountPiecesCloseToWhole(t *testing.T) {
	c, err := ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		strings.Repeat("x", 3000),
		strings.Repeat("🐉", 1000),
		strings.Repeat("Kaelith décroît la DEF de 30 %. ", 200),
		strings.Repeat("a", 300) + " " + strings.Repeat("\n", 600) + strings.Repeat("ab.", 400),
	} {
		whole := len(c.enc.EncodeOrdinary(text))
		got := c.Count(text)
		if got < whole || got > whole+whole/10+2 {
			t.Errorf("%.20q…: %d in pieces, %d whole", text, got, whole)
		}
	}
}

// TestCountCancelled: a cancelled context stops counting before any BPE
// work and reports the cancellation with an estimate.
func TestCountCancelled(t *testing.T) {
	c, err := ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	text := strings.Repeat("x", 400_000)
	n, w, err := c.count(ctx, text)
	if !errors.Is(err, context.Canceled) || w.chunks != 0 || n < len(text)/estimateFloor {
		t.Fatalf("count = %d, %+v, %v; want an estimate, no chunk encoded, context.Canceled", n, w, err)
	}
	if _, w, _ := c.count(context.Background(), text); w.memo {
		t.Error("a count cut short by cancellation was remembered")
	}
	if _, err := c.CountContext(ctx, "short"); !errors.Is(err, context.Canceled) {
		t.Errorf("short text: %v", err)
	}
}

// TestMemoHitAllocatesNothing: a remembered count is found without
// copying the text (a turn looks up its data block's lines every turn).
func TestMemoHitAllocatesNothing(t *testing.T) {
	c, err := ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("Kaelith counters the Fire Knight's burn. ", 200)
	n := c.Count(text)
	if got := testing.AllocsPerRun(20, func() {
		if c.Count(text) != n {
			t.Fatal("another count")
		}
	}); got != 0 {
		t.Errorf("a memo hit: %v allocations", got)
	}
}

// TestShortTextRemembered: a short text (a tool's name, its arguments, a
// player's message) is encoded once too; BPE over it costs dozens of
// allocations, a memo hit none.
func TestShortTextRemembered(t *testing.T) {
	c, err := ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"gcs_get_champion_details", `{"champion_name":"Kaelith"}`, "hi"} {
		n, w, _ := c.count(context.Background(), text)
		if w.memo || w.exact != len(text) {
			t.Fatalf("%q: first count %+v, want it encoded", text, w)
		}
		if again, w2, _ := c.count(context.Background(), text); again != n || !w2.memo {
			t.Errorf("%q: second count %d (memo %v), want %d from the memo", text, again, w2.memo, n)
		}
		if got := testing.AllocsPerRun(20, func() { c.Count(text) }); got != 0 {
			t.Errorf("%q: a memo hit made %v allocations", text, got)
		}
	}
}

// partsAlphabet are the pieces random parts are made of: what the
// pre-tokenizers treat differently at a joint (newlines, spaces, '/',
// letters in both cases, contractions, digits, punctuation, marks, emoji,
// Unicode spaces, invalid UTF-8) and what a data block holds.
var partsAlphabet = []string{
	"\n", "\n\n", "\r\n", " ", "  ", "\t", "/", "//", "a", "Kaelith", "DEF", "x", "'s", "'LL", "1", "2026", "12345",
	"{", "}", "\"", ":", ",", "[", "]", "-", "- ", "#", "## ", "<", ">", "→", "é", "e\u0301", "🐉", "\u00a0", "\u2028",
	"\u3000", "\xff", "<context>\n", "## Cached tool results\n", "- gcs_get_champion_details {\"champion_name\":\"Kaelith\"} → ",
	"{\"message\":\"Details of Kaelith.\",\"data\":{\"hp\":12345}}", "</context>\n\n", "<player>Tell me about Kaelith</player>",
}

// randomParts makes n parts of alphabet pieces; joinable ones end with a
// newline and begin with a printable ASCII character other than '/'.
func randomParts(r *rand.Rand, n int, joinable bool) []string {
	parts := make([]string, n)
	for i := range parts {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(partsAlphabet[r.IntN(len(partsAlphabet))])
		}
		p := b.String()
		if joinable {
			for p == "" || p[0] <= ' ' || p[0] >= 0x7f || p[0] == '/' {
				p = p[1:] + "x"
			}
			if i < n-1 && !strings.HasSuffix(p, "\n") {
				p += []string{"\n", " \n", "\n\n", "x\n", "}\n", "/\n", "\t\r\n"}[r.IntN(7)]
			}
		}
		parts[i] = p
	}
	return parts
}

// TestCountParts: the parts' counts add up to the concatenation's count
// exactly, for random parts that meet the joints' rule (added from the
// parts) and random ones that do not (counted whole), in both encodings
// that add parts and one that does not, and for long concatenations.
func TestCountParts(t *testing.T) {
	for _, model := range []string{"gpt-4o", "gpt-4", "text-davinci-003"} {
		t.Run(model, func(t *testing.T) {
			c, err := ForModel(model)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(25, uint64(len(model))))
			added := 0
			for i := range 3000 {
				parts := randomParts(r, 1+r.IntN(6), i%3 != 0)
				if i%50 == 0 {
					parts = append(parts, strings.Repeat("- a long line of the block, counted on its own\n", 1+r.IntN(120)))
				}
				if c.joinable(parts) {
					added++
				}
				if got, want := c.CountParts(parts), c.Count(strings.Join(parts, "")); got != want {
					t.Fatalf("CountParts(%q) = %d, Count of the concatenation %d", parts, got, want)
				}
			}
			// Past exactBytes a text is estimated: a block that long is
			// counted whole, as the prompt's estimate.
			long := slices.Repeat([]string{"- the Fire Knight's shield turns with every hit\n"}, exactBytes/48+10)
			long = append(long, slices.Repeat([]string{"- 1234567890 9876543210 5555 → 1.2.3.4\n"}, 400)...)
			if got, want := c.CountParts(long), c.Count(strings.Join(long, "")); got != want {
				t.Fatalf("CountParts of %d parts = %d, Count of the concatenation %d", len(long), got, want)
			}
			if c.Encoding() == "p50k_base" && added > 0 {
				t.Errorf("%s added %d sets of parts", c.Encoding(), added)
			}
			if c.Encoding() != "p50k_base" && added < 1000 {
				t.Errorf("only %d of 3000 sets of parts were added", added)
			}
		})
	}
}

// TestCountPartsFromMemo: parts counted before (a data block's lines) are
// not encoded again, nor is their concatenation: counting the block is
// lookups only.
func TestCountPartsFromMemo(t *testing.T) {
	c, err := ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	parts := []string{"<context>\n", "## Cached tool results\n",
		"- gcs_get_champion_details {\"champion_name\":\"Kaelith\"} → {\"message\":\"Details of Kaelith.\",\"data\":{\"hp\":12345,\"skills\":[\"Cut\",\"Wake\"]}}\n",
		"- gcs_get_boss_details {\"boss_name\":\"Fire Knight\"}: available — call to read\n", "</context>\n\n", "<player>Tell me about Kaelith</player>"}
	for _, p := range parts {
		c.Count(p)
	}
	want := c.CountParts(parts)
	joined := strings.Join(parts, "")
	if _, encoded := c.memo[maphash.String(c.seed, joined)^uint64(len(joined))]; encoded {
		t.Error("the concatenation was encoded")
	}
	if n := testing.AllocsPerRun(100, func() { c.CountParts(parts) }); n != 0 {
		t.Errorf("counting remembered parts: %v allocations, want 0", n)
	}
	if got := c.Count(joined); got != want {
		t.Errorf("CountParts %d, the concatenation %d", want, got)
	}

	// A changed part is counted anew.
	changed := slices.Clone(parts)
	changed[2] = strings.Replace(changed[2], "12345", "99", 1)
	if got, want := c.CountParts(changed), c.Count(strings.Join(changed, "")); got != want {
		t.Errorf("changed part: %d, want %d", got, want)
	}
}

// FuzzCountParts: any parts count as their concatenation does.
func FuzzCountParts(f *testing.F) {
	c, err := ForModel("gpt-4o")
	if err != nil {
		f.Fatal(err)
	}
	f.Add("<context>\n\x00- a → {\"b\":1}\n\x00</context>\n\n\x00<player>hi</player>")
	f.Add("a\n\x00/b\n\x00 c")
	f.Add("a \n\n\x00b\r\n\x00'll\n\x00\u00a0x")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 8<<10 {
			return
		}
		parts := strings.Split(s, "\x00")
		if got, want := c.CountParts(parts), c.Count(strings.Join(parts, "")); got != want {
			t.Fatalf("CountParts(%q) = %d, want %d", parts, got, want)
		}
	})
}

// FuzzCountAtMostBytes: no text counts more tokens than it has bytes, in
// either encoding, whether counted exactly, in bounded pieces or past the
// exact part by estimate, or stopped by its context; budgets rely on it to
// take a text that fits at one token per byte without counting it.
func FuzzCountAtMostBytes(f *testing.F) {
	for _, s := range []string{
		"", "a", " ", "\n\n", "hello world", "<|endoftext|>",
		`{"message":"Details of Kaelith.","data":{"id":1001,"stats":{"hp":15000}}}`,
		strings.Repeat("x", 300), strings.Repeat("🐉", 80), strings.Repeat(" ", 200),
		"\xff\xfe\xfd", strings.Repeat("é", 90) + "\r\n\t",
	} {
		f.Add(s, uint8(0))
	}
	o200k, err := ForModel("gpt-4o")
	if err != nil {
		f.Fatal(err)
	}
	cl100k, err := ForModel("gpt-4")
	if err != nil {
		f.Fatal(err)
	}
	long := strings.Repeat("The Fire Knight's shield turns. ", 3000) // past exactBytes
	f.Fuzz(func(t *testing.T, s string, rep uint8) {
		text := strings.Repeat(s, 1+int(rep)%8)
		for _, c := range []*Counter{o200k, cl100k} {
			if n := c.Count(text); n > len(text) {
				t.Fatalf("%s: %d tokens for %d bytes %.60q", c.Encoding(), n, len(text), text)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if n, _ := o200k.CountContext(ctx, text+long); n > len(text)+len(long) {
			t.Fatalf("stopped: %d tokens for %d bytes", n, len(text)+len(long))
		}
	})
}

// TestLongTextAtMostBytes: a text estimated past its exact part counts no
// more tokens than bytes, at the rate of text that costs a token a byte.
func TestLongTextAtMostBytes(t *testing.T) {
	c, err := ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		strings.Repeat("x y ", exactBytes/2),          // a token a byte, then estimated
		strings.Repeat("🐉 ", exactBytes/3),            // several bytes a token
		strings.Repeat("Kaelith heals. ", exactBytes), // prose
	} {
		if n := c.Count(text); n > len(text) || n <= 0 {
			t.Errorf("%d tokens for %d bytes of %.20q", n, len(text), text)
		}
	}
}
