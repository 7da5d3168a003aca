package chat

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gameassist/gameassist/memory"
)

// ExchangeRecorder records what each exchange of a session was answered
// with, for as long as the session lives, for players' ratings of it: the
// turn builds the record, StampExchange completes it (with the trace the
// turn ran in, say) and the session Store keeps it with the turn's
// messages (memory.Finish.Exchange), in the same round trip.
// RecordExchanges stamps nothing.
type ExchangeRecorder interface {
	StampExchange(ctx context.Context, e *memory.Exchange)
}

// RecordExchanges is the ExchangeRecorder that records exchanges as the
// turn built them.
type RecordExchanges struct{}

// StampExchange leaves e as it is.
func (RecordExchanges) StampExchange(context.Context, *memory.Exchange) {}

// OfflineModel is the model an exchange answered by the offline responder
// is recorded with.
const OfflineModel = "offline"

// exchangeRecord is the record of a turn about to be recorded (nil when
// exchanges are not recorded): the player's message, the reply, the
// screen, the tool calls and the model.
func (s *Service) exchangeRecord(ctx context.Context, meta memory.Meta, message string, rep Reply, summaryThrough int, at time.Time) *memory.Exchange {
	if s.exchanges == nil {
		return nil
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
	e.Tools = make([]memory.ExchangeTool, 0, len(rep.ToolCalls))
	for _, o := range rep.ToolCalls {
		args := o.Arguments
		if len(args) == 0 || !json.Valid(args) {
			args = json.RawMessage(`{}`)
		}
		e.Tools = append(e.Tools, memory.ExchangeTool{
			Name: o.Name, Arguments: args, Source: string(o.Source), Status: string(o.Status), Version: o.Version,
		})
	}
	if len(e.Tools) == 0 {
		e.Tools = nil
	}
	s.exchanges.StampExchange(ctx, &e)
	return &e
}
