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
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
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

// TestScreenResultLinesCountedAfterEvent: the lines the next turn's data
// block shows for a screen event's proactive results are counted after
// the event, in the background, so the turn after it finds their counts.
func TestScreenResultLinesCountedAfterEvent(t *testing.T) {
	e := newEnv(t, envConfig{screens: true})
	e.fake.SetResponder(func(openai.ChatCompletionRequest) llmtest.Reply { return llmtest.Text("Kaelith is a Legendary.") })
	rec := &recordingCounter{inner: e.svc.tok}
	e.svc.tok = rec
	id, _ := e.session(t)
	e.turn(t, id, "hi")
	sc := screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId":1001}`)}
	rep, err := e.svc.ScreenEvent(context.Background(), id, sc)
	if err != nil || !rep.Matched {
		t.Fatalf("screen event: %+v, %v", rep, err)
	}
	e.svc.Wait()
	after := rec.take()
	e.turn(t, id, "is she any good?")
	reqs := e.fake.Requests()
	next := lastUser(reqs[len(reqs)-1])
	shown := 0
	for _, o := range rep.Tools {
		if o.Source != tool.SourceProactive {
			continue
		}
		for _, text := range after {
			if strings.HasPrefix(text, "- "+o.Name+" ") && strings.Contains(text, " → ") && strings.Contains(next, text) {
				shown++
				break
			}
		}
	}
	if shown == 0 {
		t.Fatalf("no line of the screen's results in the next prompt was counted after the event; next message:\n%s", next)
	}
}
