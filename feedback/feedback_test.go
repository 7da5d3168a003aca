package feedback_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/feedback"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

// backends are a real single redis-server and a real 3-master cluster.
var backends []redistest.Backend

func TestMain(m *testing.M) {
	redistest.MainBackends(m, func(s *redistest.Server, c *redistest.Cluster) {
		backends = []redistest.Backend{s, c}
	})
}

type env struct {
	mem   *memory.Store
	store *feedback.Store
	svc   *feedback.Service
	now   time.Time
}

func newEnv(t *testing.T, b redistest.Backend, opts feedback.Options) *env {
	t.Helper()
	rdb := b.UniversalClient(t)
	prefix := b.Prefix(t)
	mem, err := memory.New(rdb, memory.Options{Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	opts.Prefix = prefix
	st, err := feedback.NewStore(rdb, opts)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{mem: mem, store: st, now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
	e.svc, err = feedback.NewService(mem, st, func() time.Time { return e.now })
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var (
	bossScreen  = &memory.ExchangeScreen{Name: "BossBattlePresenter", Data: json.RawMessage(`{"BossConfigId":5001}`)}
	champScreen = &memory.ExchangeScreen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId":1001}`)}
)

// exchange answers one turn of session id the way the chat engine records
// it: history messages and the exchange's details.
func (e *env) exchange(t *testing.T, id, msg, reply string, sc *memory.ExchangeScreen, tools ...memory.ExchangeTool) int {
	t.Helper()
	ctx := context.Background()
	turn, err := e.mem.BeginTurn(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	n := turn.Meta.Exchange
	err = e.mem.FinishTurn(ctx, id, memory.Finish{Messages: []memory.Message{
		{Role: "user", Content: msg, Exchange: n}, {Role: "assistant", Content: reply, Exchange: n},
	}})
	if err != nil {
		t.Fatal(err)
	}
	x := memory.Exchange{Exchange: n, Message: msg, Reply: reply, Screen: sc, Tools: tools, Model: "gpt-4o-mini",
		TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", SpanID: "00f067aa0ba902b7", At: e.now}
	if err := e.mem.SaveExchange(ctx, id, x); err != nil {
		t.Fatal(err)
	}
	return n
}

func (e *env) session(t *testing.T, id string) {
	t.Helper()
	if err := e.mem.CreateSession(context.Background(), memory.Meta{ID: id, PlayerID: "player-" + id, Locale: "fr"}); err != nil {
		t.Fatal(err)
	}
}

func counters(v int) memory.ExchangeTool {
	return memory.ExchangeTool{Name: "gcs_find_counters_for_boss", Arguments: json.RawMessage(`{"boss_name":"Fire Knight"}`), Source: "executed", Status: "success", Version: v}
}

func TestRateRecordsTheExchangeAndReplaces(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, b, feedback.Options{})
		e.session(t, "s1")
		e.exchange(t, "s1", "hello", "Hi! Ask me about the game.", champScreen)
		n := e.exchange(t, "s1", "who counters this boss?", "Aria.\nThen Bran.", bossScreen, counters(2))

		rec, replaced, err := e.svc.Rate(ctx, feedback.Rating{SessionID: "s1", Exchange: n, Rating: "down", Comment: "  wrong boss <script>alert(1)</script>  "})
		if err != nil || replaced {
			t.Fatalf("Rate = %v, replaced %v", err, replaced)
		}
		got, err := e.store.Get(ctx, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := feedback.Record{
			ID: rec.ID, SessionID: "s1", PlayerID: "player-s1", Locale: "fr", Exchange: 2, Screen: bossScreen,
			Message: "who counters this boss?", Reply: "Aria.\nThen Bran.", Tools: []memory.ExchangeTool{counters(2)},
			Window: []feedback.WindowMessage{
				{Role: "user", Content: "hello", Exchange: 1, Screen: champScreen},
				{Role: "assistant", Content: "Hi! Ask me about the game.", Exchange: 1, Screen: champScreen},
			},
			Model: "gpt-4o-mini", TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", SpanID: "00f067aa0ba902b7",
			Rating: "down", Comment: "wrong boss <script>alert(1)</script>", AnsweredAt: e.now, At: e.now,
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(want)
		if string(gb) != string(wb) {
			t.Errorf("record:\n got %s\nwant %s", gb, wb)
		}

		// A second rating of the exchange replaces the first.
		again, replaced, err := e.svc.Rate(ctx, feedback.Rating{SessionID: "s1", Exchange: n, Rating: "up"})
		if err != nil || !replaced {
			t.Fatalf("second Rate = %v, replaced %v", err, replaced)
		}
		if _, err := e.store.Get(ctx, rec.ID); !errors.Is(err, feedback.ErrNotFound) {
			t.Errorf("the replaced record is still there: %v", err)
		}
		page, err := e.store.List(ctx, feedback.Query{})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Records) != 1 || page.Records[0].ID != again.ID || page.Records[0].Rating != "up" {
			t.Errorf("records after replacing = %+v", page.Records)
		}
		st, err := e.store.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Total.Up != 1 || st.Total.Down != 0 {
			t.Errorf("totals after replacing = %+v, want the down moved to up", st.Total)
		}
	})
}

func TestRateRefusals(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, b, feedback.Options{})
		e.session(t, "s1")
		n := e.exchange(t, "s1", "hi", "hello", nil)
		// An exchange begun but never answered has no record.
		if _, err := e.mem.BeginTurn(ctx, "s1"); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name string
			r    feedback.Rating
			want error
		}{
			{"future exchange", feedback.Rating{SessionID: "s1", Exchange: n + 5, Rating: "up"}, feedback.ErrNoExchange},
			{"unanswered exchange", feedback.Rating{SessionID: "s1", Exchange: n + 1, Rating: "up"}, feedback.ErrNoExchange},
			{"exchange zero", feedback.Rating{SessionID: "s1", Exchange: 0, Rating: "up"}, feedback.ErrInvalid},
			{"bad rating", feedback.Rating{SessionID: "s1", Exchange: n, Rating: "meh"}, feedback.ErrInvalid},
			{"long comment", feedback.Rating{SessionID: "s1", Exchange: n, Rating: "down", Comment: strings.Repeat("é", 1001)}, feedback.ErrInvalid},
			{"unknown session", feedback.Rating{SessionID: "nope", Exchange: 1, Rating: "up"}, memory.ErrNotFound},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if _, _, err := e.svc.Rate(ctx, tt.r); !errors.Is(err, tt.want) {
					t.Errorf("Rate = %v, want %v", err, tt.want)
				}
			})
		}
		if page, _ := e.store.List(ctx, feedback.Query{}); len(page.Records) != 0 {
			t.Errorf("refused ratings stored %d records", len(page.Records))
		}
		// 1000 runes exactly is fine.
		if _, _, err := e.svc.Rate(ctx, feedback.Rating{SessionID: "s1", Exchange: n, Rating: "down", Comment: strings.Repeat("é", 1000)}); err != nil {
			t.Errorf("1000-rune comment: %v", err)
		}
	})
}

func TestListFiltersAndPages(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, b, feedback.Options{})
		e.session(t, "s1")
		start := e.now
		for i := range 7 {
			var tools []memory.ExchangeTool
			sc := champScreen
			if i%2 == 0 {
				tools, sc = []memory.ExchangeTool{counters(1)}, bossScreen
			}
			n := e.exchange(t, "s1", "q", "a", sc, tools...)
			rating := "up"
			if i%3 == 0 {
				rating = "down"
			}
			e.now = start.Add(time.Duration(i) * time.Hour)
			if _, _, err := e.svc.Rate(ctx, feedback.Rating{SessionID: "s1", Exchange: n, Rating: rating}); err != nil {
				t.Fatal(err)
			}
		}
		list := func(q feedback.Query) []int {
			t.Helper()
			var out []int
			for {
				p, err := e.store.List(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range p.Records {
					out = append(out, r.Exchange)
				}
				if p.NextCursor == "" {
					return out
				}
				q.Cursor = p.NextCursor
			}
		}
		tests := []struct {
			name string
			q    feedback.Query
			want string
		}{
			{"all newest first, pages of 2", feedback.Query{Limit: 2}, "[7 6 5 4 3 2 1]"},
			{"down", feedback.Query{Rating: "down"}, "[7 4 1]"},
			{"tool", feedback.Query{Tool: "gcs_find_counters_for_boss", Limit: 1}, "[7 5 3 1]"},
			{"screen", feedback.Query{Screen: "ChampionFeatureModelsPresenter"}, "[6 4 2]"},
			{"since", feedback.Query{Since: start.Add(4 * time.Hour)}, "[7 6 5]"},
			{"down since, on the boss", feedback.Query{Rating: "down", Since: start.Add(time.Hour), Screen: "BossBattlePresenter"}, "[7]"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if got := fmt.Sprint(list(tt.q)); got != tt.want {
					t.Errorf("exchanges = %s, want %s", got, tt.want)
				}
			})
		}
		for _, q := range []feedback.Query{{Cursor: "x"}, {Cursor: "1-2-3"}, {Rating: "sideways"}, {Limit: 201}} {
			if _, err := e.store.List(ctx, q); !errors.Is(err, feedback.ErrInvalid) {
				t.Errorf("List(%+v) = %v, want ErrInvalid", q, err)
			}
		}
		if _, err := e.store.Get(ctx, "99-0"); !errors.Is(err, feedback.ErrNotFound) {
			t.Errorf("Get(unknown) = %v", err)
		}
		if _, err := e.store.Get(ctx, "../etc"); !errors.Is(err, feedback.ErrNotFound) {
			t.Errorf("Get(bad id) = %v", err)
		}
	})
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return strings.NewReplacer(",", " ").Replace(string(b))
}

func TestStatsDownRatePerToolVersionAndScreen(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, b, feedback.Options{})
		e.session(t, "s1")
		rate := func(rating string, sc *memory.ExchangeScreen, tools ...memory.ExchangeTool) {
			n := e.exchange(t, "s1", "q", "a", sc, tools...)
			if _, _, err := e.svc.Rate(ctx, feedback.Rating{SessionID: "s1", Exchange: n, Rating: rating}); err != nil {
				t.Fatal(err)
			}
		}
		rate("down", bossScreen, counters(2), counters(2))
		rate("down", bossScreen, counters(2))
		rate("up", bossScreen, counters(1))
		rate("up", champScreen)
		skipped := memory.ExchangeTool{Name: "gcs_get_boss_details", Source: "skipped", Status: "success"}
		rate("up", champScreen, skipped)
		st, err := e.store.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := jsonOf(st)
		want := jsonOf(feedback.Stats{
			Total: feedback.Rate{Up: 3, Down: 2, DownRate: 0.4},
			Tools: []feedback.Rate{{Name: "gcs_find_counters_for_boss", Up: 1, Down: 2, DownRate: 2.0 / 3}},
			ToolVersions: []feedback.Rate{
				{Name: "gcs_find_counters_for_boss", Version: ptr(1), Up: 1, Down: 0, DownRate: 0},
				{Name: "gcs_find_counters_for_boss", Version: ptr(2), Up: 0, Down: 2, DownRate: 1},
			},
			Screens: []feedback.Rate{
				{Name: "BossBattlePresenter", Up: 1, Down: 2, DownRate: 2.0 / 3},
				{Name: "ChampionFeatureModelsPresenter", Up: 2, Down: 0, DownRate: 0},
			},
		})
		if got != want {
			t.Errorf("stats:\n got %s\nwant %s", got, want)
		}
	})
}

func ptr(v int) *int { return &v }

func TestStreamIsCapped(t *testing.T) {
	b := backends[0]
	ctx := context.Background()
	e := newEnv(t, b, feedback.Options{Max: 10})
	e.session(t, "s1")
	for range 300 {
		n := e.exchange(t, "s1", "q", "a", nil)
		if _, _, err := e.svc.Rate(ctx, feedback.Rating{SessionID: "s1", Exchange: n, Rating: "up"}); err != nil {
			t.Fatal(err)
		}
	}
	var total int
	q := feedback.Query{Limit: 200}
	for {
		p, err := e.store.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		total += len(p.Records)
		if p.NextCursor == "" {
			break
		}
		q.Cursor = p.NextCursor
	}
	// MAXLEN ~ trims whole stream nodes (100 entries each): far below 300.
	if total < 10 || total > 200 {
		t.Errorf("%d records kept with FEEDBACK_MAX 10 after 300, want 10..200", total)
	}
}

func TestNewStoreRefuses(t *testing.T) {
	rdb := backends[0].UniversalClient(t)
	for _, o := range []feedback.Options{{Prefix: "a{b"}, {Max: -1}, {IndexTTL: time.Millisecond}} {
		if _, err := feedback.NewStore(rdb, o); err == nil {
			t.Errorf("NewStore(%+v) succeeded", o)
		}
	}
	if _, err := feedback.NewStore(nil, feedback.Options{}); err == nil {
		t.Error("NewStore(nil) succeeded")
	}
}
