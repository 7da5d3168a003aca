package tool_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// builtinCards is an unversioned built-in "cards" (alias old_cards) whose
// result message is its name.
func builtinCards() *fakeTool {
	t := named("cards", "old_cards")
	t.spec.Description = "built-in cards"
	t.spec.Parameters = json.RawMessage(schemaV1)
	return t
}

// TestRegistryJoinUnversioned covers a versioned tool of another group
// joining an unversioned tool's name: the unversioned one counts as
// version 1 while it is there and goes back to unversioned when its group
// leaves.
func TestRegistryJoinUnversioned(t *testing.T) {
	type step struct {
		file    []tool.Tool // the "file" group's tools after this step
		with    bool        // apply with WithGroup (on a copy) instead of ReplaceGroup
		want    []int       // Versions("cards") afterwards
		wantDef int         // version of Spec("cards") and of a call naming no version
	}
	tests := []struct {
		name     string
		builtins []tool.Tool
		steps    []step
	}{
		{
			name:     "join then drop the file",
			builtins: []tool.Tool{builtinCards()},
			steps: []step{
				{file: []tool.Tool{versioned("cards", 2, schemaV2)}, want: []int{1, 2}, wantDef: 2},
				{file: []tool.Tool{named("file_x")}, want: []int{0}, wantDef: 0},
			},
		},
		{
			name:     "two file versions, then one, then none",
			builtins: []tool.Tool{builtinCards()},
			steps: []step{
				{file: []tool.Tool{versioned("cards", 2, schemaV2), versioned("cards", 3, schemaV1)}, want: []int{1, 2, 3}, wantDef: 3},
				{file: []tool.Tool{versioned("cards", 3, schemaV1)}, want: []int{1, 3}, wantDef: 3},
				{file: nil, want: []int{0}, wantDef: 0},
				{file: []tool.Tool{versioned("cards", 4, schemaV1)}, want: []int{1, 4}, wantDef: 4},
			},
		},
		{
			name:     "WithGroup copies restore without touching the registry",
			builtins: []tool.Tool{builtinCards()},
			steps: []step{
				{file: []tool.Tool{versioned("cards", 2, schemaV2)}, want: []int{1, 2}, wantDef: 2},
				{file: nil, with: true, want: []int{0}, wantDef: 0},
				{file: []tool.Tool{versioned("cards", 5, schemaV2, "old_cards")}, with: true, want: []int{1, 5}, wantDef: 5},
			},
		},
		{
			name:     "two versioned built-ins and a file version 3",
			builtins: []tool.Tool{versioned("cards", 1, schemaV1, "old_cards"), versioned("cards", 2, schemaV2)},
			steps: []step{
				{file: []tool.Tool{versioned("cards", 3, schemaV2)}, want: []int{1, 2, 3}, wantDef: 3},
				{file: nil, want: []int{1, 2}, wantDef: 2},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := tool.NewRegistry()
			if err := reg.Register(tc.builtins...); err != nil {
				t.Fatal(err)
			}
			for i, st := range tc.steps {
				cur := reg
				if st.with {
					before := reg.Versions("cards")
					c, err := reg.WithGroup("file", st.file...)
					if err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
					if got := reg.Versions("cards"); !slices.Equal(got, before) {
						t.Fatalf("step %d: WithGroup changed the registry: %v, was %v", i, got, before)
					}
					cur = c
				} else if err := reg.ReplaceGroup("file", st.file...); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				checkCards(t, i, cur, st.want, st.wantDef)
			}
		})
	}
}

// checkCards checks the versions of "cards" in reg, its default spec, each
// version's spec and what a call to each version (and to none) runs.
func checkCards(t *testing.T, step int, reg *tool.Registry, want []int, wantDef int) {
	t.Helper()
	if got := reg.Versions("old_cards"); !slices.Equal(got, want) {
		t.Fatalf("step %d: versions %v, want %v", step, got, want)
	}
	if sp, ok := reg.Spec("cards"); !ok || sp.Version != wantDef {
		t.Fatalf("step %d: default spec version %d, want %d", step, sp.Version, wantDef)
	}
	if got := reg.Versioned(); (len(want) > 1) != slices.Equal(got, []string{"cards"}) {
		t.Fatalf("step %d: Versioned() = %v with versions %v", step, got, want)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	unversioned := len(want) == 1 && want[0] == 0
	calls := append([]int{0}, want...)
	if unversioned {
		calls = nil // checked below
	}
	for _, v := range calls {
		sp, ok := reg.SpecVersion("cards", v)
		if !ok {
			t.Fatalf("step %d: no spec of version %d", step, v)
		}
		r := ex.Execute(context.Background(), tool.Call{Name: "old_cards", Version: v, Arguments: json.RawMessage(`{"name":"x"}`)})
		wantV := v
		if v == 0 {
			wantV = wantDef
		}
		if sp.Version != wantV || !r.OK() || r.InternalInfo.Version != wantV {
			t.Fatalf("step %d: call of version %d: spec version %d, outcome %+v", step, v, sp.Version, r)
		}
		// The unversioned built-in answers as version 1 (its message is
		// its name); the versioned tools answer with their version.
		if builtin := r.Message == "cards"; builtin != (sp.Description == "built-in cards") {
			t.Fatalf("step %d: version %d ran the wrong tool: %+v", step, v, r)
		}
		if r.Message != "cards" && string(r.Data.(json.RawMessage)) != `{"version":`+strconv.Itoa(wantV)+`}` {
			t.Fatalf("step %d: version %d answered %s", step, v, r.Data)
		}
	}
	if unversioned {
		r := ex.Execute(context.Background(), tool.Call{Name: "cards", Arguments: json.RawMessage(`{"name":"x"}`)})
		if !r.OK() || r.Message != "cards" || r.InternalInfo.Version != 0 {
			t.Fatalf("step %d: the unversioned built-in answered %+v", step, r)
		}
		if r := ex.Execute(context.Background(), tool.Call{Name: "cards", Version: 1}); r.OK() || !strings.Contains(r.Message, "no version 1") {
			t.Fatalf("step %d: version 1 of an unversioned tool ran: %+v", step, r)
		}
	}
}

func TestRegistryJoinRefused(t *testing.T) {
	tests := []struct {
		name     string
		builtins []tool.Tool
		file     []tool.Tool
		want     string
	}{
		{name: "file version 1 against an unversioned built-in", builtins: []tool.Tool{builtinCards()},
			file: []tool.Tool{versioned("cards", 1, schemaV1)}, want: "number the new versions from 2"},
		{name: "file version 1 beside a file version 2", builtins: []tool.Tool{builtinCards()},
			file: []tool.Tool{versioned("cards", 2, schemaV1), versioned("cards", 1, schemaV1)}, want: "already taken by version 1"},
		{name: "unversioned file tool", builtins: []tool.Tool{builtinCards()},
			file: []tool.Tool{named("cards")}, want: "each need a version number"},
		{name: "two unversioned built-ins are not joined", builtins: []tool.Tool{builtinCards(), named("decks", "old_decks")},
			file: []tool.Tool{versioned("cards", 2, schemaV1, "old_decks")}, want: `"old_decks" already taken by an alias of decks`},
		{name: "a built-in's alias as the name", builtins: []tool.Tool{builtinCards()},
			file: []tool.Tool{versioned("old_cards", 2, schemaV1)}, want: "already taken by an alias of cards"},
		{name: "same version as a versioned built-in", builtins: []tool.Tool{versioned("cards", 1, schemaV1), versioned("cards", 2, schemaV1)},
			file: []tool.Tool{versioned("cards", 2, schemaV1)}, want: "already taken by version 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := tool.NewRegistry()
			if err := reg.Register(tc.builtins...); err != nil {
				t.Fatal(err)
			}
			before := reg.Versions("cards")
			err := reg.ReplaceGroup("file", tc.file...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if _, err2 := reg.WithGroup("file", tc.file...); err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("WithGroup error %v, ReplaceGroup's %v", err2, err)
			}
			if got := reg.Versions("cards"); !slices.Equal(got, before) || len(reg.Group("file")) != 0 {
				t.Fatalf("a refused group changed the registry: versions %v, was %v; file group %v", got, before, reg.Group("file"))
			}
		})
	}
}

// TestRegistryJoinSameGroup: within one group, an unversioned tool and a
// version of its name still clash (a group numbers its own versions).
func TestRegistryJoinSameGroup(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.ReplaceGroup("file", named("cards"), versioned("cards", 2, schemaV1)); err == nil || !strings.Contains(err.Error(), "each need a version number") {
		t.Fatalf("error %v", err)
	}
}

// TestRegistryJoinAliases: a joining version shares the built-in's aliases
// and may add its own, which leave with it while the built-in's stay.
func TestRegistryJoinAliases(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(builtinCards()); err != nil {
		t.Fatal(err)
	}
	if err := reg.ReplaceGroup("file", versioned("cards", 2, schemaV2, "old_cards", "cards_sql")); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"old_cards", "cards_sql"} {
		if c, ok := reg.Resolve(a); !ok || c != "cards" {
			t.Fatalf("alias %s resolves to %q, %v", a, c, ok)
		}
	}
	if sp, ok := reg.SpecVersion("cards_sql", 1); !ok || sp.Version != 1 || sp.Description != "built-in cards" || !slices.Equal(sp.Aliases, []string{"old_cards"}) {
		t.Fatalf("version 1 through the file's alias: %+v", sp)
	}
	if err := reg.ReplaceGroup("file"); err != nil {
		t.Fatal(err)
	}
	if _, ok := reg.Resolve("cards_sql"); ok {
		t.Fatal("the file version's alias outlived it")
	}
	if c, ok := reg.Resolve("old_cards"); !ok || c != "cards" {
		t.Fatal("the built-in's alias was lost")
	}
	if sp, ok := reg.Spec("old_cards"); !ok || sp.Version != 0 || sp.Description != "built-in cards" {
		t.Fatalf("built-in after the file left: %+v", sp)
	}
}
