package tool_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gameassist/gameassist/tool"
)

// boundTool is a fakeTool that declares tool.ContextBound.
type boundTool struct{ fakeTool }

func (*boundTool) BoundByContext() {}

var _ tool.ContextBound = (*boundTool)(nil)

// TestExecutorContextBound checks both ways a call runs: a context-bound
// tool on the caller's goroutine still ends at the timeout, reports a panic
// as an error envelope and returns its data; a tool that ignores its context
// still cannot hold the caller past the timeout.
func TestExecutorContextBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		stubborn := &fakeTool{spec: tool.Spec{Name: "gcs_stubborn"}, fn: func(context.Context, json.RawMessage, int) (tool.Result, error) {
			<-release // ignores its context
			return tool.Success("late", nil), nil
		}}
		slow := &boundTool{fakeTool{spec: tool.Spec{Name: "gcs_bound_slow"}, fn: func(ctx context.Context, _ json.RawMessage, _ int) (tool.Result, error) {
			<-ctx.Done()
			return tool.Result{}, ctx.Err()
		}}}
		panicky := &boundTool{fakeTool{spec: tool.Spec{Name: "gcs_bound_panic"}, fn: func(context.Context, json.RawMessage, int) (tool.Result, error) {
			panic("boom")
		}}}
		ok := &boundTool{fakeTool{spec: tool.Spec{Name: "gcs_bound_ok"}, fn: func(_ context.Context, args json.RawMessage, _ int) (tool.Result, error) {
			return tool.Result{Message: "rows", Data: []string{string(args)}}, nil
		}}}
		ex := newExec(t, tool.ExecutorOptions{Timeout: time.Second}, stubborn, slow, panicky, ok)
		ctx := context.Background()

		start := time.Now()
		if r := ex.Execute(ctx, tool.Call{Name: "gcs_stubborn"}); r.OK() || !strings.Contains(r.Message, "timed out") {
			t.Errorf("stubborn tool: got %+v", r)
		}
		if waited := time.Since(start); waited != time.Second {
			t.Errorf("stubborn tool held the caller %v, want the 1s timeout", waited)
		}
		close(release)

		start = time.Now()
		if r := ex.Execute(ctx, tool.Call{Name: "gcs_bound_slow"}); r.OK() || !strings.Contains(r.Message, "timed out") {
			t.Errorf("bound slow tool: got %+v", r)
		}
		if waited := time.Since(start); waited != time.Second {
			t.Errorf("bound slow tool took %v, want the 1s timeout", waited)
		}
		if r := ex.Execute(ctx, tool.Call{Name: "gcs_bound_panic"}); r.OK() || !strings.Contains(r.Message, "unexpectedly") {
			t.Errorf("bound panicking tool: got %+v", r)
		}
		r := ex.Execute(ctx, tool.Call{Name: "gcs_bound_ok", Arguments: json.RawMessage(`{}`)})
		if !r.OK() || string(r.Data.(json.RawMessage)) != `["{}"]` {
			t.Errorf("bound tool: got %+v", r)
		}
		synctest.Wait()
	})
}

// TestExecutorValidationMemoFollowsSchema checks that arguments accepted
// under a tool's schema are checked again when a reload replaces the tool
// with a stricter schema.
func TestExecutorValidationMemoFollowsSchema(t *testing.T) {
	mk := func(schema string) tool.Tool {
		return &fakeTool{spec: tool.Spec{Name: "cards_get", Parameters: json.RawMessage(schema)},
			fn: func(context.Context, json.RawMessage, int) (tool.Result, error) { return tool.Success("ok", nil), nil }}
	}
	reg := tool.NewRegistry()
	if err := reg.ReplaceGroup(tool.GroupFile, mk(`{"type":"object","properties":{"n":{"type":"integer"}}}`)); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	call := tool.Call{Name: "cards_get", Arguments: json.RawMessage(`{"n":70}`)}
	for range 2 {
		if r := ex.Execute(context.Background(), call); !r.OK() {
			t.Fatalf("before reload: %+v", r)
		}
	}
	if err := reg.ReplaceGroup(tool.GroupFile, mk(`{"type":"object","properties":{"n":{"type":"integer","maximum":50}}}`)); err != nil {
		t.Fatal(err)
	}
	if r := ex.Execute(context.Background(), call); r.OK() || !strings.Contains(r.ErrorDetails, "n") {
		t.Fatalf("after a stricter reload the remembered arguments passed: %+v", r)
	}
}
