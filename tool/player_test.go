package tool_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

type fakePlayer struct {
	v    string
	data map[string]any
}

func (p fakePlayer) Version() string      { return p.v }
func (p fakePlayer) Data() map[string]any { return p.data }

type ownedArgs struct {
	OwnedOnly *bool `json:"owned_only"`
}

const ownedSchema = `{"type":"object","properties":{"owned_only":{"type":"boolean"}},"additionalProperties":false}`

func TestPlayerBindingFillsValues(t *testing.T) {
	var got []any
	var known, set bool
	d := &tool.Def[ownedArgs]{
		Name: "test_owned", Description: "d", Category: tool.CategoryGCS, Schema: json.RawMessage(ownedSchema),
		Player: []tool.PlayerParam{{Flag: "owned_only", Path: "roster.id"}},
		Run: func(ctx context.Context, _ ownedArgs) (tool.Result, error) {
			got, known, set = tool.Bound(ctx, "owned_only")
			return tool.Success("ok", nil), nil
		},
	}
	reg := tool.NewRegistry()
	if err := reg.Register(d); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := fakePlayer{v: "v1", data: map[string]any{"roster": []any{
		map[string]any{"id": json.Number("1001")}, map[string]any{"id": json.Number("1002")}, map[string]any{"level": json.Number("3")},
	}}}
	ctx := tool.WithPlayer(context.Background(), p)
	ex.Execute(ctx, tool.Call{Name: "test_owned", Arguments: json.RawMessage(`{"owned_only": true}`)})
	if !set || !known || len(got) != 2 || got[0] != json.Number("1001") || got[1] != json.Number("1002") {
		t.Fatalf("bound = %v known %v set %v", got, known, set)
	}
	ex.Execute(ctx, tool.Call{Name: "test_owned", Arguments: json.RawMessage(`{"owned_only": false}`)})
	if set {
		t.Fatal("a false flag bound values")
	}
	ex.Execute(context.Background(), tool.Call{Name: "test_owned", Arguments: json.RawMessage(`{"owned_only": true}`)})
	if !set || known || got != nil {
		t.Fatalf("no player state: bound = %v known %v set %v", got, known, set)
	}
	if spec, _ := reg.Spec("test_owned"); !spec.PlayerScoped() {
		t.Fatal("a bound tool is not player-scoped")
	}
}

func TestPlayerBindingRefused(t *testing.T) {
	for _, tc := range []struct {
		binding tool.PlayerParam
		want    string
	}{
		{tool.PlayerParam{Flag: "owned_ids", Path: "roster.id"}, "is not a parameter"},
		{tool.PlayerParam{Flag: "limit", Path: "roster.id"}, "must be a boolean"},
		{tool.PlayerParam{Flag: "owned_only", Path: "roster..id"}, "is not a dotted path"},
	} {
		d := &tool.Def[struct {
			OwnedOnly *bool `json:"owned_only"`
			Limit     *int  `json:"limit"`
		}]{
			Name: "test_bad", Description: "d", Category: tool.CategoryGCS,
			Schema: json.RawMessage(`{"type":"object","properties":{"owned_only":{"type":"boolean"},"limit":{"type":"integer"}}}`),
			Player: []tool.PlayerParam{tc.binding},
		}
		err := tool.NewRegistry().Register(d)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.binding, err, tc.want)
		}
	}
}
