package chat

import (
	"context"
	"slices"
	"testing"

	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/memory"
)

// TestFallbackFollowUpAcrossInstances: the subjects of an offline answer
// are stored with the reply, and a second instance hands them to its
// Fallback, so "is he good against …?" resolves to the champion of the
// exchange before. A new session has none to resolve to.
func TestFallbackFollowUpAcrossInstances(t *testing.T) {
	e := newEnv(t, envConfig{noLLM: true})
	id, _ := e.session(t)
	e.turn(t, id, "tell me about Kaelith")
	hist := e.history(t, id)
	last := hist[len(hist)-1]
	if last.Role != llm.RoleAssistant || !slices.Equal(last.About, []memory.Subject{{Kind: "champion", ID: "1001"}}) {
		t.Fatalf("stored reply about %+v, want champion 1001", last.About)
	}

	other := e.newService(t, envConfig{noLLM: true})
	r, err := other.Turn(context.Background(), TurnRequest{SessionID: id, Message: "is he good against the Fire Knight?"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !calledWith(r, "gcs_get_champion_details", `{"champion_name":"Kaelith"}`) {
		t.Errorf("follow-up on another instance: tool calls %+v, want Kaelith's details", r.ToolCalls)
	}

	fresh, _ := e.session(t)
	r = e.turn(t, fresh, "is he good against the Fire Knight?")
	if calledWith(r, "gcs_get_champion_details", `{"champion_name":"Kaelith"}`) {
		t.Errorf("a new session resolved \"he\": %+v", r.ToolCalls)
	}
}

func calledWith(r Reply, name, args string) bool {
	for _, o := range r.ToolCalls {
		if o.Name == name && string(o.Arguments) == args {
			return true
		}
	}
	return false
}
