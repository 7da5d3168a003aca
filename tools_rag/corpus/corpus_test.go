package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string
		want    Document
	}{
		{
			name: "full", in: "---\ndoc_id: champion-kaelith\ntitle: Kaelith\ncategory: champion\nentity: Kaelith\nentity_id: 1001\nlocale: en\n---\n# Kaelith\n## Bio\ntext\n",
			want: Document{DocID: "champion-kaelith", Title: "Kaelith", Category: "champion", Entity: "Kaelith", EntityID: 1001, Locale: "en", Body: "# Kaelith\n## Bio\ntext\n"},
		},
		{
			name: "quoted values crlf bom", in: "\ufeff---\r\ndoc_id: faq-1\r\ntitle: \"Why: \\\"energy\\\"?\"\r\ncategory: faq\r\nlocale: 'en'\r\n---\r\nbody",
			want: Document{DocID: "faq-1", Title: `Why: "energy"?`, Category: "faq", Locale: "en", Body: "body"},
		},
		{name: "no front matter", in: "# title\n", wantErr: "missing front matter"},
		{name: "unclosed", in: "---\ndoc_id: x\n", wantErr: "not closed"},
		{name: "missing fields", in: "---\ndoc_id: x\n---\n", wantErr: "missing title, category, locale"},
		{name: "bad line", in: "---\njust text\n---\n", wantErr: "want \"key: value\""},
		{name: "duplicate key", in: "---\ndoc_id: a\ndoc_id: b\n---\n", wantErr: "duplicate key"},
		{name: "bad doc id", in: "---\ndoc_id: ../etc\ntitle: t\ncategory: faq\nlocale: en\n---\n", wantErr: "doc_id"},
		{name: "bad entity id", in: "---\ndoc_id: a\ntitle: t\ncategory: faq\nlocale: en\nentity_id: -3\n---\n", wantErr: "entity_id"},
		{name: "unterminated quote", in: "---\ndoc_id: a\ntitle: \"t\n---\n", wantErr: "unterminated"},
		{name: "not utf8", in: "---\ndoc_id: a\xff\n---\n", wantErr: "UTF-8"},
		{name: "nul", in: "---\x00\n", wantErr: "NUL"},
		{name: "too big", in: strings.Repeat("a", MaxFileBytes+1), wantErr: "limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("x.md", []byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "x.md") {
					t.Fatalf("err = %v, want one naming x.md and containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Path = "x.md"
			if got != tt.want {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestLoadReportsBadFilesAndKeepsGoodOnes(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadDir("../testdata/bad")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range src {
		b, err := os.ReadFile(filepath.Join("../testdata/bad", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "huge.md"), make([]byte, MaxFileBytes+10), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o600); err != nil {
		t.Fatal(err)
	}
	docs, problems, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || docs[0].DocID != "ok-doc" || docs[0].Path != "good.md" {
		t.Fatalf("docs = %+v, want only ok-doc from good.md", docs)
	}
	want := map[string]string{
		"huge.md": "limit", "latin.md": "UTF-8", "missing.md": "missing", "nofm.md": "front matter",
		"unclosed.md": "not closed", "zdup.md": "already used by good.md",
	}
	if len(problems) != len(want) {
		t.Fatalf("problems = %v, want %d", problems, len(want))
	}
	for _, p := range problems {
		sub, ok := want[p.Path]
		if !ok || !strings.Contains(p.Error(), sub) {
			t.Errorf("problem %v: want one for a listed file containing %q", p, sub)
		}
	}
}

func TestLoadMissingDir(t *testing.T) {
	_, _, err := Load(filepath.Join(t.TempDir(), "nope"))
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want not exist", err)
	}
}

func TestLoadDoesNotFollowSymlinkOutOfDir(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.md")
	if err := os.WriteFile(secret, []byte("---\ndoc_id: secret\ntitle: s\ncategory: faq\nlocale: en\n---\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(secret, filepath.Join(dir, "link.md")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	docs, problems, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 0 || len(problems) != 1 {
		t.Fatalf("docs=%v problems=%v, want the escaping link refused", docs, problems)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("---\ndoc_id: a\ntitle: t\ncategory: faq\nlocale: en\n---\nbody"))
	f.Add([]byte("---\ntitle: \"\\u00e9\"\n---\n"))
	f.Add([]byte("---\r\n---\r\n"))
	f.Add([]byte("---\nentity_id: 99999999999999999999\n---\n"))
	f.Add([]byte("\ufeff---\nk: 'it''s'\n---"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse("fuzz.md", data)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) || fe.Path != "fuzz.md" {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		if d.DocID == "" || d.Title == "" || d.Category == "" || d.Locale == "" || d.EntityID < 0 {
			t.Fatalf("accepted an incomplete document: %+v", d)
		}
	})
}

func TestDevNotesKeptFromPlayers(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantBody  string
		wantNotes string
		wantErr   string
	}{
		{
			name:      "block cut out",
			body:      "# Boss Battle\n\n```dev-notes\nThe game sends BossConfigId.\n```\n\n## Tips\n\nWatch the phases.\n",
			wantBody:  "# Boss Battle\n\n\n## Tips\n\nWatch the phases.\n",
			wantNotes: "The game sends BossConfigId.\n",
		},
		{name: "no notes", body: "# A\n\ntext\n", wantBody: "# A\n\ntext\n"},
		{name: "unclosed block", body: "# A\n\n```dev-notes\nsecret wiring\n", wantErr: "ux/a.md: body line 3: ```dev-notes block is not closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse("ux/a.md", []byte("---\ndoc_id: a\ntitle: A\ncategory: ux\nlocale: en\n---\n"+tc.body))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if doc.Body != tc.wantBody || doc.DevNotes != tc.wantNotes {
				t.Errorf("body %q notes %q, want %q and %q", doc.Body, doc.DevNotes, tc.wantBody, tc.wantNotes)
			}
		})
	}
}

func TestUnlocksAt(t *testing.T) {
	doc := func(v string) string {
		return "---\ndoc_id: d\ntitle: T\ncategory: lore\nlocale: en\nunlocks_at: " + v + "\n---\n# T\n\n## S\n\ntext\n"
	}
	d, err := Parse("d.md", []byte(doc("6")))
	if err != nil || d.UnlocksAt != 6 {
		t.Fatalf("unlocks_at 6: %+v %v", d, err)
	}
	for _, bad := range []string{"-1", "six", "2.5", "99999999"} {
		if _, err := Parse("d.md", []byte(doc(bad))); err == nil || !strings.Contains(err.Error(), "unlocks_at") {
			t.Errorf("unlocks_at %s: err = %v", bad, err)
		}
	}
}
