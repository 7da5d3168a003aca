package chat

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"maps"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// emptyAnswer is the reply when the model gives no text at all.
const emptyAnswer = "Sorry, I couldn't put an answer together. Could you rephrase your question?"

// Turn answers one player message. It takes the session's turn lock (an
// error wrapping memory.ErrBusy when the previous turn does not end within
// Options.LockWait), runs the screen rules when req.Screen is new, advances
// the exchange counter, asks the LLM (or the offline responder) with tools,
// records the user message and the answer with the turn's cache entries,
// and releases the lock.
//
// With emit set, the LLM answer is streamed and emit receives tool_call,
// tool_result and delta events from the calling goroutine, in order.
//
// If ctx ends before the answer is recorded (the client went away), the LLM
// call and the tools are cancelled and nothing of the turn is recorded: the
// history and the cache stay as they were; the exchange number is used up.
// Once recording starts it completes, so history never holds half a turn.
func (s *Service) Turn(ctx context.Context, req TurnRequest, emit func(Event)) (rep Reply, err error) {
	started := time.Now()
	id := req.SessionID
	defer func() {
		// A panic past the answer (recording it, reporting it) fails the
		// turn cleanly; one before is answered by compose.
		if p := recover(); p != nil {
			s.log.LogAttrs(ctx, slog.LevelError, "chat: turn panicked",
				slog.String("session_id", tool.Clip(id, 40)), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
			rep, err = Reply{}, fmt.Errorf("chat: turn %s: %w", tool.Clip(id, 40), ErrInternal)
		}
	}()
	if req.Screen != nil {
		// Refuse bad screen input before the turn changes anything.
		if err := req.Screen.Validate(); err != nil {
			return Reply{}, fmt.Errorf("chat: turn %s: %w", tool.Clip(id, 40), err)
		}
	}
	// Lock and begin in one round trip; the lock is released by FinishTurn
	// (or by stop when the turn fails).
	turn, lock, err := s.store.LockAndBegin(ctx, id, s.opts.LockWait)
	if err != nil {
		return Reply{}, fmt.Errorf("chat: turn %s: %w", tool.Clip(id, 40), err)
	}
	release := s.releaseLock(ctx, lock)
	defer release()
	ctx, _ = s.withPlayer(ctx, turn.Player)

	c, err := s.compose(ctx, turn, lock, req, started, emit)
	if err != nil {
		return Reply{}, fmt.Errorf("chat: turn %s: %w", id, err)
	}
	if err := ctx.Err(); err != nil {
		return Reply{}, fmt.Errorf("chat: turn %s: %w", id, err)
	}
	a := c.a

	now := time.Now().UTC()
	user := a.user
	if user.Role == "" { // no prompt was built
		user = s.userMessage(turn.Meta.Exchange, req.Message, a, now)
	}
	reply := memory.Message{Role: llm.RoleAssistant, Content: a.text, Exchange: turn.Meta.Exchange, At: now, Tools: toolNames(a.outs), Offered: a.offered, About: a.about}
	reply.Tokens = s.countHistory(reply)
	added := []memory.Message{user, reply}
	fin := memory.Finish{
		Messages: added,
		Put:      c.screenPuts,
		Hits:     c.screenHits,
		Release:  lock,
		Screen:   c.newScreen,
	}
	fin.Versions = c.screenVersions
	if c.scope != nil {
		fin.Put = append(fin.Put, c.scope.Puts()...)
		fin.Hits = append(fin.Hits, c.scope.Hits()...)
		fin.Versions = withVersions(c.screenVersions, c.scope.AssignedVersions())
	}
	rep = Reply{
		SessionID: id,
		Exchange:  turn.Meta.Exchange,
		Reply:     a.text,
		ToolCalls: append(append(make([]tool.Outcome, 0, len(c.pre)+len(a.outs)), c.pre...), a.outs...),
		Usage:     a.usage,
		Degraded:  a.degraded,
	}
	seen := turn.Meta
	if c.newScreen != nil {
		seen.Screen = c.newScreen // the screen this turn applied
	}
	// The exchange's record goes with the turn's write.
	fin.Exchange = s.exchangeRecord(ctx, seen, req.Message, rep, a.summaryThrough, now)
	if a.draft != nil {
		if d := <-a.draft; d != nil {
			fin.Draft, fin.Messages = d, added[1:]
		}
	}
	// The write reports the summary a fold saved while the turn ran.
	stored := 0
	fin.SummaryThrough = &stored
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.FinishTimeout)
	defer cancel()
	if err := s.store.FinishTurn(wctx, id, fin); err != nil {
		return Reply{}, fmt.Errorf("chat: turn %s: %w", id, err)
	}
	s.afterTurn(ctx, turn.Meta, turn.History, added, a.systemTokens, stored)
	s.label(rep.ToolCalls, turn.Meta.Locale)
	s.obs.Turn(ctx, rep, time.Since(started))
	return rep, nil
}

// composed is a turn's answer and what its screen and tools produced,
// before it is recorded.
type composed struct {
	a              answered
	pre            []tool.Outcome // the new screen's proactive calls
	newScreen      *memory.Screen
	screenPuts     []memory.CacheEntry
	screenHits     []string
	screenVersions map[string]int
	scope          *Scope // nil: the turn's tools stored nothing
}

// panicAnswer is the reply when a turn and its offline fallback both
// failed unexpectedly.
const panicAnswer = "Sorry, something went wrong while I was answering. Please ask again."

// compose runs the turn's new screen and answers the message. A panic in
// any part of it (screen rules, tools, prompt assembly, the LLM and its
// answer's handling) is answered by salvage, as a degraded answer, so the
// player's message is recorded; it fails only when ctx ended.
func (s *Service) compose(ctx context.Context, turn memory.Turn, lock Lease, req TurnRequest, started time.Time, emit func(Event)) (c composed, err error) {
	orig := turn
	var streamed bool
	if emit != nil {
		inner := emit
		emit = func(e Event) {
			if e.Type == EventDelta {
				streamed = true
			}
			inner(e)
		}
	}
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		s.log.LogAttrs(ctx, slog.LevelError, "chat: turn panicked; answering offline",
			slog.String("session_id", orig.Meta.ID), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
		if ctx.Err() != nil {
			c, err = composed{}, ctx.Err()
			return
		}
		c, err = s.salvage(ctx, orig, req.Message, emit, streamed), nil
	}()
	if sc := req.Screen; sc != nil && (turn.Meta.Screen == nil || turn.Meta.Screen.Hash != sc.Hash()) {
		// A new screen: its proactive results are cached at this turn's
		// exchange and join this turn's context at once. The screen, its
		// results and the hits of its calls served from the cache are
		// stored with the turn's own final write, so an abandoned turn
		// leaves none of them behind.
		applied, err := s.applyScreen(ctx, turn.Meta, turn.Cache, *sc, started)
		if err != nil {
			return composed{}, err
		}
		c.pre = applied.reply.Tools
		c.newScreen = applied.screen
		c.screenPuts, c.screenHits = applied.puts, applied.hits
		turn.Meta.Screen = applied.screen
		turn.Cache = append(slices.Clip(turn.Cache), applied.puts...)
		c.screenVersions = applied.versions
		turn.Meta.Versions = withVersions(turn.Meta.Versions, applied.versions)
	}
	c.scope = s.runner.Scope(ctx, turn.Meta.ID, turn.Meta.Exchange, turn.Cache, false)
	c.scope.KeepVersions(turn.Meta.Versions)
	c.a, err = s.answer(ctx, turn, lock, c.scope, req.Message, emit)
	return c, err
}

// salvage answers a turn whose composition panicked: the offline
// responder over the session as it was before the turn (a new screen is
// not stored, so the next turn runs it again), or, should that panic too,
// a fixed apology. Either is degraded.
func (s *Service) salvage(ctx context.Context, turn memory.Turn, message string, emit func(Event), streamed bool) (c composed) {
	defer func() {
		if p := recover(); p != nil {
			s.log.LogAttrs(ctx, slog.LevelError, "chat: offline fallback panicked",
				slog.String("session_id", turn.Meta.ID), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
			c = composed{a: answered{text: panicAnswer, degraded: true}}
			if emit != nil {
				text := panicAnswer
				if streamed {
					text = "\n\n" + text
				}
				emit(Event{Type: EventDelta, Data: DeltaEvent{Text: text}})
			}
		}
	}()
	scope := s.runner.Scope(ctx, turn.Meta.ID, turn.Meta.Exchange, turn.Cache, false)
	scope.KeepVersions(turn.Meta.Versions)
	a := s.offlineAnswer(ctx, scope, message, turn.Meta, turn.History, emit, streamed)
	a.degraded = true
	c.a, c.scope = a, scope
	return c
}

// releaseLock returns the func that releases lock at the end of a turn or
// screen event, even after ctx ended; it costs nothing once the turn's
// write released the lock. The store keeps its leases alive while the
// context that took them lives (memory.Lock renews itself), so a long
// turn keeps its lock without a renewal of its own here.
func (s *Service) releaseLock(ctx context.Context, lock Lease) func() {
	return func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.FinishTimeout)
		defer cancel()
		if err := lock.Release(rctx); err != nil {
			s.log.LogAttrs(ctx, slog.LevelWarn, "chat: release session lock", slog.String("error", err.Error()))
		}
	}
}

// answered is a turn's answer before it is recorded.
type answered struct {
	text     string
	outs     []tool.Outcome
	usage    llm.Usage
	degraded bool
	// offered names the tools the last LLM call that offered tools offered.
	offered []string
	// block is the data block the player's message was sent with and
	// shown what it told the model (none when no LLM was asked).
	block string
	shown *memory.Shown
	// summaryThrough is what the prompt's summary covered (0: none).
	summaryThrough int
	// userTokens counts the player's message with block for the history
	// budget, as the prompt counted it (0: no prompt was built), and
	// wordsTokens without the block (0: none).
	userTokens, wordsTokens int
	// systemTokens counts the prompt's system message (0: no prompt was
	// built), for the summary's share of the budget.
	systemTokens int
	// about are the subjects an offline answer was about.
	about []memory.Subject
	// user is the player's message as the turn records it, set once the
	// prompt is built (a zero Role before), and draft its encoding, made
	// while the model answers, when draft is not nil.
	user  memory.Message
	draft <-chan *memory.Draft
}

// userMessage is the player's message as a turn records it.
func (s *Service) userMessage(exchange int, message string, a answered, at time.Time) memory.Message {
	user := memory.Message{Role: llm.RoleUser, Content: message, Exchange: exchange, At: at, Context: a.block, Shown: a.shown, SummaryThrough: a.summaryThrough, Tokens: a.userTokens, WordsTokens: a.wordsTokens}
	if user.Tokens <= 0 {
		user.Tokens = s.countHistory(user)
	}
	return user
}

// draft encodes m for the turn's write on its own goroutine (nil without
// a lock). The channel receives the draft, or nil when drafting failed:
// the write then encodes m itself.
func (s *Service) draft(ctx context.Context, lock Lease, m memory.Message) <-chan *memory.Draft {
	if lock == nil {
		return nil
	}
	out := make(chan *memory.Draft, 1)
	go func() {
		var got *memory.Draft
		defer func() {
			if p := recover(); p != nil {
				s.log.LogAttrs(ctx, slog.LevelError, "chat: drafting the player's message panicked",
					slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
			}
			out <- got
		}()
		got = s.store.Draft(lock, m)
	}()
	return out
}

// heldSummary returns the summary the session's previous prompt used, when
// the stored one has replaced it since and a prompt may go on with it
// (nil: no summary); TOOL_SELECTION=auto only, where the tool list changes
// at most turns and takes the new summary in with it. With a list that
// never changes the window would only grow.
func heldSummary(sel *toolselect.Selector, turn memory.Turn) (*memory.Summary, bool) {
	sm := turn.Meta.Summary
	if sel.All() || sel.Deferred() || sm == nil {
		return nil, false
	}
	used := -1
	for i := len(turn.History) - 1; i >= 0; i-- {
		if turn.History[i].Role == llm.RoleUser {
			used = turn.History[i].SummaryThrough
			break
		}
	}
	switch {
	case sm.Prev == nil && used == 0:
		return nil, true
	case sm.Prev != nil && used == sm.Prev.Through && used != sm.Through:
		return sm.Prev, true
	}
	return nil, false
}

// answer produces the reply text: the LLM tool loop, or the offline
// responder when there is no LLM or the LLM failed. It fails only when ctx
// ended.
func (s *Service) answer(ctx context.Context, turn memory.Turn, lock Lease, scope *Scope, message string, emit func(Event)) (answered, error) {
	if s.llm == nil {
		a := s.offlineAnswer(ctx, scope, message, turn.Meta, turn.History, emit, false)
		return a, ctx.Err()
	}
	injection := ""
	var keys []string
	if turn.Meta.Screen != nil {
		injection, keys = turn.Meta.Screen.Injection, turn.Meta.Screen.Keys
	}
	sel := s.selector()
	q := s.turnQuery(turn, message)
	in := promptInput{
		system: s.opts.SystemPrompt, locale: turn.Meta.Locale, screen: injection, screenTools: q.Screen, screenKeys: keys, cached: scope.Cached(),
		history: turn.History, summary: turn.Meta.Summary, message: message, budget: s.opts.MaxContextTokens,
		tools: scope.OfferedSpecs(ctx, describedTools(sel, q)),
	}
	if sel.Deferred() {
		// The catalog lists the tools called through use_tool in the
		// system prompt; the block describes only those it leaves out.
		cat := s.catalog(scope.OfferedSpecs(ctx, sel.Listed()))
		in.catalog = cat.text
		in.tools = slices.DeleteFunc(in.tools, func(sp tool.Spec) bool { return cat.listed[describedID(sp)] })
	}
	in.player = s.playerBlock(ctx, playerFrom(ctx), in.cached, q.Screen, turn.Meta.Locale)
	p := s.buildPrompt(in)
	tt := s.newTurnTools(sel, q, turn, p)
	if prev, ok := heldSummary(sel, turn); ok {
		// The summary was rewritten after the last turn. Rewriting it in
		// the prompt changes the request from the summary on, so the
		// previous one stays while the rest of the request is kept too:
		// same tool list, and the longer window still fits.
		in.summary = prev
		hp := s.buildPrompt(in)
		ht := s.newTurnTools(sel, q, turn, hp)
		if !hp.cut && slices.Equal(specNames(ht.offer()), lastOffered(turn.History)) {
			p, tt = hp, ht
		}
	}
	msgs := p.msgs
	a := answered{block: p.block, shown: p.shown, summaryThrough: p.summaryThrough, userTokens: p.userTokens, wordsTokens: p.wordsTokens, systemTokens: p.systemTokens}
	// The player's message is final now: it is encoded for the turn's
	// write while the model answers.
	a.user = s.userMessage(turn.Meta.Exchange, message, a, time.Now().UTC())
	a.draft = s.draft(ctx, lock, a.user)
	streamed := false
	// The LLM loop, retries included, runs inside the turn's deadline with
	// time kept back, so a hung LLM still leaves time to answer offline.
	lctx, cancel := s.llmContext(ctx)
	defer cancel()
	key := promptCacheKey(turn.Meta.ID)
	warmed := 0 // the scope's cache entries whose lines are counted (see warmLines)
	for round := 0; ; round++ {
		req := llm.Request{Messages: msgs, CacheKey: key}
		final := round >= s.opts.MaxToolIterations
		if !final {
			req.Tools = s.schemas.specs(scope.OfferedSpecs(ctx, tt.offer()))
			a.offered = specNames(req.Tools)
		}
		resp, err := s.callLLM(lctx, req, emit, &streamed)
		a.usage.PromptTokens += resp.Usage.PromptTokens
		a.usage.CompletionTokens += resp.Usage.CompletionTokens
		if err != nil {
			if ctx.Err() != nil {
				return answered{}, ctx.Err()
			}
			s.log.LogAttrs(ctx, slog.LevelWarn, "chat: LLM failed; answering offline",
				slog.String("session_id", scope.session), slog.Int("round", round), slog.String("error", err.Error()))
			off := s.offlineAnswer(ctx, scope, message, turn.Meta, turn.History, emit, streamed)
			a.text, a.degraded = off.text, true
			a.outs = append(a.outs, off.outs...)
			return a, ctx.Err()
		}
		if final || len(resp.ToolCalls) == 0 {
			a.text = strings.TrimSpace(resp.Content)
			if a.text == "" {
				a.text = emptyAnswer
				if emit != nil {
					emit(Event{Type: EventDelta, Data: DeltaEvent{Text: a.text}})
				}
			}
			return a, nil
		}
		// Only the first MaxToolCallsPerRound calls run; the others are
		// dropped from what goes back to the model (one note says so) and
		// from the reply.
		asked := resp.ToolCalls
		dropped := max(len(asked)-s.opts.MaxToolCallsPerRound, 0)
		asked = asked[:len(asked)-dropped]
		if dropped > 0 {
			s.log.LogAttrs(ctx, slog.LevelWarn, "chat: tool calls over the per-round limit dropped",
				slog.String("session_id", scope.session), slog.Int("round", round),
				slog.Int("asked", len(resp.ToolCalls)), slog.Int("dropped", dropped))
		}
		calls := make([]llm.ToolCall, len(asked))
		batch := make([]tool.Call, 0, len(asked))
		seen := map[string]bool{}
		for i, c := range asked {
			if c.ID == "" || seen[c.ID] {
				c.ID = "call_" + strconv.Itoa(round) + "_" + strconv.Itoa(i)
			}
			if strings.TrimSpace(c.Name) == "" {
				// The API refuses a tool call without a name; the executor
				// answers this one as an unknown tool.
				c.Name = "unnamed_tool"
			}
			seen[c.ID] = true
			call := tool.Call{Name: c.Name, Arguments: []byte(c.Arguments)}
			if c.Name == toolselect.UseToolName && sel.Deferred() {
				// A tool described in the conversation: run as the tool it
				// names (events, cache and stats see that tool). A
				// malformed one is answered by turnTools.run.
				if inner, err := unwrapUseTool(normalizeArgs(call.Arguments)); err == nil {
					call = inner
				}
			}
			if !s.argsFit(call) {
				// Arguments the tool's schema refuses (an argument over
				// its maxLength, say) are not sent back to the model nor
				// counted: the tool's error result says what was wrong.
				c.Arguments = "{}"
			}
			calls[i] = c
			batch = append(batch, call)
			if emit != nil {
				emit(Event{Type: EventToolCall, Data: ToolCallEvent{
					ID: c.ID, Name: call.Name, DisplayName: s.displayName(call.Name, turn.Meta.Locale),
					Arguments: argsJSON(normalizeArgs(call.Arguments)),
				}})
			}
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: resp.Content, ToolCalls: calls})
		tt.charge(msgs[len(msgs)-1])
		outs := tt.run(ctx, scope, batch)
		if err := ctx.Err(); err != nil {
			return answered{}, err
		}
		puts := scope.Puts()
		s.warmLines(ctx, turn.Meta.Locale, puts[warmed:])
		warmed = len(puts)
		s.label(outs, turn.Meta.Locale)
		for i, o := range outs {
			var content string
			if o.Source == tool.SourceDuplicate {
				content = duplicateNote(o)
			} else {
				content = s.results.text(o.LLMView(), turn.Meta.Locale, s.words)
			}
			content = tt.fit(lctx, content)
			if i == len(outs)-1 && dropped > 0 {
				content += tt.note(s.droppedNote(dropped))
			}
			msgs = append(msgs, llm.Message{Role: llm.RoleTool, Content: content, ToolCallID: calls[i].ID})
			if emit != nil {
				emit(Event{Type: EventToolResult, Data: o})
			}
		}
		a.outs = append(a.outs, outs...)
	}
}

// llmContext is the context of a turn's LLM loop: ctx's deadline less the
// fallback reserve (at most half the time left), and Options.LLMBudget.
func (s *Service) llmContext(ctx context.Context) (context.Context, context.CancelFunc) {
	var deadline time.Time
	if s.opts.LLMBudget > 0 {
		deadline = time.Now().Add(s.opts.LLMBudget)
	}
	if d, ok := ctx.Deadline(); ok {
		reserve := min(s.opts.FallbackReserve, time.Until(d)/2)
		if end := d.Add(-reserve); deadline.IsZero() || end.Before(deadline) {
			deadline = end
		}
	}
	if deadline.IsZero() {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, deadline)
}

// promptCacheKey is the provider prompt-cache key of a session's requests:
// the same for every request of the session, so a provider that routes by
// it keeps the session's prefix in one cache, and not the session id
// itself, which is a credential's companion and stays in gameassist.
func promptCacheKey(sessionID string) string {
	sum := sha256.Sum256([]byte("gameassist prompt cache:" + sessionID))
	return "ga-" + hex.EncodeToString(sum[:16])
}

// droppedNote tells the model that the calls of its answer past
// Options.MaxToolCallsPerRound were not run.
func (s *Service) droppedNote(dropped int) string {
	limit := strconv.Itoa(s.opts.MaxToolCallsPerRound)
	return "\n[" + strconv.Itoa(dropped) + " more tool calls of your answer were not run: at most " + limit +
		" run per answer. Ask for at most " + limit + " at once, the most useful first, and for the rest after reading these results.]"
}

// argsFit reports whether a call's arguments pass the schema of the tool
// it names (the registry's, or the turn's own tools'). A call of an
// unknown tool passes: it is answered by its name, not its arguments.
func (s *Service) argsFit(c tool.Call) bool {
	args := normalizeArgs(c.Arguments)
	if sp, ok := s.own[c.Name]; ok {
		return tool.ValidateSchema(c.Name, sp.Parameters, args) == nil
	}
	name, ok := s.reg.Resolve(c.Name)
	if !ok {
		return true
	}
	if !s.reg.HasVersions(name) {
		return s.reg.ValidateArgs(name, args) == nil
	}
	// Several versions: the session runs one of them, so the arguments
	// fit when one version accepts them.
	for _, v := range s.reg.Versions(name) {
		if sp, ok := s.reg.SpecVersion(name, v); ok && tool.ValidateSchema(name, sp.Parameters, args) == nil {
			return true
		}
	}
	return false
}

// callLLM makes one LLM call, streamed when emit is set, and reports it.
func (s *Service) callLLM(ctx context.Context, req llm.Request, emit func(Event), streamed *bool) (llm.Response, error) {
	start := time.Now()
	var resp llm.Response
	var err error
	if emit != nil {
		resp, err = s.llm.Stream(ctx, req, func(text string) {
			if text == "" {
				return
			}
			*streamed = true
			emit(Event{Type: EventDelta, Data: DeltaEvent{Text: text}})
		})
	} else {
		resp, err = s.llm.Complete(ctx, req)
	}
	s.obs.LLMCall(ctx, resp.Usage, time.Since(start), err)
	return resp, err
}

// offlineAnswer answers with the Fallback through the turn's
// scope, emitting its tool calls and text when streaming. The responder
// sees the session's screen and its live cached results (the screen rules'
// proactive ones included), so what the rules fetched is served from the
// cache.
func (s *Service) offlineAnswer(ctx context.Context, scope *Scope, message string, meta memory.Meta, history []memory.Message, emit func(Event), streamed bool) answered {
	run := scope.Run
	if emit != nil {
		run = func(ctx context.Context, calls []tool.Call) []tool.Outcome {
			for _, c := range calls {
				emit(Event{Type: EventToolCall, Data: ToolCallEvent{
					Name: c.Name, DisplayName: s.displayName(c.Name, meta.Locale), Arguments: argsJSON(c.Arguments),
				}})
			}
			outs := scope.Run(ctx, calls)
			s.label(outs, meta.Locale)
			for _, o := range outs {
				emit(Event{Type: EventToolResult, Data: o})
			}
			return outs
		}
	}
	req := FallbackTurn{Message: message, Locale: meta.Locale, History: fallbackHistory(history)}
	if meta.Screen != nil {
		req.Screen, req.ScreenData, req.ScreenAt = meta.Screen.Name, meta.Screen.Data, meta.Screen.At
	}
	for _, e := range scope.Cached() {
		if res, err := decodeResult(e.Result); err == nil {
			req.Cached = append(req.Cached, CachedResult{Tool: e.Tool, Arguments: e.Parameters, Result: res})
		}
	}
	ans := s.offline.Answer(ctx, req, run)
	if emit != nil {
		text := ans.Text
		if streamed {
			text = "\n\n" + text
		}
		emit(Event{Type: EventDelta, Data: DeltaEvent{Text: text}})
	}
	return answered{text: ans.Text, outs: ans.Outcomes, about: ans.About}
}

// maxFallbackHistory bounds the exchanges a Fallback sees.
const maxFallbackHistory = 6

// fallbackHistory pairs the recent history's player messages with the
// subjects of their replies, oldest first.
func fallbackHistory(history []memory.Message) []FallbackExchange {
	var out []FallbackExchange
	for i, m := range history {
		if m.Role != llm.RoleUser {
			continue
		}
		ex := FallbackExchange{Message: m.Content, At: m.At}
		if i+1 < len(history) && history[i+1].Role == llm.RoleAssistant && history[i+1].Exchange == m.Exchange {
			ex.About = history[i+1].About
		}
		out = append(out, ex)
	}
	if len(out) > maxFallbackHistory {
		out = out[len(out)-maxFallbackHistory:]
	}
	return out
}

// toolNames lists the distinct tools behind an answer, in first-use order.
func toolNames(outs []tool.Outcome) []string {
	var names []string
	seen := map[string]bool{}
	for _, o := range outs {
		if !seen[o.Name] {
			seen[o.Name] = true
			names = append(names, o.Name)
		}
	}
	return names
}

// ScreenEvent records that the player is on sc now; see ScreenEventAt.
func (s *Service) ScreenEvent(ctx context.Context, sessionID string, sc screens.Screen) (ScreenReply, error) {
	return s.ScreenEventAt(ctx, sessionID, sc, memory.ScreenEvent{At: time.Now()})
}

// ScreenEventAt records that the player reached sc (the game server's
// webhook, ordered by ev): it runs the screen's rules proactively (results
// cached so the next turn has them), stores the screen and its prompt
// injection, and reports what ran. The same screen again runs nothing. An
// event before the last screen event applied (events may arrive out of
// order; see memory.ScreenEvent) changes nothing and is answered with
// Applied false; a chat turn's screen never makes an event stale. The
// exchange counter is not advanced. Bad screen input fails with an error
// wrapping screens.ErrBadScreen.
func (s *Service) ScreenEventAt(ctx context.Context, sessionID string, sc screens.Screen, ev memory.ScreenEvent) (ScreenReply, error) {
	at := ev.At
	if err := sc.Validate(); err != nil {
		return ScreenReply{}, fmt.Errorf("chat: screen event %s: %w", tool.Clip(sessionID, 40), err)
	}
	// Lock and read the session and its cache in one round trip; the save
	// at the end releases the lock in the same round trip as its writes.
	loaded, lock, err := s.store.LockAndLoad(ctx, sessionID, s.opts.LockWait)
	if err != nil {
		return ScreenReply{}, fmt.Errorf("chat: screen event %s: %w", tool.Clip(sessionID, 40), err)
	}
	release := s.releaseLock(ctx, lock)
	defer release()
	ctx, _ = s.withPlayer(ctx, loaded.Player)
	meta := loaded.Meta
	cur := meta.Screen
	stale := meta.ScreenEvent != nil && ev.Before(*meta.ScreenEvent)
	if stale || (cur != nil && cur.Hash == sc.Hash()) {
		rep := ScreenReply{Screen: sc.Name, Applied: !stale, Tools: []tool.Outcome{}}
		if s.screens != nil {
			plan, err := s.screens.Plan(ctx, sc, meta.Locale)
			if err != nil {
				return ScreenReply{}, fmt.Errorf("chat: screen event %s: %w", sessionID, err)
			}
			rep.Matched = plan.Matched
		}
		if stale {
			return rep, nil
		}
		if inj := cur.Injection; inj != "" {
			rep.PromptInjection = &inj
		}
		// Still on the same screen, as of this event: an older event of
		// another screen must not replace it.
		moved := *cur
		if at.After(cur.At) {
			moved.At = at
		}
		if err := s.store.SaveScreen(ctx, sessionID, memory.ScreenSave{Screen: &moved, Event: &ev}); err != nil {
			return ScreenReply{}, fmt.Errorf("chat: screen event %s: %w", sessionID, err)
		}
		return rep, nil
	}
	applied, err := s.applyScreen(ctx, meta, loaded.Cache, sc, at)
	if err != nil {
		return ScreenReply{}, fmt.Errorf("chat: screen event %s: %w", sessionID, err)
	}
	// The results, the cache hits, the screen and the lock release go in
	// one round trip.
	save := memory.ScreenSave{Screen: applied.screen, Put: applied.puts, Hits: applied.hits, Release: lock, Versions: applied.versions, Event: &ev}
	if err := s.store.SaveScreen(ctx, meta.ID, save); err != nil {
		return ScreenReply{}, fmt.Errorf("chat: screen event %s: %w", sessionID, err)
	}
	// The session's next turn shows the screen's results in its data block.
	s.warmLines(ctx, meta.Locale, applied.puts)
	return applied.reply, nil
}

// screenApplied is what applying a screen produced: the reply, the cache
// entries to store, the cache keys served (hits to count, as the stats
// count them) and the screen to store.
type screenApplied struct {
	reply  ScreenReply
	puts   []memory.CacheEntry
	hits   []string
	screen *memory.Screen
	// versions are the tool versions assigned to the session by the
	// screen's calls, to store with it.
	versions map[string]int
}

// withVersions returns base with more's versions over it; neither map
// changes (base may be a turn's stored versions).
func withVersions(base, more map[string]int) map[string]int {
	if len(more) == 0 {
		return base
	}
	out := maps.Clone(base)
	if out == nil {
		out = make(map[string]int, len(more))
	}
	maps.Copy(out, more)
	return out
}

// applyScreen plans sc, reached at at, and runs its calls as proactive at
// the session's current exchange; it stores nothing. The caller holds the
// session lock and stores the screen and its results.
func (s *Service) applyScreen(ctx context.Context, meta memory.Meta, cache []memory.CacheEntry, sc screens.Screen, at time.Time) (screenApplied, error) {
	plan := screens.Plan{Screen: sc.Name}
	if s.screens != nil {
		p, err := s.screens.Plan(ctx, sc, meta.Locale)
		if err != nil {
			return screenApplied{}, fmt.Errorf("plan screen: %w", err)
		}
		plan = p
	}
	outs := make([]tool.Outcome, len(plan.Calls))
	var calls []tool.Call
	var idx []int
	var puts []memory.CacheEntry
	var hits []string
	var versions map[string]int
	var keys []string
	for i, pc := range plan.Calls {
		if pc.Skipped != "" {
			outs[i] = tool.Outcome{
				Name: pc.Name, Arguments: argsJSON(normalizeArgs(pc.Arguments)), Source: tool.SourceSkipped,
				Status: pc.SkipStatus(), Reason: pc.Skipped,
			}
			continue
		}
		calls = append(calls, pc.Call)
		idx = append(idx, i)
	}
	if len(calls) > 0 {
		scope := s.runner.Scope(ctx, meta.ID, meta.Exchange, cache, true)
		scope.KeepVersions(meta.Versions)
		res := scope.Run(ctx, calls)
		if err := ctx.Err(); err != nil {
			return screenApplied{}, err
		}
		for j, o := range res {
			outs[idx[j]] = o
		}
		puts, hits = scope.Puts(), scope.Hits()
		versions = scope.AssignedVersions()
		keys = screenKeys(ctx, scope, plan.Calls)
	}
	s.label(outs, meta.Locale)
	stored := &memory.Screen{Name: sc.Name, Data: sc.Data, Hash: sc.Hash(), Injection: plan.Injection, At: at.UTC(), Keys: keys}
	rep := ScreenReply{Screen: sc.Name, Matched: plan.Matched, Applied: true, Tools: outs}
	if plan.Injection != "" {
		inj := plan.Injection
		rep.PromptInjection = &inj
	}
	return screenApplied{reply: rep, puts: puts, hits: hits, screen: stored, versions: versions}, nil
}

// screenKeys lists the cache keys of a screen plan's calls that ran, in
// the order of screens.Engine.Tools: data calls in rule order (the main
// subject first), then the context call.
func screenKeys(ctx context.Context, scope *Scope, calls []screens.PlannedCall) []string {
	keys := make([]string, 0, len(calls))
	for _, role := range [2]string{screens.RoleData, screens.RoleContext} {
		for _, pc := range calls {
			if pc.Role == role && pc.Skipped == "" {
				keys = append(keys, scope.Key(ctx, pc.Call))
			}
		}
	}
	return keys
}

// displayName is what a player sees of tool name in locale (the widget's
// chips): the registry's display name, the turn's own tools' (find_tools,
// search_conversation), or one derived from the name for a tool nobody
// registered (a model may call anything).
func (s *Service) displayName(name, locale string) string {
	if sp, ok := s.reg.Spec(name); ok {
		return sp.DisplayName(locale)
	}
	if sp, ok := s.own[name]; ok {
		return sp.DisplayName(locale)
	}
	return tool.DefaultDisplayName(name)
}

// label sets the display name of each outcome, in locale.
func (s *Service) label(outs []tool.Outcome, locale string) {
	for i := range outs {
		outs[i].DisplayName = s.displayName(outs[i].Name, locale)
	}
}
