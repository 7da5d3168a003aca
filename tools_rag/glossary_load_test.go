package toolsrag

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestLoadGlossary: a content directory's glossary.json is optional; a bad
// one is refused with an error naming the file and the phrase.
func TestLoadGlossary(t *testing.T) {
	g, err := LoadGlossary(fstest.MapFS{"faq/a.md": {Data: []byte("x")}}, "/srv/content")
	if err != nil || g != nil {
		t.Fatalf("no glossary: %v, %v", g, err)
	}
	g, err = LoadGlossary(fstest.MapFS{"glossary.json": {Data: []byte(`{"fr": {"énergie": "energy"}}`)}}, "/srv/content")
	if err != nil || g.Len() != 1 || !strings.HasSuffix(g.Expand("d'énergie"), "\nenergy") {
		t.Fatalf("glossary: %v, %v", g, err)
	}
	_, err = LoadGlossary(fstest.MapFS{"glossary.json": {Data: []byte(`{"fr": {"énergie": ""}}`)}}, "/srv/content")
	if err == nil || !strings.Contains(err.Error(), `/srv/content/glossary.json: fr: "énergie": empty terms`) {
		t.Fatalf("bad glossary: %v", err)
	}
}
