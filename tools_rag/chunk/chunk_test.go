package chunk

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameassist/gameassist/tools_rag/corpus"
)

func doc(body string) corpus.Document {
	return corpus.Document{DocID: "champion-kaelith", Title: "Kaelith", Category: "champion", Entity: "Kaelith", EntityID: 1001, Locale: "en", Body: body}
}

func TestSplitSections(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		sections []string
	}{
		{name: "sections", body: "# Kaelith\n## Biography\nbio\n## Abilities\nabil\n", sections: []string{"Biography", "Abilities"}},
		{name: "intro becomes overview", body: "# Kaelith\nintro text\n## Biography\nbio\n", sections: []string{"Overview", "Biography"}},
		{name: "empty sections dropped", body: "## A\n\n## B\nb\n", sections: []string{"B"}},
		{name: "subsections stay", body: "## A\na\n### A1\nmore\n", sections: []string{"A"}},
		{name: "fenced heading ignored", body: "## A\n```\n## not a heading\n```\n", sections: []string{"A"}},
		{name: "empty body", body: "", sections: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Split(doc(tt.body), Options{})
			var names []string
			for i, c := range got {
				names = append(names, c.Section)
				if c.Index != i || c.DocID != "champion-kaelith" || c.EntityID != 1001 || c.Locale != "en" || c.Category != "champion" || c.Title != "Kaelith" || c.Entity != "Kaelith" {
					t.Errorf("chunk %d payload wrong: %+v", i, c)
				}
			}
			if strings.Join(names, "|") != strings.Join(tt.sections, "|") {
				t.Fatalf("sections = %v, want %v", names, tt.sections)
			}
		})
	}
}

func TestSplitCapsAndOverlaps(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		b.WriteString("Sentence number ")
		b.WriteString(strings.Repeat("é", i%7+1))
		b.WriteString(" tells of the Moonwell forest and its wardens. ")
		if i%10 == 9 {
			b.WriteString("\n\n")
		}
	}
	text := b.String()
	chunks := Split(doc("## Long\n"+text), Options{MaxChars: 400, Overlap: 80})
	if len(chunks) < 6 {
		t.Fatalf("got %d chunks, want the long section cut", len(chunks))
	}
	for i, c := range chunks {
		if n := utf8.RuneCountInString(c.Text); n > 400 || n == 0 {
			t.Errorf("chunk %d has %d runes", i, n)
		}
		if !utf8.ValidString(c.Text) || c.Section != "Long" {
			t.Errorf("chunk %d invalid: %q", i, c.Section)
		}
		if i > 0 {
			prev := chunks[i-1].Text
			head := c.Text[:min(20, len(c.Text))]
			if !strings.Contains(prev, head) {
				t.Errorf("chunk %d does not overlap the previous one: starts %q", i, head)
			}
		}
	}
	joined := strings.Join(strings.Fields(text), " ")
	last := chunks[len(chunks)-1].Text
	if !strings.HasSuffix(joined, strings.Join(strings.Fields(last), " ")) {
		t.Fatalf("last chunk does not end the text")
	}
}

func TestSplitNoSpacesStillTerminates(t *testing.T) {
	chunks := Split(doc("## X\n"+strings.Repeat("a", 5000)), Options{MaxChars: 100, Overlap: 30})
	total := 0
	for _, c := range chunks {
		if len(c.Text) > 100 {
			t.Fatalf("chunk of %d bytes", len(c.Text))
		}
		total += len(c.Text)
	}
	if total < 5000 {
		t.Fatalf("lost text: %d bytes kept", total)
	}
}

func TestIndexTextCarriesContext(t *testing.T) {
	c := Split(doc("## Abilities\nMoonshot"), Options{})[0]
	if got := c.IndexText(); !strings.Contains(got, "Kaelith") || !strings.Contains(got, "Abilities") || !strings.Contains(got, "Moonshot") {
		t.Fatalf("IndexText = %q", got)
	}
}
