// Package feedback keeps players' ratings of answers: each rating is a
// durable record in a capped Redis stream holding what reproduces the
// exchange (screen, earlier messages, the question, the reply, the tool
// calls, the model, the trace), with an index so a second rating of an
// exchange replaces the first, and counts of ratings per tool, tool version
// and screen. Studios list the records and turn each into an eval scenario.
package feedback

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/memory"
)

// Ratings.
const (
	Up   = "up"
	Down = "down"
)

// Errors for the HTTP layer to map.
var (
	// ErrNotFound: no such record.
	ErrNotFound = errors.New("feedback: not found")
	// ErrNoExchange: the session has no such exchange (never answered, or
	// no longer kept).
	ErrNoExchange = errors.New("feedback: no such exchange in this session")
	// ErrInvalid: a rating, comment or query the service refuses.
	ErrInvalid = errors.New("feedback: invalid")
)

// Record is one rating with what reproduces the rated exchange. Player,
// message, reply, window and comment are player-controlled text: data.
type Record struct {
	// ID is the record's stream entry id, newest greatest.
	ID        string `json:"id"`
	SessionID string `json:"session_id"`
	PlayerID  string `json:"player_id,omitempty"`
	Locale    string `json:"locale"`
	Exchange  int    `json:"exchange"`
	// Screen is the screen the exchange was answered on.
	Screen  *memory.ExchangeScreen `json:"screen,omitempty"`
	Message string                 `json:"message"`
	Reply   string                 `json:"reply"`
	Tools   []memory.ExchangeTool  `json:"tools"`
	// Window holds the earlier messages the exchange was answered with
	// (copied: the session expires, the record stays).
	Window     []WindowMessage `json:"window"`
	Model      string          `json:"model,omitempty"`
	Degraded   bool            `json:"degraded,omitempty"`
	TraceID    string          `json:"trace_id,omitempty"`
	SpanID     string          `json:"span_id,omitempty"`
	Rating     string          `json:"rating"`
	Comment    string          `json:"comment,omitempty"`
	AnsweredAt time.Time       `json:"answered_at,omitzero"`
	At         time.Time       `json:"at"`
}

// WindowMessage is one earlier message of a rated exchange's window.
type WindowMessage struct {
	Role     string `json:"role"`
	Content  string `json:"content"`
	Exchange int    `json:"exchange"`
	// Screen is the screen its exchange was answered on, when known.
	Screen *memory.ExchangeScreen `json:"screen,omitempty"`
}

// Options tune a Store; zero values take the defaults.
type Options struct {
	// Prefix starts every key (default "ga"); it must not hold braces.
	Prefix string
	// Max caps the stream (FEEDBACK_MAX, default 100,000), trimmed
	// approximately, oldest first.
	Max int64
	// IndexTTL is how long a session's rated exchanges are remembered, so
	// a later rating replaces the earlier one (default 7 days; a session
	// can only be rated while it lives).
	IndexTTL time.Duration
	// MaxCountFields bounds the per tool, version and screen counts
	// (default 10,000 fields).
	MaxCountFields int
}

// Store keeps the records in Redis. Every key carries the hash tag
// {feedback}, so the stream, the index and the counts share one slot and
// its script runs on Redis Cluster: "<prefix>:{feedback}:stream",
// "<prefix>:{feedback}:by:<session>" (exchange → "<entry id> <rating>")
// and "<prefix>:{feedback}:counts".
type Store struct {
	rdb  redis.UniversalClient
	opts Options
}

// NewStore returns a Store over rdb (single node, Sentinel or Cluster).
func NewStore(rdb redis.UniversalClient, opts Options) (*Store, error) {
	if rdb == nil {
		return nil, errors.New("feedback: new store: nil redis client")
	}
	if opts.Prefix == "" {
		opts.Prefix = "ga"
	}
	if strings.ContainsAny(opts.Prefix, "{}") {
		return nil, fmt.Errorf("feedback: new store: prefix %q holds a hash tag brace", opts.Prefix)
	}
	if opts.Max == 0 {
		opts.Max = 100_000
	}
	if opts.IndexTTL == 0 {
		opts.IndexTTL = 7 * 24 * time.Hour
	}
	if opts.MaxCountFields == 0 {
		opts.MaxCountFields = 10_000
	}
	switch {
	case opts.Max < 1:
		return nil, fmt.Errorf("feedback: new store: max %d, want at least 1", opts.Max)
	case opts.IndexTTL < time.Second:
		return nil, fmt.Errorf("feedback: new store: index TTL %s too small", opts.IndexTTL)
	case opts.MaxCountFields < 1:
		return nil, fmt.Errorf("feedback: new store: max count fields %d, want at least 1", opts.MaxCountFields)
	}
	return &Store{rdb: rdb, opts: opts}, nil
}

func (s *Store) key(part string) string { return s.opts.Prefix + ":{feedback}:" + part }

// putSrc adds a record, drops the one it replaces and moves the counts.
// KEYS: stream, index, counts. ARGV: max, exchange, index_ttl_ms, rating,
// record, max_count_fields, n, dimension...
// Returns {new id, previous "<id> <rating>" or ""}.
const putSrc = `
local prev = redis.call('HGET', KEYS[2], ARGV[2])
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'rating', ARGV[4], 'rec', ARGV[5])
local oldRating = false
if prev then
  local sp = string.find(prev, ' ', 1, true)
  if sp then
    redis.call('XDEL', KEYS[1], string.sub(prev, 1, sp - 1))
    oldRating = string.sub(prev, sp + 1)
  end
end
redis.call('HSET', KEYS[2], ARGV[2], id .. ' ' .. ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
local n = tonumber(ARGV[7])
for i = 1, n do
  local d = ARGV[7 + i]
  if oldRating then
    local of = d .. '|' .. oldRating
    if tonumber(redis.call('HGET', KEYS[3], of) or '0') > 0 then redis.call('HINCRBY', KEYS[3], of, -1) end
  end
  local f = d .. '|' .. ARGV[4]
  if redis.call('HEXISTS', KEYS[3], f) == 1 or redis.call('HLEN', KEYS[3]) < tonumber(ARGV[6]) then
    redis.call('HINCRBY', KEYS[3], f, 1)
  end
end
return {id, prev or ''}
`

var putScript = redis.NewScript(putSrc)

// dimensions are the count fields a record moves: all, each tool, each
// tool version, the screen.
func dimensions(r Record) []string {
	dims := []string{"all"}
	seen := map[string]bool{}
	for _, t := range r.Tools {
		if t.Source == "skipped" {
			continue
		}
		for _, d := range []string{"tool:" + t.Name, "version:" + t.Name + "@" + strconv.Itoa(t.Version)} {
			if !seen[d] {
				seen[d] = true
				dims = append(dims, d)
			}
		}
	}
	if r.Screen != nil {
		dims = append(dims, "screen:"+r.Screen.Name)
	}
	return dims
}

// Put stores r (its ID is set by Redis) and reports whether it replaced
// an earlier rating of the same exchange, which it removes.
func (s *Store) Put(ctx context.Context, r Record) (Record, bool, error) {
	r.ID = ""
	b, err := json.Marshal(r)
	if err != nil {
		return Record{}, false, fmt.Errorf("feedback: put: %w", err)
	}
	dims := dimensions(r)
	args := []any{s.opts.Max, r.Exchange, s.opts.IndexTTL.Milliseconds(), r.Rating, string(b), s.opts.MaxCountFields, len(dims)}
	for _, d := range dims {
		args = append(args, d)
	}
	keys := []string{s.key("stream"), s.key("by:" + r.SessionID), s.key("counts")}
	res, err := putScript.Run(ctx, s.rdb, keys, args...).StringSlice()
	if err != nil {
		return Record{}, false, fmt.Errorf("feedback: put %s#%d: %w", r.SessionID, r.Exchange, err)
	}
	if len(res) != 2 {
		return Record{}, false, fmt.Errorf("feedback: put %s#%d: script returned %d values", r.SessionID, r.Exchange, len(res))
	}
	r.ID = res[0]
	return r, res[1] != "", nil
}

// idPattern is a stream entry id.
var idPattern = regexp.MustCompile(`^[0-9]{1,20}-[0-9]{1,20}$`)

// ValidID reports whether id can name a record.
func ValidID(id string) bool { return idPattern.MatchString(id) }

// Get returns one record, or an error wrapping ErrNotFound.
func (s *Store) Get(ctx context.Context, id string) (Record, error) {
	if !ValidID(id) {
		return Record{}, fmt.Errorf("feedback: get %q: %w", clip(id), ErrNotFound)
	}
	msgs, err := s.rdb.XRangeN(ctx, s.key("stream"), id, id, 1).Result()
	if err != nil {
		return Record{}, fmt.Errorf("feedback: get %s: %w", id, err)
	}
	if len(msgs) == 0 {
		return Record{}, fmt.Errorf("feedback: get %s: %w", id, ErrNotFound)
	}
	return decode(msgs[0])
}

func decode(m redis.XMessage) (Record, error) {
	raw, _ := m.Values["rec"].(string)
	var r Record
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		return Record{}, fmt.Errorf("feedback: stored record %s: %w", m.ID, err)
	}
	r.ID = m.ID
	return r, nil
}

// Query selects records, newest first.
type Query struct {
	// Rating is "up", "down" or "" (both).
	Rating string
	// Since keeps records rated at or after it (zero: all).
	Since time.Time
	// Tool keeps records whose exchange called this tool; Screen those
	// answered on this screen.
	Tool   string
	Screen string
	// Limit is the page size (default 50, at most 200).
	Limit int
	// Cursor is a previous page's NextCursor ("": the newest).
	Cursor string
}

// Page is one page of records, newest first.
type Page struct {
	Records []Record `json:"records"`
	// NextCursor continues the listing ("" at the end).
	NextCursor string `json:"next_cursor,omitempty"`
}

// scanBudget bounds how many records one List reads while filtering; a
// page cut by it still has a cursor to go on from.
const scanBudget = 5000

// List returns records matching q, newest first.
func (s *Store) List(ctx context.Context, q Query) (Page, error) {
	if q.Limit <= 0 {
		q.Limit = 50
	}
	if q.Limit > 200 {
		return Page{}, fmt.Errorf("%w: limit %d is over 200", ErrInvalid, q.Limit)
	}
	if q.Rating != "" && q.Rating != Up && q.Rating != Down {
		return Page{}, fmt.Errorf("%w: rating %q is not up or down", ErrInvalid, clip(q.Rating))
	}
	end := "+"
	if q.Cursor != "" {
		if !ValidID(q.Cursor) {
			return Page{}, fmt.Errorf("%w: cursor %q is not one this server issued", ErrInvalid, clip(q.Cursor))
		}
		end = "(" + q.Cursor
	}
	start := "-"
	if !q.Since.IsZero() {
		start = strconv.FormatInt(max(0, q.Since.UnixMilli()), 10)
	}
	page := Page{Records: []Record{}}
	scanned := 0
	for {
		batch := int64(min(500, scanBudget-scanned))
		msgs, err := s.rdb.XRevRangeN(ctx, s.key("stream"), end, start, batch).Result()
		if err != nil {
			return Page{}, fmt.Errorf("feedback: list: %w", err)
		}
		for _, m := range msgs {
			scanned++
			r, err := decode(m)
			if err != nil {
				return Page{}, err
			}
			if q.matches(r) {
				page.Records = append(page.Records, r)
				if len(page.Records) == q.Limit {
					page.NextCursor = m.ID
					return page, nil
				}
			}
		}
		if int64(len(msgs)) < batch {
			return page, nil
		}
		last := msgs[len(msgs)-1].ID
		if scanned >= scanBudget {
			page.NextCursor = last
			return page, nil
		}
		end = "(" + last
	}
}

func (q Query) matches(r Record) bool {
	if q.Rating != "" && r.Rating != q.Rating {
		return false
	}
	if !q.Since.IsZero() && r.At.Before(q.Since) {
		return false
	}
	if q.Screen != "" && (r.Screen == nil || r.Screen.Name != q.Screen) {
		return false
	}
	if q.Tool != "" && !slices.ContainsFunc(r.Tools, func(t memory.ExchangeTool) bool { return t.Name == q.Tool }) {
		return false
	}
	return true
}

// Stats are rating counts overall and per tool, tool version and screen.
type Stats struct {
	Total        Rate   `json:"total"`
	Tools        []Rate `json:"tools"`
	ToolVersions []Rate `json:"tool_versions"`
	Screens      []Rate `json:"screens"`
}

// Rate counts the ratings of exchanges that share one tool, tool version
// or screen; DownRate is Down / (Up + Down).
type Rate struct {
	Name     string  `json:"name,omitempty"`
	Version  *int    `json:"version,omitempty"`
	Up       int64   `json:"up"`
	Down     int64   `json:"down"`
	DownRate float64 `json:"down_rate"`
}

// Stats reads the counts, each list by name.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	raw, err := s.rdb.HGetAll(ctx, s.key("counts")).Result()
	if err != nil {
		return Stats{}, fmt.Errorf("feedback: stats: %w", err)
	}
	rates := map[string]*Rate{}
	for field, v := range raw {
		i := strings.LastIndexByte(field, '|')
		if i < 0 {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			continue
		}
		dim, rating := field[:i], field[i+1:]
		r := rates[dim]
		if r == nil {
			r = &Rate{}
			rates[dim] = r
		}
		switch rating {
		case Up:
			r.Up = n
		case Down:
			r.Down = n
		}
	}
	st := Stats{Tools: []Rate{}, ToolVersions: []Rate{}, Screens: []Rate{}}
	for dim, r := range rates {
		if total := r.Up + r.Down; total > 0 {
			r.DownRate = float64(r.Down) / float64(total)
		}
		kind, name, _ := strings.Cut(dim, ":")
		switch kind {
		case "all":
			st.Total = *r
		case "tool":
			r.Name = name
			st.Tools = append(st.Tools, *r)
		case "version":
			at := strings.LastIndexByte(name, '@')
			if at < 0 {
				continue
			}
			v, err := strconv.Atoi(name[at+1:])
			if err != nil {
				continue
			}
			r.Name, r.Version = name[:at], &v
			st.ToolVersions = append(st.ToolVersions, *r)
		case "screen":
			r.Name = name
			st.Screens = append(st.Screens, *r)
		}
	}
	byName := func(a, b Rate) int {
		av, bv := 0, 0
		if a.Version != nil {
			av = *a.Version
		}
		if b.Version != nil {
			bv = *b.Version
		}
		return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(av, bv))
	}
	slices.SortFunc(st.Tools, byName)
	slices.SortFunc(st.ToolVersions, byName)
	slices.SortFunc(st.Screens, byName)
	return st, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return strings.ToValidUTF8(s[:40], "") + "..."
	}
	return s
}
