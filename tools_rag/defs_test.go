package toolsrag

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// TestEveryToolIsTyped proves, for every RAG tool, that schema properties
// and argument struct fields map to each other both ways.
func TestEveryToolIsTyped(t *testing.T) {
	tools, err := NewTools(testRetriever(t), slog.New(slog.DiscardHandler), ToolsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 12 {
		t.Fatalf("%d tools, want 12", len(tools))
	}
	for _, tl := range tools {
		t.Run(tl.Spec().Name, func(t *testing.T) {
			typed, ok := tl.(tool.Typed)
			if !ok {
				t.Fatalf("%T is not a typed definition", tl)
			}
			if err := tool.CheckArgs(typed); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestEntityResultNamesItsEntity(t *testing.T) {
	tools, err := NewTools(testRetriever(t), slog.New(slog.DiscardHandler), ToolsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, tool, args, want string }{
		{name: "accent and case folded", tool: "rag_get_champion_details", args: `{"champion_name":"KAËLITH"}`, want: "Kaelith"},
		{name: "partial", tool: "rag_get_boss_details", args: `{"boss_name":"gorath"}`, want: "Gorath the Devourer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ex.Execute(context.Background(), tool.Call{Name: tt.tool, Arguments: json.RawMessage(tt.args)})
			f := r.Facts()
			if !r.OK() || len(f.Entities) != 1 || f.Entities[0].Name != tt.want || f.Summary == "" {
				t.Fatalf("facts %+v: %s", f, r.ForLLM())
			}
		})
	}
}
