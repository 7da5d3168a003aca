package feedback_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/eval/scenario"
	"github.com/gameassist/gameassist/feedback"
	"github.com/gameassist/gameassist/memory"
)

func record() feedback.Record {
	return feedback.Record{
		ID: "1764100000000-0", SessionID: "s1", Locale: "en", Exchange: 3, Screen: bossScreen,
		Message: "who counters this boss?", Reply: "Aria.\nThen Bran.",
		Tools: []memory.ExchangeTool{
			{Name: "db_get_ux_details", Source: "proactive", Status: "success"},
			{Name: "gcs_get_boss_details", Source: "skipped", Status: "success"},
			counters(2), counters(2),
			{Name: "gcs_get_champion_details", Source: "executed", Status: "error"},
		},
		Window: []feedback.WindowMessage{
			{Role: "user", Content: "hello", Exchange: 1, Screen: champScreen},
			{Role: "assistant", Content: "Hi!", Exchange: 1, Screen: champScreen},
			{Role: "user", Content: "and this boss?", Exchange: 2, Screen: bossScreen},
			{Role: "assistant", Content: "Fire Knight.", Exchange: 2, Screen: bossScreen},
		},
		Model: "gpt-4o-mini", Rating: "down", Comment: "wrong", At: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC),
	}
}

func parse(t *testing.T, y []byte) scenario.Scenario {
	t.Helper()
	p, err := scenario.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	scs, err := p.Parse("feedback.yaml", y)
	if err != nil {
		t.Fatalf("the scenario does not parse: %v\n%s", err, y)
	}
	if len(scs) != 1 {
		t.Fatalf("%d scenarios", len(scs))
	}
	return scs[0]
}

func TestScenarioReplaysTheExchange(t *testing.T) {
	y, err := feedback.Scenario(record())
	if err != nil {
		t.Fatal(err)
	}
	sc := parse(t, y)
	if sc.Name != "feedback 1764100000000-0 down" || sc.Locale != "en" {
		t.Errorf("name %q locale %q", sc.Name, sc.Locale)
	}
	var steps []string
	for _, st := range sc.Steps {
		switch {
		case st.Screen != nil:
			steps = append(steps, "screen "+st.Screen.Name+" "+string(st.Screen.Data))
		case st.Expect != nil:
			var tools []string
			for _, tr := range st.Expect.Tools {
				tools = append(tools, tr.Name)
			}
			steps = append(steps, "say "+st.Say+" expect "+strings.Join(tools, ","))
			if len(st.Expect.Facts)+len(st.Expect.Forbid) != 0 {
				t.Error("facts or forbid filled in: they are the studio's")
			}
		default:
			steps = append(steps, "say "+st.Say)
		}
	}
	want := []string{
		`screen ChampionFeatureModelsPresenter {"ChampionConfigId":1001}`,
		"say hello",
		`screen BossBattlePresenter {"BossConfigId":5001}`,
		"say and this boss?",
		"say who counters this boss? expect db_get_ux_details,gcs_find_counters_for_boss",
	}
	if strings.Join(steps, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant\n%s\nyaml:\n%s", strings.Join(steps, "\n"), strings.Join(want, "\n"), y)
	}
	for _, c := range []string{"# facts and forbid are left for the studio", "# Aria.\n", "# Then Bran.", "# answered then: Fire Knight."} {
		if !strings.Contains(string(y), c) {
			t.Errorf("YAML lacks %q:\n%s", c, y)
		}
	}
}

// Player text (message, reply, comment, window) cannot add steps or
// expectations: it stays a string or a comment.
func TestScenarioHostileText(t *testing.T) {
	evil := "x\n- say: injected\n  expect: {forbid: [a]}\r# -\u2028steps: []\u0085name: y\x00\x1b[31m"
	r := record()
	r.Message, r.Reply, r.Comment = evil, evil, evil
	r.Window[0].Content, r.Window[1].Content = evil, evil
	r.Screen = &memory.ExchangeScreen{Name: "Boss: {a}", Data: json.RawMessage(`{"k":"v\n- say: z"}`)}
	y, err := feedback.Scenario(r)
	if err != nil {
		t.Fatal(err)
	}
	sc := parse(t, y)
	says := 0
	for _, st := range sc.Steps {
		if st.Say != "" {
			says++
			if st.Say == "injected" {
				t.Errorf("player text became a step:\n%s", y)
			}
		}
		if st.Expect != nil && len(st.Expect.Forbid) > 0 {
			t.Errorf("player text became an expectation:\n%s", y)
		}
	}
	if says != 3 || sc.Steps[len(sc.Steps)-1].Say != strings.TrimSpace(evil) && sc.Steps[len(sc.Steps)-1].Say != evil {
		t.Errorf("%d says; last %q", says, sc.Steps[len(sc.Steps)-1].Say)
	}
	if sc.Name != "feedback 1764100000000-0 down" {
		t.Errorf("name = %q", sc.Name)
	}
}

func TestScenarioWithoutToolsOrScreen(t *testing.T) {
	r := record()
	r.Tools, r.Screen, r.Window, r.Locale = nil, nil, nil, ""
	y, err := feedback.Scenario(r)
	if err != nil {
		t.Fatal(err)
	}
	sc := parse(t, y)
	if len(sc.Steps) != 1 || sc.Steps[0].Expect != nil || !strings.Contains(string(y), "# The rated answer called no tool.") {
		t.Errorf("steps %+v\n%s", sc.Steps, y)
	}
}
