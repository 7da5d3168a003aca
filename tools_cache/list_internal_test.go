package toolscache

import (
	"context"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// A tool whose schema file cannot be read is an error, not a tool with an
// empty schema.
func TestListFailsWithoutItsSchema(t *testing.T) {
	run := func(context.Context, PageArgs) (tool.Result, error) { return tool.Result{}, nil }
	if tl, err := list("cache_get_no_such_list", nil, "d", run); err == nil {
		t.Fatalf("list without a schema file = %v, want an error", tl)
	}
	if _, err := list("cache_get_bosses_list", nil, "d", run); err != nil {
		t.Fatalf("list with its schema file: %v", err)
	}
}
