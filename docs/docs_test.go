// Package docs_test checks the repository's documentation: README.md stays a
// short entry page, every relative link of README.md and docs/*.md names a
// file of the repository (and a heading of it, for a #fragment), every docs
// page a file cites exists (with the section it names), and no file cites the
// design notes that live outside the repository.
package docs_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository's root, seen from this package's directory.
const root = ".."

// maxReadmeLines is the longest README.md may grow.
const maxReadmeLines = 250

func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, want at most %d: move the detail to a page of docs/", n, maxReadmeLines)
	}
}

// TestRelativeLinksResolve: every relative link of README.md and docs/*.md
// names a file or directory inside the repository, and a #fragment names a
// heading of the Markdown file it points at.
func TestRelativeLinksResolve(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(root, "README.md"))
	if len(pages) < 2 {
		t.Fatalf("found %v: no docs pages", pages)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links(string(b)) {
			if isExternal(l.target) {
				continue
			}
			path, frag, _ := strings.Cut(l.target, "#")
			dest := page
			if path != "" {
				dest = filepath.Join(filepath.Dir(page), filepath.FromSlash(path))
			}
			if d, err := filepath.Abs(dest); err != nil || (d != abs && !strings.HasPrefix(d, abs+string(filepath.Separator))) {
				t.Errorf("%s:%d: link %q leaves the repository", page, l.line, l.target)
				continue
			}
			if _, err := os.Stat(dest); err != nil {
				t.Errorf("%s:%d: link %q: %v", page, l.line, l.target, err)
				continue
			}
			if frag != "" && strings.HasSuffix(dest, ".md") {
				if err := hasAnchor(dest, frag); err != nil {
					t.Errorf("%s:%d: link %q: %v", page, l.line, l.target, err)
				}
			}
		}
	}
}

// citation is a mention of a docs page in any file, optionally followed by
// the heading it means: docs/architecture.md, "Session tool cache".
var citation = regexp.MustCompile(`\bdocs/([a-z0-9-]+\.md)(?:,\s*"([^"]+)")?`)

// TestCitationsResolve walks every file of the repository: no file cites the
// design notes kept outside it, and every docs page a file names exists,
// with the heading named after it.
func TestCitationsResolve(t *testing.T) {
	// Spelled in two halves, so this file does not match itself.
	banned := []string{"DESIGN" + ".md", ".." + "/shared"}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
			return nil // binary (a built SQLite database)
		}
		files++
		for _, s := range banned {
			if i := bytes.Index(b, []byte(s)); i >= 0 {
				t.Errorf("%s:%d: cites %s, which is not in the repository; cite a page of docs/", path, lineOf(b, i), s)
			}
		}
		for _, m := range citation.FindAllSubmatchIndex(b, -1) {
			page := filepath.Join(root, "docs", string(b[m[2]:m[3]]))
			if _, err := os.Stat(page); err != nil {
				t.Errorf("%s:%d: cites %s: %v", path, lineOf(b, m[0]), b[m[0]:m[1]], err)
				continue
			}
			if m[4] >= 0 {
				if err := hasAnchor(page, slug(string(b[m[4]:m[5]]))); err != nil {
					t.Errorf("%s:%d: cites %s: %v", path, lineOf(b, m[0]), b[m[0]:m[1]], err)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("walked %d files from %s: not the repository", files, root)
	}
}

// envName is a quoted environment variable name in the config package's
// source, as a Load argument or a struct tag value.
var envName = regexp.MustCompile(`"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,})"`)

// TestEveryVariableDocumented: every environment variable the config
// package reads is named in the configuration section of
// docs/operations.md.
func TestEveryVariableDocumented(t *testing.T) {
	srcs, err := filepath.Glob(filepath.Join(root, "config", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	ops, err := os.ReadFile(filepath.Join(root, "docs", "operations.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(ops), "\n## Configuration\n")
	if !ok {
		t.Fatal("docs/operations.md has no Configuration section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	names := 0
	for _, src := range srcs {
		if strings.HasSuffix(src, "_test.go") {
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range envName.FindAllSubmatch(b, -1) {
			names++
			if n := "`" + string(m[1]); !strings.Contains(section, n+"`") && !strings.Contains(section, n+"=") {
				t.Errorf("%s reads %s, which the configuration section of docs/operations.md does not name", src, m[1])
			}
		}
	}
	if names < 30 {
		t.Fatalf("found %d variable names in config/: the pattern no longer matches how they are declared", names)
	}
}

type link struct {
	target string
	line   int
}

// inlineLink is a Markdown inline link or image: [text](target "title").
var inlineLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)

// links returns the inline link targets of a Markdown document, outside
// fenced code blocks and code spans.
func links(doc string) []link {
	var out []link
	for _, l := range prose(doc) {
		for _, m := range inlineLink.FindAllStringSubmatch(stripCodeSpans(l.text), -1) {
			out = append(out, link{target: m[1], line: l.n})
		}
	}
	return out
}

type proseLine struct {
	text string
	n    int
}

// prose returns the lines of a Markdown document outside its fenced code
// blocks, numbered from 1.
func prose(doc string) []proseLine {
	var out []proseLine
	var fence string
	for i, line := range strings.Split(doc, "\n") {
		if f, ok := fenceOf(line); ok {
			if fence == "" {
				fence = f
				continue
			}
			if strings.HasPrefix(f, fence) && strings.Trim(strings.TrimSpace(line), f[:1]) == "" {
				fence = ""
				continue
			}
		}
		if fence == "" {
			out = append(out, proseLine{text: line, n: i + 1})
		}
	}
	return out
}

// fenceOf reports whether line opens or closes a fenced code block, and
// its fence (three or more backticks or tildes). A backtick fence's info
// string holds no backtick, so "```` ```x ````" is a code span, not a fence.
func fenceOf(line string) (string, bool) {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 || len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return "", false
	}
	n := len(s) - len(strings.TrimLeft(s, s[:1]))
	if n < 3 {
		return "", false
	}
	if s[0] == '`' && strings.Contains(s[n:], "`") {
		return "", false
	}
	return s[:n], true
}

// stripCodeSpans blanks the code spans of one line: a run of backticks up
// to the next run of the same length.
func stripCodeSpans(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] != '`' {
			b.WriteByte(line[i])
			i++
			continue
		}
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		run := line[i : i+n]
		end := -1
		for j := i + n; j < len(line); {
			k := strings.Index(line[j:], run)
			if k < 0 {
				break
			}
			k += j
			m := 0
			for k+m < len(line) && line[k+m] == '`' {
				m++
			}
			if m == n {
				end = k
				break
			}
			j = k + m
		}
		if end < 0 {
			b.WriteString(run) // no closing run: literal backticks
			i += n
			continue
		}
		i = end + n
	}
	return b.String()
}

func isExternal(target string) bool {
	return strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:")
}

// hasAnchor reports whether the Markdown file at path has a heading whose
// GitHub anchor is frag (a repeated heading's anchors get -1, -2, ...).
func hasAnchor(path, frag string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	seen := map[string]int{}
	for _, l := range prose(string(b)) {
		h := strings.TrimLeft(l.text, "#")
		if n := len(l.text) - len(h); n == 0 || n > 6 || !strings.HasPrefix(h, " ") {
			continue
		}
		a := slug(h)
		if k := seen[a]; k > 0 {
			seen[a]++
			a += "-" + strconv.Itoa(k)
		} else {
			seen[a]++
		}
		if a == frag {
			return nil
		}
	}
	return fmt.Errorf("no heading with the anchor #%s in %s", frag, path)
}

// slug is GitHub's anchor of a heading: lower case, letters, digits,
// spaces, hyphens and underscores kept, spaces made hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func lineOf(b []byte, i int) int { return bytes.Count(b[:i], []byte("\n")) + 1 }
