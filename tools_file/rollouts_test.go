package toolsfile_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
	toolsfile "github.com/gameassist/gameassist/tools_file"
)

// versionedFile defines cards_get_card twice: version 1 answers the name
// and cost, version 2 also the effect and takes an optional rarity.
const versionedFile = `tools:
  - name: cards_get_card
    description: Look up one card by name.
    aliases: [get_card]
    version: 1
    parameters:
      type: object
      properties: {name: {type: string, minLength: 1}}
      required: [name]
      additionalProperties: false
    statement: SELECT name, cost FROM cards WHERE name = :name COLLATE NOCASE
    result: row
  - name: cards_get_card
    description: Look up one card by name, with its effect.
    aliases: [get_card, card_lookup]
    version: 2
    cache_duration: 2
    parameters:
      type: object
      properties: {name: {type: string, minLength: 1}, rarity: {type: string}}
      required: [name]
      additionalProperties: false
    statement: SELECT name, cost, effect FROM cards WHERE name = :name COLLATE NOCASE AND (:rarity IS NULL OR rarity = :rarity)
    result: row
rollouts:
  cards_get_card: {"1": 80, "2": 20}
`

func TestVersionsAndRollouts(t *testing.T) {
	db := openDB(t)
	set, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(versionedFile), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(set.Names(), ","); got != "cards_get_card" {
		t.Fatalf("names %s", got)
	}
	if len(set.Tools) != 2 {
		t.Fatalf("%d tools, want both versions", len(set.Tools))
	}
	if r := set.Rollouts["cards_get_card"]; len(r) != 2 || r[1] != 80 || r[2] != 20 {
		t.Fatalf("rollouts %v", set.Rollouts)
	}
	reg := tool.NewRegistry()
	if err := reg.Register(set.List()...); err != nil {
		t.Fatal(err)
	}
	if vs := reg.Versions("get_card"); len(vs) != 2 || vs[0] != 1 || vs[1] != 2 {
		t.Fatalf("versions by alias %v", vs)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		call     tool.Call
		wantVer  int
		wantData string
	}{
		{name: "version 1 by name", call: tool.Call{Name: "cards_get_card", Version: 1, Arguments: json.RawMessage(`{"name":"ember imp"}`)},
			wantVer: 1, wantData: `{"cost":1,"name":"Ember Imp"}`},
		{name: "version 2 by the old alias", call: tool.Call{Name: "get_card", Version: 2, Arguments: json.RawMessage(`{"name":"ember imp"}`)},
			wantVer: 2, wantData: `{"cost":1,"effect":"Deal 1 damage. <Burn>","name":"Ember Imp"}`},
		{name: "no version runs the highest", call: tool.Call{Name: "card_lookup", Arguments: json.RawMessage(`{"name":"ember imp"}`)},
			wantVer: 2, wantData: `{"cost":1,"effect":"Deal 1 damage. <Burn>","name":"Ember Imp"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ex.Execute(context.Background(), tc.call)
			if !r.OK() || r.InternalInfo.Version != tc.wantVer || r.InternalInfo.FunctionName != "cards_get_card" {
				t.Fatalf("result %+v", r)
			}
			var got, want any
			_ = json.Unmarshal(r.Data.(json.RawMessage), &got)
			_ = json.Unmarshal([]byte(tc.wantData), &want)
			if g, w := mustJSON(got), mustJSON(want); g != w {
				t.Fatalf("data %s, want %s", g, w)
			}
		})
	}
	// Version 1's schema refuses what version 2 accepts.
	r := ex.Execute(context.Background(), tool.Call{Name: "cards_get_card", Version: 1, Arguments: json.RawMessage(`{"name":"x","rarity":"rare"}`)})
	if r.OK() || !strings.Contains(r.ErrorDetails, "rarity") {
		t.Fatalf("v1 with a v2 argument: %+v", r)
	}
	r = ex.Execute(context.Background(), tool.Call{Name: "cards_get_card", Version: 7, Arguments: json.RawMessage(`{"name":"x"}`)})
	if r.OK() || !strings.Contains(r.Message, "no version 7") || !strings.Contains(r.Guidance, "[1 2]") {
		t.Fatalf("unknown version: %+v", r)
	}
}

func TestRolloutsRefused(t *testing.T) {
	db := openDB(t)
	two := "tools:\n" +
		"  - {name: cards_a, description: d, version: 1, statement: SELECT 1}\n" +
		"  - {name: cards_a, description: d, version: 2, statement: SELECT 2}\n" +
		"  - {name: cards_b, description: d, statement: SELECT 3}\n"
	tests := []struct {
		name string
		file string
		want []string
	}{
		{name: "unknown tool", file: two + "rollouts:\n  cards_z: {\"1\": 100}\n", want: []string{"tools.yaml:6", "tool cards_z", "no tool of that name"}},
		{name: "unknown version", file: two + "rollouts:\n  cards_a: {\"1\": 50, \"3\": 50}\n", want: []string{"tool cards_a", "version 3 is not defined", "[1 2]"}},
		{name: "negative weight", file: two + "rollouts:\n  cards_a: {\"1\": -5, \"2\": 20}\n", want: []string{"weight of version 1 must be a whole number"}},
		{name: "fractional weight", file: two + "rollouts:\n  cards_a: {\"1\": 0.5, \"2\": 20}\n", want: []string{"weight of version 1 must be a whole number"}},
		{name: "text weight", file: two + "rollouts:\n  cards_a: {\"1\": \"80\", \"2\": 20}\n", want: []string{"weight of version 1 must be a whole number"}},
		{name: "zero sum", file: two + "rollouts:\n  cards_a: {\"1\": 0, \"2\": 0}\n", want: []string{"tools.yaml:6", "tool cards_a", "sum to 0, not 100"}},
		{name: "relative weights summing under 100", file: two + "rollouts:\n  cards_a: {\"1\": 4, \"2\": 1}\n", want: []string{"tools.yaml:6", "tool cards_a", "sum to 5, not 100"}},
		{name: "weights summing over 100", file: two + "rollouts:\n  cards_a: {\"1\": 80, \"2\": 30}\n", want: []string{"tools.yaml:6", "tool cards_a", "sum to 110, not 100"}},
		{name: "one weight over 100", file: two + "rollouts:\n  cards_a: {\"1\": 150, \"2\": 0}\n", want: []string{"tool cards_a", "weight of version 1 must be a whole number from 0 to 100"}},
		{name: "bad version key", file: two + "rollouts:\n  cards_a: {\"v1\": 100}\n", want: []string{`version "v1" must be a whole number`}},
		{name: "weights not a mapping", file: two + "rollouts:\n  cards_a: [80, 20]\n", want: []string{"weights must map versions"}},
		{name: "section not a mapping", file: two + "rollouts:\n  - cards_a\n", want: []string{"rollouts: must map tool names"}},
		{name: "single-version tool", file: two + "rollouts:\n  cards_b: {\"1\": 100}\n", want: []string{"tool cards_b", "only version 1"}},
		{name: "alias shared with another tool", file: "tools:\n" +
			"  - {name: cards_a, description: d, version: 1, aliases: [old_a], statement: SELECT 1}\n" +
			"  - {name: cards_b, description: d, aliases: [old_a], statement: SELECT 2}\n",
			want: []string{"tool cards_b", `alias "old_a" is already used at line 2 by cards_a`}},
		{name: "name used as another tool's alias", file: "tools:\n" +
			"  - {name: cards_a, description: d, aliases: [cards_b], statement: SELECT 1}\n" +
			"  - {name: cards_b, description: d, version: 2, statement: SELECT 2}\n",
			want: []string{"tool cards_b", "already used at line 2 as an alias of cards_a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(tc.file), db, nil)
			wantInvalid(t, err, tc.want...)
		})
	}
}

func TestRolloutsUnquotedVersions(t *testing.T) {
	file := "tools:\n" +
		"  - {name: cards_a, description: d, version: 1, statement: SELECT 1}\n" +
		"  - {name: cards_a, description: d, version: 2, statement: SELECT 2}\n" +
		"rollouts:\n  cards_a:\n    1: 100\n    2: 0\n"
	set, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(file), openDB(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := set.Rollouts["cards_a"]; r[1] != 100 || r[2] != 0 || len(r) != 2 {
		t.Fatalf("rollouts %v", set.Rollouts)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// FuzzParseVersions feeds hostile files with versions and rollouts: the
// parser refuses or accepts, never panics, and what it accepts holds one
// definition per name and version.
func FuzzParseVersions(f *testing.F) {
	f.Add(versionedFile)
	f.Add("tools:\n  - {name: abc, description: d, version: 1, statement: SELECT 1}\n  - {name: abc, description: d, version: 2, statement: SELECT 2}\nrollouts: {abc: {1: 5, 2: 0}}\n")
	f.Add("tools:\n  - {name: abc, description: d, statement: SELECT 1}\nrollouts: {abc: null}\n")
	f.Add("tools:\n  - {name: abc, description: d, statement: SELECT 1}\nrollouts: {abc: {\"1\": 9223372036854775807}}\n")
	f.Add("tools:\n  - {name: abc, description: d, statement: SELECT 1}\nrollouts: 7\n")
	f.Add("tools:\n  - {name: abc, description: d, statement: SELECT 1}\nchains:\n  - {name: duo, version: 1}\n  - {name: duo, version: x}\n  - 7\n  -\nrollouts: {duo: {1: 50, 2: 50}}\n")
	f.Add("tools:\n  - {name: abc, description: d, statement: SELECT 1}\nchains: {duo: 1}\nrollouts: {duo: {1: 100}}\n")
	f.Fuzz(func(t *testing.T, file string) {
		defs, err := toolsfile.Parse("fuzz.yaml", []byte(file))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, d := range defs {
			k := fmt.Sprintf("%s@%d", d.Name, d.Version)
			if seen[k] || d.Version < 1 {
				t.Fatalf("accepted %s twice or with a bad version", k)
			}
			seen[k] = true
		}
	})
}
