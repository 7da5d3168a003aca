package chat

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// FuzzRunArguments feeds arbitrary tool names and argument text, as a model
// may write them, through the runner: no panic, every outcome encodes, an
// identical second call is a duplicate, and nothing invalid is cached.
func FuzzRunArguments(f *testing.F) {
	for _, s := range []struct{ name, args string }{
		{"gcs_get_champion_details", `{"champion_name":"Kaelith"}`},
		{"gcs_get_champion_details", `{"champion_name": "Kae`},
		{"champion_details", ``},
		{"nope", `null`},
		{"gcs_get_character_details_by_id", `{"character_id":1e400}`},
		{"db_get_lore_details", "\xff\xfe"},
		{"", `[]`},
	} {
		f.Add(s.name, s.args)
	}
	box := newToolbox(f)
	r, err := NewRunner(box.exec, nil, nil, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, name, args string) {
		ctx := context.Background()
		sc := r.Scope(ctx, "fuzz", 1, nil, false)
		c := tool.Call{Name: name, Arguments: json.RawMessage(args)}
		outs := sc.Run(ctx, []tool.Call{c, c})
		if outs[1].Source != tool.SourceDuplicate {
			t.Errorf("second identical call is %s", outs[1].Source)
		}
		if _, err := json.Marshal(outs); err != nil {
			t.Errorf("outcomes do not encode: %v", err)
		}
		for _, p := range sc.Puts() {
			if !json.Valid(p.Parameters) || !json.Valid(p.Result) {
				t.Errorf("invalid JSON cached: %s %s", p.Parameters, p.Result)
			}
		}
		if note := duplicateNote(outs[1]); !json.Valid([]byte(note)) {
			t.Errorf("duplicate note is not JSON: %s", note)
		}
	})
}
