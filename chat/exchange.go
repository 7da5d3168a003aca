package chat

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/gameassist/gameassist/memory"
)

// ExchangeRecorder keeps what each exchange of a session was answered
// with, for as long as the session lives; *memory.Store satisfies it.
type ExchangeRecorder interface {
	SaveExchange(ctx context.Context, sessionID string, e memory.Exchange) error
}

// OfflineModel is the model an exchange answered by the offline responder
// is recorded with.
const OfflineModel = "offline"

// recordExchange keeps the details of a recorded turn: the player's
// message, the reply, the screen, the tool calls and the model. A failure
// costs only the rating of that exchange: it is logged.
func (s *Service) recordExchange(ctx context.Context, meta memory.Meta, message string, rep Reply, summaryThrough int, at time.Time) {
	if s.exchanges == nil {
		return
	}
	e := memory.Exchange{
		Exchange: rep.Exchange, Message: message, Reply: rep.Reply, Model: s.opts.Model,
		Degraded: rep.Degraded, SummaryThrough: summaryThrough, At: at,
	}
	if s.llm == nil || rep.Degraded || e.Model == "" {
		e.Model = OfflineModel
	}
	if sc := meta.Screen; sc != nil {
		e.Screen = &memory.ExchangeScreen{Name: sc.Name, Data: sc.Data}
	}
	for _, o := range rep.ToolCalls {
		args := o.Arguments
		if len(args) == 0 || !json.Valid(args) {
			args = json.RawMessage(`{}`)
		}
		e.Tools = append(e.Tools, memory.ExchangeTool{
			Name: o.Name, Arguments: args, Source: string(o.Source), Status: string(o.Status), Version: o.Version,
		})
	}
	if err := s.exchanges.SaveExchange(ctx, meta.ID, e); err != nil {
		s.log.LogAttrs(ctx, slog.LevelWarn, "chat: record exchange details", slog.String("session_id", meta.ID),
			slog.Int("exchange", rep.Exchange), slog.String("error", err.Error()))
	}
}
