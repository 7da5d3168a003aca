package editdist_test

import (
	"testing"

	"github.com/gameassist/gameassist/editdist"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"kaelith", "kaelith", 0}, {"kaelith", "kealith", 1},
		{"kaelth", "kaelith", 1}, {"brannoc", "branoc", 1}, {"kaelith", "kaelitth", 1}, {"fire knigt", "fire knight", 1},
		{"火の騎士", "火騎士", 1}, {"ä", "a", 1}, {"ab", "ba", 1}, {"abc", "cab", 2},
	}
	for _, tt := range tests {
		if got := editdist.Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestWeighted(t *testing.T) {
	// A substitution at 3 costs more than a deletion and an insertion at 2
	// each only when it is cheaper to substitute: "ab"→"ax" is 3, "ab"→"ba"
	// (a transposition) 2.
	for _, tt := range []struct {
		a, b string
		want int
	}{{"ab", "ax", 3}, {"ab", "ba", 2}, {"ab", "abc", 2}, {"", "ab", 4}} {
		if got := editdist.Weighted([]rune(tt.a), []rune(tt.b), 2, 3, 1<<30); got != tt.want {
			t.Errorf("Weighted(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// FuzzWithin checks the bounded distance against Distance: equal when
// within the limit, over it otherwise.
func FuzzWithin(f *testing.F) {
	for _, s := range [][2]string{{"kaelith", "kealith"}, {"malreith", "malrieth"}, {"fire knight", "fire kinght"}, {"", "abc"}, {"ß", "ss"}} {
		f.Add(s[0], s[1], 2)
	}
	f.Fuzz(func(t *testing.T, a, b string, limit int) {
		if len(a) > 64 || len(b) > 64 || limit < 0 || limit > 4 {
			return
		}
		d := editdist.Distance(a, b)
		got := editdist.Within([]rune(a), []rune(b), limit)
		if d <= limit && got != d || d > limit && got <= limit {
			t.Fatalf("Within(%q, %q, %d) = %d, Distance = %d", a, b, limit, got, d)
		}
	})
}
