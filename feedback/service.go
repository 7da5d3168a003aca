package feedback

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gameassist/gameassist/memory"
)

// MaxCommentRunes bounds a player's comment.
const MaxCommentRunes = 1000

// maxWindow bounds the earlier messages copied into a record.
const maxWindow = 40

// Sessions is what a rating reads of the rated session; *memory.Store
// satisfies it.
type Sessions interface {
	Session(ctx context.Context, id string) (memory.Meta, error)
	History(ctx context.Context, id string) ([]memory.Message, error)
	Exchanges(ctx context.Context, id string, ns ...int) (map[int]memory.Exchange, error)
}

// Service turns ratings into records; build it with NewService.
type Service struct {
	sessions Sessions
	store    *Store
	now      func() time.Time
}

// NewService returns a Service reading sessions and writing to store; now
// is the clock of the records (nil: time.Now).
func NewService(sessions Sessions, store *Store, now func() time.Time) (*Service, error) {
	if sessions == nil || store == nil {
		return nil, errors.New("feedback: new service: nil sessions or store")
	}
	if now == nil {
		now = time.Now
	}
	return &Service{sessions: sessions, store: store, now: now}, nil
}

// Store is the service's record store.
func (s *Service) Store() *Store { return s.store }

// Rating is a player's rating of one exchange of their session.
type Rating struct {
	SessionID string
	Exchange  int
	Rating    string
	Comment   string
}

// Validate refuses a rating that is not up or down, an exchange below 1 or
// a comment over MaxCommentRunes runes or not UTF-8; errors wrap ErrInvalid.
func (r Rating) Validate() error {
	switch {
	case r.SessionID == "":
		return fmt.Errorf("%w: session_id is required", ErrInvalid)
	case r.Rating != Up && r.Rating != Down:
		return fmt.Errorf("%w: rating must be \"up\" or \"down\"", ErrInvalid)
	case r.Exchange < 1:
		return fmt.Errorf("%w: exchange must be a whole number from 1", ErrInvalid)
	case !utf8.ValidString(r.Comment):
		return fmt.Errorf("%w: comment is not valid UTF-8", ErrInvalid)
	case utf8.RuneCountInString(r.Comment) > MaxCommentRunes:
		return fmt.Errorf("%w: comment is longer than %d characters", ErrInvalid, MaxCommentRunes)
	}
	return nil
}

// Rate records a rating of an exchange the session has, with what
// reproduces it, and reports whether it replaced an earlier rating of that
// exchange. An exchange the session does not have (or no longer keeps) is
// an error wrapping ErrNoExchange; the caller has authorized the session.
func (s *Service) Rate(ctx context.Context, r Rating) (Record, bool, error) {
	r.Comment = strings.TrimSpace(r.Comment)
	if err := r.Validate(); err != nil {
		return Record{}, false, err
	}
	meta, err := s.sessions.Session(ctx, r.SessionID)
	if err != nil {
		return Record{}, false, fmt.Errorf("feedback: rate: %w", err)
	}
	if r.Exchange > meta.Exchange {
		return Record{}, false, fmt.Errorf("feedback: rate exchange %d of %s: %w", r.Exchange, r.SessionID, ErrNoExchange)
	}
	got, err := s.sessions.Exchanges(ctx, r.SessionID, r.Exchange)
	if err != nil {
		return Record{}, false, fmt.Errorf("feedback: rate: %w", err)
	}
	x, ok := got[r.Exchange]
	if !ok {
		return Record{}, false, fmt.Errorf("feedback: rate exchange %d of %s: %w", r.Exchange, r.SessionID, ErrNoExchange)
	}
	window, err := s.window(ctx, r.SessionID, x)
	if err != nil {
		return Record{}, false, err
	}
	rec := Record{
		SessionID: r.SessionID, PlayerID: meta.PlayerID, Locale: meta.Locale, Exchange: r.Exchange,
		Screen: x.Screen, Message: x.Message, Reply: x.Reply, Tools: x.Tools, Window: window,
		Model: x.Model, Degraded: x.Degraded, TraceID: x.TraceID, SpanID: x.SpanID,
		Rating: r.Rating, Comment: r.Comment, AnsweredAt: x.At, At: s.now().UTC(),
	}
	if rec.Tools == nil {
		rec.Tools = []memory.ExchangeTool{}
	}
	return s.store.Put(ctx, rec)
}

// window copies the earlier messages exchange x was answered with: those
// after the prompt's summary and before x, at most maxWindow, each with the
// screen of its exchange when known.
func (s *Service) window(ctx context.Context, id string, x memory.Exchange) ([]WindowMessage, error) {
	hist, err := s.sessions.History(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("feedback: rate: %w", err)
	}
	var out []WindowMessage
	var ns []int
	for _, m := range hist {
		if m.Exchange <= x.SummaryThrough || m.Exchange >= x.Exchange {
			continue
		}
		out = append(out, WindowMessage{Role: m.Role, Content: m.Content, Exchange: m.Exchange})
		if len(ns) == 0 || ns[len(ns)-1] != m.Exchange {
			ns = append(ns, m.Exchange)
		}
	}
	if len(out) > maxWindow {
		out = out[len(out)-maxWindow:]
	}
	if len(out) == 0 {
		return []WindowMessage{}, nil
	}
	screens, err := s.sessions.Exchanges(ctx, id, ns...)
	if err != nil {
		return nil, fmt.Errorf("feedback: rate: %w", err)
	}
	for i := range out {
		if e, ok := screens[out[i].Exchange]; ok {
			out[i].Screen = e.Screen
		}
	}
	return out, nil
}

// List returns records matching q, newest first (see Store.List).
func (s *Service) List(ctx context.Context, q Query) (Page, error) { return s.store.List(ctx, q) }

// Get returns one record (see Store.Get).
func (s *Service) Get(ctx context.Context, id string) (Record, error) { return s.store.Get(ctx, id) }

// Stats returns the rating counts (see Store.Stats).
func (s *Service) Stats(ctx context.Context) (Stats, error) { return s.store.Stats(ctx) }
