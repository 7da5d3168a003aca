package chat

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// foldTurns builds the prompts of a session's turns, each turn's player
// message recorded with its block and counts as a turn records it, and an
// answer after it; summary is what every prompt from the third turn on
// reads (the first two read none).
type foldTurns struct {
	s       *Service
	history []memory.Message
	summary *memory.Summary
}

func (f *foldTurns) turn(t *testing.T, screen, message string, cached []memory.CacheEntry) prompt {
	t.Helper()
	exchange := 1
	if n := len(f.history); n > 0 {
		exchange = f.history[n-1].Exchange + 1
	}
	var sm *memory.Summary
	if exchange > 2 {
		sm = f.summary
	}
	p := f.s.buildPrompt(promptInput{
		system: DefaultSystemPrompt, locale: "en", screen: screen, cached: cached,
		history: f.history, summary: sm, message: message, budget: 4000,
	})
	f.history = append(f.history,
		memory.Message{Role: llm.RoleUser, Content: message, Exchange: exchange, Context: p.block, Shown: p.shown, Tokens: p.userTokens, WordsTokens: p.wordsTokens},
		memory.Message{Role: llm.RoleAssistant, Content: "Answer " + message, Exchange: exchange, Tokens: f.s.countHistory(memory.Message{Role: llm.RoleAssistant, Content: "Answer " + message})})
	return p
}

// TestFoldKeepsTheNewestWordsNotItsBlock: once a summary covers the
// exchanges before the newest one, that exchange's player message is sent
// without the data block it was first sent with; the next block shows
// again what of it is still current (the screen, the results), and every
// later prompt with the same summary begins with the bytes of the one
// before. The message is budgeted by its stored count without the block,
// not counted again.
func TestFoldKeepsTheNewestWordsNotItsBlock(t *testing.T) {
	s := fitService(t)
	champ, _ := json.Marshal(champResult("Kaelith", "decrease_def"))
	boss, _ := json.Marshal(tool.Success("The Fire Knight.", json.RawMessage(`{"name":"Fire Knight","hp":2500000}`)))
	bossEntry := memory.CacheEntry{Key: "k2", Tool: "gcs_get_boss_details", Parameters: json.RawMessage(`{"boss_name":"Fire Knight"}`), Result: boss, CachedAt: 1}
	champEntry := memory.CacheEntry{Key: "k1", Tool: "gcs_get_champion_details", Parameters: json.RawMessage(`{"champion_name":"Kaelith"}`), Result: champ, CachedAt: 2}
	const bossScreen, champScreen = "The player is on the boss screen: Fire Knight.", "The player is on the champion screen: Kaelith."

	f := &foldTurns{s: s, summary: &memory.Summary{Text: "- The player asked about the Fire Knight.", Through: 1}}
	f.turn(t, bossScreen, "how do I beat him?", []memory.CacheEntry{bossEntry})
	p2 := f.turn(t, champScreen, "is she any good?", []memory.CacheEntry{bossEntry, champEntry})
	if !strings.Contains(p2.block, champScreen) || p2.full == 0 {
		t.Fatalf("the second turn's block does not show the screen and a result in full: %q", p2.block)
	}
	kept := f.history[2]

	rec := &recordingCounter{inner: s.tok}
	s.tok = rec
	p3 := f.turn(t, champScreen, "and her skills?", []memory.CacheEntry{bossEntry, champEntry})
	counted := rec.take()
	s.tok = rec.inner

	// System, summary, the kept exchange, the new message.
	if len(p3.msgs) != 5 || !strings.HasPrefix(p3.msgs[1].Content, summaryOpen) {
		t.Fatalf("prompt of %d messages, want system, summary, the kept exchange and the message", len(p3.msgs))
	}
	if got, want := p3.msgs[2].Content, playerText(kept.Content); got != want {
		t.Errorf("the kept player message reads %q, want its words alone %q", got, want)
	}
	if p3.msgs[3].Content != "Answer is she any good?" {
		t.Errorf("the kept answer reads %q", p3.msgs[3].Content)
	}
	block := p3.block
	if !strings.Contains(block, champScreen) {
		t.Errorf("the new block does not give the current screen again: %q", block)
	}
	for _, call := range []string{`gcs_get_champion_details {"champion_name":"Kaelith"}`, `gcs_get_boss_details {"boss_name":"Fire Knight"}`} {
		if !strings.Contains(block, call) {
			t.Errorf("the new block does not show the current result %s: %q", call, block)
		}
	}
	if p3.windowTokens != kept.WordsTokens+f.history[3].Tokens {
		t.Errorf("window of %d tokens, want the kept words' %d and the answer's %d", p3.windowTokens, kept.WordsTokens, f.history[3].Tokens)
	}
	if kept.WordsTokens <= 0 || kept.WordsTokens != s.countHistory(memory.Message{Role: llm.RoleUser, Content: kept.Content}) || kept.WordsTokens >= kept.Tokens {
		t.Errorf("stored counts %d with the block, %d without: want the words' own count, less", kept.Tokens, kept.WordsTokens)
	}
	if slices.Contains(counted, playerText(kept.Content)) {
		t.Error("the kept player message was counted again")
	}

	// The next prompt with the same summary begins with this one's bytes:
	// the kept message is shown the same way, this turn's with its block.
	p4 := f.turn(t, champScreen, "what gear for her?", []memory.CacheEntry{bossEntry, champEntry})
	if len(p4.msgs) != len(p3.msgs)+2 {
		t.Fatalf("next prompt of %d messages, want %d", len(p4.msgs), len(p3.msgs)+2)
	}
	for i, m := range p3.msgs {
		if p4.msgs[i].Role != m.Role || p4.msgs[i].Content != m.Content {
			t.Errorf("next prompt's message %d differs:\n%q\nwant\n%q", i, p4.msgs[i].Content, m.Content)
		}
	}
	if p4.block != "" {
		t.Errorf("nothing changed, yet the next block reads %q", p4.block)
	}

	// Without a summary, every message is sent as it was first sent.
	f.summary = nil
	p5 := f.s.buildPrompt(promptInput{system: DefaultSystemPrompt, locale: "en", screen: champScreen, history: f.history, message: "thanks", budget: 1 << 20,
		cached: []memory.CacheEntry{bossEntry, champEntry}})
	if got, want := p5.msgs[3].Content, kept.Context+playerText(kept.Content); got != want {
		t.Errorf("without a summary, the message reads %q, want it with its block", got)
	}
}

// TestFoldWindowCountsTheKeptWordsAlone: whether a turn folds is decided
// on the window as prompts show it: the player message right after the
// summary without its block (its stored count without the block), every
// later one with it.
func TestFoldWindowCountsTheKeptWordsAlone(t *testing.T) {
	s := fitService(t)
	s.opts.MaxContextTokens = 4000
	const sys = 1000
	share := (s.opts.MaxContextTokens - s.opts.MaxContextTokens/loopReserveDiv - sys) / cachedShareDiv
	meta := memory.Meta{ID: "s", Summary: &memory.Summary{Text: "- earlier", Through: 4}}
	exchange := func(n int) []memory.Message {
		return []memory.Message{
			{Role: llm.RoleUser, Content: "q", Exchange: n, Context: "<context>\nbig\n</context>\n", Tokens: share, WordsTokens: 10},
			{Role: llm.RoleAssistant, Content: "a", Exchange: n, Tokens: 10},
		}
	}
	if w := s.foldWindow(meta, exchange(4), exchange(5), sys); w != nil {
		t.Errorf("a window of %d tokens as shown (the kept words alone) folds", 20)
	}
	if w := s.foldWindow(meta, exchange(5), exchange(6), sys); len(w) != 4 {
		t.Errorf("a window with a block after the kept exchange: %d messages to fold, want 4", len(w))
	}
	// A message written before the count without its block was stored
	// is counted by its reader, without the block.
	old := exchange(5)
	old[0].WordsTokens = 0
	if w := s.foldWindow(meta, exchange(4), old, sys); w != nil {
		t.Error("the kept words without a stored count were counted with their block")
	}
	if got, want := s.historyTokens(afterFold(old[0], 4)), s.countHistory(memory.Message{Role: llm.RoleUser, Content: "q"}); got != want {
		t.Errorf("the kept words without a stored count: %d tokens, want %d", got, want)
	}
	meta.Summary = nil
	if w := s.foldWindow(meta, nil, exchange(1), sys); w == nil {
		t.Error("without a summary, the first exchange is counted with its block: want a fold")
	}
}
