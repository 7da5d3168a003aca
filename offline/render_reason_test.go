package offline

import "testing"

func TestReasonDropsTheDesignerRank(t *testing.T) {
	rd := renderer{l: newLang("en")}
	got := rd.reason("recommended counter #3; strong against Fire Knight; skills apply cleanse (boss weakness); Force has the advantage over Magic")
	want := "strong against Fire Knight; skills apply cleanse (boss weakness); Force has the advantage over Magic"
	if got != want {
		t.Fatalf("reason = %q, want %q", got, want)
	}
}
