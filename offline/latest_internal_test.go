package offline

import (
	"testing"

	"github.com/gameassist/gameassist/tool"
	toolsrag "github.com/gameassist/gameassist/tools_rag"
)

// TestLatestPatchByVersion: the newest patch is the highest version, not
// the first listed nor the highest string ("1.10.0" after "1.9.2"), in the
// session's locale when the version exists in it.
func TestLatestPatchByVersion(t *testing.T) {
	docs := toolsrag.DocumentList{Documents: []toolsrag.DocumentInfo{
		{DocID: "patch-notes-1-9-2", Title: "Patch 1.9.2: Late", Category: "patch_notes", Locale: "en"},
		{DocID: "patch-notes-1-10-0", Title: "Patch 1.10.0: Tenth", Category: "patch_notes", Locale: "en"},
		{DocID: "patch-notes-1-10-0-fr", Title: "Patch 1.10.0 : Dixième", Category: "patch_notes", Locale: "fr"},
		{DocID: "faq-2-0", Title: "What is 2.0?", Category: "faq", Locale: "en"},
		{DocID: "patch-notes-1-2-0", Title: "Patch 1.2.0", Category: "patch_notes", Locale: "en"},
	}}
	res := tool.Success("ok", docs)
	for loc, want := range map[string]string{"en": "patch-notes-1-10-0", "fr": "patch-notes-1-10-0-fr"} {
		d, ok := latestPatch(res, loc)
		if !ok || d.DocID != want {
			t.Errorf("%s: latest = %q %v, want %s", loc, d.DocID, ok, want)
		}
	}
	if _, ok := latestPatch(tool.Success("ok", toolsrag.DocumentList{}), "en"); ok {
		t.Error("an empty list has a latest patch")
	}
}

// TestOrdinalOfAThing: "the last patch" counts patches, not subjects.
func TestOrdinalOfAThing(t *testing.T) {
	for msg, want := range map[string]int{
		"what changed in the last patch?":  -2,
		"le premier niveau est dur":        -2,
		"the last one":                     -1,
		"the second one's skills":          1,
		"und die Fähigkeiten des zweiten?": 1,
	} {
		toks := tokens(msg)
		text := " " + joinTokens(toks) + " "
		if got := readReference(text, toks).ordinal; got != want {
			t.Errorf("%q: ordinal %d, want %d", msg, got, want)
		}
	}
}

func joinTokens(toks []string) string {
	out := ""
	for i, t := range toks {
		if i > 0 {
			out += " "
		}
		out += t
	}
	return out
}
