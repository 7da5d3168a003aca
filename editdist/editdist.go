// Package editdist is the one edit distance of the code base: the
// optimal-string-alignment distance by rune, used for "did you mean"
// suggestions (tool names, screen rules) and for matching misspelt names.
package editdist

import "math"

// Distance is the optimal-string-alignment distance between a and b by rune:
// insertions, deletions, substitutions and adjacent transpositions cost 1.
func Distance(a, b string) int {
	return Weighted([]rune(a), []rune(b), 1, 1, math.MaxInt)
}

// Within is Distance over runes, stopping as soon as the distance must
// exceed limit (it then returns limit+1).
func Within(ra, rb []rune, limit int) int {
	return Weighted(ra, rb, 1, 1, limit)
}

// Weighted is the optimal-string-alignment distance between ra and rb where
// an insertion, deletion or adjacent transposition costs edit and a
// substitution sub; it stops as soon as the distance must exceed limit and
// then returns limit+1.
func Weighted(ra, rb []rune, edit, sub, limit int) int {
	if len(ra) == 0 || len(rb) == 0 {
		return edit * max(len(ra), len(rb))
	}
	// Three rows: two back (for transpositions), previous, current; short
	// names fit the stack buffer.
	w := len(rb) + 1
	var buf [3 * 40]int
	cells := buf[:0]
	if 3*w > len(buf) {
		cells = make([]int, 0, 3*w)
	}
	cells = cells[:3*w]
	prev2, prev, cur := cells[:w], cells[w:2*w], cells[2*w:]
	for j := range prev {
		prev[j] = edit * j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = edit * i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := sub
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+edit, cur[j-1]+edit, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+edit)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			// Every later row is at least this row's minimum.
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
