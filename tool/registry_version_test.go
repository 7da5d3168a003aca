package tool_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// versioned is a tool named name at version v whose result names its version.
func versioned(name string, v int, schema string, aliases ...string) *fakeTool {
	return &fakeTool{
		spec: tool.Spec{Name: name, Description: name, Category: tool.CategoryCustom, Version: v, Aliases: aliases, Parameters: json.RawMessage(schema)},
		fn: func(context.Context, json.RawMessage, int) (tool.Result, error) {
			return tool.Success("", map[string]int{"version": v}), nil
		},
	}
}

const (
	schemaV1 = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`
	schemaV2 = `{"type":"object","properties":{"name":{"type":"string"},"limit":{"type":"integer"}},"required":["name"],"additionalProperties":false}`
)

func TestRegistryVersions(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(versioned("cards", 2, schemaV2, "old_cards", "cards_v2"), named("other")); err != nil {
		t.Fatal(err)
	}
	if err := reg.ReplaceGroup("file", versioned("cards", 1, schemaV1, "old_cards"), versioned("cards", 3, schemaV2)); err != nil {
		t.Fatal(err)
	}
	if vs := reg.Versions("old_cards"); !slices.Equal(vs, []int{1, 2, 3}) {
		t.Fatalf("versions %v", vs)
	}
	if vs := reg.Versions("other"); !slices.Equal(vs, []int{0}) {
		t.Fatalf("unversioned versions %v", vs)
	}
	if got := reg.Versioned(); !slices.Equal(got, []string{"cards"}) {
		t.Fatalf("versioned %v", got)
	}
	for name, want := range map[string]bool{"cards": true, "old_cards": true, "other": false, "missing": false} {
		if got := reg.HasVersions(name); got != want {
			t.Fatalf("HasVersions(%q) = %v, want %v", name, got, want)
		}
	}
	if sp, ok := reg.Spec("cards"); !ok || sp.Version != 3 {
		t.Fatalf("default spec %+v", sp)
	}
	if sp, ok := reg.SpecVersion("cards_v2", 1); !ok || sp.Version != 1 || !strings.Contains(string(sp.Parameters), `"required":["name"]`) {
		t.Fatalf("spec of v1 %+v", sp)
	}
	if n := len(reg.Specs(nil)); n != 2 {
		t.Fatalf("Specs lists %d tools, want one per name", n)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []int{0, 1, 2, 3} {
		r := ex.Execute(context.Background(), tool.Call{Name: "old_cards", Version: v, Arguments: json.RawMessage(`{"name":"x"}`)})
		want := v
		if v == 0 {
			want = 3
		}
		if !r.OK() || r.InternalInfo.Version != want || string(r.Data.(json.RawMessage)) != `{"version":`+string(rune('0'+want))+`}` {
			t.Fatalf("version %d: %+v", v, r)
		}
	}
	// Arguments valid for v2 only: refused by v1 alone, and by
	// ValidateArgs, which screen rules use to fit every version.
	args := json.RawMessage(`{"name":"x","limit":2}`)
	if r := ex.Execute(context.Background(), tool.Call{Name: "cards", Version: 1, Arguments: args}); r.OK() {
		t.Fatalf("v1 took a v2 argument: %+v", r)
	}
	if r := ex.Execute(context.Background(), tool.Call{Name: "cards", Version: 2, Arguments: args}); !r.OK() {
		t.Fatalf("v2 refused its argument: %+v", r)
	}
	if err := reg.ValidateArgs("cards", args); err == nil || !strings.Contains(err.Error(), "version 1") {
		t.Fatalf("ValidateArgs = %v, want version 1 named", err)
	}
	// v2 and v3 remembered the arguments as valid; v1 still refuses
	// them, asked again.
	if err := reg.ValidateArgs("cards", args); err == nil || !strings.Contains(err.Error(), "version 1") {
		t.Fatalf("ValidateArgs again = %v, want version 1 named", err)
	}
	if err := reg.ValidateArgs("other", json.RawMessage(`{}`)); err != nil {
		t.Fatalf("ValidateArgs(other) = %v", err)
	}
	// Dropping the file group keeps the built-in version only.
	if err := reg.ReplaceGroup("file", named("file_x")); err != nil {
		t.Fatal(err)
	}
	if vs := reg.Versions("cards"); !slices.Equal(vs, []int{2}) {
		t.Fatalf("after replace: versions %v", vs)
	}
	if c, ok := reg.Resolve("old_cards"); !ok || c != "cards" {
		t.Fatal("the built-in's alias was lost")
	}
	if r := ex.Execute(context.Background(), tool.Call{Name: "cards", Version: 1, Arguments: json.RawMessage(`{"name":"x"}`)}); r.OK() || !strings.Contains(r.Message, "no version 1") {
		t.Fatalf("dropped version still runs: %+v", r)
	}
}

func TestRegistryVersionsRefused(t *testing.T) {
	tests := []struct {
		name  string
		tools []tool.Tool
		want  string
	}{
		{name: "same version twice", tools: []tool.Tool{versioned("cards", 1, schemaV1), versioned("cards", 1, schemaV1)}, want: "already taken by version 1"},
		{name: "unversioned beside a version", tools: []tool.Tool{named("cards"), versioned("cards", 2, schemaV1)}, want: "each need a version number"},
		{name: "version beside an unversioned", tools: []tool.Tool{versioned("cards", 2, schemaV1), named("cards")}, want: "each need a version number"},
		{name: "alias of another tool", tools: []tool.Tool{versioned("cards", 1, schemaV1, "old"), named("decks", "old")}, want: `"old" already taken by an alias of cards`},
		{name: "name is another tool's alias", tools: []tool.Tool{named("decks", "cards"), versioned("cards", 1, schemaV1)}, want: "already taken by an alias of decks"},
		{name: "negative version", tools: []tool.Tool{versioned("cards", -1, schemaV1)}, want: "negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := tool.NewRegistry()
			err := reg.Register(tc.tools...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if len(reg.Specs(nil)) != 0 {
				t.Fatal("a refused registration left tools behind")
			}
		})
	}
}

// TestValidateArgsRemembers: arguments a schema accepted are remembered
// (the executor's memo is shared), and never stand in for others.
func TestValidateArgsRemembers(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(versioned("cards", 0, schemaV1)); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	good, bad := json.RawMessage(`{"name":"x"}`), json.RawMessage(`{"name":"x","limit":2}`)
	if r := ex.Execute(context.Background(), tool.Call{Name: "cards", Arguments: good}); !r.OK() {
		t.Fatalf("execute: %+v", r)
	}
	for range 2 {
		if err := reg.ValidateArgs("cards", good); err != nil {
			t.Fatalf("ValidateArgs(good) = %v", err)
		}
		if err := reg.ValidateArgs("cards", bad); err == nil {
			t.Fatal("ValidateArgs accepted an argument the schema refuses")
		}
	}
}

// BenchmarkValidateArgs: the same arguments validated again, as a turn
// checks the model's call after the executor accepted it.
func BenchmarkValidateArgs(b *testing.B) {
	reg := tool.NewRegistry()
	if err := reg.Register(versioned("cards", 0, schemaV2)); err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"name":"Kaelith","limit":3}`)
	b.ReportAllocs()
	for b.Loop() {
		if err := reg.ValidateArgs("cards", args); err != nil {
			b.Fatal(err)
		}
	}
}
