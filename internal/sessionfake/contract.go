package sessionfake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/memory"
)

// Sessions is what Contract checks: the calls package chat makes of its
// session store, with History and Cache to look at what was written.
// *memory.Store and *Store satisfy it.
type Sessions interface {
	CreateSession(ctx context.Context, m memory.Meta) error
	Session(ctx context.Context, id string) (memory.Meta, error)
	LockAndBegin(ctx context.Context, id string, wait time.Duration) (memory.Turn, memory.Lease, error)
	LockAndLoad(ctx context.Context, id string, wait time.Duration) (memory.Turn, memory.Lease, error)
	FinishTurn(ctx context.Context, id string, f memory.Finish) error
	Draft(lease memory.Lease, m memory.Message) *memory.Draft
	SaveScreen(ctx context.Context, id string, w memory.ScreenSave) error
	SaveSummary(ctx context.Context, id string, sm memory.Summary) (bool, error)
	History(ctx context.Context, id string) ([]memory.Message, error)
	Cache(ctx context.Context, id string) ([]memory.CacheEntry, error)
	SaveExchange(ctx context.Context, id string, e memory.Exchange) error
	Exchanges(ctx context.Context, id string, ns ...int) (map[int]memory.Exchange, error)
	PutPlayerState(ctx context.Context, playerID string, state []byte, at time.Time, ttl time.Duration) (memory.PlayerState, bool, error)
}

// busyWait is how long the contract lets a lock attempt wait for a holder
// that never lets go.
const busyWait = 20 * time.Millisecond

// Contract checks the session store semantics package chat relies on;
// open returns an empty store (with the default history window of
// HistoryMax messages) for one subtest.
func Contract(t *testing.T, open func(t *testing.T) Sessions) {
	ctx := context.Background()
	create := func(t *testing.T, st Sessions, id string) {
		t.Helper()
		if err := st.CreateSession(ctx, memory.Meta{ID: id, PlayerID: "p", Locale: "fr", TokenHash: "h"}); err != nil {
			t.Fatal(err)
		}
	}
	begin := func(t *testing.T, st Sessions, id string) (memory.Turn, memory.Lease) {
		t.Helper()
		turn, l, err := st.LockAndBegin(ctx, id, busyWait)
		if err != nil {
			t.Fatalf("LockAndBegin: %v", err)
		}
		return turn, l
	}
	entry := func(key string, at, d int) memory.CacheEntry {
		return memory.CacheEntry{Key: key, Tool: "t", Parameters: json.RawMessage(`{}`), Result: json.RawMessage(`{"status":"success"}`), CachedAt: at, Duration: d}
	}

	t.Run("create and read", func(t *testing.T) {
		st := open(t)
		at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
		if err := st.CreateSession(ctx, memory.Meta{ID: "s", PlayerID: "p", Locale: "fr", TokenHash: "h", CreatedAt: at, Exchange: 9}); err != nil {
			t.Fatal(err)
		}
		m, err := st.Session(ctx, "s")
		if err != nil || m.ID != "s" || m.PlayerID != "p" || m.Locale != "fr" || m.TokenHash != "h" || !m.CreatedAt.Equal(at) || m.Exchange != 0 || m.Screen != nil || m.Summary != nil {
			t.Fatalf("Session = %+v, %v", m, err)
		}
		if err := st.CreateSession(ctx, memory.Meta{ID: "s"}); err == nil {
			t.Error("a second session with the same id was created")
		}
		if err := st.CreateSession(ctx, memory.Meta{ID: "a{b}"}); err == nil {
			t.Error("a session with braces in its id was created")
		}
		for _, id := range []string{"nope", "a b", ""} {
			if _, err := st.Session(ctx, id); !errors.Is(err, memory.ErrNotFound) {
				t.Errorf("Session(%q): %v, want ErrNotFound", id, err)
			}
		}
	})

	t.Run("turns advance, record and expire", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		turn, l := begin(t, st, "s")
		if turn.Meta.Exchange != 1 || len(turn.History) != 0 || len(turn.Cache) != 0 {
			t.Fatalf("first turn %+v", turn)
		}
		sc := &memory.Screen{Name: "Home", Hash: "x"}
		err := st.FinishTurn(ctx, "s", memory.Finish{
			Messages: []memory.Message{{Role: "user", Content: "hi", Exchange: 1}, {Role: "assistant", Content: "hello", Exchange: 1}},
			Put:      []memory.CacheEntry{entry("a", 1, 1), entry("b", 1, 3)},
			Hits:     []string{"a", "gone"},
			Versions: map[string]int{"t": 2},
			Screen:   sc,
			Release:  l,
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Release(ctx); err != nil {
			t.Errorf("Release after the write released the lock: %v", err)
		}
		turn, l = begin(t, st, "s") // the write released the lock
		if turn.Meta.Exchange != 2 || len(turn.History) != 2 || turn.History[1].Content != "hello" ||
			turn.Meta.Versions["t"] != 2 || turn.Meta.Screen == nil || turn.Meta.Screen.Name != "Home" {
			t.Fatalf("second turn %+v", turn)
		}
		if len(turn.Cache) != 2 || turn.Cache[0].Key != "a" || turn.Cache[0].Hits != 1 || turn.Cache[1].Hits != 0 {
			t.Fatalf("second turn's cache %+v", turn.Cache)
		}
		if err := st.FinishTurn(ctx, "s", memory.Finish{Release: l}); err != nil {
			t.Fatal(err)
		}
		turn, l = begin(t, st, "s")
		defer func() { _ = l.Release(ctx) }()
		if turn.Meta.Exchange != 3 || len(turn.Cache) != 1 || turn.Cache[0].Key != "b" {
			t.Fatalf("third turn: exchange %d cache %+v, want only b (a expired after 2)", turn.Meta.Exchange, turn.Cache)
		}
		if c, err := st.Cache(ctx, "s"); err != nil || len(c) != 1 {
			t.Errorf("stored cache %+v, %v; want the expired entry gone", c, err)
		}
	})

	t.Run("a turn's write reports the stored summary", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		_, l := begin(t, st, "s")
		through := -1
		if err := st.FinishTurn(ctx, "s", memory.Finish{Release: l, SummaryThrough: &through}); err != nil {
			t.Fatal(err)
		}
		if through != 0 {
			t.Fatalf("no summary yet: SummaryThrough %d, want 0", through)
		}
		// A fold saved while the next turn runs, a write with a screen
		// and one without.
		for i, sc := range []*memory.Screen{{Name: "Home", Hash: "x"}, nil} {
			_, l = begin(t, st, "s")
			if _, err := st.SaveSummary(ctx, "s", memory.Summary{Text: "earlier", Through: 3 + i}); err != nil {
				t.Fatal(err)
			}
			through = -1
			msgs := []memory.Message{{Role: "user", Content: "hi", Exchange: 2 + i}}
			if err := st.FinishTurn(ctx, "s", memory.Finish{Messages: msgs, Screen: sc, Release: l, SummaryThrough: &through}); err != nil {
				t.Fatal(err)
			}
			if through != 3+i {
				t.Fatalf("write %d (screen %v): SummaryThrough %d, want %d", i, sc != nil, through, 3+i)
			}
		}
	})

	t.Run("a drafted message is recorded first", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		user := memory.Message{Role: "user", Content: "hi", Exchange: 1, Context: "<context>\n## Screen\nHome\n</context>"}
		reply := memory.Message{Role: "assistant", Content: "hello", Exchange: 1}
		_, l := begin(t, st, "s")
		if err := st.FinishTurn(ctx, "s", memory.Finish{Draft: st.Draft(l, user), Messages: []memory.Message{reply}, Release: l}); err != nil {
			t.Fatal(err)
		}
		// Alone, and drafted under no lock.
		_, l = begin(t, st, "s")
		user2 := memory.Message{Role: "user", Content: "bye", Exchange: 2}
		if err := st.FinishTurn(ctx, "s", memory.Finish{Draft: st.Draft(nil, user2), Release: l}); err != nil {
			t.Fatal(err)
		}
		h, err := st.History(ctx, "s")
		if err != nil || len(h) != 3 || h[0].Content != "hi" || h[0].Context != user.Context || h[1].Content != "hello" || h[2].Content != "bye" {
			t.Fatalf("history %+v, %v; want the drafted message, the reply, the second draft", h, err)
		}
	})

	t.Run("history window", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		msgs := make([]memory.Message, HistoryMax+5)
		for i := range msgs {
			msgs[i] = memory.Message{Role: "user", Content: fmt.Sprint(i)}
		}
		if err := st.FinishTurn(ctx, "s", memory.Finish{Messages: msgs}); err != nil {
			t.Fatal(err)
		}
		h, err := st.History(ctx, "s")
		if err != nil || len(h) != HistoryMax || h[0].Content != "5" || h[len(h)-1].Content != fmt.Sprint(HistoryMax+4) {
			t.Fatalf("history of %d messages (%v), want the last %d", len(h), err, HistoryMax)
		}
	})

	t.Run("busy", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		_, held, err := st.LockAndLoad(ctx, "s", busyWait)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := st.LockAndBegin(ctx, "s", busyWait); !errors.Is(err, memory.ErrBusy) {
			t.Fatalf("LockAndBegin while held: %v, want ErrBusy", err)
		}
		if _, _, err := st.LockAndLoad(ctx, "s", busyWait); !errors.Is(err, memory.ErrBusy) {
			t.Fatalf("LockAndLoad while held: %v, want ErrBusy", err)
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, _, err := st.LockAndBegin(cctx, "s", time.Hour); !errors.Is(err, context.Canceled) {
			t.Fatalf("LockAndBegin with an ended context: %v, want context.Canceled", err)
		}
		if m, _ := st.Session(ctx, "s"); m.Exchange != 0 {
			t.Fatalf("refused turns advanced the exchange to %d", m.Exchange)
		}
		if err := held.Refresh(ctx); err != nil {
			t.Fatalf("Refresh of a held lock: %v", err)
		}
		got := make(chan error, 1)
		go func() {
			_, l, err := st.LockAndBegin(ctx, "s", time.Minute)
			if err == nil {
				err = l.Release(ctx)
			}
			got <- err
		}()
		if err := held.Release(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-got; err != nil {
			t.Fatalf("the waiting turn: %v", err)
		}
		if err := held.Release(ctx); !errors.Is(err, memory.ErrNotHeld) {
			t.Errorf("second Release: %v, want ErrNotHeld", err)
		}
		if err := held.Refresh(ctx); !errors.Is(err, memory.ErrNotHeld) {
			t.Errorf("Refresh after Release: %v, want ErrNotHeld", err)
		}
	})

	t.Run("unknown session", func(t *testing.T) {
		st := open(t)
		if _, _, err := st.LockAndBegin(ctx, "nope", busyWait); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("LockAndBegin: %v", err)
		}
		if _, _, err := st.LockAndLoad(ctx, "nope", busyWait); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("LockAndLoad: %v", err)
		}
		if err := st.FinishTurn(ctx, "nope", memory.Finish{Messages: []memory.Message{{Role: "user"}}}); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("FinishTurn: %v", err)
		}
		if err := st.SaveScreen(ctx, "nope", memory.ScreenSave{Screen: &memory.Screen{Name: "x"}}); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("SaveScreen: %v", err)
		}
		if _, err := st.SaveSummary(ctx, "nope", memory.Summary{Text: "x", Through: 1}); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("SaveSummary: %v", err)
		}
	})

	t.Run("refused writes change nothing", func(t *testing.T) {
		st := open(t)
		create(t, st, "a")
		create(t, st, "b")
		_, la := begin(t, st, "a")
		defer func() { _ = la.Release(ctx) }()
		msg := []memory.Message{{Role: "user", Content: "x"}}
		if err := st.FinishTurn(ctx, "b", memory.Finish{Messages: msg, Release: la}); err == nil {
			t.Error("FinishTurn released another session's lock")
		}
		if err := st.FinishTurn(ctx, "b", memory.Finish{Messages: msg, Put: []memory.CacheEntry{entry("", 1, 1)}}); err == nil {
			t.Error("FinishTurn stored an entry without a key")
		}
		if err := st.FinishTurn(ctx, "b", memory.Finish{Messages: msg, Put: []memory.CacheEntry{entry("k", 1, 0)}}); err == nil {
			t.Error("FinishTurn stored an entry for 0 exchanges")
		}
		if err := st.FinishTurn(ctx, "b", memory.Finish{Messages: msg, Versions: map[string]int{"t": 0}}); err == nil {
			t.Error("FinishTurn stored version 0")
		}
		if h, _ := st.History(ctx, "b"); len(h) != 0 {
			t.Errorf("refused writes recorded %+v", h)
		}
		if _, _, err := st.LockAndBegin(ctx, "a", busyWait); !errors.Is(err, memory.ErrBusy) {
			t.Errorf("a's lock after the refused release: %v, want still held", err)
		}
	})

	t.Run("screen events", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		begun, l := begin(t, st, "s")
		if err := st.FinishTurn(ctx, "s", memory.Finish{Put: []memory.CacheEntry{entry("old", 1, 1)}, Release: l}); err != nil {
			t.Fatal(err)
		}
		loaded, l, err := st.LockAndLoad(ctx, "s", busyWait)
		if err != nil || loaded.Meta.Exchange != begun.Meta.Exchange || len(loaded.History) != 0 || len(loaded.Cache) != 1 {
			t.Fatalf("LockAndLoad = %+v, %v", loaded, err)
		}
		sc := &memory.Screen{Name: "Boss", Hash: "h", Injection: "on the boss screen"}
		ev := &memory.ScreenEvent{At: time.Unix(1_800_000_000, 0).UTC(), Seq: 7}
		save := memory.ScreenSave{Screen: sc, Event: ev, Put: []memory.CacheEntry{entry("new", 1, 1)}, Hits: []string{"old", "gone"}, Versions: map[string]int{"t": 1}, Release: l}
		if err := st.SaveScreen(ctx, "s", save); err != nil {
			t.Fatal(err)
		}
		m, err := st.Session(ctx, "s")
		if err != nil || m.Exchange != 1 || m.Screen == nil || m.Screen.Injection != sc.Injection || m.Versions["t"] != 1 {
			t.Fatalf("after the screen: %+v, %v", m, err)
		}
		if m.ScreenEvent == nil || !m.ScreenEvent.At.Equal(ev.At) || m.ScreenEvent.Seq != ev.Seq {
			t.Fatalf("screen event after the screen: %+v, want %+v", m.ScreenEvent, ev)
		}
		c, err := st.Cache(ctx, "s")
		if err != nil || len(c) != 2 || c[0].Key != "new" || c[1].Key != "old" || c[1].Hits != 1 {
			t.Fatalf("cache after the screen %+v, %v", c, err)
		}
		_, l, err = st.LockAndLoad(ctx, "s", busyWait) // SaveScreen released it
		if err != nil {
			t.Fatal(err)
		}
		if err := st.SaveScreen(ctx, "s", memory.ScreenSave{Release: l}); err != nil {
			t.Fatal(err)
		}
		if m, _ := st.Session(ctx, "s"); m.Screen != nil {
			t.Errorf("a nil screen left %+v", m.Screen)
		}
	})

	t.Run("exchanges", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		x := memory.Exchange{Exchange: 1, Message: "hi", Reply: "hello", Model: "m", At: time.Unix(1_800_000_000, 0).UTC(),
			Tools: []memory.ExchangeTool{{Name: "t", Arguments: json.RawMessage(`{"a":1}`), Source: "executed", Status: "success"}}}
		if err := st.SaveExchange(ctx, "s", x); err != nil {
			t.Fatal(err)
		}
		if err := st.SaveExchange(ctx, "s", memory.Exchange{Exchange: 0}); err == nil {
			t.Error("exchange 0 was recorded")
		}
		if err := st.SaveExchange(ctx, "nope", x); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("an unknown session's exchange: %v, want ErrNotFound", err)
		}
		got, err := st.Exchanges(ctx, "s", 1, 2)
		if err != nil || len(got) != 1 || got[1].Reply != "hello" || len(got[1].Tools) != 1 || string(got[1].Tools[0].Arguments) != `{"a":1}` {
			t.Fatalf("Exchanges = %+v, %v", got, err)
		}
	})

	t.Run("exchange with the turn", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		turn, l := begin(t, st, "s")
		n := turn.Meta.Exchange
		msgs := []memory.Message{{Role: "user", Content: "hi", Exchange: n}, {Role: "assistant", Content: "hello", Exchange: n}}
		if err := st.FinishTurn(ctx, "s", memory.Finish{Messages: msgs, Release: l, Exchange: &memory.Exchange{Exchange: 0}}); err == nil {
			t.Fatal("a turn with exchange record 0 was recorded")
		}
		if h, _ := st.History(ctx, "s"); len(h) != 0 {
			t.Fatalf("a refused turn left history %+v", h)
		}
		x := memory.Exchange{Exchange: n, Message: "hi", Reply: "hello", Model: "m", At: time.Unix(1_800_000_000, 0).UTC(),
			Tools: []memory.ExchangeTool{{Name: "t", Arguments: json.RawMessage(`{"a":1}`), Source: "executed", Status: "success"}}}
		if err := st.FinishTurn(ctx, "s", memory.Finish{Messages: msgs, Release: l, Exchange: &x}); err != nil {
			t.Fatal(err)
		}
		got, err := st.Exchanges(ctx, "s", n)
		if err != nil || got[n].Reply != "hello" || got[n].Message != "hi" || len(got[n].Tools) != 1 || string(got[n].Tools[0].Arguments) != `{"a":1}` {
			t.Fatalf("Exchanges = %+v, %v", got, err)
		}
		if h, _ := st.History(ctx, "s"); len(h) != 2 {
			t.Fatalf("history %+v, want the turn's two messages", h)
		}
		if _, l2, err := st.LockAndBegin(ctx, "s", busyWait); err != nil {
			t.Fatalf("the lock was not released with the turn: %v", err)
		} else if err := l2.Release(ctx); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("player state", func(t *testing.T) {
		st := open(t)
		pid := "player-" + strings.ReplaceAll(t.Name(), "/", "-")
		if err := st.CreateSession(ctx, memory.Meta{ID: "s", PlayerID: pid, Locale: "en", TokenHash: "h"}); err != nil {
			t.Fatal(err)
		}
		at := time.Unix(1_800_000_000, 0).UTC()
		if tr, l := begin(t, st, "s"); tr.Player != nil {
			t.Fatalf("turn's player before any push = %+v, want nil", tr.Player)
		} else {
			_ = l.Release(ctx)
		}
		ps, applied, err := st.PutPlayerState(ctx, pid, []byte(`{"progress":{"chapter":2}}`), at, time.Hour)
		if err != nil || !applied || ps.Version != memory.PlayerVersion([]byte(`{"progress":{"chapter":2}}`)) || !ps.UpdatedAt.Equal(at) {
			t.Fatalf("first push = %+v, %t, %v", ps, applied, err)
		}
		ps, applied, err = st.PutPlayerState(ctx, pid, []byte(`{"progress":{"chapter":1}}`), at.Add(-time.Second), time.Hour)
		if err != nil || applied || string(ps.State) != `{"progress":{"chapter":2}}` {
			t.Fatalf("older push = %+v (%s), %t, %v; want the stored state, not applied", ps, ps.State, applied, err)
		}
		tr, l := begin(t, st, "s")
		if tr.Player == nil || string(tr.Player.State) != `{"progress":{"chapter":2}}` || tr.Player.PlayerID != pid {
			t.Fatalf("turn's player = %+v, want the pushed state", tr.Player)
		}
		_ = l.Release(ctx)
	})

	t.Run("summary only moves forward", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		for _, tc := range []struct {
			through int
			stored  bool
		}{{3, true}, {2, false}, {3, false}, {5, true}} {
			sm := memory.Summary{Text: fmt.Sprint("through ", tc.through), Through: tc.through, Prev: &memory.Summary{Text: "before", Through: 1}}
			ok, err := st.SaveSummary(ctx, "s", sm)
			if err != nil || ok != tc.stored {
				t.Fatalf("SaveSummary(%d) = %v, %v; want %v", tc.through, ok, err, tc.stored)
			}
		}
		m, err := st.Session(ctx, "s")
		if err != nil || m.Summary == nil || m.Summary.Through != 5 || m.Summary.Prev == nil || m.Summary.Prev.Text != "before" {
			t.Fatalf("stored summary %+v, %v", m.Summary, err)
		}
	})

	t.Run("cached payload gone is a miss", func(t *testing.T) {
		st := open(t)
		ev, ok := st.(PayloadEvicter)
		if !ok {
			t.Fatalf("%T cannot drop its shared payloads", st)
		}
		create(t, st, "s")
		create(t, st, "o")
		_, l := begin(t, st, "s")
		big := entry("big", 1, 5)
		big.Result = json.RawMessage(`{"status":"success","data":"` + strings.Repeat("boss ", 50) + `"}`)
		if err := st.FinishTurn(ctx, "s", memory.Finish{Put: []memory.CacheEntry{big}, Release: l}); err != nil {
			t.Fatal(err)
		}
		// Another session caches the same result: one payload for both.
		_, l = begin(t, st, "o")
		if err := st.FinishTurn(ctx, "o", memory.Finish{Put: []memory.CacheEntry{big}, Release: l}); err != nil {
			t.Fatal(err)
		}
		if err := ev.EvictPayloads(ctx); err != nil {
			t.Fatal(err)
		}
		missed := func(id string) (memory.Turn, memory.Lease) {
			t.Helper()
			turn, l := begin(t, st, id)
			if len(turn.Cache) != 0 {
				t.Errorf("session %s serves %d entries whose payload is gone", id, len(turn.Cache))
			}
			if c, err := st.Cache(ctx, id); err != nil || len(c) != 0 {
				t.Errorf("Cache(%s) = %d entries, %v; want none", id, len(c), err)
			}
			return turn, l
		}
		turn, ls := missed("s")
		if _, lo := missed("o"); lo.Release(ctx) != nil {
			t.Fatal("release o")
		}
		// s runs the tool again: its result is cached and served again,
		// and o's reference to the same payload is served too.
		again := big
		again.CachedAt = turn.Meta.Exchange
		if err := st.FinishTurn(ctx, "s", memory.Finish{Put: []memory.CacheEntry{again}, Release: ls}); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"s", "o"} {
			turn, l := begin(t, st, id)
			if len(turn.Cache) != 1 || string(turn.Cache[0].Result) != string(big.Result) {
				t.Errorf("session %s after caching again serves %+v", id, turn.Cache)
			}
			if err := l.Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("token counts round-trip", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		_, l := begin(t, st, "s")
		err := st.FinishTurn(ctx, "s", memory.Finish{
			Messages: []memory.Message{
				{Role: "user", Content: "hi", Context: "<context>\n</context>\n\n", Exchange: 1, Tokens: 17},
				{Role: "assistant", Content: "hello", Exchange: 1}, // written without a count
			},
			Release: l,
		})
		if err != nil {
			t.Fatal(err)
		}
		turn, l := begin(t, st, "s")
		_ = l.Release(ctx)
		h, err := st.History(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range [][]memory.Message{turn.History, h} {
			if len(got) != 2 || got[0].Tokens != 17 || got[1].Tokens != 0 {
				t.Fatalf("history %+v, want the user message's 17 tokens and no count on the reply", got)
			}
		}
	})

	t.Run("a turn's summarized messages come without data blocks", func(t *testing.T) {
		st := open(t)
		create(t, st, "s")
		screen := "Boss screen"
		// write records exchange ex, whose prompt used a summary through used.
		write := func(ex, used int) {
			_, l := begin(t, st, "s")
			err := st.FinishTurn(ctx, "s", memory.Finish{
				Messages: []memory.Message{
					{Role: "user", Content: fmt.Sprint("q", ex), Context: fmt.Sprint("<context>", ex, "</context>"), Shown: &memory.Shown{Screen: &screen}, Exchange: ex, SummaryThrough: used, Tokens: 10 + ex},
					{Role: "assistant", Content: fmt.Sprint("a", ex), Exchange: ex, Tools: []string{"t"}, Offered: []string{"t", "u"}, About: []memory.Subject{{Kind: "boss", ID: "1"}}, Tokens: 5},
				},
				Release: l,
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		check := func(t *testing.T, h []memory.Message, n, through int) {
			t.Helper()
			if len(h) != 2*n {
				t.Fatalf("history of %d messages, want %d", len(h), 2*n)
			}
			for _, m := range h {
				ex := m.Exchange
				if m.Role == "user" {
					if m.Content != fmt.Sprint("q", ex) || m.Tokens != 10+ex {
						t.Errorf("exchange %d's player message %+v", ex, m)
					}
					if full := m.Context != "" && m.Shown != nil && *m.Shown.Screen == screen; full != (ex > through) {
						t.Errorf("exchange %d (summarized through %d): context %q, shown %+v", ex, through, m.Context, m.Shown)
					}
					continue
				}
				if m.Content != fmt.Sprint("a", ex) || len(m.Tools) != 1 || len(m.Offered) != 2 || len(m.About) != 1 || m.Tokens != 5 {
					t.Errorf("exchange %d's reply %+v", ex, m)
				}
			}
		}
		beginHistory := func() []memory.Message {
			turn, l := begin(t, st, "s")
			_ = l.Release(ctx)
			return turn.History
		}
		write(1, 0)
		write(2, 0)
		check(t, beginHistory(), 2, 0) // no summary
		if _, err := st.SaveSummary(ctx, "s", memory.Summary{Text: "one", Through: 1}); err != nil {
			t.Fatal(err)
		}
		// The newest prompt used no summary, and the next may go on
		// without one.
		check(t, beginHistory(), 2, 0)
		write(3, 1)
		check(t, beginHistory(), 3, 1)
		// A newer summary: the newest prompt used the one through 1, and the
		// next may go on with it.
		if _, err := st.SaveSummary(ctx, "s", memory.Summary{Text: "two", Through: 2, Prev: &memory.Summary{Text: "one", Through: 1}}); err != nil {
			t.Fatal(err)
		}
		check(t, beginHistory(), 3, 1)
		write(7, 2)
		check(t, beginHistory(), 4, 2)
		h, err := st.History(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		check(t, h, 4, 0)
	})
}

// PayloadEvicter is a store whose cached tool results live in payloads
// shared by sessions that Redis may evict or lose; EvictPayloads drops
// them all, as eviction would. Contract checks that a reference whose
// payload is gone is a miss.
type PayloadEvicter interface {
	EvictPayloads(ctx context.Context) error
}

// QuotaContract checks memory.Options.TurnQuota as package chat relies on
// it: open returns an empty store whose sessions may begin q's turns.
func QuotaContract(t *testing.T, open func(t *testing.T, q memory.Quota) Sessions) {
	ctx := context.Background()
	st := open(t, memory.Quota{Turns: 2, Per: time.Hour})
	for _, id := range []string{"s", "other"} {
		if err := st.CreateSession(ctx, memory.Meta{ID: id, Locale: "en", TokenHash: "h"}); err != nil {
			t.Fatal(err)
		}
	}
	turn := func(id string) error {
		_, l, err := st.LockAndBegin(ctx, id, busyWait)
		if err == nil {
			err = l.Release(ctx)
		}
		return err
	}
	for i := range 2 {
		if err := turn("s"); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
	// Screen events are not counted.
	if _, l, err := st.LockAndLoad(ctx, "s", busyWait); err != nil {
		t.Fatalf("LockAndLoad: %v", err)
	} else if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := st.Session(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	err = turn("s")
	var rl *memory.RateLimitError
	if !errors.Is(err, memory.ErrRateLimited) || !errors.As(err, &rl) || rl.RetryAfter <= 0 || rl.RetryAfter > time.Hour {
		t.Fatalf("third turn: %v, want a RateLimitError within the window", err)
	}
	after, err := st.Session(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if after.Exchange != before.Exchange {
		t.Errorf("the refused turn moved the exchange from %d to %d", before.Exchange, after.Exchange)
	}
	// The refusal left no lock: a screen event takes it at once.
	if _, l, err := st.LockAndLoad(ctx, "s", 0); err != nil {
		t.Fatalf("LockAndLoad after the refusal: %v", err)
	} else {
		_ = l.Release(ctx)
	}
	if err := turn("other"); err != nil {
		t.Fatalf("another session's turn: %v", err)
	}
	if _, _, err := st.LockAndBegin(ctx, "nope", 0); !errors.Is(err, memory.ErrNotFound) {
		t.Errorf("unknown session: %v, want ErrNotFound", err)
	}
}
