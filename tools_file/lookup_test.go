package toolsfile_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gameassist/gameassist/tool"
	toolsfile "github.com/gameassist/gameassist/tools_file"
)

// lookupOf builds file over the card database and returns the lookup of
// its first tool.
func lookupOf(t *testing.T, file string) *tool.Lookup {
	t.Helper()
	set, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(file), openDB(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	return set.Tools[0].Spec().Lookup
}

const lookupTool = `tools:
  - name: cards_get_card
    description: One card by name.
    parameters:
      type: object
      properties:
        card: {type: string}
        rarity: {type: string, enum: [common, rare]}
      required: [card]
    statement: SELECT c.id, c.name AS title, c.cost FROM cards c WHERE c.name = :card COLLATE NOCASE AND (:rarity IS NULL OR c.rarity = :rarity)
    result: row
`

// TestLookupReadFromStatement: a free-text parameter compared with a
// column names the tool's kind (the table, singular), its result column
// (the select list's alias) and every name (the column's values); an
// enum parameter is no lookup.
func TestLookupReadFromStatement(t *testing.T) {
	lk := lookupOf(t, lookupTool)
	if lk == nil {
		t.Fatal("no lookup read from the statement")
	}
	if lk.Kind != "card" || lk.Param != "card" || lk.Column != "title" {
		t.Errorf("lookup %+v, want kind card, param card, column title", lk)
	}
	if !slices.Equal(lk.Names, []string{"Ember Drake", "Ember Imp", "Sky Herald", "Stone Golem", "Tide Caller"}) {
		t.Errorf("names %q", lk.Names)
	}
	noLookup := `tools:
  - name: cards_by_rarity
    description: Cards of a rarity.
    parameters: {type: object, properties: {rarity: {type: string, enum: [common, rare]}}}
    statement: SELECT name FROM cards WHERE rarity = :rarity
`
	if lk := lookupOf(t, noLookup); lk != nil {
		t.Errorf("an enum parameter read as a lookup: %+v", lk)
	}
}

// TestLookupDeclared: a names: block replaces the guess — its kind, list
// and sentences.
func TestLookupDeclared(t *testing.T) {
	lk := lookupOf(t, lookupTool+`    names:
      kind: spell card
      list: SELECT name FROM cards WHERE cost > 4 ORDER BY name
      column: title
      sentences: {cost: "{name} costs {value} mana."}
`)
	if lk == nil || lk.Kind != "spell card" || lk.Param != "card" || lk.Column != "title" {
		t.Fatalf("lookup %+v", lk)
	}
	if !slices.Equal(lk.Names, []string{"Ember Drake", "Stone Golem"}) {
		t.Errorf("names %q, want the list's", lk.Names)
	}
	if lk.Sentences["cost"] != "{name} costs {value} mana." {
		t.Errorf("sentences %q", lk.Sentences)
	}
}

// TestLookupDeclaredRefused: a bad names: block fails the load naming the
// file, the names: line, the tool and the field.
func TestLookupDeclaredRefused(t *testing.T) {
	db := openDB(t)
	for _, tc := range []struct {
		name, block string
		want        []string
	}{
		{"parameter not a string", "      parameter: rarity\n      list: SELECT name FROM cards\n", []string{"tools.yaml:12", `parameter "rarity" is not a string parameter`}},
		{"no list", "      kind: card\n", []string{"tools.yaml:12", "list is required"}},
		{"list writes", "      list: DELETE FROM cards\n", []string{"tools.yaml:12", "names: list must be one query"}},
		{"list has no such table", "      list: SELECT name FROM nope\n", []string{"tools.yaml:12", "names: list does not prepare", "no such table: nope"}},
		{"list takes parameters", "      list: SELECT name FROM cards WHERE cost = :cost\n", []string{"tools.yaml:12", "names: list takes no parameters"}},
		{"unknown column", "      list: SELECT name FROM cards\n      column: label\n", []string{"tools.yaml:12", `column "label" is not a column of the statement's result (id, title, cost)`}},
		{"sentence of an unknown column", "      list: SELECT name FROM cards\n      sentences: {price: \"{value} gold\"}\n", []string{"tools.yaml:12", `sentences: "price" is not a column`}},
		{"sentence without value", "      list: SELECT name FROM cards\n      sentences: {cost: \"{name} is cheap\"}\n", []string{"tools.yaml:12", "sentences.cost has no {value}"}},
		{"bad kind", "      kind: \"<b>\"\n      list: SELECT name FROM cards\n", []string{"tools.yaml:12", `kind "<b>" is not a word`}},
		{"unknown field", "      lists: SELECT name FROM cards\n", []string{"tools.yaml:2", "[13:7]", `unknown field "lists"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(lookupTool+"    names:\n"+tc.block), db, nil)
			wantInvalid(t, err, append([]string{"tool cards_get_card"}, tc.want...)...)
		})
	}
}
