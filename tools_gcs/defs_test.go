package toolsgcs_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/tool"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

// TestEveryToolIsTyped proves, for every gcs_* tool, that it is a typed
// definition whose schema properties and argument struct fields map to each
// other both ways.
func TestEveryToolIsTyped(t *testing.T) {
	tools, err := toolsgcs.New(gcsdbtest.Open(t, gcsdbtest.Game()), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 17 {
		t.Fatalf("%d tools, want 17", len(tools))
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

// TestResultsDeclareCapabilities checks that results carry what the offline
// responder needs through the capability interfaces, not map keys.
func TestResultsDeclareCapabilities(t *testing.T) {
	ex := newExecutor(t, gcsdbtest.Open(t, gcsdbtest.Game()))
	tests := []struct {
		name, tool, args string
		wantFirst        tool.EntityRef
		wantSummary      bool
		wantPage         bool
	}{
		{name: "champion", tool: "gcs_get_champion_details", args: `{"champion_name":"kaelith"}`,
			wantFirst: tool.EntityRef{Kind: "champion", ID: 1001, Name: "Kaelith"}, wantSummary: true},
		{name: "boss", tool: "gcs_get_boss_details", args: `{"boss_id":5001}`,
			wantFirst: tool.EntityRef{Kind: "boss", ID: 5001, Name: "Drowned King"}, wantSummary: true},
		{name: "counters", tool: "gcs_find_counters_for_boss", args: `{"boss_id":5001,"limit":2}`,
			wantFirst: tool.EntityRef{Kind: "boss", ID: 5001, Name: "Drowned King"}, wantSummary: true, wantPage: true},
		{name: "search", tool: "gcs_find_champions", args: `{"sort_by":"spd","limit":1}`, wantPage: true},
		{name: "faction members", tool: "gcs_list_champions_by_faction", args: `{"faction_name":"Sunguard"}`,
			wantFirst: tool.EntityRef{Kind: "faction", ID: 101, Name: "Sunguard"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ex.Execute(context.Background(), tool.Call{Name: tt.tool, Arguments: json.RawMessage(tt.args)})
			if !r.OK() {
				t.Fatalf("%s", r.ForLLM())
			}
			f := r.Facts()
			if (f.Summary != "") != tt.wantSummary || (f.Page != nil) != tt.wantPage {
				t.Fatalf("facts %+v", f)
			}
			if tt.wantFirst.Name != "" && (len(f.Entities) == 0 || f.Entities[0] != tt.wantFirst) {
				t.Fatalf("entities %+v, want first %+v", f.Entities, tt.wantFirst)
			}
			if tt.wantPage && (f.Page.Total < f.Page.Returned || f.Page.Returned == 0) {
				t.Fatalf("page %+v", *f.Page)
			}
		})
	}
}
