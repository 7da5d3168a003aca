package chat

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// TestDisplayNamesInEvents: every tool_call and tool_result event and every
// reported call carries the tool's name for players in the session's
// locale: the registry's, the turn's own tools', or one derived from the
// name for a tool nobody registered.
func TestDisplayNamesInEvents(t *testing.T) {
	e := newEnv(t, envConfig{screens: true})
	ctx := context.Background()
	id, _, err := e.svc.CreateSession(ctx, "player-fr", "fr")
	if err != nil {
		t.Fatal(err)
	}
	e.fake.Enqueue(
		llmtest.ToolCalls(
			champCall("c1", "Kaelith"),
			llmtest.Call{ID: "c2", Name: "gcs_get_boss_details", Arguments: `{"boss_name":"Fire Knight"}`},
			llmtest.Call{ID: "c3", Name: "made_up_tool", Arguments: `{}`},
			llmtest.Call{ID: "c4", Name: toolselect.FindToolsName, Arguments: `{"need":"gear"}`},
		),
		llmtest.Text("Voilà."),
	)
	want := map[string]string{
		"gcs_get_champion_details": "Fiche du champion",  // its French name
		"gcs_get_boss_details":     "Boss details",       // none: derived
		"made_up_tool":             "Made up tool",       // unknown: derived
		toolselect.FindToolsName:   "Recherche d'outils", // the turn's own
	}
	var calls, results int
	r, err := e.svc.Turn(ctx, TurnRequest{SessionID: id, Message: "Kaelith ?"}, func(ev Event) {
		switch d := ev.Data.(type) {
		case ToolCallEvent:
			calls++
			if d.DisplayName != want[d.Name] {
				t.Errorf("tool_call %s: display name %q, want %q", d.Name, d.DisplayName, want[d.Name])
			}
		case tool.Outcome:
			results++
			if d.DisplayName != want[d.Name] {
				t.Errorf("tool_result %s: display name %q, want %q", d.Name, d.DisplayName, want[d.Name])
			}
			b, _ := json.Marshal(d)
			var m map[string]any
			if json.Unmarshal(b, &m) != nil || m["display_name"] != want[d.Name] {
				t.Errorf("tool_result JSON %s lacks display_name", b)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 4 || results != 4 {
		t.Errorf("%d tool_call and %d tool_result events, want 4 of each", calls, results)
	}
	for _, o := range r.ToolCalls {
		if o.DisplayName != want[o.Name] {
			t.Errorf("reply's %s: display name %q, want %q", o.Name, o.DisplayName, want[o.Name])
		}
	}

	// A screen event's calls, in English this time.
	en, _ := e.session(t)
	sc := screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId":1001}`)}
	rep, err := e.svc.ScreenEvent(ctx, en, sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tools) == 0 {
		t.Fatal("the screen ran no tools")
	}
	for _, o := range rep.Tools {
		if o.DisplayName == "" || o.DisplayName != tool.DefaultDisplayName(o.Name) {
			t.Errorf("screen call %s: display name %q, want %q", o.Name, o.DisplayName, tool.DefaultDisplayName(o.Name))
		}
	}
}

// TestOfflineDisplayNames: the offline responder's calls carry display
// names too, streamed or not.
func TestOfflineDisplayNames(t *testing.T) {
	e := newEnv(t, envConfig{noLLM: true})
	ctx := context.Background()
	id, _, err := e.svc.CreateSession(ctx, "", "fr")
	if err != nil {
		t.Fatal(err)
	}
	var streamed []string
	r, err := e.svc.Turn(ctx, TurnRequest{SessionID: id, Message: "Tell me about Kaelith"}, func(ev Event) {
		switch d := ev.Data.(type) {
		case ToolCallEvent:
			streamed = append(streamed, d.DisplayName)
		case tool.Outcome:
			streamed = append(streamed, d.DisplayName)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ToolCalls) == 0 || len(streamed) != 2*len(r.ToolCalls) {
		t.Fatalf("%d calls, %d streamed tool events", len(r.ToolCalls), len(streamed))
	}
	for _, o := range r.ToolCalls {
		if o.Name == "gcs_get_champion_details" && o.DisplayName != "Fiche du champion" {
			t.Errorf("offline call %s: display name %q", o.Name, o.DisplayName)
		}
		if o.DisplayName == "" {
			t.Errorf("offline call %s without display name", o.Name)
		}
	}
	for _, n := range streamed {
		if n == "" {
			t.Errorf("streamed tool events without display name: %q", streamed)
			break
		}
	}
}

// TestOwnToolsHaveDisplayNames: the turn's own tools (find_tools,
// search_conversation, use_tool) name themselves for players in every
// locale a session may use, as every registered tool of the sample game
// does (internal/sampletools checks those).
func TestOwnToolsHaveDisplayNames(t *testing.T) {
	e := newEnv(t, envConfig{noLLM: true})
	if len(e.svc.own) != 3 {
		t.Fatalf("%d own tools, want 3", len(e.svc.own))
	}
	for _, sp := range e.svc.own {
		for _, l := range Locales() {
			if sp.DisplayNames[l] == "" {
				t.Errorf("%s has no %s display name", sp.Name, l)
			}
		}
	}
}
