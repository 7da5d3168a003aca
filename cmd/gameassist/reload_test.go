package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

const reloadTools = `tools:
  - name: cards_card
    description: One card by id.
    parameters: {type: object, properties: {%s: {type: integer}}, required: [%s], additionalProperties: false}
    statement: SELECT title FROM cards WHERE card_id = :%s
    result: row
`

const reloadRules = `{"CardScreen": {"data_tools": [{"tool": "cards_card", "json_field": "CardId", "parameter_name": "%s"}]}}`

// TestReloadRulesAndToolsTogether: a tool parameter that a rule uses is
// renamed in both files. The rules alone are refused (the running tools
// still take the old parameter); the combined reload takes both at once. Then a
// good tools file with bad rules is refused as a whole: both stay.
func TestReloadRulesAndToolsTogether(t *testing.T) {
	ctx := context.Background()
	ro, err := gcsdb.OpenReadOnly(ctx, buildExampleDB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ro.Close() })
	dir := t.TempDir()
	toolsPath, rulesPath := filepath.Join(dir, "tools.yaml"), filepath.Join(dir, "rules.json")
	write := func(path, format, param string) {
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(format, "%s", param)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(toolsPath, reloadTools, "card_id")
	write(rulesPath, reloadRules, "card_id")
	log := slog.New(slog.DiscardHandler)
	reg := tool.NewRegistry()
	files := &fileTools{path: toolsPath, db: ro, reg: reg, log: log}
	if _, err := files.load(ctx); err != nil {
		t.Fatal(err)
	}
	names, err := gcsdb.NewNames(ro)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := screens.NewEngine(rulesPath, reg, names, log)
	if err != nil {
		t.Fatal(err)
	}
	files.rules = rules
	param := func() string {
		sp, _ := reg.Spec("cards_card")
		return string(sp.Parameters)
	}

	write(toolsPath, reloadTools, "id")
	write(rulesPath, reloadRules, "id")
	if err := rules.Reload(ctx); !errors.Is(err, screens.ErrInvalidRules) {
		t.Fatalf("rules alone: %v", err)
	}
	r := reloader{files: files, rules: rules}
	got, err := r.ReloadAll(ctx)
	if err != nil {
		t.Fatalf("together: %v", err)
	}
	if !slices.Equal(got.Screens, []string{"CardScreen"}) || !slices.Equal(got.Tools, []string{"cards_card"}) || got.ToolsFile != toolsPath {
		t.Fatalf("reloaded %+v", got)
	}
	if !strings.Contains(param(), `"id"`) || files.generation() != 2 || !strings.Contains(string(rules.Document()), `"parameter_name": "id"`) {
		t.Fatalf("after the reload: schema %s, generation %d", param(), files.generation())
	}

	// Good tools, rules naming a tool that does not exist: both stay.
	write(toolsPath, reloadTools, "card_id")
	if err := os.WriteFile(rulesPath, []byte(`{"CardScreen": {"data_tools": [{"tool": "cards_nope", "json_field": "CardId", "parameter_name": "card_id"}]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReloadAll(ctx); !errors.Is(err, screens.ErrInvalidRules) {
		t.Fatalf("bad rules: %v", err)
	}
	// Bad tools, good rules: both stay too.
	write(rulesPath, reloadRules, "card_id")
	if err := os.WriteFile(toolsPath, []byte("tools: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReloadAll(ctx); !errors.Is(err, tool.ErrInvalidTools) {
		t.Fatalf("bad tools: %v", err)
	}
	if !strings.Contains(param(), `"id"`) || files.generation() != 2 || !slices.Equal(rules.Rules(), []string{"CardScreen"}) {
		t.Fatalf("a refused reload changed something: schema %s, generation %d", param(), files.generation())
	}
	plan, err := rules.Plan(ctx, screens.Screen{Name: "CardScreen", Data: json.RawMessage(`{"CardId": 1}`)}, "en")
	if err != nil || len(plan.Calls) != 1 || plan.Calls[0].Skipped != "" || string(plan.Calls[0].Arguments) != `{"id":1}` {
		t.Fatalf("plan after the refused reloads: %+v %v", plan, err)
	}
}
