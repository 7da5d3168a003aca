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
	return farmResponderTB(t)
}

func farmResponderTB(t testing.TB) (*offline.Responder, *tool.Executor) {
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

// runWith runs calls on exec, as a turn's runner would.
func runWith(exec *tool.Executor) offline.RunFunc {
	return func(ctx context.Context, calls []tool.Call) []tool.Outcome {
		outs := make([]tool.Outcome, len(calls))
		for i, c := range calls {
			res := exec.Execute(ctx, c)
			outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Status: res.Status, Result: res}
		}
		return outs
	}
}

// TestStudioGameUnknownName: a name the game lacks is said so with the
// closest names of the kind the question is about, and nothing is looked
// up under it.
func TestStudioGameUnknownName(t *testing.T) {
	r, exec := farmResponder(t)
	for _, tc := range []struct{ say, want string }{
		{"how much does a Pumpkinn sell for?", "There is no crop named **Pumpkinn**. The closest: **Pumpkin**"},
		{"how many days does a Melon take to grow?", "There is no crop named **Melon**."},
		{"what produce does the Shep give?", "There is no animal named **Shep**. The closest: **Sheep**"},
	} {
		a := r.Answer(context.Background(), offline.Request{Message: tc.say, Locale: "en"}, runWith(exec))
		if !strings.HasPrefix(a.Text, tc.want) {
			t.Errorf("%q: want a reply starting %q:\n%s", tc.say, tc.want, a.Text)
		}
		if len(a.Outcomes) != 0 {
			t.Errorf("%q: looked up %+v", tc.say, a.Plan.Calls)
		}
	}
}

// TestStudioGameFollowUpAndScreen: "this animal" is the row the screen
// rules fetched (the same call, so the cache serves it), and "it" in a
// follow-up is the last answer's subject; an optional-name lookup is never
// called with {}.
func TestStudioGameFollowUpAndScreen(t *testing.T) {
	r, exec := farmResponder(t)
	ctx := context.Background()
	prior := tool.Call{Name: "farm_find_animals", Arguments: []byte(`{"name":"Sheep"}`)}
	req := offline.Request{
		Message: "what does this animal produce?", Locale: "en", Screen: "BarnScreen",
		ScreenData: []byte(`{"AnimalName":"Sheep"}`),
		Context:    []offline.Prior{{Name: prior.Name, Arguments: prior.Arguments, Result: exec.Execute(ctx, prior)}},
	}
	a := r.Answer(ctx, req, runWith(exec))
	if len(a.Plan.Calls) != 1 || a.Plan.Calls[0].Name != prior.Name || string(a.Plan.Calls[0].Arguments) != string(prior.Arguments) {
		t.Errorf("this animal: calls %+v, want the screen's %s %s", a.Plan.Calls, prior.Name, prior.Arguments)
	}
	if !strings.Contains(a.Text, "Wool") || strings.Contains(a.Text, "Milk") {
		t.Errorf("this animal: want the sheep's Wool only:\n%s", a.Text)
	}

	first := r.Answer(ctx, offline.Request{Message: "how much does a Pumpkin sell for?", Locale: "en"}, runWith(exec))
	ex := offline.Exchange{Message: "how much does a Pumpkin sell for?"}
	ex.About = append(ex.About, first.About...)
	if len(ex.About) == 0 {
		t.Fatal("the answer records no subject")
	}
	next := r.Answer(ctx, offline.Request{Message: "and how many days does it take to grow?", Locale: "en", History: []offline.Exchange{ex}}, runWith(exec))
	if len(next.Plan.Calls) != 1 || string(next.Plan.Calls[0].Arguments) != `{"name":"Pumpkin"}` {
		t.Errorf("follow-up: calls %+v, want farm_get_crop for Pumpkin", next.Plan.Calls)
	}
	if !strings.HasPrefix(next.Text, "The grow days of **Pumpkin** is 13.") {
		t.Errorf("follow-up:\n%s", next.Text)
	}
	for _, say := range []string{"what does the Cow produce?", "what does this animal produce?", "which building does the Hen live in?"} {
		a := r.Answer(ctx, offline.Request{Message: say, Locale: "en"}, runWith(exec))
		for _, c := range a.Plan.Calls {
			if c.Name == "farm_find_animals" && string(c.Arguments) == `{}` {
				t.Errorf("%q: farm_find_animals called with {}", say)
			}
		}
		if strings.Contains(say, "this") && !strings.HasPrefix(a.Text, "Which animal do you mean? For example: **") {
			t.Errorf("%q with no screen: want which animal asked:\n%s", say, a.Text)
		}
	}
	// Asked for the list, the optional name stays out.
	a = r.Answer(ctx, offline.Request{Message: "list all the animals", Locale: "en"}, runWith(exec))
	if len(a.Plan.Calls) == 0 || a.Plan.Calls[0].Name != "farm_find_animals" || !strings.Contains(a.Text, "Sheep") || !strings.Contains(a.Text, "Hen") {
		t.Errorf("list: calls %+v\n%s", a.Plan.Calls, a.Text)
	}
	// A value the question gives with a capital keeps its rows.
	a = r.Answer(ctx, offline.Request{Message: "which animals live in the Barn?", Locale: "en"}, runWith(exec))
	if !strings.Contains(a.Text, "Sheep") || !strings.Contains(a.Text, "Cow") || strings.Contains(a.Text, "Hen") || strings.Contains(a.Text, "There is no") {
		t.Errorf("barn animals:\n%s", a.Text)
	}
}

// BenchmarkStudioAnswer measures an answer over a studio's game (names
// from its lookups, rows as sentences), tools run each time.
func BenchmarkStudioAnswer(b *testing.B) {
	r, exec := farmResponderTB(b)
	run := runWith(exec)
	qs := []string{"how much does a Pumpkin sell for?", "what produce does the Sheep give?", "how much does a Pumpkinn sell for?", "which animals live in the Barn?", "list all the animals"}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Answer(ctx, offline.Request{Message: qs[i%len(qs)], Locale: "en"}, run)
	}
}

// TestStudioGameFrenchAndGermanFraming: a French or German session gets
// the studio game's answers with no English framing (the studio's own
// words, its names and columns, stay as written).
func TestStudioGameFrenchAndGermanFraming(t *testing.T) {
	r, exec := farmResponder(t)
	for _, tc := range []struct{ locale, say, want string }{
		{"fr", "combien de grow days pour Pumpkin ?", "**Pumpkin** — grow days : 13."},
		{"de", "wie viele grow days braucht Pumpkin?", "**Pumpkin** — grow days: 13."},
		{"fr", "combien coûte Pumpkinn ?", "Je ne trouve aucun élément **Pumpkinn** dans le jeu (crop). Les plus proches : **Pumpkin**"},
		{"de", "was kostet Pumpkinn?", "Ich finde **Pumpkinn** nicht im Spiel (crop). Am ähnlichsten: **Pumpkin**"},
	} {
		a := r.Answer(context.Background(), offline.Request{Message: tc.say, Locale: tc.locale}, runWith(exec))
		if !strings.HasPrefix(a.Text, tc.want) {
			t.Errorf("%s %q: want a reply starting %q:\n%s", tc.locale, tc.say, tc.want, a.Text)
		}
		for _, en := range []string{"There is no", "The closest", " of ", " is "} {
			if strings.Contains(a.Text, en) {
				t.Errorf("%s %q: English %q in\n%s", tc.locale, tc.say, en, a.Text)
			}
		}
	}
}
