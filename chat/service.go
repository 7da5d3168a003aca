// Package chat is the turn engine of gameassist: it creates and authorizes
// sessions, runs the screen rules, assembles each turn's prompt (system
// prompt, screen context, live cached tool results, a token-bounded history
// window), drives the LLM's tool loop through a session-aware tool runner
// (duplicates, session cache, shared in-flight executions), streams events,
// and falls back to a Fallback (the offline responder) when no LLM is
// configured or the LLM fails.
package chat

import (
	"context"
	"crypto/subtle"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/gameassist/gameassist/internal/memo"
	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/textsearch/embed"
	"github.com/gameassist/gameassist/tokens"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// Errors of session access, for the HTTP layer to map to status codes.
var (
	// ErrUnauthorized: no token, or a token that cannot be one (401).
	ErrUnauthorized = errors.New("chat: missing or malformed session token")
	// ErrForbidden: a well-formed token that does not open this session (403).
	ErrForbidden = errors.New("chat: session token does not match")
	// ErrInvalid: a request value the service refuses, e.g. an unsupported locale (400).
	ErrInvalid = errors.New("chat: invalid request")
	// ErrInternal: the turn failed unexpectedly after its answer (500); the
	// cause is logged, not returned.
	ErrInternal = errors.New("chat: internal error")
)

// Limits on session creation input.
const (
	// MaxPlayerIDLen bounds a player id in bytes.
	MaxPlayerIDLen = 128
	// maxTokenLen bounds a presented session token; real ones are 43 characters.
	maxTokenLen = 256
)

// Locales are the locales a session may use; the first is the default.
func Locales() []string { return []string{"en", "fr", "de"} }

// Deps are the collaborators of a Service.
type Deps struct {
	// Store keeps sessions; required.
	Store Store
	// Executor runs tools; required.
	Executor Executor
	// Fallback answers turns without the LLM; required.
	Fallback Fallback
	// LLM answers turns; nil means every turn is answered by the
	// Fallback. Pass a nil interface, not a typed nil pointer.
	LLM Completer
	// Screens plans proactive tool calls for screens; nil means no rules
	// (screens are still remembered).
	Screens Planner
	// Versions gives the game data version for cache entries; nil means one
	// unchanging version.
	Versions DataVersioner
	// Observer receives tool calls, LLM calls and turns; nil ignores them.
	Observer Observer
	// Rollouts assigns sessions to the versions of tools that have
	// several; nil runs the highest version for every session.
	Rollouts Rollouts
	// Logger receives the service's logs; nil discards.
	Logger *slog.Logger
	// DisplayNames names the player's owned champions in the prompt's
	// player block; nil shows their ids.
	DisplayNames DisplayNamer
	// Exchanges, when set, has the Store keep what each exchange was
	// answered with, for players' ratings of it, with the turn's messages
	// (RecordExchanges, or a recorder that stamps the record first); nil
	// keeps nothing.
	Exchanges ExchangeRecorder
	// Labels names the game's identifiers in tool results for the model, in
	// the session's locale; nil leaves them as they are.
	Labels Labeler
}

// Options tunes a Service; zero values take the defaults.
type Options struct {
	// MaxToolIterations bounds the LLM rounds that may call tools (default
	// 5); after them one final call is made without tools.
	MaxToolIterations int
	// MaxContextTokens is the one token budget that history (with the
	// rolling summary), cached tool results and the tool results of the
	// turn's tool loop share (default 4000), counted with the model's
	// tokenizer; the tool schemas and the tool catalog are not counted.
	MaxContextTokens int
	// LockWait is how long a turn waits for the session's previous turn
	// (default 10 s); after it the turn fails with memory.ErrBusy.
	LockWait time.Duration
	// OfferSQLTools offers tools of category "sql" to the LLM.
	OfferSQLTools bool
	// SystemPrompt replaces DefaultSystemPrompt when not empty.
	SystemPrompt string
	// FinishTimeout bounds recording a finished turn and releasing the lock
	// after the caller's context ended (default 5 s).
	FinishTimeout time.Duration
	// ToolSelection is ModeAuto (default; toolselect.ModeDeferred is the
	// same: the core sorted by name, find_tools, use_tool and
	// search_conversation on every call, byte for byte, the other tools
	// in the system prompt's catalog (see ToolCatalogBytes) and, for those
	// it has no room for, the turn's selection described after the
	// history, in its data block; all called through use_tool), ModeSubset
	// (a selected subset per call, plus find_tools) or toolselect.ModeAll
	// (every tool on every call).
	ToolSelection string
	// ToolCatalogBytes bounds the tool catalog the system prompt ends with
	// in ModeAuto: every tool called through use_tool, one line each, by
	// name, while the catalog stays within this many bytes; the tools left
	// out are described in a turn's data block when it selects them. 0: no
	// catalog, every such tool is described that way.
	ToolCatalogBytes int
	// MaxToolsPerCall caps the tools offered per LLM call, find_tools
	// included (default toolselect.DefaultMax).
	MaxToolsPerCall int
	// Entities are the game's entity names by kind, for tool selection
	// (see toolselect.Options.Entities); optional.
	Entities map[string][]string
	// Model names the LLM model; it picks the tokenizer's encoding
	// (o200k_base when tiktoken does not know it).
	Model string
	// SummaryTimeout bounds writing a rolling summary in the background
	// (default 30 s).
	SummaryTimeout time.Duration
	// LLMBudget bounds the whole LLM tool loop of a turn, retries included
	// (0: only the caller's deadline bounds it). A loop out of time is an
	// LLM failure: the turn is answered offline, degraded.
	LLMBudget time.Duration
	// FallbackReserve is the part of the caller's deadline kept back from
	// the LLM loop for the offline fallback and the final write (default
	// 3 s; at most half the time left when the turn starts).
	FallbackReserve time.Duration
	// MaxToolCallsPerRound caps the tool calls run from one LLM answer
	// (default 16); calls over it are dropped: not run, not sent back to
	// the model (one note on the last result says how many) and not in the
	// reply.
	MaxToolCallsPerRound int
	// MaxConcurrentTools bounds how many calls of one round run at once
	// (default 4).
	MaxConcurrentTools int
	// ProgressPath is where a player state holds the progress the prompt's
	// player block reports (default progress.chapter).
	ProgressPath string
}

// Service runs chat sessions. It is safe for concurrent use; turns of one
// session are serialized by the store's lock, across instances.
type Service struct {
	store   Store
	llm     Completer
	screens Planner
	obs     Observer
	log     *slog.Logger
	runner  *Runner
	offline Fallback
	opts    Options
	reg     *tool.Registry
	names   DisplayNamer
	labels  Labeler
	locales map[string]bool

	tok     tokenCounter
	selMu   sync.Mutex
	sel     *toolselect.Selector
	selKey  uint64
	selGen  uint64 // the registry generation sel was checked against
	selSeed maphash.Seed
	// deferred is the tool list of TOOL_SELECTION=deferred for sel.
	deferred    deferredOffer
	screenTools ScreenTooler
	emb         *embed.Hashing
	// own are the specs of the turn's own tools, which the registry does
	// not hold.
	own map[string]tool.Spec
	bg  background
	// folds are the sessions whose summary is being written here.
	folds folding
	// cat remembers rendered catalogs by the tools they list, so a turn
	// does not parse every schema again (see Service.catalog).
	cat *memo.Map[string, catalog]
	// exchanges records each exchange's details (nil: not recorded).
	exchanges ExchangeRecorder
	// schemas renders tool schemas for the model once each.
	schemas schemaMemo
	// tokens remembers the token hashes of sessions checked here.
	tokens tokenMemo
	// results renders tool results for the model once each.
	results resultMemo
	// warm holds a slot per line count running in the background.
	warm chan struct{}
}

// NewService returns a Service over deps.
func NewService(deps Deps, opts Options) (*Service, error) {
	switch {
	case deps.Store == nil:
		return nil, errors.New("chat: new service: nil store")
	case deps.Executor == nil || deps.Executor.Registry() == nil:
		return nil, errors.New("chat: new service: nil executor or registry")
	case deps.Fallback == nil:
		return nil, errors.New("chat: new service: nil fallback")
	}
	if opts.MaxToolIterations <= 0 {
		opts.MaxToolIterations = 5
	}
	if opts.MaxContextTokens <= 0 {
		opts.MaxContextTokens = 4000
	}
	if opts.LockWait <= 0 {
		opts.LockWait = 10 * time.Second
	}
	if opts.FinishTimeout <= 0 {
		opts.FinishTimeout = 5 * time.Second
	}
	if opts.SummaryTimeout <= 0 {
		opts.SummaryTimeout = 30 * time.Second
	}
	if opts.FallbackReserve <= 0 {
		opts.FallbackReserve = 3 * time.Second
	}
	if opts.MaxToolCallsPerRound <= 0 {
		opts.MaxToolCallsPerRound = 16
	}
	if opts.MaxConcurrentTools <= 0 {
		opts.MaxConcurrentTools = 4
	}
	if strings.TrimSpace(opts.SystemPrompt) == "" {
		opts.SystemPrompt = DefaultSystemPrompt
	}
	log := deps.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	obs := deps.Observer
	if obs == nil {
		obs = nopObserver{}
	}
	runner, err := NewRunner(deps.Executor, deps.Versions, obs, log)
	if err != nil {
		return nil, fmt.Errorf("chat: new service: %w", err)
	}
	runner.SetConcurrency(opts.MaxConcurrentTools)
	if deps.Rollouts != nil {
		runner.SetRollouts(deps.Rollouts)
	}
	reg := deps.Executor.Registry()
	gen := reg.Generation()
	specs := reg.Specs(func(s tool.Spec) bool { return llmMay(opts, s) })
	sel, err := toolselect.New(specs, toolselect.Options{Mode: selectorMode(opts.ToolSelection), Max: opts.MaxToolsPerCall, Entities: opts.Entities})
	if err != nil {
		return nil, fmt.Errorf("chat: new service: %w", err)
	}
	seed := maphash.MakeSeed()
	selKey := specsKey(seed, specs)
	tok, err := tokens.ForModel(opts.Model)
	if err != nil {
		return nil, fmt.Errorf("chat: new service: %w", err)
	}
	emb, err := embed.NewHashing(embed.HashingOptions{})
	if err != nil {
		return nil, fmt.Errorf("chat: new service: %w", err)
	}
	locales := map[string]bool{}
	for _, l := range Locales() {
		locales[l] = true
	}
	svc := &Service{
		store: deps.Store, llm: deps.LLM, screens: deps.Screens,
		obs: obs, log: log, runner: runner, offline: deps.Fallback, opts: opts,
		reg: reg, locales: locales, tok: tok, sel: sel, selKey: selKey, selGen: gen, selSeed: seed, emb: emb,
		warm: make(chan struct{}, warmSlots),
		cat:  memo.New[string, catalog](catalogCacheSize),
		own:  map[string]tool.Spec{toolselect.FindToolsName: toolselect.FindToolsSpec(), SearchConversationName: searchConversationSpec(), toolselect.UseToolName: useToolSpec()},
	}
	if st, ok := deps.Screens.(ScreenTooler); ok {
		svc.screenTools = st
	}
	svc.names = deps.DisplayNames
	if svc.opts.ProgressPath == "" {
		svc.opts.ProgressPath = "progress.chapter"
	}
	svc.exchanges = deps.Exchanges
	svc.labels = deps.Labels
	return svc, nil
}

// tokenCounter counts prompt tokens with the model's tokenizer;
// *tokens.Counter is the one in use.
type tokenCounter interface {
	Count(text string) int
	CountContext(ctx context.Context, text string) (int, error)
	// CountParts counts the concatenation of parts.
	CountParts(parts []string) int
}

// countTokens counts s with the model's tokenizer.
func (s *Service) countTokens(text string) int { return s.tok.Count(text) }

// countTokensCtx is countTokens that stops encoding when ctx ends and
// estimates the rest (the caller sees ctx end on its own).
func (s *Service) countTokensCtx(ctx context.Context, text string) int {
	n, _ := s.tok.CountContext(ctx, text)
	return n
}

// offered returns the tools the LLM may be offered, read from the registry
// each time: a tools file reload changes them.
func (s *Service) offered() []tool.Spec {
	return s.reg.Specs(func(sp tool.Spec) bool { return llmMay(s.opts, sp) })
}

// llmMay reports whether the LLM may be offered, and may call, the tool of
// spec: SQL tools only with Options.OfferSQLTools.
func llmMay(opts Options, sp tool.Spec) bool {
	return opts.OfferSQLTools || sp.Category != tool.CategorySQL
}

// selector returns the tool selector over the registry's current tools,
// rebuilt when a tools file reload changed them; a turn that finds the
// registry's generation unchanged reads no spec.
func (s *Service) selector() *toolselect.Selector {
	gen := s.reg.Generation()
	s.selMu.Lock()
	defer s.selMu.Unlock()
	if gen == s.selGen {
		return s.sel
	}
	specs := s.offered()
	key := specsKey(s.selSeed, specs)
	if key == s.selKey {
		s.selGen = gen
		return s.sel
	}
	sel, err := toolselect.New(specs, toolselect.Options{Mode: selectorMode(s.opts.ToolSelection), Max: s.opts.MaxToolsPerCall, Entities: s.opts.Entities})
	if err != nil {
		s.log.Error("chat: tool selector over reloaded tools", "err", err)
		return s.sel
	}
	s.sel, s.selKey, s.selGen = sel, key, gen
	return sel
}

// specsKey fingerprints a tool list: names, versions, descriptions and schemas.
// It runs on every turn, over every tool's schema, so it uses maphash
// (word at a time, seeded per service) and allocates nothing.
func specsKey(seed maphash.Seed, specs []tool.Spec) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	var n [8]byte
	for _, sp := range specs {
		_, _ = h.WriteString(sp.Name)
		binary.LittleEndian.PutUint64(n[:], uint64(sp.Version))
		_, _ = h.Write(n[:])
		_, _ = h.WriteString(sp.Description)
		binary.LittleEndian.PutUint64(n[:], uint64(len(sp.Description)))
		_, _ = h.Write(n[:])
		_, _ = h.Write(sp.Parameters)
		binary.LittleEndian.PutUint64(n[:], uint64(len(sp.Parameters)))
		_, _ = h.Write(n[:])
	}
	return h.Sum64()
}

// Runner returns the service's tool runner, for callers that run tools on
// a session outside a turn.
func (s *Service) Runner() *Runner { return s.runner }

// CreateSession starts a session for playerID (may be empty) in locale
// ("" means "en"; "fr-CA" means "fr") and returns its id and the token that
// authorizes it. Only the token's hash is stored.
func (s *Service) CreateSession(ctx context.Context, playerID, locale string) (id, token string, err error) {
	if len(playerID) > MaxPlayerIDLen {
		return "", "", fmt.Errorf("chat: create session: player_id longer than %d bytes: %w", MaxPlayerIDLen, ErrInvalid)
	}
	for _, c := range playerID {
		if c < ' ' || c == 0x7f {
			return "", "", fmt.Errorf("chat: create session: player_id holds control characters: %w", ErrInvalid)
		}
	}
	loc, err := s.normalizeLocale(locale)
	if err != nil {
		return "", "", err
	}
	token, hash, err := memory.NewToken()
	if err != nil {
		return "", "", fmt.Errorf("chat: create session: %w", err)
	}
	u, err := uuid.NewRandom()
	if err != nil {
		return "", "", fmt.Errorf("chat: create session: %w", err)
	}
	m := memory.Meta{ID: u.String(), PlayerID: playerID, Locale: loc, TokenHash: hash, CreatedAt: time.Now().UTC()}
	if err := s.store.CreateSession(ctx, m); err != nil {
		return "", "", fmt.Errorf("chat: create session: %w", err)
	}
	return m.ID, token, nil
}

func (s *Service) normalizeLocale(locale string) (string, error) {
	l := strings.ToLower(strings.TrimSpace(locale))
	if l == "" {
		return Locales()[0], nil
	}
	if i := strings.IndexAny(l, "-_"); i > 0 {
		l = l[:i]
	}
	if !s.locales[l] {
		return "", fmt.Errorf("chat: locale %q is not one of %s: %w", tool.Clip(locale, 20), strings.Join(Locales(), ", "), ErrInvalid)
	}
	return l, nil
}

// Authorize checks that token opens session id. An id that is not a UUID
// is ErrNotFound without asking the store; an empty or malformed token is
// ErrUnauthorized; a token of another session or a wrong one is
// ErrForbidden; an unknown session is memory.ErrNotFound. A session this
// instance has checked before is checked against the token hash it read
// then, without a store round trip (see tokenMemo): such a session that
// has since been deleted passes here and is not found by the turn.
func (s *Service) Authorize(ctx context.Context, id, token string) error {
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return fmt.Errorf("chat: authorize: session %q: %w", tool.Clip(id, 40), memory.ErrNotFound)
	}
	if !wellFormedToken(token) {
		return ErrUnauthorized
	}
	want, ok := s.tokens.get(id)
	if !ok {
		m, err := s.store.Session(ctx, id)
		if err != nil {
			return fmt.Errorf("chat: authorize: %w", err)
		}
		if want = m.TokenHash; want != "" {
			s.tokens.put(id, want)
		}
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(memory.HashToken(token)), []byte(want)) != 1 {
		return ErrForbidden
	}
	return nil
}

// words is the Words of locale, nil without a Labeler.
func (s *Service) words(locale string) Words {
	if s.labels == nil {
		return nil
	}
	return s.labels.Words(locale)
}

// wellFormedToken accepts what NewToken makes could be: printable ASCII
// without spaces, of reasonable length.
func wellFormedToken(t string) bool {
	if t == "" || len(t) > maxTokenLen {
		return false
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// TurnRequest is one player message.
type TurnRequest struct {
	SessionID string
	Message   string
	// Screen, when set and different from the stored one, runs the screen
	// rules before the turn.
	Screen *screens.Screen
}

// Reply is the answer to a turn, serialized as the HTTP contract's chat reply.
type Reply struct {
	SessionID string         `json:"session_id"`
	Exchange  int            `json:"exchange"`
	Reply     string         `json:"reply"`
	ToolCalls []tool.Outcome `json:"tool_calls"`
	Usage     llm.Usage      `json:"usage"`
	Degraded  bool           `json:"degraded"`
}

// ScreenReply is the answer to a screen event, serialized as the HTTP
// contract's webhook reply.
type ScreenReply struct {
	Screen  string `json:"screen"`
	Matched bool   `json:"matched"`
	// Applied is false when the event was older than the session's current
	// screen and changed nothing.
	Applied         bool           `json:"applied"`
	Tools           []tool.Outcome `json:"tools"`
	PromptInjection *string        `json:"prompt_injection"`
}

// EventType names a streamed event.
type EventType string

// The events a streaming turn emits; the HTTP layer adds done and error.
const (
	EventToolCall   EventType = "tool_call"
	EventToolResult EventType = "tool_result"
	EventDelta      EventType = "delta"
)

// Event is one streamed event: Data is a ToolCallEvent, a tool.Outcome or a
// DeltaEvent, each ready for JSON.
type Event struct {
	Type EventType
	Data any
}

// ToolCallEvent announces a tool call the model asked for, before it runs.
type ToolCallEvent struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// DisplayName is the tool's name for players, in the session's locale.
	DisplayName string          `json:"display_name"`
	Arguments   json.RawMessage `json:"arguments"`
}

// DeltaEvent is a piece of the answer's text.
type DeltaEvent struct {
	Text string `json:"text"`
}

// Tool selection modes of Options.ToolSelection besides toolselect.ModeAll.
const (
	// ModeAuto, the default, keeps the tool list of every call the same
	// for the whole session (toolselect.ModeDeferred), so providers'
	// prefix caches keep the whole conversation.
	ModeAuto = "auto"
	// ModeSubset offers a selected subset of the tools per call
	// (toolselect.ModeAuto): fewer schemas, a list that changes.
	ModeSubset = "subset"
)

// selectorMode is the toolselect mode of a ToolSelection value; an unknown
// one is passed on for toolselect.New to refuse.
func selectorMode(mode string) string {
	switch mode {
	case "", ModeAuto:
		return toolselect.ModeDeferred
	case ModeSubset:
		return toolselect.ModeAuto
	}
	return mode
}
