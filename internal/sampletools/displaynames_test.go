package sampletools_test

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/internal/sampletools"
	"github.com/gameassist/gameassist/tool"
)

var updateDisplayNames = flag.Bool("update-display-names", false, "rewrite testdata/display_names.tsv from the registered tools")

// TestDisplayNamesOfEveryTool lists the chip labels of every built-in tool
// the sample game registers (cache_*, gcs_* and RAG tools, built as the
// serve wiring builds them) and compares them with the committed table:
// one line per tool and locale, with the label the registry hands to the
// chat widget. Every tool names itself in every locale a session may use.
func TestDisplayNamesOfEveryTool(t *testing.T) {
	exec, _, _ := sampletools.Build(t, "../../content")
	specs := exec.Registry().Specs(nil)
	slices.SortFunc(specs, func(a, b tool.Spec) int { return strings.Compare(a.Name, b.Name) })

	var b strings.Builder
	b.WriteString("# tool\tlocale\tdisplay name (go test ./internal/sampletools -run TestDisplayNamesOfEveryTool -update-display-names)\n")
	for _, sp := range specs {
		for _, l := range chat.Locales() {
			if sp.DisplayNames[l] == "" {
				t.Errorf("%s has no %s display name", sp.Name, l)
			}
		}
		locales := slices.Sorted(maps.Keys(sp.DisplayNames))
		for _, l := range locales {
			fmt.Fprintf(&b, "%s\t%s\t%s\n", sp.Name, l, sp.DisplayName(l))
		}
	}
	got := b.String()

	path := filepath.Join("testdata", "display_names.tsv")
	if *updateDisplayNames {
		if err := os.WriteFile(path, []byte(got), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for _, l := range wl {
			if !slices.Contains(gl, l) {
				t.Errorf("lost: %q", l)
			}
		}
		for _, l := range gl {
			if !slices.Contains(wl, l) {
				t.Errorf("new:  %q", l)
			}
		}
		if !t.Failed() {
			t.Error("same lines in another order")
		}
	}
}
