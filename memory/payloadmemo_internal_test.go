package memory

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestPayloadMemoBounded: the memo keeps at most maxPayloadMemo bytes,
// starting over past it, and never a payload that is not valid JSON or
// that alone would take an eighth of it.
func TestPayloadMemoBounded(t *testing.T) {
	p := newPayloadMemo()
	js := []byte(`"` + strings.Repeat("x", 100<<10) + `"`)
	for i := range 200 {
		id := fmt.Sprint(i)
		p.put(id, js, js)
		if p.m.Cost() > maxPayloadMemo {
			t.Fatalf("after %d payloads the memo holds %d bytes", i+1, p.m.Cost())
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

// TestEntryMemo: a cache hash value decodes the same through the memo as
// afresh, in both forms (a reference, and a whole entry as earlier
// versions stored it), the second time without decoding (no allocation
// but the copy handed out); what a caller does to its copy does not
// reach the next one; a damaged value is an error each time.
func TestEntryMemo(t *testing.T) {
	m := newEntryMemo()
	ref := `{"t":"gcs_get_boss_details","v":2,"p":{"boss_id":5001},"c":3,"d":4,"dv":"v7","r":"abc"}`
	whole := `{"key":"k","tool":"t","parameters":{"a":1},"result":{"status":"success"},"cached_at_exchange":2,"duration":3,"data_version":"v1","hits":5}`
	for _, js := range []string{ref, whole} {
		want, wantPayload, err := decodeEntry(js)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			got, payload, err := m.parse(js)
			if err != nil || payload != wantPayload || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %+v %q %v, want %+v %q", js, got, payload, err, want, wantPayload)
			}
			got.Parameters[1] = 'X'
		}
		if n := testing.AllocsPerRun(20, func() { _, _, _ = m.parse(js) }); n > 2 {
			t.Errorf("%s: a remembered value takes %.0f allocations, want at most the copy's 2", js, n)
		}
	}
	e, _, err := parseEntry("key", whole, "", &m)
	if err != nil || e.Key != "key" || e.Hits != 5 {
		t.Errorf("a whole entry without a hits count: %+v, %v; want its own hits", e, err)
	}
	for range 2 {
		if _, _, err := parseEntry("key", `{"t":`, "", &m); err == nil || !strings.Contains(err.Error(), "stored cache entry key") {
			t.Fatalf("damaged value: %v", err)
		}
	}
}
