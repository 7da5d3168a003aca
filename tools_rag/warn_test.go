package toolsrag

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gameassist/gameassist/textsearch/embed"
	"github.com/gameassist/gameassist/tools_rag/corpus"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

// TestSummaryWarnsNamingFileAndReason: a studio's content with a file
// that does not load and one whose category no tool searches gets one
// WARN for each, naming the file and the reason; a searched document gets
// none.
func TestSummaryWarnsNamingFileAndReason(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"faq.md":     "---\ndoc_id: faq-1\ntitle: FAQ\ncategory: faq\nlocale: en\n---\n## Q\nA.\n",
		"recipes.md": "---\ndoc_id: rec-1\ntitle: Recipes\ncategory: recipes\nlocale: en\n---\n## Bread\nFlour.\n",
		"broken.md":  "no front matter\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h, _ := embed.NewHashing(embed.HashingOptions{})
	m, _ := vectorstore.NewMemory(h.Name(), h.Dim())
	sum, err := Ingest(context.Background(), dir, h, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	sum.Warn(context.Background(), slog.New(slog.NewJSONHandler(&buf, nil)), SearchedCategories([]string{"rag_search_faq", "rag_semantic_search"}))
	type record struct {
		Level, Msg, File, Category, Reason string
	}
	var got []record
	dec := json.NewDecoder(&buf)
	for dec.More() {
		var r record
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if len(got) != 2 {
		t.Fatalf("records %+v, want two", got)
	}
	if r := got[0]; r.Level != "WARN" || r.Msg != "content document skipped" || r.File != "broken.md" || r.Reason != corpus.ErrNoFrontMatter.Error() {
		t.Errorf("skipped file logged as %+v", r)
	}
	if r := got[1]; r.Level != "WARN" || r.File != "recipes.md" || r.Category != "recipes" ||
		r.Reason != `no specialised tool searches category "recipes"; only rag_semantic_search and rag_get_document find it` {
		t.Errorf("unknown category logged as %+v", r)
	}
}

// TestStudioGameLeavesOutTheSampleTools: a studio's own game gets the
// generic RAG tools, not the sample game's entity tools.
func TestStudioGameLeavesOutTheSampleTools(t *testing.T) {
	r := testRetriever(t)
	names := func(opts ToolsOptions) []string {
		tools, err := NewTools(r, slog.New(slog.DiscardHandler), opts)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tl := range tools {
			out = append(out, tl.Spec().Name)
		}
		return out
	}
	sample, studio := names(ToolsOptions{}), names(ToolsOptions{StudioGame: true})
	for _, n := range []string{"rag_get_champion_details", "rag_get_boss_details", "rag_get_faction_lore", "rag_get_dungeon_guide", "db_get_lore_details"} {
		if !slices.Contains(sample, n) || slices.Contains(studio, n) {
			t.Errorf("%s: in the sample's tools %v, in a studio's %v", n, slices.Contains(sample, n), slices.Contains(studio, n))
		}
	}
	for _, n := range []string{"rag_semantic_search", "rag_get_document", "rag_list_documents", "rag_search_faq", "db_get_ux_details"} {
		if !slices.Contains(studio, n) {
			t.Errorf("a studio's game lacks %s: %v", n, studio)
		}
	}
}
