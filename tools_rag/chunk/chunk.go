// Package chunk splits RAG documents into the retrievable units of the
// vector stores: one chunk per "##" section, long sections cut to a size cap
// with an overlap, each chunk carrying its document's metadata.
package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gameassist/gameassist/tools_rag/corpus"

	"github.com/gameassist/gameassist/tool"
)

// Chunk is one retrievable piece of a document and the payload stored with
// its vector.
type Chunk struct {
	DocID    string `json:"doc_id"`
	Title    string `json:"title"`
	Category string `json:"category"`
	Entity   string `json:"entity,omitempty"`
	EntityID int    `json:"entity_id,omitempty"`
	Section  string `json:"section"`
	Locale   string `json:"locale"`
	// UnlocksAt is the document's unlocks_at (0: not gated).
	UnlocksAt int `json:"unlocks_at,omitempty"`
	// Index is the chunk's position in its document, from 0.
	Index int    `json:"chunk_index"`
	Text  string `json:"text"`
}

// IndexText is what embedders and keyword indexes see: the title and
// section name give every chunk its context ("Kaelith Abilities ...").
func (c Chunk) IndexText() string {
	return c.Title + " — " + c.Section + "\n" + c.Text
}

// Options tunes the splitter; zero values take the defaults.
type Options struct {
	// MaxChars caps a chunk's text in characters (default 1200).
	MaxChars int
	// Overlap is how many characters a cut section repeats from the end of
	// the previous piece (default 150; at most MaxChars/2).
	Overlap int
}

func (o Options) withDefaults() Options {
	if o.MaxChars <= 0 {
		o.MaxChars = 1200
	}
	if o.MaxChars < 50 {
		o.MaxChars = 50
	}
	if o.Overlap <= 0 {
		o.Overlap = 150
	}
	if o.Overlap > o.MaxChars/2 {
		o.Overlap = o.MaxChars / 2
	}
	return o
}

// OverviewSection names the text before a document's first "##" heading.
const OverviewSection = "Overview"

// Split cuts doc into chunks, in document order. Empty sections are dropped;
// "##" lines inside fenced code blocks are not headings.
func Split(doc corpus.Document, opts Options) []Chunk {
	opts = opts.withDefaults()
	var out []Chunk
	for _, s := range sections(doc.Body) {
		for _, piece := range cut(s.text, opts.MaxChars, opts.Overlap) {
			out = append(out, Chunk{
				DocID: doc.DocID, Title: doc.Title, Category: doc.Category,
				Entity: doc.Entity, EntityID: doc.EntityID, UnlocksAt: doc.UnlocksAt, Section: s.name,
				Locale: doc.Locale, Index: len(out), Text: piece,
			})
		}
	}
	return out
}

type section struct{ name, text string }

func sections(body string) []section {
	var out []section
	cur := section{name: OverviewSection}
	var buf strings.Builder
	emit := func() {
		if t := strings.TrimSpace(buf.String()); t != "" {
			out = append(out, section{name: cur.name, text: t})
		}
		buf.Reset()
	}
	fenced := false
	for line := range strings.SplitSeq(body, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "## ") {
			emit()
			name := strings.TrimSpace(strings.TrimLeft(line, "# "))
			if name == "" {
				name = OverviewSection
			}
			cur = section{name: tool.Clip(name, 120)}
			continue
		}
		if !fenced && strings.HasPrefix(line, "# ") && cur.name == OverviewSection && buf.Len() == 0 {
			continue // the document title, already in the front matter
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
	}
	emit()
	return out
}

// cut splits text into pieces of at most max runes, preferring paragraph,
// then sentence, then word boundaries, each piece after the first starting
// with about overlap runes of the previous one.
func cut(text string, maxRunes, overlap int) []string {
	if utf8.RuneCountInString(text) <= maxRunes {
		return []string{text}
	}
	runes := []rune(text)
	var out []string
	start := 0
	for start < len(runes) {
		end := start + maxRunes
		if end >= len(runes) {
			out = append(out, strings.TrimSpace(string(runes[start:])))
			break
		}
		end = boundary(runes, start, end)
		out = append(out, strings.TrimSpace(string(runes[start:end])))
		next := end - overlap
		if next <= start {
			next = end
		}
		// Start the overlap on a word.
		for next < end && !unicode.IsSpace(runes[next-1]) {
			next++
		}
		start = next
	}
	return out
}

// boundary finds the best cut at or before end, no earlier than the middle
// of the piece.
func boundary(runes []rune, start, end int) int {
	lo := start + (end-start)/2
	for _, ok := range []func(i int) bool{
		func(i int) bool { return runes[i-1] == '\n' && i >= 2 && runes[i-2] == '\n' },
		func(i int) bool {
			return unicode.IsSpace(runes[i]) && (runes[i-1] == '.' || runes[i-1] == '!' || runes[i-1] == '?')
		},
		func(i int) bool { return unicode.IsSpace(runes[i]) },
	} {
		for i := end; i > lo; i-- {
			if ok(i) {
				return i
			}
		}
	}
	return end
}
