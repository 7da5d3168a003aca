package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// A tool that refuses returns tool.Refuse as its error, wrapped or not: the
// executor answers with the refusal's envelope, not a backend failure, and
// does not retry it.
func TestRefusalIsTheAnswer(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		f := echoTool()
		f.fn = func(context.Context, json.RawMessage, int) (tool.Result, error) {
			err := tool.Refuse("No champion named Kaelit.", "unknown name", "Did you mean Kaelith?")
			if wrap {
				err = fmt.Errorf("resolve: %w", err)
			}
			return tool.Result{}, err
		}
		r := newExec(t, tool.ExecutorOptions{MaxAttempts: 3}, f).Execute(context.Background(), tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":"a"}`)})
		if r.Status != tool.StatusError || r.ErrorDetails != "unknown name" || r.Guidance != "Did you mean Kaelith?" || r.Cause != nil {
			t.Fatalf("wrapped %v: result %+v", wrap, r)
		}
		if n := f.calls.Load(); n != 1 {
			t.Fatalf("wrapped %v: called %d times, want 1", wrap, n)
		}
	}
	if _, ok := tool.Refused(errors.New("backend down")); ok {
		t.Fatal("a plain error is a refusal")
	}
}

// A Def's Run refuses the same way, called through the executor or directly.
func TestDefRunRefuses(t *testing.T) {
	d := &tool.Def[struct{}]{
		Name: "gcs_refuse", Description: "d", Category: tool.CategoryGCS, Schema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Run: func(context.Context, struct{}) (tool.Result, error) {
			return tool.Result{}, tool.Refuse("Refused.", "always", "Do not call it.")
		},
	}
	r, err := d.Call(context.Background(), json.RawMessage(`{}`))
	if err != nil || r.ErrorDetails != "always" {
		t.Fatalf("Call = %+v, %v", r, err)
	}
	r = newExec(t, tool.ExecutorOptions{}, d).Execute(context.Background(), tool.Call{Name: "gcs_refuse", Arguments: json.RawMessage(`{}`)})
	if r.Status != tool.StatusError || r.ErrorDetails != "always" {
		t.Fatalf("Execute = %+v", r)
	}
}
