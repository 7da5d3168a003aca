package screens

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// TestReloadWith: rules checked against candidate tools (here a tool the
// running registry lacks) go in only with the tools, after commit; bad
// rules never reach commit; a failed commit leaves the running rules.
func TestReloadWith(t *testing.T) {
	running := newTestRegistry(t)
	candidate := newTestRegistry(t)
	if err := candidate.Register(fakeTool{spec: tool.Spec{Name: "cards_new", Category: tool.CategoryGCS,
		Parameters: json.RawMessage(`{"type":"object","properties":{"card_id":{"type":"integer"}},"required":["card_id"]}`)}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rules.json")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"Home": {"context_tool": {"tool": "gcs_get_boss_details", "parameters": {"boss_id": 1}}}}`)
	e, err := NewEngine(path, running, testTranslator(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	newRules := `{"Card": {"data_tools": [{"tool": "cards_new", "json_field": "CardId", "parameter_name": "card_id"}]}}`
	write(newRules)
	if err := e.Reload(ctx); !errors.Is(err, ErrInvalidRules) {
		t.Fatalf("the rules alone reloaded against the running tools: %v", err)
	}

	committed := 0
	commit := func() error { committed++; return nil }
	write(`{"Card": {"data_tools": [{"tool": "cards_nope", "json_field": "CardId", "parameter_name": "card_id"}]}}`)
	if err := e.ReloadWith(ctx, candidate, commit); !errors.Is(err, ErrInvalidRules) || committed != 0 {
		t.Fatalf("bad rules: %v, commit ran %d times", err, committed)
	}
	write(newRules)
	failed := errors.New("tools refused")
	if err := e.ReloadWith(ctx, candidate, func() error { return failed }); !errors.Is(err, failed) {
		t.Fatalf("failed commit: %v", err)
	}
	if got := e.Rules(); !slices.Equal(got, []string{"Home"}) {
		t.Fatalf("after refused reloads the rules are %v", got)
	}
	if err := e.ReloadWith(ctx, candidate, commit); err != nil || committed != 1 {
		t.Fatalf("good reload: %v, commit ran %d times", err, committed)
	}
	if got := e.Rules(); !slices.Equal(got, []string{"Card"}) {
		t.Fatalf("after the reload the rules are %v", got)
	}
}
