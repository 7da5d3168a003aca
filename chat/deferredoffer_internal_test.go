package chat

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// TestDeferredOffer: the deferred tool list is built once per selector,
// sorted core first, then find_tools, use_tool and search_conversation;
// a new selector (a tools file reload) gets its own list, and a caller
// appending to the list it got changes no other caller's.
func TestDeferredOffer(t *testing.T) {
	spec := func(name string) tool.Spec {
		return tool.Spec{Name: name, Description: "Details of " + name + ".", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}
	}
	selector := func(core ...string) *toolselect.Selector {
		t.Helper()
		sel, err := toolselect.New([]tool.Spec{spec("zeta_details"), spec("alpha_details"), spec("mid_details")}, toolselect.Options{Mode: toolselect.ModeDeferred, Core: core})
		if err != nil {
			t.Fatal(err)
		}
		return sel
	}
	var d deferredOffer
	first := selector("zeta_details", "alpha_details")
	got := d.specs(first)
	want := []string{"alpha_details", "zeta_details", toolselect.FindToolsName, toolselect.UseToolName, SearchConversationName}
	if names := specNames(got); !slices.Equal(names, want) {
		t.Fatalf("deferred list = %v, want %v", names, want)
	}
	if again := d.specs(first); &again[0] != &got[0] {
		t.Error("the same selector's list was built again")
	}
	grown := append(got, spec("extra"))
	if &grown[0] == &got[0] {
		t.Error("an append to the shared list wrote into it")
	}
	if names := specNames(d.specs(first)); !slices.Equal(names, want) {
		t.Errorf("after a caller's append the list is %v, want %v", names, want)
	}
	reloaded := selector("mid_details")
	want = []string{"mid_details", toolselect.FindToolsName, toolselect.UseToolName, SearchConversationName}
	if names := specNames(d.specs(reloaded)); !slices.Equal(names, want) {
		t.Errorf("after a reload the list is %v, want %v", names, want)
	}
}
