package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tokens"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// recordingCounter counts with the real tokenizer and records every text
// it was asked to count.
type recordingCounter struct {
	inner tokenCounter
	mu    sync.Mutex
	texts []string
}

func (r *recordingCounter) Count(text string) int {
	r.record(text)
	return r.inner.Count(text)
}

func (r *recordingCounter) CountContext(ctx context.Context, text string) (int, error) {
	r.record(text)
	return r.inner.CountContext(ctx, text)
}

func (r *recordingCounter) CountParts(parts []string) int {
	r.record(strings.Join(parts, ""))
	return r.inner.CountParts(parts)
}

func (r *recordingCounter) record(text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.texts = append(r.texts, text)
}

// take returns the texts counted since the last take.
func (r *recordingCounter) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.texts
	r.texts = nil
	return out
}

// TestHistoryTokensCountedOnce: each message a turn writes carries its
// token count, the count the budget would compute from the message
// (deferred tool descriptions left out), and a later turn budgets its
// history window with the stored counts: none of the earlier messages is
// counted again, by the prompt nor by the summary check after the turn.
func TestHistoryTokensCountedOnce(t *testing.T) {
	for _, mode := range []string{toolselect.ModeAuto, toolselect.ModeDeferred} {
		t.Run(mode, func(t *testing.T) {
			e := newEnv(t, envConfig{opts: Options{ToolSelection: mode}})
			var n atomic.Int64
			e.fake.SetResponder(func(r openai.ChatCompletionRequest) llmtest.Reply {
				if r.Messages[len(r.Messages)-1].Role == openai.ChatMessageRoleUser && strings.Contains(lastUser(r), "Fire Knight") {
					return llmtest.ToolCalls(llmtest.Call{ID: "c", Name: "gcs_find_counters_for_boss", Arguments: `{"boss_name":"Fire Knight"}`})
				}
				return llmtest.Text(fmt.Sprintf("Answer number %d: bring Kaelith and keep the DEF debuff up.", n.Add(1)))
			})
			rec := &recordingCounter{inner: e.svc.tok}
			e.svc.tok = rec
			id, _ := e.session(t)
			for _, msg := range []string{"which champions counter the Fire Knight boss?", "and for the second phase?", "what gear should Kaelith wear?"} {
				e.turn(t, id, msg)
			}
			hist, err := e.store.History(t.Context(), id)
			if err != nil || len(hist) != 6 {
				t.Fatalf("history %d messages, %v", len(hist), err)
			}
			described := false
			for i, m := range hist {
				want := e.svc.countHistory(m)
				if m.Tokens <= 0 || m.Tokens != want {
					t.Errorf("message %d (%s) stored %d tokens, counting it gives %d", i, m.Role, m.Tokens, want)
				}
				if m.Shown != nil && len(m.Shown.Tools) > 0 {
					described = true
					if full := e.svc.messageTokens(historyMessage(m)); m.Tokens >= full {
						t.Errorf("message %d stored %d tokens, not less than its %d with the tool descriptions", i, m.Tokens, full)
					}
				}
			}
			if mode == toolselect.ModeDeferred && !described {
				t.Error("no message described a tool: the deferred case is not exercised")
			}

			rec.take()
			e.turn(t, id, "thanks, anything else?")
			counted := map[string]bool{}
			for _, text := range rec.take() {
				counted[text] = true
			}
			for i, m := range hist {
				if text := historyMessage(m).Content; counted[text] {
					t.Errorf("earlier message %d (%s) was counted again: %.60q", i, m.Role, text)
				}
			}
		})
	}
}

// TestHistoryTokensWithoutStoredCount: a message written before counts
// were stored is counted as it always was, the tool descriptions of its
// data block left out; a stored count is taken as it is.
func TestHistoryTokensWithoutStoredCount(t *testing.T) {
	s := fitService(t)
	rec := &recordingCounter{inner: s.tok}
	s.tok = rec
	block := contextOpen + screenHeader + "Boss screen: Fire Knight\n" + toolsHeader +
		"- gcs_find_counters_for_boss: Finds the champions that counter a boss.\n  arguments: {\"type\":\"object\"}\n" + contextClose
	old := []memory.Message{
		{Role: llm.RoleUser, Content: "who counters him?", Context: block, Exchange: 1, Shown: &memory.Shown{Tools: []string{"gcs_find_counters_for_boss"}}},
		{Role: llm.RoleAssistant, Content: "Kaelith, with her DEF debuff.", Exchange: 1},
	}
	whole := s.countTokens(block + playerText("who counters him?"))
	described := s.countTokens(block[strings.LastIndex(block, toolsHeader) : len(block)-len(contextClose)])
	want := []int{msgOverhead + whole - described, msgOverhead + s.countTokens("Kaelith, with her DEF debuff.")}
	rec.take()
	for i, m := range old {
		if got := s.historyTokens(m); got != want[i] {
			t.Errorf("message %d without a stored count: %d tokens, want %d", i, got, want[i])
		}
	}
	if len(rec.take()) == 0 {
		t.Error("messages without a stored count were not counted")
	}
	_, cost := s.windowHistory(old, 1<<20)
	if cost != want[0]+want[1] {
		t.Errorf("window of old messages costs %d, want %d", cost, want[0]+want[1])
	}
	rec.take()
	stored := old[0]
	stored.Tokens = 7
	if got := s.historyTokens(stored); got != 7 {
		t.Errorf("stored count 7 read as %d", got)
	}
	if texts := rec.take(); len(texts) != 0 {
		t.Errorf("a message with a stored count was counted again: %q", texts)
	}
}

// partsCounter is a real counter that records each text Count and
// CountContext encode or look up, and each part of a CountParts.
type partsCounter struct {
	*tokens.Counter
	mu    sync.Mutex
	texts []string
}

func (p *partsCounter) Count(text string) int {
	p.mu.Lock()
	p.texts = append(p.texts, text)
	p.mu.Unlock()
	return p.Counter.Count(text)
}

func (p *partsCounter) CountParts(parts []string) int {
	p.mu.Lock()
	p.texts = append(p.texts, parts...)
	p.mu.Unlock()
	return p.Counter.CountParts(parts)
}

// TestUserMessageCountedFromBlockLines: the player's message with its data
// block is counted from the block's lines, which the block's budget
// counted already (and the message), not as one new text; the count is
// the whole text's.
func TestUserMessageCountedFromBlockLines(t *testing.T) {
	tok, err := tokens.ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	pc := &partsCounter{Counter: tok}
	s := &Service{tok: pc}
	champ, _ := json.Marshal(champResult("Kaelith", "decrease_def"))
	boss, _ := json.Marshal(tool.Success("The Fire Knight.", json.RawMessage(`{"name":"Fire Knight","hp":`+strings.Repeat("1", 3000)+`}`)))
	p := s.buildPrompt(promptInput{
		system: DefaultSystemPrompt, locale: "en", screen: "The player is on the boss screen: Fire Knight, stage 3.",
		cached: []memory.CacheEntry{
			{Key: "k1", Tool: "gcs_get_champion_details", Parameters: json.RawMessage(`{"champion_name":"Kaelith"}`), Result: champ, CachedAt: 1},
			{Key: "k2", Tool: "gcs_get_boss_details", Parameters: json.RawMessage(`{"boss_name":"Fire Knight"}`), Result: boss, CachedAt: 1},
		},
		message: "Which champion for the Fire Knight?", budget: 4000,
	})
	if p.full != 1 || p.stubs != 1 {
		t.Fatalf("%d results in full, %d as one line; want one each", p.full, p.stubs)
	}
	user := p.msgs[len(p.msgs)-1].Content
	if !strings.HasPrefix(user, contextOpen) || !strings.Contains(user, screenHeader) {
		t.Fatalf("no data block: %s", user)
	}
	if slices.Contains(pc.texts, user) {
		t.Error("the player's message with its block was counted as one text")
	}
	if want := msgOverhead + tok.Count(user); p.userTokens != want {
		t.Errorf("userTokens %d, want %d", p.userTokens, want)
	}
}
