// Package terms turns text into the normalized terms every lexical part of
// the RAG stack agrees on: the hashing embedder, the BM25 index of the
// embedded store and the sparse vectors sent to Qdrant all tokenize the same
// way, so a query matches what was indexed.
package terms

import (
	"hash/fnv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTokenBytes bounds one token so hostile input cannot create huge terms.
const maxTokenBytes = 64

// Words splits text into lowercase word tokens (letters and digits), in
// order, keeping stop words. A mixed-case token such as
// "ChampionFeatureModelsPresenter" is kept whole and also followed by its
// camel-case parts, so screen names match both ways.
func Words(text string) []string {
	out := make([]string, 0, len(text)/6+1)
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		tok := text[start:end]
		start = -1
		if len(tok) > maxTokenBytes {
			tok = tok[:maxTokenBytes]
			for !utf8.ValidString(tok) {
				tok = tok[:len(tok)-1]
			}
		}
		lower := strings.ToLower(tok)
		out = append(out, lower)
		if parts := camelParts(tok); len(parts) > 1 {
			for _, p := range parts {
				out = append(out, strings.ToLower(p))
			}
		}
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		// Apostrophes split too: "Kaelith's" gives "kaelith" and the stop word "s".
		flush(i)
	}
	flush(len(text))
	return out
}

// camelParts splits "ChampionFeatureModels" into its upper-case-led parts; a
// token without an inner upper-case letter yields one part.
func camelParts(tok string) []string {
	var parts []string
	last := 0
	prevLower := false
	for i, r := range tok {
		if unicode.IsUpper(r) && prevLower {
			parts = append(parts, tok[last:i])
			last = i
		}
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	return append(parts, tok[last:])
}

// Terms returns the index terms of text: words without stop words, stemmed.
func Terms(text string) []string {
	words := Words(text)
	out := words[:0]
	for _, w := range words {
		if IsStopWord(w) {
			continue
		}
		out = append(out, Stem(w))
	}
	return out
}

// Normalize returns text as its lowercase words joined by single spaces, the
// form entity names are compared in.
func Normalize(text string) string {
	var b strings.Builder
	for _, w := range plainWords(text) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// plainWords is Words without the camel-case expansion.
func plainWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// Stem reduces an English word to a light stem: plural and verb endings are
// removed so "abilities" matches "ability" and "attacks" matches "attack".
// It is deliberately conservative; short words are left alone.
func Stem(w string) string {
	n := len(w)
	if n <= 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "ing") && n > 5:
		return undouble(w[:n-3])
	case strings.HasSuffix(w, "ed") && n > 4:
		return undouble(w[:n-2])
	case strings.HasSuffix(w, "es") && n > 4 && (strings.HasSuffix(w[:n-2], "sh") || strings.HasSuffix(w[:n-2], "ch") || strings.HasSuffix(w[:n-2], "x")):
		return w[:n-2]
	case strings.HasSuffix(w, "s"):
		return w[:n-1]
	case strings.HasSuffix(w, "ly") && n > 5:
		return w[:n-2]
	}
	return w
}

func undouble(s string) string {
	n := len(s)
	if n >= 2 && s[n-1] == s[n-2] && s[n-1] != 'l' && s[n-1] != 's' && s[n-1] != 'z' {
		return s[:n-1]
	}
	if strings.HasSuffix(s, "at") || strings.HasSuffix(s, "iz") {
		return s + "e"
	}
	return s
}

// Hash maps a term to a 32-bit FNV-1a hash; the embedder and the Qdrant
// sparse vectors use it to turn terms into indices.
func Hash(term string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(term))
	return h.Sum32()
}

// IsStopWord reports whether w (lowercase) carries no meaning for retrieval.
func IsStopWord(w string) bool {
	switch w {
	case "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at",
		"be", "been", "but", "by", "can", "could", "do", "does", "did", "for", "from",
		"had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "into",
		"is", "it", "its", "me", "my", "of", "on", "or", "our", "she", "so",
		"that", "the", "their", "them", "then", "there", "these", "they", "this", "to",
		"was", "we", "were", "what", "when", "where", "which", "who", "whom", "why",
		"will", "with", "would", "you", "your", "s", "t", "ll", "d", "re", "ve",
		"tell", "please", "should", "than", "too", "very", "just", "some", "get":
		return true
	}
	return false
}
