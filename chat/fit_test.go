package chat

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameassist/gameassist/tokens"
)

// fitService is a Service with only what fitToolResult needs.
func fitService(t testing.TB) *Service {
	t.Helper()
	tok, err := tokens.ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	return &Service{tok: tok}
}

// FuzzFitToolResult cuts results of any size to any budget, spent ones
// included (the budget left goes below zero once a round's results have
// used it): no panic, a result that fits is unchanged, a cut one is a
// prefix of the result on a rune boundary followed by the note, and the
// count returned is the text's.
func FuzzFitToolResult(f *testing.F) {
	// The reported crash: a 177-byte result once the budget was spent.
	f.Add(`{"status":"success","message":"ok","data":{"counters":[{"name":"Kaelith","reason":"decreases DEF"},{"name":"Sylva","reason":"heals"}]},"llm_cache_duration":3,"x":1}`, -200)
	f.Add("", 0)
	f.Add("short", 3)
	f.Add(strings.Repeat("word ", 400), 100)
	f.Add(strings.Repeat("é", 300), 70)
	f.Add(strings.Repeat("🐉", 500), 1)
	f.Add(strings.Repeat("x", 5000), 90)
	f.Add("\xff\xfe\xfd", -1)
	s := fitService(f)
	f.Fuzz(func(t *testing.T, content string, left int) {
		out, n := s.fitToolResult(context.Background(), content, left)
		if n != s.countTokens(out) {
			t.Fatalf("returned %d tokens, the text has %d", n, s.countTokens(out))
		}
		full := s.countTokens(content)
		if full+msgOverhead <= left || out == content {
			if out != content {
				t.Fatalf("a result that fits was changed")
			}
			return
		}
		i := strings.Index(out, "\n[cut to fit the context budget")
		if i < 0 {
			t.Fatalf("cut result without the note: %q", out)
		}
		kept := out[:i]
		if !strings.HasPrefix(content, kept) || len(kept) >= len(content) {
			t.Fatalf("kept %d bytes that are not a strict prefix of the %d-byte result", len(kept), len(content))
		}
		if utf8.ValidString(content) && !utf8.ValidString(kept) {
			t.Fatalf("cut inside a rune: %q", kept)
		}
	})
}

// TestFitToolResultSpentBudget is the reported crash as a plain test: a
// result shorter than the minimum shown, with the budget spent.
func TestFitToolResultSpentBudget(t *testing.T) {
	s := fitService(t)
	content := strings.Repeat("Kaelith decreases DEF. ", 8)
	for _, left := range []int{-500, -1, 0, 10, 40} {
		out, n := s.fitToolResult(context.Background(), content, left)
		if out != content || n != s.countTokens(content) {
			t.Errorf("left %d: got %q (%d tokens), want the short result whole", left, out, n)
		}
	}
}
