package chat

import (
	"context"
	"testing"

	"github.com/gameassist/gameassist/internal/sessionfake"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/memory"
)

// finishRecorder is a session store that hands each turn's write to
// finished before making it.
type finishRecorder struct {
	*sessionfake.Store
	finished chan memory.Finish
}

func (r finishRecorder) FinishTurn(ctx context.Context, id string, f memory.Finish) error {
	r.finished <- f
	return r.Store.FinishTurn(ctx, id, f)
}

// TestTurnDraftsPlayerMessage: once its prompt is built, a turn drafts the
// player's message (the store encodes it while the model answers) and the
// write records the draft, then the reply; without an LLM there is no
// prompt and no draft, and the write records both messages.
func TestTurnDraftsPlayerMessage(t *testing.T) {
	for _, c := range []struct {
		name  string
		noLLM bool
	}{{"llm", false}, {"offline", true}} {
		t.Run(c.name, func(t *testing.T) {
			rec := finishRecorder{finished: make(chan memory.Finish, 1)}
			e := newEnv(t, envConfig{noLLM: c.noLLM, deps: func(d *Deps) {
				rec.Store = d.Store.(*sessionfake.Store)
				d.Store = rec
			}})
			id, _ := e.session(t)
			if !c.noLLM {
				e.fake.Enqueue(llmtest.Text("Kaelith is a Legendary attacker."))
			}
			e.turn(t, id, "who is Kaelith?")
			f := <-rec.finished
			msgs := f.Messages
			if c.noLLM {
				if f.Draft != nil {
					t.Fatalf("a turn without a prompt drafted %+v", f.Draft.Message())
				}
			} else {
				if f.Draft == nil {
					t.Fatal("the turn's write carries no draft")
				}
				msgs = append([]memory.Message{f.Draft.Message()}, msgs...)
			}
			if len(msgs) != 2 || msgs[0].Role != "user" || msgs[0].Content != "who is Kaelith?" || msgs[0].Tokens <= 0 ||
				msgs[1].Role != "assistant" || msgs[0].At.After(msgs[1].At) {
				t.Fatalf("the write records %+v, want the player's message (counted), then the reply", msgs)
			}
			if h := e.history(t, id); len(h) != 2 || h[0].Content != msgs[0].Content || h[0].Context != msgs[0].Context || h[1].Content != msgs[1].Content {
				t.Fatalf("history %+v", h)
			}
		})
	}
}
