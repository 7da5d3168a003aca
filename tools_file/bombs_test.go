package toolsfile_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/internal/yamlguard"
	toolsfile "github.com/gameassist/gameassist/tools_file"
)

// laughs is an alias chain of the given levels, ten aliases to the level
// below each, as YAML lines indented by indent: 10^levels "lol" once
// expanded.
func laughs(indent string, levels int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%sa0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n", indent)
	for i := 1; i < levels; i++ {
		p := fmt.Sprintf("*a%d", i-1)
		fmt.Fprintf(&b, "%sa%d: &a%d [%s]\n", indent, i, i, strings.Repeat(p+", ", 9)+p)
	}
	return b.String()
}

// Nesting and alias bombs are refused by the guard, before goccy/go-yaml
// parses or decodes anything (the error wraps yamlguard.ErrBomb, which only
// the guard returns), naming the file and the line.
func TestParseRefusesBombs(t *testing.T) {
	head := "tools:\n  - name: cards_x\n    description: A tool.\n    statement: SELECT :q\n"
	tests := []struct {
		name string
		file string
		want []string
	}{
		{name: "flow nesting 30,000 deep", file: head + "    parameters: " + strings.Repeat("[", 30_000) + strings.Repeat("]", 30_000) + "\n",
			want: []string{"tools.yaml:5", "exceeded max depth"}},
		{name: "block nesting 100 deep", file: head + "    parameters:\n      x:\n        " + strings.Repeat("- ", 100) + "x\n",
			want: []string{"tools.yaml:7", "nested over 64 levels"}},
		{name: "billion laughs", file: head + "    parameters:\n      type: object\n      properties: {q: {type: string}}\n      $defs:\n" + laughs("        ", 9),
			want: []string{"tools.yaml:", "aliases expand to over"}},
		{name: "billion laughs beside the tools", file: "bomb:\n" + laughs("  ", 9) + head,
			want: []string{"tools.yaml:", "aliases expand to over"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.file) > toolsfile.MaxFileBytes {
				t.Fatalf("the test file is %d bytes, over the file limit", len(tc.file))
			}
			_, err := toolsfile.Parse("tools.yaml", []byte(tc.file))
			wantInvalid(t, err, tc.want...)
			if !errors.Is(err, yamlguard.ErrBomb) {
				t.Errorf("refused, but not by the guard before decoding: %v", err)
			}
		})
	}
}

// A bomb small enough for the alias bound still cannot make a schema that
// every LLM request would carry: the compiled schema is capped.
func TestParseRefusesLargeSchema(t *testing.T) {
	file := "tools:\n  - name: cards_x\n    description: A tool.\n    statement: SELECT :q\n" +
		"    parameters:\n      type: object\n      properties: {q: {type: string}}\n      $defs:\n" + laughs("        ", 4)
	_, err := toolsfile.Parse("tools.yaml", []byte(file))
	wantInvalid(t, err, "tools.yaml:2", "tool cards_x", "parameters", fmt.Sprintf("over the %d-byte limit", toolsfile.MaxSchemaBytes))
	if errors.Is(err, yamlguard.ErrBomb) {
		t.Errorf("refused by the alias bound, want the schema cap: %v", err)
	}
}

// Anchors and aliases used as intended still work: one property schema
// shared by two properties.
func TestParseSharedSchema(t *testing.T) {
	file := `tools:
  - name: cards_x
    description: A tool.
    statement: SELECT :a || :b
    parameters:
      type: object
      properties: {a: &s {type: string, maxLength: 40}, b: *s}
`
	defs, err := toolsfile.Parse("tools.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"properties":{"a":{"maxLength":40,"type":"string"},"b":{"maxLength":40,"type":"string"}},"type":"object"}`
	if len(defs) != 1 || string(defs[0].Parameters) != want {
		t.Fatalf("parameters %s, want %s", defs[0].Parameters, want)
	}
}
