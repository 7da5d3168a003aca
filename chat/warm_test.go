package chat

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/memory"
)

// TestNextBlockLineCountedAfterTurn: the data-block line that shows the
// next prompt a result the turn's model call read is counted once the turn
// has answered, in the background, so the next turn finds its count.
func TestNextBlockLineCountedAfterTurn(t *testing.T) {
	e := newEnv(t, envConfig{})
	e.fake.SetResponder(func(r openai.ChatCompletionRequest) llmtest.Reply {
		last := r.Messages[len(r.Messages)-1]
		if last.Role == openai.ChatMessageRoleUser && strings.Contains(lastUser(r), "tell me about Kaelith") {
			return llmtest.ToolCalls(llmtest.Call{ID: "c", Name: "gcs_get_champion_details", Arguments: `{"champion_name":"Kaelith"}`})
		}
		return llmtest.Text("Bring Kaelith.")
	})
	rec := &recordingCounter{inner: e.svc.tok}
	e.svc.tok = rec
	id, _ := e.session(t)
	e.turn(t, id, "tell me about Kaelith") // waits for the background
	after := rec.take()
	e.turn(t, id, "thanks, and her gear?")
	reqs := e.fake.Requests()
	next := lastUser(reqs[len(reqs)-1])
	shown := ""
	for _, text := range after {
		if strings.HasPrefix(text, "- gcs_get_champion_details ") && strings.Contains(next, text) {
			shown = text
		}
	}
	if shown == "" {
		t.Fatalf("the next prompt's line for the result was not counted after the turn; next message:\n%s", next)
	}
	if !strings.Contains(shown, " → ") {
		t.Errorf("the line counted is %q, want the result given in full", shown)
	}
}

// TestWarmLines: each entry's three lines (in full, as a stub, as no
// longer current) are counted in the background, which Wait waits for; a
// turn that finds every slot busy starts nothing.
func TestWarmLines(t *testing.T) {
	s := fitService(t)
	rec := &recordingCounter{inner: s.tok}
	s.tok, s.log, s.warm = rec, slog.New(slog.DiscardHandler), make(chan struct{}, warmSlots)
	res, _ := json.Marshal(champResult("Kaelith", "decrease_def"))
	e := memory.CacheEntry{Key: "k", Tool: "gcs_get_champion_details", Parameters: json.RawMessage(`{ "champion_name": "Kaelith" }`), Result: res, CachedAt: 1}
	text, ok := s.results.stored(e.Result, "en", s.words)
	if !ok {
		t.Fatal("the result does not render")
	}
	want := []string{resultLine(e, text), stubLine(e.Tool, e.Parameters), retiredLine(e.Tool, e.Parameters)}

	for range warmSlots {
		s.warm <- struct{}{}
	}
	s.warmLines(context.Background(), "en", []memory.CacheEntry{e})
	s.Wait()
	if got := rec.take(); len(got) != 0 {
		t.Fatalf("every slot busy, yet counted %q", got)
	}
	for range warmSlots {
		<-s.warm
	}

	ctx, cancel := context.WithCancel(context.Background())
	s.warmLines(ctx, "en", []memory.CacheEntry{e})
	cancel() // the turn ended: the lines are still counted
	s.Wait()
	if got := rec.take(); !slices.Equal(got, want) {
		t.Fatalf("counted %q, want %q", got, want)
	}
	if len(s.warm) != 0 {
		t.Fatalf("%d slots still held", len(s.warm))
	}
}
