package tool

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clip shortens s to at most n runes for a message, a log line or a passage:
// it never splits a rune, cuts at the last word boundary when one lies in
// the second half of the kept text (else mid-word), drops the spaces and
// punctuation left dangling at the cut, and marks the cut with "…" (counted
// in the n runes). Text of n runes or fewer is returned unchanged. Every
// family clips through this one function, so a cut reads the same everywhere.
func Clip(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n == 1 {
		return "…"
	}
	// Byte offset just past the first n-1 runes.
	end, count := 0, 0
	for i := range s {
		if count == n-1 {
			end = i
			break
		}
		count++
	}
	kept := s[:end]
	// Prefer a word boundary: the next rune is a space, or the last space
	// within the kept text if it keeps at least half of it.
	next, _ := utf8.DecodeRuneInString(s[end:])
	if !unicode.IsSpace(next) {
		if i := strings.LastIndexFunc(kept, unicode.IsSpace); i >= 0 && utf8.RuneCountInString(kept[:i]) >= (n-1)/2 {
			kept = kept[:i]
		}
	}
	kept = strings.TrimRightFunc(kept, func(r rune) bool {
		return unicode.IsSpace(r) || (unicode.IsPunct(r) && r != ')' && r != '"' && r != '\'' && r != ']')
	})
	return kept + "…"
}
