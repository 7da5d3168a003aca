package chat

import (
	"testing"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// TestSelectorFollowsRegistry: the service's tool selector is kept while
// the registry's tools stay as they are, and rebuilt over the new set once
// a reload changes them; a change to the SQL tools the LLM is not offered
// keeps it.
func TestSelectorFollowsRegistry(t *testing.T) {
	reg := tool.NewRegistry()
	lookup := func(name, desc string) *countingTool {
		return &countingTool{spec: tool.Spec{Name: name, Description: desc, Category: tool.CategoryCache, Parameters: objSchema(``)}}
	}
	if err := reg.ReplaceGroup("file", lookup("get_boss", "A boss's details.")); err != nil {
		t.Fatal(err)
	}
	exec, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := NewService(Deps{Store: (*memory.Store)(nil), Executor: exec, Fallback: unusedFallback{}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		var out []string
		for _, sp := range svc.selector().Listed() {
			out = append(out, sp.Name)
		}
		return out
	}
	first := svc.selector()
	if svc.selector() != first {
		t.Fatal("the selector was rebuilt with the tools unchanged")
	}
	if got := names(); len(got) != 1 || got[0] != "get_boss" {
		t.Fatalf("listed %v, want [get_boss]", got)
	}
	sql := &countingTool{spec: tool.Spec{Name: "run_sql", Category: tool.CategorySQL, Parameters: objSchema(``)}}
	if err := reg.Register(sql); err != nil {
		t.Fatal(err)
	}
	if svc.selector() != first {
		t.Error("the selector was rebuilt for a tool the LLM is not offered")
	}
	if err := reg.ReplaceGroup("file", lookup("get_boss", "A boss's details."), lookup("get_champion", "A champion's details.")); err != nil {
		t.Fatal(err)
	}
	if got := names(); len(got) != 2 || got[0] != "get_boss" || got[1] != "get_champion" {
		t.Fatalf("after the reload listed %v, want [get_boss get_champion]", got)
	}
}
