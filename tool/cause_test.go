package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// A cancelled call's envelope carries the cancellation as its Cause, so
// callers detect it with errors.Is rather than by its wording.
func TestBackendFailureKeepsItsCause(t *testing.T) {
	backendDown := errors.New("connection refused")
	for _, tc := range []struct {
		name string
		fail func(ctx context.Context, cancel func()) error
		want error
	}{
		{"cancelled", func(ctx context.Context, cancel func()) error { cancel(); <-ctx.Done(); return ctx.Err() }, context.Canceled},
		{"backend down", func(context.Context, func()) error { return backendDown }, backendDown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			f := echoTool()
			f.fn = func(context.Context, json.RawMessage, int) (tool.Result, error) {
				return tool.Result{}, tc.fail(ctx, cancel)
			}
			r := newExec(t, tool.ExecutorOptions{MaxAttempts: 1}, f).Execute(ctx, tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":"a"}`)})
			if r.Status != tool.StatusError || !errors.Is(r.Cause, tc.want) {
				t.Fatalf("result %s %q, cause %v; want an error envelope caused by %v", r.Status, r.ErrorDetails, r.Cause, tc.want)
			}
		})
	}
	if r := tool.Cancelled("x", context.Canceled); !errors.Is(r.Cause, context.Canceled) || r.ErrorDetails != "cancelled" {
		t.Fatalf("Cancelled = %+v", r)
	}
}
