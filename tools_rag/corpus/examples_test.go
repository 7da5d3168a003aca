package corpus_test

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tools_rag/corpus"
)

// TestExampleGameKeepsDevNotesOut: the shipped example game's documents
// keep integration details (screen names, the fields the game sends) in
// dev-notes blocks, so no player-facing text carries them; newcomers copy
// this layout.
func TestExampleGameKeepsDevNotesOut(t *testing.T) {
	docs, problems, err := corpus.Load("../../examples/cards/docs")
	if err != nil || len(problems) > 0 {
		t.Fatalf("load: %v %v", err, problems)
	}
	noted := false
	for _, d := range docs {
		for _, leak := range []string{"The game sends", "`CardId`", "CardInspectScreen."} {
			if strings.Contains(d.Body, leak) {
				t.Errorf("%s: player text holds %q", d.Path, leak)
			}
		}
		if d.DocID == "ux-cardinspectscreen" {
			noted = strings.Contains(d.DevNotes, "CardId")
		}
	}
	if !noted {
		t.Error("the card-inspect document has no developer notes naming CardId")
	}
}
