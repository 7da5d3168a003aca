package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Exchange is what one exchange of a session was answered with, kept with
// the session (same TTL) so a player's rating of it can be turned into a
// record that reproduces it.
type Exchange struct {
	Exchange int `json:"exchange"`
	// Message is the player's message; Reply the answer.
	Message string `json:"message"`
	Reply   string `json:"reply"`
	// Screen is the screen the exchange was answered on (name and data).
	Screen *ExchangeScreen `json:"screen,omitempty"`
	// Tools are the turn's tool calls, in order.
	Tools []ExchangeTool `json:"tools,omitempty"`
	// Model answered the exchange ("offline": the offline responder).
	Model    string `json:"model,omitempty"`
	Degraded bool   `json:"degraded,omitempty"`
	// TraceID and SpanID name the turn's span when it was traced.
	TraceID string `json:"trace_id,omitempty"`
	SpanID  string `json:"span_id,omitempty"`
	// SummaryThrough is the last exchange the prompt's summary covered: the
	// history window the exchange was answered with starts after it.
	SummaryThrough int       `json:"summary_through,omitempty"`
	At             time.Time `json:"at"`
}

// ExchangeScreen is a screen as an exchange saw it.
type ExchangeScreen struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data,omitempty"`
}

// ExchangeTool is one tool call of an exchange.
type ExchangeTool struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Source    string          `json:"source"`
	Status    string          `json:"status"`
	Version   int             `json:"version,omitempty"`
}

// recordExchangeLua defines recordExchange(key, n, json, keep, ttl_ms),
// which stores exchange n in the exchanges hash at key, drops the one that
// left the bound (the last keep are kept) and renews the key's TTL. The
// scripts that record exchanges (saveExchangeSrc, finishSrc) start with it.
const recordExchangeLua = `
local function recordExchange(key, n, js, keep, ttl)
  redis.call('HSET', key, n, js)
  local old = tonumber(n) - tonumber(keep)
  if old > 0 then redis.call('HDEL', key, tostring(old)) end
  redis.call('PEXPIRE', key, ttl)
end
`

// saveExchangeSrc stores one exchange of a live session (recordExchange).
// KEYS: meta, exchanges. ARGV: ttl_ms, exchange, json, keep.
const saveExchangeSrc = recordExchangeLua + `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
recordExchange(KEYS[2], ARGV[2], ARGV[3], ARGV[4], ARGV[1])
return 1
`

var saveExchangeScript = redis.NewScript(saveExchangeSrc)

func (s *Store) exchangesKey(id string) string { return s.opts.Prefix + ":{" + id + "}:exchanges" }

// exchangesKept is how many exchanges a session keeps: as many as its
// history holds (two messages each), at least one.
func (s *Store) exchangesKept() int { return max(1, s.opts.HistoryMax/2) }

// SaveExchange records what exchange e.Exchange of session id was answered
// with. The session must exist; the record expires with it and only the
// last HistoryMax/2 exchanges are kept. A turn records its exchange with
// its messages instead (Finish.Exchange), in the same round trip.
func (s *Store) SaveExchange(ctx context.Context, id string, e Exchange) error {
	if !validID(id) {
		return notFound("save exchange", id)
	}
	x, err := s.encodeExchange(&e)
	if err != nil {
		return fmt.Errorf("memory: save exchange %s: %w", id, err)
	}
	n, err := saveExchangeScript.Run(ctx, s.rdb, []string{s.keys(id)[keyMeta], s.exchangesKey(id)}, s.ttlMillis(), x.n, x.val, s.exchangesKept()).Int()
	if err != nil {
		return wrap("save exchange", id, err)
	}
	if n == 0 {
		return notFound("save exchange", id)
	}
	return nil
}

// exchangeRecord is an exchange record as stored: its number and value.
type exchangeRecord struct {
	n   int
	val string
}

// encodeExchange encodes e for the exchanges hash (nil: no record).
func (s *Store) encodeExchange(e *Exchange) (*exchangeRecord, error) {
	if e == nil {
		return nil, nil
	}
	if e.Exchange < 1 {
		return nil, fmt.Errorf("exchange %d, want from 1", e.Exchange)
	}
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("exchange %d: %w", e.Exchange, err)
	}
	// Stored compressed when that is smaller; earlier versions' plain JSON
	// still reads (see pack).
	return &exchangeRecord{n: e.Exchange, val: string(packWith(s.z.fast, b))}, nil
}

// Exchanges returns the recorded exchanges of session id among ns, by
// number; numbers with no record (never recorded, or dropped) are absent.
func (s *Store) Exchanges(ctx context.Context, id string, ns ...int) (map[int]Exchange, error) {
	if !validID(id) {
		return nil, notFound("exchanges", id)
	}
	out := make(map[int]Exchange, len(ns))
	if len(ns) == 0 {
		return out, nil
	}
	fields := make([]string, len(ns))
	for i, n := range ns {
		fields[i] = strconv.Itoa(n)
	}
	vals, err := s.rdb.HMGet(ctx, s.exchangesKey(id), fields...).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, wrap("exchanges", id, err)
	}
	for i, v := range vals {
		str, ok := v.(string)
		if !ok {
			continue
		}
		var e Exchange
		js, err := s.z.unpack([]byte(str))
		if err == nil {
			err = json.Unmarshal(js, &e)
		}
		if err != nil {
			// A damaged record only costs the rating of that exchange.
			s.log.WarnContext(ctx, "memory: skip damaged exchange record", "session", id, "exchange", ns[i], "err", err)
			continue
		}
		out[ns[i]] = e
	}
	return out, nil
}
