package resolve

import (
	"testing"

	"github.com/gameassist/gameassist/editdist"
)

// FuzzDistanceWithin checks the bounded distance and the letter-count bound
// against Distance: equal when within the limit, over it otherwise, and the
// bound never rules out a pair that is within the limit.
func FuzzDistanceWithin(f *testing.F) {
	for _, s := range [][2]string{{"kaelith", "kealith"}, {"malreith", "malrieth"}, {"fire knight", "fire kinght"}, {"", "abc"}, {"ß", "ss"}} {
		f.Add(s[0], s[1], 2)
	}
	f.Fuzz(func(t *testing.T, a, b string, limit int) {
		if len(a) > 64 || len(b) > 64 || limit < 0 || limit > 4 {
			return
		}
		ra, rb := []rune(a), []rune(b)
		d := editdist.Distance(a, b)
		got := editdist.Within(ra, rb, limit)
		if d <= limit && got != d || d > limit && got <= limit {
			t.Fatalf("Within(%q, %q, %d) = %d, Distance = %d", a, b, limit, got, d)
		}
		ha, hb := lettersOf(ra), lettersOf(rb)
		if d <= limit && ha.farther(&hb, limit) {
			t.Fatalf("letter bound rules out %q, %q at distance %d <= %d", a, b, d, limit)
		}
	})
}
