// Package offline answers players without an LLM. It reads the message, the
// screen the player is on (with the results the screen rules already
// fetched) and the session's locale; finds the champions, bosses, factions,
// dungeons and gear sets the player names (tolerating typos and localized
// names); picks the tools an assistant would call for the question; runs
// them through the turn's runner (so the session cache and duplicate
// detection apply) and writes a short, clean answer in the player's
// language from their data. It serves deployments with no LLM configured
// and is the fallback when the LLM fails: cmd/gameassist builds it with
// the game's names and glossary and gives it to the chat service as its
// Fallback.
//
// Replies use one markup convention, a small markdown subset: **bold** and
// list items starting with "- ". Nothing else (no headings, tables, links
// or HTML) is emitted.
package offline

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/gameassist/gameassist/textsearch/glossary"
	"github.com/gameassist/gameassist/tool"
)

// Executor runs tool calls and knows the registry; *tool.Executor satisfies it.
type Executor interface {
	Execute(ctx context.Context, call tool.Call) tool.Result
	Registry() *tool.Registry
}

// RunFunc runs a batch of calls within a session's turn (so the session
// cache and duplicate detection apply) and returns outcomes in call order.
type RunFunc func(ctx context.Context, calls []tool.Call) []tool.Outcome

// Options tunes the responder; zero values take the defaults.
type Options struct {
	// Logger receives list refresh failures; nil discards.
	Logger *slog.Logger
	// Names finds entity names in messages and screen ids (the game's one
	// resolver: *gcsdb.Game); nil finds none, as for a studio's own game.
	Names Names
	// Glossary holds the game's terms in other languages (the content's
	// glossary.json): a message with one of them is about the game. Nil
	// adds none.
	Glossary *glossary.Glossary
}

// Responder answers messages from tool data alone. It is safe for
// concurrent use.
type Responder struct {
	exec  Executor
	log   *slog.Logger
	names map[string]bool // registered tool names
	// params holds each registered tool's declared argument names.
	params    map[string]map[string]bool
	gameNames Names
	glossary  *glossary.Glossary
}

// New returns a responder over exec.
func New(exec Executor, opts Options) (*Responder, error) {
	if exec == nil || exec.Registry() == nil {
		return nil, errors.New("offline: responder needs an executor with a registry")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	names := map[string]bool{}
	params := map[string]map[string]bool{}
	for _, s := range exec.Registry().Specs(nil) {
		names[s.Name] = true
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if json.Unmarshal(s.Parameters, &schema) == nil {
			params[s.Name] = map[string]bool{}
			for k := range schema.Properties {
				params[s.Name][k] = true
			}
		}
	}
	return &Responder{exec: exec, log: log, names: names, params: params, gameNames: opts.Names, glossary: opts.Glossary}, nil
}

// Request is what the responder knows about a turn.
type Request struct {
	Message string
	// Screen is the name of the screen the player is on, "" if unknown.
	Screen string
	// ScreenData is the screen's data object as the game sent it (player
	// controlled: read as data only); nil if none.
	ScreenData json.RawMessage
	// Locale is the session's locale (en, fr, de); others answer in English.
	Locale string
	// Context holds results the session already has: the screen rules'
	// proactive results and other live cache entries. The responder reuses
	// their calls verbatim, so the runner serves them from the cache.
	Context []Prior
	// ScreenAt is when the player reached Screen (zero: unknown).
	ScreenAt time.Time
	// History holds the session's recent exchanges, oldest first, with
	// their subjects: follow-ups ("and her skills?", "the second one")
	// resolve to them, or to the screen when it is newer.
	History []Exchange
}

// Prior is a tool call the session already answered, with its result.
type Prior struct {
	Name      string
	Arguments json.RawMessage
	Result    tool.Result
}

// Answer is the responder's reply with the tool outcomes behind it.
type Answer struct {
	Text     string
	Plan     Plan
	Outcomes []tool.Outcome
	// About are the subjects of the answer, in order, for the session to
	// record with it.
	About []Subject
}

// Answer plans the tools for req, runs them with run and writes the reply.
// It never fails: missing data turns into a helpful answer.
func (r *Responder) Answer(ctx context.Context, req Request, run RunFunc) Answer {
	p := r.plan(ctx, req)
	var outs []tool.Outcome
	if len(p.Calls) > 0 && run != nil {
		outs = run(ctx, p.Calls)
		if p.Latest {
			outs = r.answerLatestPatch(ctx, p, outs, run)
		}
	}
	return Answer{Text: r.render(p, outs), Plan: p, Outcomes: outs, About: about(p, outs)}
}

// Plan reads message (said on screen, "" if unknown) and chooses the tool
// calls that answer it. Tools missing from the registry are left out.
func (r *Responder) Plan(ctx context.Context, message, screen string) Plan {
	return r.plan(ctx, Request{Message: message, Screen: screen})
}

// Entities returns the entities named in message, in order.
func (r *Responder) Entities(ctx context.Context, message string) []Entity {
	return r.entities(ctx).Resolve(message)
}

func argsOf(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}
