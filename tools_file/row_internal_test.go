package toolsfile

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// stdJSON is what encoding/json writes for v with HTML escaping off, the
// encoding Row.MarshalJSON must reproduce.
func stdJSON(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

func TestAppendJSONValueMatchesEncodingJSON(t *testing.T) {
	cases := []struct {
		name string
		v    any
	}{
		{name: "null", v: nil},
		{name: "plain text", v: "Tide Caller"},
		{name: "arrow and html", v: "a -> b <i>&</i>"},
		{name: "quotes and backslash", v: `say "hi" \ bye`},
		{name: "control characters", v: "a\nb\rc\td\be\ff\x00g\x1f"},
		{name: "accents and emoji", v: "Kaëlith ⚔️ 火"},
		{name: "invalid utf-8", v: "ok\xff\xfeend"},
		{name: "line separators", v: "x\u2028y\u2029z"},
		{name: "integer", v: int64(-9007199254740993)},
		{name: "zero float", v: 0.0},
		{name: "float", v: 3.25},
		{name: "tiny float", v: 1.5e-9},
		{name: "huge float", v: -2.5e22},
		{name: "bool", v: true},
		{name: "other type", v: []int{1, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := appendJSONValue(nil, c.v)
			if err != nil {
				t.Fatal(err)
			}
			if want := stdJSON(t, c.v); string(got) != want {
				t.Fatalf("appendJSONValue(%#v) = %s, want %s", c.v, got, want)
			}
		})
	}
	if _, err := appendJSONValue(nil, math.Inf(1)); err == nil {
		t.Fatal("an infinite float encoded, want the error encoding/json gives")
	}
}

func TestRowMarshalJSON(t *testing.T) {
	h := newHeader([]string{"name", "cost", "name", "note\"x"})
	r := Row{h: h, vals: []any{"Tide Caller", int64(3), "ignored", nil}}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"name":"Tide Caller","cost":3,"note\"x":null}`; string(got) != want {
		t.Fatalf("row = %s, want %s", got, want)
	}
	if v, ok := r.Get("cost"); !ok || v != int64(3) {
		t.Fatalf("Get(cost) = %v, %v", v, ok)
	}
	if b, err := (Row{}).MarshalJSON(); err != nil || string(b) != "{}" {
		t.Fatalf("zero row = %s, %v", b, err)
	}
}

// FuzzAppendJSONString checks that any text a studio's database holds
// encodes exactly as encoding/json encodes it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c", "\x00\x1f\x7f", "\xff", "é\u2028", "<>&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendJSONString(nil, s)), stdJSON(t, s); got != want {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}
