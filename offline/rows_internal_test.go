package offline

import (
	"encoding/json"
	"strings"
	"testing"
)

func testRows(t *testing.T) []any {
	t.Helper()
	var rows []any
	dec := json.NewDecoder(strings.NewReader(`[{"id":1,"breed":"Goat","shelter":"Barn","yield_value":225,"age":3},
		{"id":2,"breed":"Duck","shelter":"Coop","yield_value":250,"age":1},
		{"id":3,"breed":"Pig","shelter":"Barn","yield_value":625,"age":2}]`))
	dec.UseNumber()
	if err := dec.Decode(&rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestRankedBy: a superlative ranks by the numeric column the question
// names, else by the only one; two candidates and no name, or both
// directions, rank nothing.
func TestRankedBy(t *testing.T) {
	rows := testRows(t)
	keys := []string{"id", "breed", "shelter", "yield_value", "age"}
	for _, tc := range []struct {
		text, col string
		desc, ok  bool
	}{
		{" which is worth the most value ", "yield_value", true, true},
		{" which has the lowest age ", "age", false, true},
		{" which is the cheapest ", "", false, false},
		{" the most and the least value ", "", false, false},
		{" list them ", "", false, false},
	} {
		col, desc, ok := rankedBy(tc.text, rows, keys)
		if col != tc.col || desc != tc.desc || ok != tc.ok {
			t.Errorf("rankedBy(%q) = %q, %v, %v; want %q, %v, %v", tc.text, col, desc, ok, tc.col, tc.desc, tc.ok)
		}
	}
	if col, desc, ok := rankedBy(" the cheapest ", rows, []string{"id", "breed", "yield_value"}); col != "yield_value" || desc || !ok {
		t.Errorf("one numeric column: %q %v %v", col, desc, ok)
	}
	if col, _, ok := rankedBy(" the highest power ", rows, []string{"id", "breed", "yield_value"}); ok {
		t.Errorf("a stat the rows lack ranked by %q", col)
	}
	sorted := sortedBy(rows, "yield_value", true)
	if sorted[0].(map[string]any)["breed"] != "Pig" || sorted[2].(map[string]any)["breed"] != "Goat" || rows[0].(map[string]any)["breed"] != "Goat" {
		t.Errorf("sortedBy: %v (input %v)", sorted, rows)
	}
}

// TestRowsWithValue: rows with a value the question gives in lower case;
// all of them when none or every row has one.
func TestRowsWithValue(t *testing.T) {
	rows := testRows(t)
	if got := rowsWithValue(rows, " which animals live in the barn "); len(got) != 2 {
		t.Errorf("barn: %v", got)
	}
	if got := rowsWithValue(rows, " list the animals "); len(got) != 3 {
		t.Errorf("no value: %v", got)
	}
	if got := rowsWithValue(rows, " goat duck pig "); len(got) != 3 {
		t.Errorf("every row: %v", got)
	}
}
