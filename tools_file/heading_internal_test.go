package toolsfile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// Tools and chains check their shared fields with one rule: the same bad
// heading gives the same problem for both, naming the kind.
func TestCheckHeadingSameForToolsAndChains(t *testing.T) {
	zero := 0
	ok := heading{Name: "cards_get", Description: "A card."}
	tests := []struct {
		name string
		edit func(h *heading)
		want string
	}{
		{"bad name", func(h *heading) { h.Name = "Cards Get" }, "must match"},
		{"no description", func(h *heading) { h.Description = "  " }, "description is required"},
		{"bad category", func(h *heading) { h.Category = "sword" }, `category "sword" is not one of`},
		{"long instruction", func(h *heading) { h.LLMInstruction = strings.Repeat("x", maxDescription+1) }, "llm_instruction is over"},
		{"too many aliases", func(h *heading) {
			for i := range maxAliases + 1 {
				h.Aliases = append(h.Aliases, fmt.Sprintf("alias_%d", i))
			}
		}, "aliases, over the limit"},
		{"bad alias", func(h *heading) { h.Aliases = []string{"A B"} }, `alias "A B" must match`},
		{"alias is the name", func(h *heading) { h.Aliases = []string{"cards_get"} }, `alias "cards_get" repeats the %s's name`},
		{"version 0", func(h *heading) { h.Version = &zero }, "version 0 must be 1 or more"},
		{"bad display name", func(h *heading) { h.DisplayName = []any{1} }, "display_name:"},
	}
	for _, tc := range tests {
		for _, kind := range []string{"tool", "chain"} {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				h := ok
				tc.edit(&h)
				var got []string
				checkHeading(h, kind, tool.CategoryGCS, func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) })
				want := tc.want
				if strings.Contains(want, "%s") {
					want = fmt.Sprintf(want, kind)
				}
				if len(got) != 1 || !strings.Contains(got[0], want) {
					t.Fatalf("problems = %q, want one with %q", got, want)
				}
			})
		}
	}
	var got []string
	c := checkHeading(ok, "chain", tool.CategoryCustom, func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) })
	if len(got) != 0 || c.Category != tool.CategoryCustom || c.Versioned {
		t.Fatalf("good heading: problems %q, checked %+v", got, c)
	}
}
