package toolscache_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/tool"
	toolscache "github.com/gameassist/gameassist/tools_cache"
)

// TestEveryToolIsTyped proves, for every cache_* tool, that schema
// properties and argument struct fields map to each other both ways, and
// that each declares how it pages.
func TestEveryToolIsTyped(t *testing.T) {
	snap, err := toolscache.NewSnapshot(context.Background(), gcsdbtest.Open(t, gcsdbtest.Game()), discard())
	if err != nil {
		t.Fatal(err)
	}
	tools, err := snap.Tools()
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 5 {
		t.Fatalf("%d tools, want 5", len(tools))
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
			if p := tl.Spec().Paging; p == nil || p.LimitParam != "limit" || p.OffsetParam != "offset" || p.MaxLimit != 200 {
				t.Fatalf("paging %+v", p)
			}
		})
	}
}

func TestListPages(t *testing.T) {
	snap, err := toolscache.NewSnapshot(context.Background(), gcsdbtest.Open(t, gcsdbtest.Game()), discard())
	if err != nil {
		t.Fatal(err)
	}
	ex := newExecutor(t, snap)
	tests := []struct {
		name, args string
		want       tool.Page
		wantFirst  string
	}{
		{name: "first page", args: `{"limit":2}`, want: tool.Page{Total: 5, Offset: 0, Returned: 2, NextOffset: 2}},
		{name: "last page", args: `{"limit":2,"offset":4}`, want: tool.Page{Total: 5, Offset: 4, Returned: 1}},
		{name: "all", args: `{}`, want: tool.Page{Total: 5, Returned: 5}},
		{name: "accent-insensitive prefix", args: `{"name_prefix":"KAË"}`, want: tool.Page{Total: 1, Returned: 1}, wantFirst: "Kaelith"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ex.Execute(context.Background(), tool.Call{Name: "cache_get_champions_list", Arguments: json.RawMessage(tt.args)})
			f := r.Facts()
			if !r.OK() || f.Page == nil || *f.Page != tt.want {
				t.Fatalf("page %+v, want %+v: %s", f.Page, tt.want, r.ForLLM())
			}
			if len(f.Entities) != tt.want.Returned {
				t.Fatalf("entities %+v", f.Entities)
			}
			if tt.wantFirst != "" && f.Entities[0].Name != tt.wantFirst {
				t.Fatalf("first %+v", f.Entities[0])
			}
			if f.Page.More() != (tt.want.NextOffset > 0) {
				t.Fatal("More disagrees with next_offset")
			}
		})
	}
}
