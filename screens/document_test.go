package screens

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
)

// TestDocumentIsTheRunningRules: Document shows the rules in force, the
// embedded ones by default, a reloaded file after a good reload, and the
// old file after a bad one.
func TestDocumentIsTheRunningRules(t *testing.T) {
	if got := newTestEngine(t, "").Document(); !bytes.Equal(got, DefaultRules()) {
		t.Fatalf("default Document differs from the embedded rules")
	}
	path := filepath.Join(t.TempDir(), "rules.json")
	first := `{"MainMenuPresenter": {"context_tool": {"tool": "db_get_ux_details", "parameters": {"query": "MainMenuPresenter"}}}}`
	writeRules(t, path, first)
	e := newTestEngine(t, path)
	if got := string(e.Document()); got != first {
		t.Fatalf("Document = %s, want %s", got, first)
	}
	second := `{"MarketPresenter": {"prompt_injection": {"template": "Market {Price}", "required_fields": ["Price"]}}}`
	writeRules(t, path, second)
	if err := e.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := string(e.Document()); got != second {
		t.Fatalf("after reload Document = %s, want %s", got, second)
	}
	writeRules(t, path, `{"broken": `)
	if err := e.Reload(context.Background()); err == nil {
		t.Fatal("a broken file reloaded")
	}
	if got := string(e.Document()); got != second {
		t.Fatalf("after a bad reload Document = %s, want the running %s", got, second)
	}
	doc := e.Document()
	doc[0] = 'X'
	if got := string(e.Document()); got != second {
		t.Fatal("Document returned the engine's own bytes")
	}
}
