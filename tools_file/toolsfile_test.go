package toolsfile_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/tool"
	toolsfile "github.com/gameassist/gameassist/tools_file"
)

const schema = `
CREATE TABLE cards (id INTEGER PRIMARY KEY, name TEXT NOT NULL, cost INTEGER NOT NULL, rarity TEXT NOT NULL, effect TEXT NOT NULL, art BLOB);
CREATE TABLE decks (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE deck_cards (deck_id INTEGER NOT NULL, card_id INTEGER NOT NULL, copies INTEGER NOT NULL);
INSERT INTO cards VALUES (1, 'Ember Imp', 1, 'common', 'Deal 1 damage. <Burn>', NULL),
  (2, 'Tide Caller', 3, 'rare', 'Draw 2 cards.', x'ff00'),
  (3, 'Stone Golem', 5, 'common', 'Taunt.', NULL),
  (4, 'Sky Herald', 4, 'epic', 'Summon two 1/1 birds.', NULL),
  (5, 'Ember Drake', 6, 'legendary', 'Deal 3 damage to all enemies.', NULL);
INSERT INTO decks VALUES (10, 'Burn'), (11, 'Control');
INSERT INTO deck_cards VALUES (10, 1, 2), (10, 5, 1), (11, 3, 2), (11, 2, 2);
`

// openDB builds the card game database under t's temp dir and opens it
// read-only, as the server does.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cards.db")
	rw, err := sql.Open("sqlite3", "file:"+path+"?mode=rwc")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rw.Exec(schema); err != nil {
		t.Fatal(err)
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := gcsdb.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ro.Close() })
	return ro
}

const goodFile = `# a studio's own tools
tools:
  - name: cards_get_card
    description: Look up one card by name.
    category: gcs
    cache_duration: 2
    llm_instruction: Quote the card's cost and effect.
    aliases: [get_card]
    display_name: {en: Card, fr: Carte, de: Karte}
    version: 3
    parameters:
      type: object
      properties: {name: {type: string, minLength: 1, maxLength: 100}}
      required: [name]
      additionalProperties: false
    statement: SELECT name, cost, rarity, effect FROM cards WHERE name = :name COLLATE NOCASE
    result: row
  - name: cards_by_rarity
    description: Cards of a rarity, cheapest first, optionally up to a cost.
    parameters:
      type: object
      properties:
        rarity: {type: string, enum: [common, rare, epic, legendary]}
        max_cost: {type: integer, minimum: 0}
      required: [rarity]
      additionalProperties: false
    statement: |
      SELECT id, name, cost FROM cards
      WHERE rarity = :rarity AND (:max_cost IS NULL OR cost <= :max_cost)
      ORDER BY cost, name
    result: rows
    max_rows: 1
  - name: cards_count
    description: How many cards the game has.
    category: custom
    display_name: Card count
    statement: SELECT count(*) AS n FROM cards -- every card
    result: value
  - name: cards_in_decks
    description: Decks holding any of the given card ids.
    parameters:
      type: object
      properties: {card_ids: {type: array, items: {type: integer}, minItems: 1, maxItems: 20}}
      required: [card_ids]
      additionalProperties: false
    statement: >-
      SELECT DISTINCT d.name AS deck FROM decks d JOIN deck_cards dc ON dc.deck_id = d.id
      WHERE dc.card_id IN (SELECT value FROM json_each(:card_ids)) ORDER BY d.name
  - name: cards_art
    description: The raw art of a card, and a literal ':colon' that is no parameter.
    parameters:
      type: object
      properties: {id: {type: integer}}
      required: [id]
      additionalProperties: false
    statement: "SELECT art, 'x:y' AS label, \"name\" FROM cards WHERE id = :id"
    result: row
`

func TestBuildAndCall(t *testing.T) {
	db := openDB(t)
	set, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(goodFile), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(set.Names(), ","); got != "cards_get_card,cards_by_rarity,cards_count,cards_in_decks,cards_art" {
		t.Fatalf("names %s", got)
	}
	first := set.Tools[0]
	spec := first.Spec()
	if spec.CacheDuration != 2 || spec.Category != tool.CategoryGCS || spec.Version != 3 || spec.Instruction != "Quote the card's cost and effect." || len(spec.Aliases) != 1 || spec.Aliases[0] != "get_card" {
		t.Fatalf("spec %+v", spec)
	}
	if first.Def().Version != 3 || set.Tools[1].Def().Version != 1 || set.Tools[1].Def().MaxRows != 1 || set.Tools[3].Def().MaxRows != toolsfile.DefaultMaxRows {
		t.Fatalf("defs %+v %+v", first.Def(), set.Tools[1].Def())
	}
	if set.Tools[2].Spec().Category != tool.CategoryCustom || set.Tools[1].Spec().Category != tool.CategoryGCS {
		t.Fatal("categories not kept or defaulted")
	}
	for _, dn := range []struct {
		tool   int
		locale string
		want   string
	}{
		{0, "fr", "Carte"},
		{0, "de", "Karte"},
		{2, "en", "Card count"},
		{2, "fr", "Card count"}, // one name serves every locale
		{1, "de", "Cards by rarity"},
	} {
		if got := set.Tools[dn.tool].Spec().DisplayName(dn.locale); got != dn.want {
			t.Errorf("%s display name in %s = %q, want %q", set.Tools[dn.tool].Spec().Name, dn.locale, got, dn.want)
		}
	}

	reg := tool.NewRegistry()
	if err := reg.ReplaceGroup(toolsfile.Group, set.List()...); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tool, args string
		wantStatus       tool.Status
		wantData         string
		wantMessage      string
		wantCache        int
	}{
		{name: "row by alias, case-folded", tool: "get_card", args: `{"name":"ember imp"}`, wantStatus: tool.StatusSuccess,
			wantData: `{"name":"Ember Imp","cost":1,"rarity":"common","effect":"Deal 1 damage. <Burn>"}`, wantMessage: "One row.", wantCache: 2},
		{name: "row not found", tool: "cards_get_card", args: `{"name":"Nobody"}`, wantStatus: tool.StatusSuccess, wantData: `null`, wantMessage: "No row matched.", wantCache: 2},
		{name: "rows cut to max_rows with the total", tool: "cards_by_rarity", args: `{"rarity":"common"}`, wantStatus: tool.StatusSuccess,
			wantData: `[{"id":1,"name":"Ember Imp","cost":1}]`, wantMessage: "Showing the first 1 of 2 rows."},
		{name: "optional parameter bound", tool: "cards_by_rarity", args: `{"rarity":"common","max_cost":1}`, wantStatus: tool.StatusSuccess,
			wantData: `[{"id":1,"name":"Ember Imp","cost":1}]`, wantMessage: "1 row."},
		{name: "no rows", tool: "cards_by_rarity", args: `{"rarity":"epic","max_cost":0}`, wantStatus: tool.StatusSuccess, wantData: `[]`, wantMessage: "No rows matched."},
		{name: "value", tool: "cards_count", args: `{}`, wantStatus: tool.StatusSuccess, wantData: `5`, wantMessage: "One value."},
		{name: "array argument through json_each", tool: "cards_in_decks", args: `{"card_ids":[1,2]}`, wantStatus: tool.StatusSuccess,
			wantData: `[{"deck":"Burn"},{"deck":"Control"}]`, wantMessage: "2 rows."},
		{name: "blob and literal colon", tool: "cards_art", args: `{"id":2}`, wantStatus: tool.StatusSuccess,
			wantData: `{"art":"base64:/wA=","label":"x:y","name":"Tide Caller"}`, wantMessage: "One row."},
		{name: "schema refuses a bad argument", tool: "cards_by_rarity", args: `{"rarity":"mythic"}`, wantStatus: tool.StatusError},
		{name: "schema refuses an unknown argument", tool: "cards_get_card", args: `{"name":"x","extra":1}`, wantStatus: tool.StatusError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ex.Execute(context.Background(), tool.Call{Name: tc.tool, Arguments: json.RawMessage(tc.args)})
			if r.Status != tc.wantStatus {
				t.Fatalf("status %s: %+v", r.Status, r)
			}
			got, _ := r.Data.(json.RawMessage)
			if string(got) != tc.wantData {
				t.Fatalf("data %s, want %s", got, tc.wantData)
			}
			if tc.wantMessage != "" && r.Message != tc.wantMessage {
				t.Fatalf("message %q, want %q", r.Message, tc.wantMessage)
			}
			if r.OK() && r.LLMCacheDuration != tc.wantCache {
				t.Fatalf("cache duration %d, want %d", r.LLMCacheDuration, tc.wantCache)
			}
		})
	}
	r := ex.Execute(context.Background(), tool.Call{Name: "cards_get_card", Arguments: json.RawMessage(`{"name":"Stone Golem"}`)})
	if r.LLMInstruction != "Quote the card's cost and effect." {
		t.Fatalf("llm_instruction %q", r.LLMInstruction)
	}
}

// TestCallDirect covers what the executor's schema check would stop: a tool
// called directly still answers an envelope, never panics.
func TestCallDirect(t *testing.T) {
	set, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(goodFile), openDB(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`[1]`, `"x"`, `{"name":`, `{"name":{"a":1}}`, `null`, ``, `{"name":1e400}`} {
		r, err := set.Tools[0].Call(context.Background(), json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s: backend error %v", args, err)
		}
		if r.Status == "" {
			t.Fatalf("%s: no status", args)
		}
	}
}

func TestBuildRefuses(t *testing.T) {
	db := openDB(t)
	one := func(body string) string {
		return "tools:\n  - name: cards_x\n    description: A tool.\n" + body
	}
	params := "    parameters:\n      type: object\n      properties: {name: {type: string}}\n"
	tests := []struct {
		name  string
		file  string
		taken string
		want  []string // all must appear in the error
	}{
		{name: "unknown field", file: one("    statement: SELECT 1\n    cache: 2\n"), want: []string{"tools.yaml:2", "tool cards_x", "cache"}},
		{name: "unknown top-level key", file: "tool:\n  - name: cards_x\n", want: []string{"tools.yaml", "tool"}},
		{name: "chain checked with the tools", file: one("    statement: SELECT 1\n") + "chains:\n  - name: c\n", want: []string{"tools.yaml:6", "chain c", "name \"c\" must match", "steps: is missing"}},
		{name: "rollout of a tool with one version", file: one("    statement: SELECT 1\n") + "rollouts:\n  cards_x: {\"1\": 100}\n", want: []string{"tools.yaml:6", "tool cards_x", "only version 1"}},
		{name: "bad name", file: "tools:\n  - name: Cards-X\n    description: d\n    statement: SELECT 1\n", want: []string{"tool Cards-X", "must match"}},
		{name: "duplicate name and version", file: one("    statement: SELECT 1\n") + "  - name: cards_x\n    description: again\n    version: 1\n    statement: SELECT 2\n",
			want: []string{"tools.yaml:5", "version 1 of cards_x is already defined at line 2"}},
		{name: "duplicate name, default version", file: one("    statement: SELECT 1\n") + "  - name: cards_x\n    description: again\n    statement: SELECT 2\n",
			want: []string{"tools.yaml:5", "version 1 of cards_x is already defined at line 2"}},
		{name: "alias clashes with another tool", file: one("    statement: SELECT 1\n") + "  - name: cards_y\n    description: d\n    aliases: [cards_x]\n    statement: SELECT 2\n",
			want: []string{"tool cards_y", `"cards_x" is already used`}},
		{name: "clash with a built-in", file: one("    statement: SELECT 1\n"), taken: "cards_x", want: []string{"tool cards_x", "taken by a built-in"}},
		{name: "missing description", file: "tools:\n  - name: cards_x\n    statement: SELECT 1\n", want: []string{"description is required"}},
		{name: "missing statement", file: one(""), want: []string{"statement is required"}},
		{name: "bad category", file: one("    category: sql\n    statement: SELECT 1\n"), want: []string{`category "sql"`}},
		{name: "bad result", file: one("    result: table\n    statement: SELECT 1\n"), want: []string{`result "table"`}},
		{name: "max_rows with row", file: one("    result: row\n    max_rows: 5\n    statement: SELECT 1\n"), want: []string{"max_rows applies only"}},
		{name: "max_rows too large", file: one("    max_rows: 100000\n    statement: SELECT 1\n"), want: []string{"max_rows 100000"}},
		{name: "display name too long", file: one("    display_name: " + strings.Repeat("x", 41) + "\n    statement: SELECT 1\n"), want: []string{"tools.yaml:2", "tool cards_x", "display_name", "longer than 40"}},
		{name: "display name of a bad locale", file: one("    display_name: {english: Card}\n    statement: SELECT 1\n"), want: []string{"tool cards_x", "display_name", `"english"`}},
		{name: "display name not a string", file: one("    display_name: {en: [a]}\n    statement: SELECT 1\n"), want: []string{"tool cards_x", "display_name: en: want a string"}},
		{name: "display name of the wrong type", file: one("    display_name: 7\n    statement: SELECT 1\n"), want: []string{"tool cards_x", "display_name: want a name"}},
		{name: "empty display name", file: one("    display_name: ''\n    statement: SELECT 1\n"), want: []string{"tool cards_x", "display name en: empty"}},
		{name: "negative cache", file: one("    cache_duration: -1\n    statement: SELECT 1\n"), want: []string{"cache_duration -1"}},
		{name: "cache duration of the wrong type", file: one("    cache_duration: two\n    statement: SELECT 1\n"), want: []string{"tools.yaml:2", "tool cards_x", "[4:21]", "cache_duration of type int"}},
		{name: "schema not an object", file: one("    parameters: {type: string}\n    statement: SELECT 1\n"), want: []string{`type must be "object"`}},
		{name: "schema does not compile", file: one("    parameters: {type: object, properties: {a: {type: 7}}}\n    statement: SELECT :a\n"), want: []string{"tool cards_x", "parameters"}},
		{name: "undeclared parameter", file: one("    statement: SELECT * FROM cards WHERE name = :name\n"), want: []string{":name is not declared"}},
		{name: "unused parameter", file: one(params + "    statement: SELECT * FROM cards\n"), want: []string{`"name" is declared but the statement never uses :name`}},
		{name: "write statement", file: one("    statement: DELETE FROM cards\n"), want: []string{"must be one query"}},
		{name: "write hidden in a CTE", file: one("    statement: WITH x AS (SELECT 1) DELETE FROM cards\n"), want: []string{"tool cards_x", "statement"}},
		{name: "attach", file: one("    statement: ATTACH 'x.db' AS x\n"), want: []string{"must be one query"}},
		{name: "two statements", file: one("    statement: SELECT 1; DELETE FROM cards\n"), want: []string{"only one statement"}},
		{name: "positional parameter", file: one("    statement: SELECT * FROM cards WHERE id = ?\n"), want: []string{"positional parameter"}},
		{name: "dollar parameter", file: one("    statement: SELECT * FROM cards WHERE id = $id\n"), want: []string{"use :name parameters"}},
		{name: "unknown table", file: one("    statement: SELECT * FROM nope\n"), want: []string{"tools.yaml:2", "tool cards_x", "no such table: nope"}},
		{name: "sql syntax", file: one("    statement: SELECT FROM WHERE\n"), want: []string{"tool cards_x", "does not prepare"}},
		{name: "yaml syntax", file: "tools:\n  - name: [unclosed\n", want: []string{"tools.yaml"}},
		{name: "empty", file: "", want: []string{"tools.yaml"}},
		{name: "no tools", file: "tools: []\n", want: []string{"tools: is missing or empty"}},
		{name: "several problems reported at once", file: one("    statement: SELECT * FROM nope\n") + "  - name: cards_y\n    description: d\n    statement: DELETE FROM cards\n",
			want: []string{"tool cards_x", "tool cards_y"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			builtins := tool.NewRegistry()
			if tc.taken != "" {
				if err := builtins.Register(fakeStep(tc.taken, 0, echo)); err != nil {
					t.Fatal(err)
				}
			}
			_, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(tc.file), db, builtins)
			wantInvalid(t, err, tc.want...)
		})
	}
}

func TestLoad(t *testing.T) {
	db := openDB(t)
	path := filepath.Join(t.TempDir(), "my-tools.yaml")
	if _, err := toolsfile.Load(context.Background(), path, db, nil); err == nil || !strings.Contains(err.Error(), "my-tools.yaml") {
		t.Fatalf("missing file: %v", err)
	}
	if err := os.WriteFile(path, []byte(goodFile), 0o600); err != nil {
		t.Fatal(err)
	}
	set, err := toolsfile.Load(context.Background(), path, db, nil)
	if err != nil || len(set.Tools) != 5 || set.File != path {
		t.Fatalf("load: %v", err)
	}
	big := "tools:\n" + strings.Repeat("# padding\n", toolsfile.MaxFileBytes/10+1)
	if err := os.WriteFile(path, []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := toolsfile.Load(context.Background(), path, db, nil); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("oversized file: %v", err)
	}
}

// FuzzParse feeds hostile tools files to the parser: it must refuse or
// accept, never panic, and what it accepts must satisfy its own rules.
func FuzzParse(f *testing.F) {
	f.Add(goodFile)
	f.Add("tools:\n  - name: abc\n    description: d\n    statement: SELECT :a\n    parameters: {type: object, properties: {a: {type: string}}}\n")
	f.Add("tools: [{name: abc, description: d, statement: 'SELECT 1', result: value}]\nchains: []\n")
	f.Add("tools:\n  - &a {name: abc}\n  - *a\n")
	f.Add("{")
	f.Fuzz(func(t *testing.T, file string) {
		defs, err := toolsfile.Parse("fuzz.yaml", []byte(file))
		if err != nil {
			return
		}
		for _, d := range defs {
			if d.Name == "" || d.Statement == "" || d.Description == "" {
				t.Fatalf("accepted an incomplete definition %+v", d)
			}
			if _, err := tool.CompileSchema(d.Name, d.Parameters); err != nil {
				t.Fatalf("accepted a schema that does not compile: %v", err)
			}
		}
	})
}

// Example of the error an operator reads for a bad file.
func ExampleBuild() {
	db, _ := sql.Open("sqlite3", "file::memory:?mode=memory")
	defer db.Close()
	_, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(`tools:
  - name: cards_get_card
    description: Look up one card by name.
    statement: SELECT * FROM cards WHERE name = :name
`), db, nil)
	fmt.Println(err)
	// Output: toolsfile: invalid tool definitions: tools.yaml:2: tool cards_get_card: statement: :name is not declared in parameters.properties
}
