package chat

import (
	"context"

	"github.com/gameassist/gameassist/memory"
)

// warmSlots bounds the line counts running in the background at once,
// per Service; a turn that finds them all busy leaves its lines to be
// counted when they are shown.
const warmSlots = 2

// warmLines counts, in the background, the data-block lines that show
// results just cached, by a turn's tools or a screen event's: the
// session's next prompt gives each such result in full (a turn's model
// read it in a tool message, which the history does not keep) or as a
// one-line stub when the block has no room, and a later one lists it as
// no longer current. Counting a result's line costs about as much as the
// model call it now overlaps, where the next turn would wait for it. The
// counts land in the counter's memo, where the next prompt of a session
// served by this process finds them; a prompt served elsewhere counts its
// lines as it always did. Nothing the turn answers depends on it.
func (s *Service) warmLines(ctx context.Context, locale string, entries []memory.CacheEntry) {
	if len(entries) == 0 {
		return
	}
	select {
	case s.warm <- struct{}{}:
	default:
		return
	}
	// The counter and renderers are read here, on the turn's goroutine.
	tok, words := s.tok, s.words
	s.bg.track()
	// The count outlives the turn when the turn ends first; it is bounded
	// (see tokens.Counter.Count).
	s.inBackground(context.WithoutCancel(ctx), "chat: counting result lines panicked", func() {
		defer func() { <-s.warm }()
		for _, e := range entries {
			if text, ok := s.results.stored(e.Result, locale, words); ok {
				tok.Count(resultLine(e, text))
			}
			tok.Count(stubLine(e.Tool, e.Parameters))
			tok.Count(retiredLine(e.Tool, e.Parameters))
		}
	})
}
