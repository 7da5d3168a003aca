// Package corpus loads the RAG documents: markdown files with a front matter
// block naming the document, its category and the game entity it describes.
// Files are outside input: every problem is reported with the file's name.
package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gameassist/gameassist/tool"
)

// MaxFileBytes caps one document file; larger files are refused rather than
// read into memory.
const MaxFileBytes = 1 << 20

// MaxUnlocksAt bounds a document's unlocks_at.
const MaxUnlocksAt = 1_000_000

// Document is one parsed content file.
type Document struct {
	DocID    string `json:"doc_id"`
	Title    string `json:"title"`
	Category string `json:"category"`
	Entity   string `json:"entity,omitempty"`
	EntityID int    `json:"entity_id,omitempty"`
	Locale   string `json:"locale"`
	// UnlocksAt, when above 0, gates the document: it is retrieved only
	// for a player whose progress (PROGRESS_PATH) has reached it
	// (front matter unlocks_at).
	UnlocksAt int `json:"unlocks_at,omitempty"`
	// Body is the markdown after the front matter, with "\n" line endings,
	// without its developer notes: only player-facing text is indexed.
	Body string `json:"-"`
	// DevNotes holds the developer notes cut from the body (fenced blocks
	// opened with "```dev-notes"): integration details for the studio,
	// never indexed or shown to players.
	DevNotes string `json:"-"`
	// Path is the file the document came from, relative to the content dir.
	Path string `json:"path,omitempty"`
}

// FileError names a content file that could not be loaded and why.
type FileError struct {
	Path string
	Err  error
}

// Error implements error.
func (e *FileError) Error() string { return "corpus: " + e.Path + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *FileError) Unwrap() error { return e.Err }

// ErrNoFrontMatter is returned for a file that does not start with a "---" block.
var ErrNoFrontMatter = errors.New("missing front matter (the file must start with a line \"---\")")

// Parse reads one document from its bytes. name is used in errors only.
func Parse(name string, data []byte) (Document, error) {
	if len(data) > MaxFileBytes {
		return Document{}, &FileError{Path: name, Err: fmt.Errorf("file is %d bytes, over the %d byte limit", len(data), MaxFileBytes)}
	}
	if !utf8.Valid(data) {
		return Document{}, &FileError{Path: name, Err: errors.New("file is not valid UTF-8")}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return Document{}, &FileError{Path: name, Err: errors.New("file contains NUL bytes")}
	}
	text := strings.TrimPrefix(string(data), "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	fields, body, err := splitFrontMatter(text)
	if err != nil {
		return Document{}, &FileError{Path: name, Err: err}
	}
	doc, err := fromFields(fields)
	if err != nil {
		return Document{}, &FileError{Path: name, Err: err}
	}
	doc.Body, doc.DevNotes, err = splitDevNotes(body)
	if err != nil {
		return Document{}, &FileError{Path: name, Err: err}
	}
	doc.Path = name
	return doc, nil
}

// DevNotesFence opens a block of developer notes in a document body; the
// block ends at the next line "```". Such notes (which fields the game
// sends, how a screen is wired) are for the studio, not for players.
const DevNotesFence = "```dev-notes"

// splitDevNotes cuts the developer-notes blocks out of body. A block left
// open is an error, so notes never leak to players by a missing fence.
func splitDevNotes(body string) (player, notes string, err error) {
	if !strings.Contains(body, DevNotesFence) {
		return body, "", nil
	}
	var pb, nb strings.Builder
	in, opened := false, 0
	for i, line := range strings.SplitAfter(body, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case !in && t == DevNotesFence:
			in, opened = true, i+1
		case in && t == "```":
			in = false
		case in:
			nb.WriteString(line)
		default:
			pb.WriteString(line)
		}
	}
	if in {
		return "", "", fmt.Errorf("body line %d: %s block is not closed by a line \"```\"", opened, DevNotesFence)
	}
	return pb.String(), nb.String(), nil
}

// splitFrontMatter separates the "key: value" lines between the opening and
// closing "---" from the body.
func splitFrontMatter(text string) (map[string]string, string, error) {
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || strings.TrimSpace(first) != "---" {
		return nil, "", ErrNoFrontMatter
	}
	fields := map[string]string{}
	line := 1
	for {
		line++
		var cur string
		cur, rest, ok = strings.Cut(rest, "\n")
		if strings.TrimSpace(cur) == "---" {
			return fields, rest, nil
		}
		if !ok {
			return nil, "", errors.New("front matter is not closed by a line \"---\"")
		}
		t := strings.TrimSpace(cur)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		key, val, found := strings.Cut(t, ":")
		key = strings.TrimSpace(key)
		if !found || key == "" || strings.ContainsAny(key, " \t\"'") {
			return nil, "", fmt.Errorf("front matter line %d: want \"key: value\", got %q", line, tool.Clip(t, 60))
		}
		if _, dup := fields[key]; dup {
			return nil, "", fmt.Errorf("front matter line %d: duplicate key %q", line, key)
		}
		v, err := unquote(strings.TrimSpace(val))
		if err != nil {
			return nil, "", fmt.Errorf("front matter line %d (%s): %w", line, key, err)
		}
		fields[key] = v
	}
}

func unquote(v string) (string, error) {
	if len(v) >= 1 && (v[0] == '"' || v[0] == '\'') {
		q := v[0]
		if len(v) < 2 || v[len(v)-1] != q {
			return "", errors.New("unterminated quoted value")
		}
		if q == '"' {
			s, err := strconv.Unquote(v)
			if err != nil {
				return "", fmt.Errorf("bad quoted value: %w", err)
			}
			return s, nil
		}
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'"), nil
	}
	return v, nil
}

func fromFields(f map[string]string) (Document, error) {
	var missing []string
	for _, k := range []string{"doc_id", "title", "category", "locale"} {
		if strings.TrimSpace(f[k]) == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return Document{}, fmt.Errorf("front matter is missing %s", strings.Join(missing, ", "))
	}
	d := Document{
		DocID:    f["doc_id"],
		Title:    strings.TrimSpace(f["title"]),
		Category: f["category"],
		Entity:   strings.TrimSpace(f["entity"]),
		Locale:   f["locale"],
	}
	if !validID(d.DocID, 128) {
		return Document{}, fmt.Errorf("doc_id %q: use 1-128 characters a-z, 0-9, '-', '_' or '.'", tool.Clip(d.DocID, 40))
	}
	if !validID(d.Category, 40) {
		return Document{}, fmt.Errorf("category %q: use 1-40 characters a-z, 0-9, '-' or '_'", tool.Clip(d.Category, 40))
	}
	if !validID(d.Locale, 16) {
		return Document{}, fmt.Errorf("locale %q: use a short code such as en", tool.Clip(d.Locale, 20))
	}
	if len(d.Title) > 200 || len(d.Entity) > 200 {
		return Document{}, errors.New("title and entity must be at most 200 bytes")
	}
	if s := strings.TrimSpace(f["entity_id"]); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return Document{}, fmt.Errorf("entity_id %q: want a non-negative integer", tool.Clip(s, 20))
		}
		d.EntityID = n
	}
	if s := strings.TrimSpace(f["unlocks_at"]); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > MaxUnlocksAt {
			return Document{}, fmt.Errorf("unlocks_at %q: want a whole number from 0 to %d", tool.Clip(s, 20), MaxUnlocksAt)
		}
		d.UnlocksAt = n
	}
	return d, nil
}

func validID(s string, maxLen int) bool {
	if s == "" || len(s) > maxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' && i > 0
		if !ok {
			return false
		}
	}
	return true
}

// Load reads every *.md file under dir (recursively, in name order, never
// leaving dir through symlinks). Bad files do not stop the load: each is
// reported in problems and skipped, so one broken document cannot take the
// assistant down; a document id seen twice keeps the first file. The error is
// non-nil only when dir itself cannot be read.
func Load(dir string) (docs []Document, problems []*FileError, err error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("corpus: open %s: %w", dir, err)
	}
	defer root.Close()
	return LoadFS(root.FS(), dir)
}

// LoadFS is Load over a file system (the embedded sample content, say);
// dir names it in errors.
func LoadFS(fsys fs.FS, dir string) (docs []Document, problems []*FileError, err error) {
	var names []string
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, walkErr error) error {
		if walkErr != nil {
			problems = append(problems, &FileError{Path: p, Err: walkErr})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.EqualFold(path.Ext(p), ".md") && !strings.HasPrefix(d.Name(), ".") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("corpus: walk %s: %w", dir, err)
	}
	sort.Strings(names)
	seen := map[string]string{}
	for _, name := range names {
		data, err := readCapped(fsys, name)
		if err != nil {
			problems = append(problems, &FileError{Path: name, Err: err})
			continue
		}
		doc, err := Parse(name, data)
		if err != nil {
			var fe *FileError
			if errors.As(err, &fe) {
				problems = append(problems, fe)
			} else {
				problems = append(problems, &FileError{Path: name, Err: err})
			}
			continue
		}
		if prev, dup := seen[doc.DocID]; dup {
			problems = append(problems, &FileError{Path: name, Err: fmt.Errorf("doc_id %q already used by %s", doc.DocID, prev)})
			continue
		}
		seen[doc.DocID] = name
		docs = append(docs, doc)
	}
	return docs, problems, nil
}

func readCapped(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("file is over the %d byte limit", MaxFileBytes)
	}
	return data, nil
}
