package tool_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

func named(name string, aliases ...string) *fakeTool {
	return &fakeTool{
		spec: tool.Spec{Name: name, Description: name, Category: tool.CategoryCustom, Aliases: aliases},
		fn: func(context.Context, json.RawMessage, int) (tool.Result, error) {
			return tool.Success(name, nil), nil
		},
	}
}

func TestReplaceGroup(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(named("builtin_a", "a")); err != nil {
		t.Fatal(err)
	}
	if err := reg.ReplaceGroup("file", named("file_one", "one"), named("file_two")); err != nil {
		t.Fatal(err)
	}
	if got := reg.Group("file"); !slices.Equal(got, []string{"file_one", "file_two"}) {
		t.Fatalf("group = %v", got)
	}
	if c, ok := reg.Resolve("one"); !ok || c != "file_one" {
		t.Fatalf("alias one resolves to %q %v", c, ok)
	}

	tests := []struct {
		name  string
		tools []tool.Tool
	}{
		{name: "clash with a built-in name", tools: []tool.Tool{named("file_three"), named("builtin_a")}},
		{name: "clash with a built-in alias", tools: []tool.Tool{named("file_three", "a")}},
		{name: "duplicate inside the set", tools: []tool.Tool{named("file_three"), named("file_three")}},
		{name: "bad schema", tools: []tool.Tool{&fakeTool{spec: tool.Spec{Name: "file_bad", Parameters: json.RawMessage(`{"type":7}`)}}}},
		{name: "nil tool", tools: []tool.Tool{nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := reg.ReplaceGroup("file", tc.tools...); err == nil {
				t.Fatal("accepted")
			}
			if _, err := reg.WithGroup("file", tc.tools...); err == nil {
				t.Fatal("WithGroup accepted")
			}
			if got := reg.Group("file"); !slices.Equal(got, []string{"file_one", "file_two"}) {
				t.Fatalf("a refused replacement changed the group: %v", got)
			}
			if _, ok := reg.Lookup("file_three"); ok {
				t.Fatal("a refused replacement registered file_three")
			}
		})
	}

	preview, err := reg.WithGroup("file", named("file_three"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := preview.Lookup("file_three"); !ok {
		t.Fatal("preview lacks file_three")
	}
	if _, ok := reg.Lookup("file_three"); ok {
		t.Fatal("WithGroup changed the registry")
	}

	if err := reg.ReplaceGroup("file", named("file_three", "one")); err != nil {
		t.Fatal(err)
	}
	if _, ok := reg.Lookup("file_two"); ok {
		t.Fatal("file_two survived the replacement")
	}
	if c, _ := reg.Resolve("one"); c != "file_three" {
		t.Fatalf("alias one now resolves to %q, want file_three", c)
	}
	specs := reg.Specs(nil)
	if len(specs) != 2 || specs[0].Name != "builtin_a" || specs[1].Name != "file_three" {
		t.Fatalf("specs after replacement: %+v", specs)
	}
	if err := reg.ReplaceGroup("", named("x_y_z")); err == nil {
		t.Fatal("empty group accepted")
	}
}

// TestReplaceGroupConcurrentReads runs calls while the group is swapped:
// under -race this proves readers never see a half-built state.
func TestReplaceGroupConcurrentReads(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(named("builtin_a")); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if r := ex.Execute(context.Background(), tool.Call{Name: "builtin_a"}); !r.OK() {
					t.Errorf("builtin_a failed during a swap: %+v", r)
					return
				}
				_ = ex.Execute(context.Background(), tool.Call{Name: "file_x"})
			}
		}()
	}
	for i := range 200 {
		tools := []tool.Tool{named("file_x")}
		if i%2 == 1 {
			tools = nil
		}
		if err := reg.ReplaceGroup("file", tools...); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}

// TestGeneration: every change to a registry's tools gives it a new
// generation; a refused change and a copy made by WithGroup leave it as
// it was.
func TestGeneration(t *testing.T) {
	reg := tool.NewRegistry()
	seen := map[uint64]bool{reg.Generation(): true}
	changed := func(step string) {
		t.Helper()
		g := reg.Generation()
		if seen[g] {
			t.Fatalf("%s: generation %d again", step, g)
		}
		seen[g] = true
	}
	if err := reg.Register(named("builtin_a")); err != nil {
		t.Fatal(err)
	}
	changed("register")
	if err := reg.ReplaceGroup("file", named("file_one")); err != nil {
		t.Fatal(err)
	}
	changed("replace group")
	before := reg.Generation()
	if err := reg.Register(named("builtin_a")); err == nil {
		t.Fatal("a taken name was registered")
	}
	if err := reg.ReplaceGroup("file", named("builtin_a")); err == nil {
		t.Fatal("a group took a name outside it")
	}
	if _, err := reg.WithGroup("file", named("file_two")); err != nil {
		t.Fatal(err)
	}
	if g := reg.Generation(); g != before {
		t.Fatalf("refused changes and a copy moved the generation from %d to %d", before, g)
	}
	if err := reg.ReplaceGroup("file", named("file_two")); err != nil {
		t.Fatal(err)
	}
	changed("replace group again")
}
