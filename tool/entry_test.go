package tool_test

import (
	"encoding/json"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

func TestSpecEntry(t *testing.T) {
	got, err := json.Marshal(tool.Spec{Name: "cards_get", Description: "A card.", Category: tool.CategoryCustom, CacheDuration: 3}.Entry())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"cards_get","description":"A card.","category":"custom","aliases":[],"parameters":{"type":"object"},"cache_duration":3}`
	if string(got) != want {
		t.Fatalf("entry = %s\nwant    %s", got, want)
	}
	e := tool.Spec{Name: "x", Aliases: []string{"y"}, Parameters: json.RawMessage(`{"type":"object","required":["a"]}`)}.Entry()
	if len(e.Aliases) != 1 || string(e.Parameters) != `{"type":"object","required":["a"]}` {
		t.Fatalf("entry = %+v", e)
	}
}
