package yamlguard_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/internal/yamlguard"
)

// billionLaughs is the classic alias bomb: ten levels of ten aliases each,
// 10^9 nodes once expanded, in under 700 bytes.
func billionLaughs(key string) string {
	var b strings.Builder
	b.WriteString(key + ":\n")
	b.WriteString("  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 10; i++ {
		p := fmt.Sprintf("*a%d", i-1)
		fmt.Fprintf(&b, "  a%d: &a%d [%s]\n", i, i, strings.Repeat(p+", ", 9)+p)
	}
	return b.String()
}

func TestCheck(t *testing.T) {
	lim := yamlguard.Limits{MaxDepth: 8, MaxAliasNodes: 1000}
	tests := []struct {
		name string
		src  string
		bomb bool   // refused as over the limits
		bad  string // refused as not YAML, with this in the message
		line int
	}{
		{name: "plain", src: "a: 1\nb: [1, 2, {c: d}]\n"},
		{name: "several documents", src: "a: 1\n---\nb: 2\n"},
		{name: "deep but within", src: strings.Repeat("[", 8) + strings.Repeat("]", 8)},
		{name: "few aliases", src: "x: &x {type: string}\ny: *x\nz: [*x, *x]\n"},
		{name: "flow nesting one too deep", src: strings.Repeat("[", 9) + strings.Repeat("]", 9), bomb: true, line: 1},
		{name: "block nesting too deep", src: "a:\n" + strings.Repeat("- ", 9) + "x\n", bomb: true, line: 2},
		{name: "nesting past the parser's bound", src: strings.Repeat("[", 30_000), bomb: true},
		{name: "billion laughs", src: billionLaughs("lol"), bomb: true},
		{name: "aliases that nest too deep", src: "a: &a [[[[[x]]]]]\nb: [[[[*a]]]]\n", bomb: true},
		{name: "bomb in the second document", src: "a: 1\n---\n" + billionLaughs("b"), bomb: true},
		{name: "not YAML", src: "a: [1, 2\n", bad: "did not find expected"},
		{name: "unknown anchor", src: "a: *nope\n", bad: "unknown anchor"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := yamlguard.Check([]byte(tc.src), lim)
			switch {
			case tc.bomb:
				if !errors.Is(err, yamlguard.ErrBomb) {
					t.Fatalf("Check = %v, want ErrBomb", err)
				}
				var ge *yamlguard.Error
				if !errors.As(err, &ge) {
					t.Fatalf("Check = %T, want *Error", err)
				}
				if tc.line != 0 && ge.Line != tc.line {
					t.Errorf("line %d, want %d (%v)", ge.Line, tc.line, err)
				}
			case tc.bad != "":
				if err == nil || errors.Is(err, yamlguard.ErrBomb) || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("Check = %v, want a YAML error with %q", err, tc.bad)
				}
			default:
				if err != nil {
					t.Fatalf("Check = %v, want nil", err)
				}
			}
		})
	}
}

// The check allocates in proportion to the text, not to its expansion:
// a billion laughs costs about what a plain file of its size costs.
func TestCheckDoesNotExpand(t *testing.T) {
	bomb := []byte(billionLaughs("lol"))
	var plain []byte
	for i := range 10 {
		plain = fmt.Appendf(plain, "a%d: [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n", i)
	}
	allocs := func(src []byte) float64 {
		return testing.AllocsPerRun(5, func() { _ = yamlguard.Check(src, yamlguard.Default) })
	}
	if b, p := allocs(bomb), allocs(plain); b > 2*p {
		t.Errorf("the bomb took %.0f allocations, a plain file of its size %.0f", b, p)
	}
}

func FuzzCheck(f *testing.F) {
	f.Add([]byte(billionLaughs("x")))
	f.Add([]byte("a: &a [1]\nb: *a\n"))
	f.Add([]byte(strings.Repeat("[", 100)))
	f.Fuzz(func(t *testing.T, src []byte) {
		_ = yamlguard.Check(src, yamlguard.Limits{MaxDepth: 16, MaxAliasNodes: 1000})
	})
}

func BenchmarkCheck(b *testing.B) {
	for _, bc := range []struct {
		name string
		src  []byte
	}{
		{"billion laughs", []byte(billionLaughs("lol"))},
		{"depth 30000", []byte(strings.Repeat("[", 30_000))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if yamlguard.Check(bc.src, yamlguard.Default) == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}
