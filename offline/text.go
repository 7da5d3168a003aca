package offline

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reply shape: a lead of one or two sentences, then at most maxFacts list
// items. Text is cut only at sentence (or, for one overlong sentence,
// clause or word) boundaries and the cut is marked with "…".
const (
	maxLeadRunes = 320
	maxFactRunes = 220
	maxFacts     = 6
	ellipsis     = "…"
)

// reply is an answer before it becomes text.
type reply struct {
	lead  string
	facts []string
}

func (rp reply) String() string {
	var b strings.Builder
	b.WriteString(upperFirst(cutSentences(oneLine(rp.lead), maxLeadRunes, 2)))
	n := 0
	for _, f := range rp.facts {
		f = cutSentences(oneLine(f), maxFactRunes, 3)
		if f == "" {
			continue
		}
		if n == maxFacts {
			b.WriteString("\n- " + ellipsis)
			break
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("- " + f)
		n++
	}
	return strings.TrimSpace(b.String())
}

// upperFirst capitalizes the first letter of s, after any leading markup
// ("**"), so a lead built from a lower-case word starts a sentence.
func upperFirst(s string) string {
	for i, r := range s {
		if r == '*' {
			continue
		}
		if !unicode.IsLower(r) {
			return s
		}
		return s[:i] + string(unicode.ToUpper(r)) + s[i+utf8.RuneLen(r):]
	}
	return s
}

var sentenceEnd = regexp.MustCompile(`[.!?…](\s|$)`)

// cutSentences keeps whole sentences of s while they fit in limit runes,
// at most maxSentences of them; a cut is marked with "…".
func cutSentences(s string, limit, maxSentences int) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	ends := sentenceEnd.FindAllStringIndex(s, -1)
	var keep string
	cut := false
	for i, e := range ends {
		end := e[0] + utf8.RuneLen([]rune(s[e[0]:])[0])
		cand := strings.TrimSpace(s[:end])
		if utf8.RuneCountInString(cand) > limit {
			cut = true
			break
		}
		keep = cand
		if i+1 == maxSentences && end < len(s) && strings.TrimSpace(s[end:]) != "" {
			cut = true
			break
		}
	}
	if keep == "" {
		if utf8.RuneCountInString(s) <= limit {
			return s
		}
		return cutWords(s, limit)
	}
	if !cut && len(ends) > 0 {
		last := ends[len(ends)-1]
		if rest := strings.TrimSpace(s[last[0]+1:]); rest != "" {
			// Text after the last sentence end (no final stop).
			if utf8.RuneCountInString(s) <= limit {
				return s
			}
			cut = true
		}
	}
	if cut {
		return keep + " " + ellipsis
	}
	return keep
}

// cutWords cuts one overlong sentence at the last clause or word boundary
// that fits, marked with "…".
func cutWords(s string, limit int) string {
	r := []rune(s)
	if len(r) <= limit {
		return s
	}
	head := string(r[:limit])
	for _, sep := range []string{"; ", ", ", " "} {
		if i := strings.LastIndex(head, sep); i > len(head)/2 {
			return strings.TrimRight(head[:i], " ,;:") + " " + ellipsis
		}
	}
	return strings.TrimSpace(head) + " " + ellipsis
}

// oneLine collapses whitespace.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

var (
	mdLink    = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	htmlTag   = regexp.MustCompile(`<[^>]{0,200}>`)
	mdHeading = regexp.MustCompile(`^#{1,6}\s`)
)

// plainBlocks turns document markdown into player text in the reply's
// markup subset: paragraphs and list items, **bold** kept; headings,
// tables, code, links and HTML removed.
func plainBlocks(md string) []string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, strings.Join(para, " "))
			para = nil
		}
	}
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			flush()
		case strings.HasPrefix(t, "|"), strings.HasPrefix(t, "```"), mdHeading.MatchString(t), strings.HasPrefix(t, ">"):
			flush()
		case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "):
			flush()
			out = append(out, cleanInline(t[2:]))
		default:
			para = append(para, cleanInline(t))
		}
	}
	flush()
	var kept []string
	for _, b := range out {
		if b = strings.TrimSpace(b); b != "" {
			kept = append(kept, b)
		}
	}
	return kept
}

func cleanInline(s string) string {
	s = mdLink.ReplaceAllString(s, "$1")
	s = htmlTag.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "`", "")
	s = strings.ReplaceAll(s, "__", "")
	return strings.TrimSpace(s)
}

// bold marks a name in the reply's markup.
func bold(s string) string {
	if s == "" {
		return s
	}
	return "**" + s + "**"
}
