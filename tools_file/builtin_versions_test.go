package toolsfile_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
	toolsfile "github.com/gameassist/gameassist/tools_file"
)

// cardSchema is the parameters of the built-in card_lookup and of the file
// versions of it.
const cardSchema = `{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"],"additionalProperties":false}`

// builtinCard is a built-in card_lookup (alias find_card) at version v
// (0: unversioned) whose answer says it is the built-in.
func builtinCard(v int) tool.Tool {
	return &tool.Def[struct {
		Name string `json:"name"`
	}]{
		Name: "card_lookup", Description: "Built-in card lookup.", Category: tool.CategoryGCS, Version: v,
		Aliases: []string{"find_card"}, Schema: json.RawMessage(cardSchema),
		Run: func(_ context.Context, a struct {
			Name string `json:"name"`
		}) (tool.Result, error) {
			return tool.Success("built-in", map[string]string{"name": a.Name}), nil
		},
	}
}

// fileCard is a tools file with card_lookup at version (as the YAML
// spells it; "" for none) with aliases, and a rollouts: section when given.
func fileCard(version, aliases, rollouts string) string {
	f := "tools:\n  - name: card_lookup\n    description: A card by name, from SQL.\n"
	if version != "" {
		f += "    version: " + version + "\n"
	}
	if aliases != "" {
		f += "    aliases: " + aliases + "\n"
	}
	f += `    parameters:
      type: object
      properties: {name: {type: string, minLength: 1}}
      required: [name]
      additionalProperties: false
    statement: SELECT id, name, cost FROM cards WHERE name = :name COLLATE NOCASE
    result: row
`
	if rollouts != "" {
		f += "rollouts:\n  card_lookup: " + rollouts + "\n"
	}
	return f
}

func TestFileVersionOfBuiltin(t *testing.T) {
	tests := []struct {
		name     string
		builtins []tool.Tool
		file     string
		versions []int // of card_lookup once the file's tools join
		rollout  toolsfile.Rollout
	}{
		{name: "version 2 of an unversioned built-in", builtins: []tool.Tool{builtinCard(0)},
			file: fileCard("2", "[find_card, card_sql]", `{"1": 30, "2": 70}`), versions: []int{1, 2}, rollout: toolsfile.Rollout{1: 30, 2: 70}},
		{name: "without a rollout", builtins: []tool.Tool{builtinCard(0)},
			file: fileCard("5", "", ""), versions: []int{1, 5}},
		{name: "version 3 beside two versioned built-ins", builtins: []tool.Tool{builtinCard(1), builtinCard(2)},
			file: fileCard("3", "", `{"1": 10, "2": 20, "3": 70}`), versions: []int{1, 2, 3}, rollout: toolsfile.Rollout{1: 10, 2: 20, 3: 70}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := openDB(t)
			reg := tool.NewRegistry()
			if err := reg.Register(tc.builtins...); err != nil {
				t.Fatal(err)
			}
			set, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(tc.file), db, reg)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(set.Rollouts["card_lookup"], tc.rollout) {
				t.Fatalf("rollout %v, want %v", set.Rollouts["card_lookup"], tc.rollout)
			}
			if err := reg.ReplaceGroup(toolsfile.Group, set.List()...); err != nil {
				t.Fatal(err)
			}
			if vs := reg.Versions("find_card"); !slices.Equal(vs, tc.versions) {
				t.Fatalf("versions %v, want %v", vs, tc.versions)
			}
			ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
			if err != nil {
				t.Fatal(err)
			}
			args := json.RawMessage(`{"name":"ember imp"}`)
			file := ex.Execute(context.Background(), tool.Call{Name: "find_card", Arguments: args})
			if !file.OK() || file.InternalInfo.Version != tc.versions[len(tc.versions)-1] || !strings.Contains(mustJSON(file.Data), `"Ember Imp"`) {
				t.Fatalf("default call: %+v", file)
			}
			builtin := ex.Execute(context.Background(), tool.Call{Name: "card_lookup", Version: 1, Arguments: args})
			if !builtin.OK() || builtin.Message != "built-in" || builtin.InternalInfo.Version != 1 {
				t.Fatalf("version 1: %+v", builtin)
			}
			// A reload without the file version: the built-in is as it was.
			if err := reg.ReplaceGroup(toolsfile.Group); err != nil {
				t.Fatal(err)
			}
			want := []int{0}
			if len(tc.builtins) > 1 {
				want = []int{1, 2}
			}
			if vs := reg.Versions("card_lookup"); !slices.Equal(vs, want) {
				t.Fatalf("after the file left: versions %v, want %v", vs, want)
			}
		})
	}
}

func TestFileVersionOfBuiltinRefused(t *testing.T) {
	tests := []struct {
		name     string
		builtins []tool.Tool
		file     string
		want     []string
	}{
		{name: "no version:", builtins: []tool.Tool{builtinCard(0)}, file: fileCard("", "", ""),
			want: []string{"tools.yaml:2", "tool card_lookup", "taken by a built-in tool", "needs version:"}},
		{name: "version 1 of an unversioned built-in", builtins: []tool.Tool{builtinCard(0)}, file: fileCard("1", "", ""),
			want: []string{"tools.yaml:2", "tool card_lookup", "version 1 of card_lookup is the built-in tool", "from 2"}},
		{name: "a version the built-in has", builtins: []tool.Tool{builtinCard(1), builtinCard(2)}, file: fileCard("2", "", ""),
			want: []string{"tools.yaml:2", "tool card_lookup", "version 2 of card_lookup is a built-in tool's", "[1 2]"}},
		{name: "a built-in's alias as the name", builtins: []tool.Tool{builtinCard(0)},
			file: strings.Replace(fileCard("2", "", ""), "name: card_lookup", "name: find_card", 1),
			want: []string{"tools.yaml:2", "tool find_card", "an alias of card_lookup"}},
		{name: "another built-in's name as an alias", builtins: []tool.Tool{builtinCard(0), fakeStep("deck_lookup", 0, echo)},
			file: fileCard("2", "[deck_lookup]", ""), want: []string{"tools.yaml:2", "tool card_lookup", `"deck_lookup" is taken by a built-in tool`}},
		{name: "rollout of a version nobody has", builtins: []tool.Tool{builtinCard(0)}, file: fileCard("2", "", `{"1": 50, "3": 50}`),
			want: []string{"tools.yaml:", "tool card_lookup", "version 3 is not defined (the tool has versions [1 2])"}},
		{name: "rollout of a built-in the file does not version", builtins: []tool.Tool{builtinCard(0), fakeStep("deck_lookup", 0, echo)},
			file: fileCard("2", "", `{"1": 50, "2": 50}`) + `  deck_lookup: {"1": 100}` + "\n",
			want: []string{"tool deck_lookup", "no tool of that name is defined in this file"}},
		{name: "a chain cannot take a built-in's name", builtins: []tool.Tool{builtinCard(0), fakeStep("deck_lookup", 0, echo)},
			file: fileCard("2", "", "") + "chains:\n  - name: deck_lookup\n    description: d\n    steps:\n      - {id: a, tool: card_lookup, arguments: {name: x}}\n",
			want: []string{"chain deck_lookup", "taken by a built-in tool"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := tool.NewRegistry()
			if err := reg.Register(tc.builtins...); err != nil {
				t.Fatal(err)
			}
			_, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(tc.file), openDB(t), reg)
			wantInvalid(t, err, tc.want...)
		})
	}
}
