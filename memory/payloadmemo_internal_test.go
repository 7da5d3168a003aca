package memory

import (
	"fmt"
	"strings"
	"testing"
)

// TestPayloadMemoBounded: the memo keeps at most maxPayloadMemo bytes,
// starting over past it, and never a payload that is not valid JSON or
// that alone would take an eighth of it.
func TestPayloadMemoBounded(t *testing.T) {
	var p payloadMemo
	js := []byte(`"` + strings.Repeat("x", 100<<10) + `"`)
	for i := range 200 {
		id := fmt.Sprint(i)
		p.put(id, js, js)
		if p.bytes > maxPayloadMemo {
			t.Fatalf("after %d payloads the memo holds %d bytes", i+1, p.bytes)
		}
		if p.json(id, js) == nil {
			t.Fatalf("payload %d not remembered just after it was put", i)
		}
	}
	p.put("bad", []byte("{"), []byte("{"))
	if p.stored("bad", []byte("{")) != nil {
		t.Error("invalid JSON remembered")
	}
	huge := []byte(`"` + strings.Repeat("y", maxPayloadMemo/8) + `"`)
	p.put("huge", huge, huge)
	if p.json("huge", huge) != nil {
		t.Error("a payload of an eighth of the bound remembered")
	}
	// What json hands out is the caller's.
	got := p.json("199", js)
	got[1] = 'z'
	if again := p.json("199", js); again == nil || again[1] != 'x' {
		t.Error("changing what json returned changed the memo")
	}
}
