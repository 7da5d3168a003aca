// Package memory keeps each chat session in Redis: its meta (player, locale,
// token hash, exchange counter, current screen), its history window and its
// per-session tool-result cache whose entries expire by exchange count. Every
// key of a session carries the same hash tag, so Redis Cluster works
// unchanged; the cached results themselves are payloads shared by the
// sessions that cache them, in keys of their own that no session script
// touches.
package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is returned when a session or cache entry does not exist
// (redis.Nil is mapped to it).
var ErrNotFound = errors.New("memory: not found")

// ErrBusy is returned when a session's turn lock could not be taken within
// the wait time.
var ErrBusy = errors.New("memory: session busy")

// ErrRateLimited is returned by LockAndBegin when the session has used its
// Options.TurnQuota; the error is a *RateLimitError saying when to retry.
var ErrRateLimited = errors.New("memory: session over its turn quota")

// RateLimitError is LockAndBegin's refusal of a turn over the session's
// quota. The refused turn changed nothing: no lock, no exchange, no count.
type RateLimitError struct {
	// RetryAfter is when the oldest counted turn leaves the window.
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("memory: session over its turn quota; retry after %s", e.RetryAfter)
}

// Is makes errors.Is(err, ErrRateLimited) true.
func (e *RateLimitError) Is(target error) bool { return target == ErrRateLimited }

// Quota caps the turns a session may begin: at most Turns in any Per. The
// zero Quota admits every turn.
type Quota struct {
	Turns int
	Per   time.Duration
}

// Screen is the screen a player is on, as sent by the client or game server.
type Screen struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data,omitempty"`
	// Hash identifies name+data (canonical JSON), to tell "same screen again".
	Hash string `json:"hash"`
	// Injection is the rendered prompt injection for this screen, "" if none.
	Injection string `json:"injection,omitempty"`
	// At is when the player reached the screen (a webhook's signed
	// timestamp, or the turn's start); an older event does not replace it.
	At time.Time `json:"at,omitzero"`
	// Keys are the session cache keys of the calls the screen's rule ran,
	// main subject first (data calls in rule order, then the context
	// call): a prompt gives these results, and no other result of the
	// same tools, the screen's share of its data block.
	Keys []string `json:"keys,omitempty"`
}

// ScreenEvent orders a game server's screen events (webhooks) among
// themselves. At is the delivery's signed time (whole seconds, the game
// server's clock); Seq is the game server's optional monotonic sequence
// number (0: none), which decides when both events carry one. A chat
// turn's screen is the client's latest by definition and takes no part:
// the two clocks are never compared.
type ScreenEvent struct {
	At  time.Time `json:"at"`
	Seq int64     `json:"seq,omitempty"`
}

// Before reports whether e comes before o: by Seq when both have one, else
// by At. Events of the same second without sequence numbers are in no
// order (neither is before the other).
func (e ScreenEvent) Before(o ScreenEvent) bool {
	if e.Seq > 0 && o.Seq > 0 {
		return e.Seq < o.Seq
	}
	return e.At.Before(o.At)
}

// Meta is a session's metadata.
type Meta struct {
	ID        string    `json:"id"`
	PlayerID  string    `json:"player_id,omitempty"`
	Locale    string    `json:"locale"`
	TokenHash string    `json:"-"`
	CreatedAt time.Time `json:"created_at"`
	Exchange  int       `json:"exchange"`
	Screen    *Screen   `json:"screen,omitempty"`
	// Summary folds the exchanges that left the prompt's history window.
	Summary *Summary `json:"summary,omitempty"`
	// ScreenEvent is the order of the last game server screen event
	// (webhook) applied, nil before the first; a chat turn's screen does
	// not change it.
	ScreenEvent *ScreenEvent `json:"-"`
	// Versions holds the version of each tool with several that the
	// session was assigned (tool name → version), so it keeps it across
	// turns and instances; it expires with the session.
	Versions map[string]int `json:"-"`
}

// Summary is a session's rolling summary of older exchanges.
type Summary struct {
	// Text is the summary (player-derived: never for a system-role message).
	Text string `json:"text"`
	// Through is the last exchange the summary covers; the prompt's history
	// starts after it.
	Through int `json:"through"`
	// Prev is the summary this one replaced (nil: none), without its own
	// Prev: a prompt may go on using it, with the longer history window
	// after it, until its prefix changes anyway.
	Prev *Summary `json:"prev,omitempty"`
}

// Message is one history entry: the player's message or the assistant's reply.
type Message struct {
	Role     string    `json:"role"` // "user" or "assistant"
	Content  string    `json:"content"`
	Exchange int       `json:"exchange"`
	At       time.Time `json:"at"`
	// Tools lists the tool names used to produce an assistant reply.
	Tools []string `json:"tools,omitempty"`
	// Offered lists, in order, the tool schemas the reply's last LLM call
	// offered, so the next turn can offer the same ones (a stable prefix).
	Offered []string `json:"offered,omitempty"`
	// Context is the data block a user message was sent with, ahead of
	// Content, byte for byte: what was new for the model at that turn
	// (screen context, cached tool results, results no longer current).
	// Later turns send it again unchanged, so each request begins with the
	// bytes of the one before, until a summary fold: the exchange a fold
	// keeps verbatim is shown without its block from then on.
	Context string `json:"context,omitempty"`
	// Shown records what Context told the model, so a later turn's block
	// adds only what changed since.
	Shown *Shown `json:"shown,omitempty"`
	// SummaryThrough is the last exchange the summary in a user message's
	// prompt covered (0: no summary).
	SummaryThrough int `json:"summary_through,omitempty"`
	// About lists, in order, the entities an assistant reply was about, as
	// the offline responder recorded them (opaque kind and id pairs), so a
	// later turn on any instance can resolve "she" or "the first one".
	About []Subject `json:"about,omitempty"`
	// Tokens is the message's token count as the prompt budget counts it
	// (Context and the delimited Content of a user message, less the tool
	// descriptions its data block carries), computed once when the message
	// is written; 0 for a message written before counts were stored,
	// which its reader counts itself.
	Tokens int `json:"tk,omitempty"`
	// WordsTokens is a user message's token count without its data block
	// (the delimited Content alone), computed with Tokens when the message
	// has a block: the prompt that shows it without the block (see
	// Context) counts that. 0 otherwise, and for a message written before
	// these counts were stored, which its reader counts itself.
	WordsTokens int `json:"tkw,omitempty"`
}

// Subject is an entity an exchange was about: an opaque kind and id that
// the session stores and hands back unchanged.
type Subject struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	// Focus marks the subject the reply singled out among several (the
	// one a "which one" question chose), opaque as the rest.
	Focus bool `json:"focus,omitempty"`
}

// Shown is what a user message's data block told the model.
type Shown struct {
	// Screen, when set, is the screen context the block gave ("" for none:
	// the player left the screen it named before).
	Screen *string `json:"screen,omitempty"`
	// Player, when set, is the player block the data block gave ("" for
	// none: the player state is no longer known).
	Player *string `json:"player,omitempty"`
	// Results are the cached tool results the block holds, in full or as
	// one line.
	Results []ShownResult `json:"results,omitempty"`
	// Retired are results of earlier blocks this one marks as no longer
	// current (expired, or computed from older game data).
	Retired []ShownResult `json:"retired,omitempty"`
	// Tools are the tools the block described, to be called through
	// use_tool (TOOL_SELECTION=deferred): a name, with "@v" and the
	// version for a versioned tool.
	Tools []string `json:"tools,omitempty"`
}

// ShownResult names one cached tool result a data block held: its cache
// entry (key and the exchange it was cached at) and the call it answers.
type ShownResult struct {
	Key        string          `json:"key"`
	CachedAt   int             `json:"cached_at_exchange"`
	Tool       string          `json:"tool"`
	Parameters json.RawMessage `json:"parameters"`
	// Stub marks a result the block gave as one line (to be called to
	// read), not in full: a later block may give it in full.
	Stub bool `json:"stub,omitempty"`
}
