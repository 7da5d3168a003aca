package metrics

import "testing"

func TestWellFormed(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{name: "tool name", in: "gcs_get_champion_details", want: true},
		{name: "route pattern", in: "/admin/sessions/:id/cache/:key", want: true},
		{name: "wildcard route", in: "/static/*filepath", want: true},
		{name: "empty", in: "", want: false},
		{name: "space", in: "drop table", want: false},
		{name: "quote", in: `a"b`, want: false},
		{name: "newline", in: "a\nb", want: false},
		{name: "non ascii", in: "champion_é", want: false},
		{name: "longest", in: string(make128('a')), want: true},
		{name: "too long", in: string(make128('a')) + "a", want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := wellFormed(tc.in); got != tc.want {
				t.Errorf("wellFormed(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func make128(c byte) []byte {
	b := make([]byte, maxLabelLen)
	for i := range b {
		b[i] = c
	}
	return b
}

// FuzzLabelGuard feeds arbitrary label values (tool names chosen by an LLM,
// routes) to an open guard: a value comes back unchanged only when it is
// well formed, and never more than the cap of distinct values get through.
func FuzzLabelGuard(f *testing.F) {
	for _, seed := range []string{"gcs_get_champion_details", "", "unknown", "a b", "/v1/chat", "\xff\xfe", "x:y/z*{w}"} {
		f.Add(seed, seed+"_2")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		g := newLabelGuard(nil, 1, LabelUnknown)
		ga, gb := g.value(a), g.value(b)
		if ga != a && ga != LabelUnknown {
			t.Fatalf("value(%q) = %q", a, ga)
		}
		if ga == a && !wellFormed(a) && a != LabelUnknown {
			t.Fatalf("ill-formed %q admitted", a)
		}
		if wellFormed(a) && ga != a {
			t.Fatalf("first well-formed value %q refused", a)
		}
		if wellFormed(a) && a != b && gb == b && b != LabelUnknown {
			t.Fatalf("second distinct value %q admitted past a cap of 1", b)
		}
		if again := g.value(a); again != ga {
			t.Fatalf("value(%q) changed from %q to %q", a, ga, again)
		}
	})
}
