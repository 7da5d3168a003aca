package chat

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// Store is the session memory a turn needs: the calls chat makes, nothing
// more. *memory.Store satisfies it; so does any store that keeps the
// contract of internal/sessionfake.Contract. Add a method here when chat
// starts calling it.
type Store interface {
	CreateSession(ctx context.Context, m memory.Meta) error
	Session(ctx context.Context, id string) (memory.Meta, error)
	// LockAndBegin takes the session's turn lock (waiting up to wait for
	// the holder: an error wrapping memory.ErrBusy after that) and begins
	// the turn: the exchange advances, expired cache entries go.
	LockAndBegin(ctx context.Context, id string, wait time.Duration) (memory.Turn, Lease, error)
	// LockAndLoad takes the lock as LockAndBegin does and reads the
	// session, advancing nothing.
	LockAndLoad(ctx context.Context, id string, wait time.Duration) (memory.Turn, Lease, error)
	// FinishTurn records a turn; Finish.Release, a lease of this store,
	// is released with it.
	FinishTurn(ctx context.Context, id string, f memory.Finish) error
	// Draft encodes a turn's first message ahead of its write, for
	// Finish.Draft (a store may encode nothing ahead: memory.NewDraft).
	Draft(lease Lease, m memory.Message) *memory.Draft
	// SaveScreen records a screen event; ScreenSave.Release as above.
	SaveScreen(ctx context.Context, id string, w memory.ScreenSave) error
	SaveSummary(ctx context.Context, id string, sm memory.Summary) (bool, error)
}

// Lease is a held session turn lock: Refresh renews it, Release frees it.
// The store keeps it held while the context it was taken with lives
// (memory.Lock renews itself), so a turn only releases it.
// It is the same type as memory.Lease (an alias of one interface literal),
// so a Store's lock methods may return either name.
type Lease = interface {
	Refresh(ctx context.Context) error
	Release(ctx context.Context) error
}

// Executor runs tool calls safely and knows the registry; *tool.Executor
// satisfies it.
type Executor interface {
	Execute(ctx context.Context, call tool.Call) tool.Result
	Registry() *tool.Registry
}

// Completer is the LLM; *llm.Client satisfies it. Errors come after the
// client's own retries.
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (llm.Response, error)
	Stream(ctx context.Context, req llm.Request, onText llm.StreamHandler) (llm.Response, error)
}

// Words names a game's identifiers for players: the display name of id in
// the turn's locale, false for a word it does not know. Tool results reach
// the model with the identifiers it knows replaced by their names.
type Words func(id string) (string, bool)

// Labeler gives the Words of a locale; the sample game's names its effects
// ("decrease_def" is "Decrease DEF" in English, "Baisse de DÉF" in French).
// Nil: tool results keep their identifiers. A locale's words stay the same
// while the Service runs: a result is rendered once per locale and the
// text remembered.
type Labeler interface {
	Words(locale string) Words
}

// Fallback answers a turn without an LLM: every turn when none is
// configured, and a turn whose LLM failed or ran out of time. The sample
// game's offline responder (package offline) is one.
type Fallback interface {
	// Answer answers t, running the tools it needs through run (the turn's
	// runner, so the session cache and duplicate detection apply), and
	// returns the reply with the outcomes of those calls. It never fails:
	// what it cannot answer it says so in the reply.
	Answer(ctx context.Context, t FallbackTurn, run RunFunc) FallbackAnswer
}

// RunFunc runs a batch of tool calls within a turn and returns their
// outcomes in call order.
type RunFunc func(ctx context.Context, calls []tool.Call) []tool.Outcome

// FallbackTurn is what a Fallback knows of a turn.
type FallbackTurn struct {
	// Message is the player's message (player text: data only).
	Message string
	// Locale is the session's locale.
	Locale string
	// Screen is the name of the screen the player is on, "" if unknown.
	Screen string
	// ScreenData is the screen's data object as the game sent it (player
	// controlled: data only); nil if none.
	ScreenData json.RawMessage
	// Cached are the session's live cached tool results, the screen rules'
	// proactive ones included; calling one of them again verbatim is
	// served from the cache.
	Cached []CachedResult
	// ScreenAt is when the player reached Screen (zero if unknown).
	ScreenAt time.Time
	// History holds the session's recent exchanges, oldest first, with
	// the subjects each was about, so follow-ups ("and her skills?")
	// resolve across instances.
	History []FallbackExchange
}

// FallbackExchange is one earlier exchange of the session.
type FallbackExchange struct {
	// Message is the player's message (player text: data only).
	Message string
	// About are the subjects the reply was about, in order.
	About []memory.Subject
	// At is when the exchange was recorded.
	At time.Time
}

// CachedResult is a tool call the session already answered, with its result.
type CachedResult struct {
	Tool      string
	Arguments json.RawMessage
	Result    tool.Result
}

// FallbackAnswer is a Fallback's reply with the outcomes of the tool calls
// behind it, in call order.
type FallbackAnswer struct {
	Text     string
	Outcomes []tool.Outcome
	// About are the subjects the answer was about, in order; the session
	// records them with the reply.
	About []memory.Subject
}

// Planner turns a screen into proactive tool calls and a prompt injection;
// *screens.Engine satisfies it.
type Planner interface {
	Plan(ctx context.Context, screen screens.Screen, locale string) (screens.Plan, error)
}

// DataVersioner reports the version of the game data behind the tools, so a
// cached result computed from older data is a miss.
type DataVersioner interface {
	DataVersion(ctx context.Context) (string, error)
}

// Rollouts assigns a session to one version of a tool that has several;
// *rollout.Assigner satisfies it. versions are the tool's versions,
// ascending; kept is the version stored with the session (0: none), kept
// while its weight is above 0; the answer is one of versions.
type Rollouts interface {
	Version(ctx context.Context, session, tool string, versions []int, kept int) int
}

// Observer receives what the turn engine does, for stats and metrics. Its
// methods must be quick and safe for concurrent use.
type Observer interface {
	// ToolCalls reports a batch of tool calls of a session, in call order.
	ToolCalls(ctx context.Context, sessionID string, outs []tool.Outcome)
	// LLMCall reports one LLM call, failed or not.
	LLMCall(ctx context.Context, usage llm.Usage, d time.Duration, err error)
	// Turn reports a finished turn and how long it took.
	Turn(ctx context.Context, r Reply, d time.Duration)
}

// nopObserver stands in when no Observer is given.
type nopObserver struct{}

func (nopObserver) ToolCalls(context.Context, string, []tool.Outcome)        {}
func (nopObserver) LLMCall(context.Context, llm.Usage, time.Duration, error) {}
func (nopObserver) Turn(context.Context, Reply, time.Duration)               {}
