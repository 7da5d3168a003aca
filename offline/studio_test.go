package offline_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/tool"
	toolsfile "github.com/gameassist/gameassist/tools_file"
)

// farmResponder is the responder over a studio's own farming game
// (testdata/farm): its SQLite file and its tools file, nothing of the
// sample game.
func farmResponder(t *testing.T) (*offline.Responder, *tool.Executor) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "farm.db")
	rw, err := sql.Open("sqlite3", "file:"+path+"?mode=rwc")
	if err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile("testdata/farm/farm.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rw.Exec(string(schema)); err != nil {
		t.Fatal(err)
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := gcsdb.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	set, err := toolsfile.Load(ctx, "testdata/farm/tools.yaml", db, nil)
	if err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := reg.ReplaceGroup(tool.GroupFile, set.List()...); err != nil {
		t.Fatal(err)
	}
	exec, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := offline.New(exec, offline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r, exec
}

// TestStudioGameRowAnswersTheAskedField: a row comes back as a sentence
// naming the asked field first, and a lookup whose name parameter is
// optional is called with the name the question gives, not with {}.
func TestStudioGameRowAnswersTheAskedField(t *testing.T) {
	r, exec := farmResponder(t)
	run := func(ctx context.Context, calls []tool.Call) []tool.Outcome {
		outs := make([]tool.Outcome, len(calls))
		for i, c := range calls {
			res := exec.Execute(ctx, c)
			outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Status: res.Status, Result: res}
		}
		return outs
	}
	for _, tc := range []struct{ say, tool, args, lead string }{
		{"how much does a Pumpkin sell for?", "farm_get_crop", `{"name":"Pumpkin"}`, "The sell price of **Pumpkin** is 320."},
		{"how many days does a Turnip take to grow?", "farm_get_crop", `{"name":"Turnip"}`, "The grow days of **Turnip** is 4."},
		{"what produce does the Sheep give?", "farm_find_animals", `{"name":"Sheep"}`, "The produce of **Sheep** is Wool."},
	} {
		a := r.Answer(context.Background(), offline.Request{Message: tc.say, Locale: "en"}, run)
		if len(a.Outcomes) == 0 || a.Outcomes[0].Name != tc.tool || string(a.Outcomes[0].Arguments) != tc.args {
			t.Errorf("%q: calls %+v, want %s %s", tc.say, a.Plan.Calls, tc.tool, tc.args)
		}
		if !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%q: want a reply starting %q:\n%s", tc.say, tc.lead, a.Text)
		}
	}
}
