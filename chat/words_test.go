package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/llm/llmtest"
)

// frenchEffects names two effect identifiers in French, and only in a
// French session.
type frenchEffects struct{}

func (frenchEffects) Words(locale string) Words {
	return func(id string) (string, bool) {
		n, ok := map[string]string{"decrease_def": "Baisse de DEF", "decrease_spd": "Baisse de VIT", "Magic": "Magie"}[id]
		return n, ok && locale == "fr"
	}
}

// TestToolResultsNamedForTheModel: with a Labeler, the identifiers it
// knows reach the model by their names in the session's locale, in the
// tool message and in a later data block's cached result alike; the stored
// result keeps its identifiers (the offline responder and MCP read them).
func TestToolResultsNamedForTheModel(t *testing.T) {
	e := newEnv(t, envConfig{deps: func(d *Deps) { d.Labels = frenchEffects{} }})
	id, _, err := e.svc.CreateSession(context.Background(), "player-1", "fr")
	if err != nil {
		t.Fatal(err)
	}
	e.fake.Enqueue(llmtest.ToolCalls(champCall("c1", "Kaelith")), llmtest.Text("Kaelith."), llmtest.Text("encore"))
	if _, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "parle-moi de Kaelith"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "et encore ?"}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := e.fake.Requests()
	tm := toolMessages(reqs[1])
	if len(tm) != 1 || !strings.Contains(tm[0], "Baisse de DEF") || strings.Contains(tm[0], "decrease_def") ||
		!strings.Contains(tm[0], `"Magie"`) || !strings.Contains(tm[0], `"Kaelith"`) {
		t.Fatalf("tool message %q: want the effect's French name, not its identifier", tm)
	}
	last := reqs[2].Messages[len(reqs[2].Messages)-1].Content
	if strings.Contains(last, "gcs_get_champion_details") && strings.Contains(last, "decrease_def") {
		t.Fatalf("the next turn's data block shows an identifier: %s", last)
	}
	c, err := e.store.Cache(context.Background(), id)
	if err != nil || len(c) == 0 || !strings.Contains(string(c[0].Result), "decrease_def") {
		t.Fatalf("stored result lost its identifiers: %v %v", c, err)
	}

	// An English session of the same service keeps the identifiers the
	// labeler does not name for it.
	en, _ := e.session(t)
	e.fake.Enqueue(llmtest.ToolCalls(champCall("c2", "Kaelith")), llmtest.Text("Kaelith."))
	if _, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: en, Message: "tell me about Kaelith"}, nil); err != nil {
		t.Fatal(err)
	}
	reqs = e.fake.Requests()
	if tm := toolMessages(reqs[len(reqs)-1]); len(tm) == 0 || strings.Contains(strings.Join(tm, ""), "Baisse de DEF") {
		t.Fatalf("an English session got French names: %q", tm)
	}
}
