package memory

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestMetaMemo: a stored summary or screen decodes the same from the memo
// as afresh, the second time without decoding (no allocation but the
// copy handed out), and what a caller does to its copy does not reach the
// next one. Invalid JSON is an error each time; the memo is bounded.
func TestMetaMemo(t *testing.T) {
	var m metaMemo
	sm := Summary{Text: strings.Repeat("The player fought the Fire Knight. ", 20), Through: 12, Prev: &Summary{Text: "earlier", Through: 4}}
	rawSummary, _ := json.Marshal(sm)
	sc := Screen{Name: "Boss", Data: json.RawMessage(`{"boss":"Fire Knight","hp":[1,2,3]}`), Hash: "h", Injection: "Boss: Fire Knight", At: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	rawScreen, _ := json.Marshal(sc)

	for range 2 {
		got, err := m.summary(string(rawSummary))
		if err != nil || !reflect.DeepEqual(*got, sm) {
			t.Fatalf("summary %+v, %v", got, err)
		}
		got.Text, got.Prev.Text = "changed", "changed"
		gs, err := m.screen(string(rawScreen))
		if err != nil || !reflect.DeepEqual(*gs, sc) {
			t.Fatalf("screen %+v, %v", gs, err)
		}
		gs.Data[2], gs.Name = 'X', "changed"
	}
	rs, rsc := string(rawSummary), string(rawScreen)
	if n := testing.AllocsPerRun(20, func() { _, _ = m.summary(rs) }); n > 2 {
		t.Errorf("a remembered summary takes %.0f allocations, want the copy's 2", n)
	}
	if n := testing.AllocsPerRun(20, func() { _, _ = m.screen(rsc) }); n > 2 {
		t.Errorf("a remembered screen takes %.0f allocations, want the copy's 2", n)
	}
	for range 2 {
		if _, err := m.summary(`{"text":`); err == nil {
			t.Fatal("a damaged summary decoded")
		}
	}
	text := strings.Repeat("x", maxMetaMemo/40)
	for i := range 100 {
		raw := fmt.Sprintf(`{"text":%q,"through":%d}`, text, i+1)
		if got, err := m.summary(raw); err != nil || got.Through != i+1 {
			t.Fatalf("summary %d: %v", i+1, err)
		}
		if m.bytes > maxMetaMemo {
			t.Fatalf("after %d summaries the memo holds %d bytes", i+1, m.bytes)
		}
	}
}
