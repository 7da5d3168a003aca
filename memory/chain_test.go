package memory_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

// exchangeMsgs is one exchange's messages: a user message whose data block
// repeats much of the ones before (as a session's blocks do), and a reply.
func exchangeMsgs(ex int) []memory.Message {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(ex) * time.Minute)
	block := fmt.Sprintf("<context>\n## Cached tool results\n- gcs_get_boss_details {\"boss_id\":%d} → %s\n</context>",
		5000+ex%3, strings.Repeat(fmt.Sprintf(`{"name":"Fire Knight","phase":%d,"affinity":"Force","weak_to":["Magic"]},`, ex%3), 20))
	return []memory.Message{
		{Role: "user", Content: fmt.Sprint("question ", ex), Exchange: ex, At: at, Context: block},
		{Role: "assistant", Content: fmt.Sprint("The Fire Knight is weak to Magic; answer ", ex), Exchange: ex, At: at.Add(time.Second),
			Offered: []string{"find_tools", "gcs_get_boss_details", "gcs_find_counters_for_boss", "rag_search_faq"}},
	}
}

// Messages of a turn taken with the lock are stored as deltas after the
// ones before them; the history reads back the same, also once the list
// is trimmed to the window (whose first chain then starts before it).
func TestHistoryDeltas(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		const window = 6
		e := newEnv(t, srv, memory.Options{HistoryMax: window})
		e.create(t, "s")
		var all []memory.Message
		for ex := 1; ex <= 45; ex++ {
			turn, l, err := e.store.LockAndBegin(ctx, "s", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			want := all[max(0, len(all)-window):]
			if !reflect.DeepEqual(turn.History, want) && !(len(want) == 0 && len(turn.History) == 0) {
				t.Fatalf("exchange %d: history\n got %+v\nwant %+v", ex, turn.History, want)
			}
			msgs := exchangeMsgs(turn.Meta.Exchange)
			if err := e.store.FinishTurn(ctx, "s", memory.Finish{Messages: msgs, Release: l}); err != nil {
				t.Fatal(err)
			}
			all = append(all, msgs...)
		}
		raw, err := e.rdb.LRange(ctx, e.key("s", "history"), 0, -1).Result()
		if err != nil {
			t.Fatal(err)
		}
		deltas := 0
		for _, r := range raw {
			if r[0] == 0x02 {
				deltas++
			}
		}
		if deltas < len(raw)/2 || len(raw) > window+32 {
			t.Errorf("the list holds %d elements, %d of them deltas", len(raw), deltas)
		}
		h, err := e.store.History(ctx, "s")
		if err != nil || !reflect.DeepEqual(h, all[len(all)-window:]) {
			t.Fatalf("History = %+v, %v", h, err)
		}
	})
}

// A turn whose list changed since its load (another writer appended) stores
// its messages whole: every message still reads back.
func TestHistoryDeltaAfterOtherWrite(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "s")
		var all []memory.Message
		for ex := 1; ex <= 2; ex++ {
			_, l, err := e.store.LockAndBegin(ctx, "s", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			msgs := exchangeMsgs(ex)
			if err := e.store.FinishTurn(ctx, "s", memory.Finish{Messages: msgs, Release: l}); err != nil {
				t.Fatal(err)
			}
			all = append(all, msgs...)
		}
		_, l, err := e.store.LockAndBegin(ctx, "s", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		// Another writer (a turn whose lock expired) appends meanwhile.
		other := exchangeMsgs(99)
		if err := e.store.FinishTurn(ctx, "s", memory.Finish{Messages: other}); err != nil {
			t.Fatal(err)
		}
		mine := exchangeMsgs(3)
		if err := e.store.FinishTurn(ctx, "s", memory.Finish{Messages: mine, Release: l}); err != nil {
			t.Fatal(err)
		}
		all = append(append(all, other...), mine...)
		h, err := e.store.History(ctx, "s")
		if err != nil || !reflect.DeepEqual(h, all) {
			t.Fatalf("History = %+v, %v", h, err)
		}
	})
}

// An instance whose write is a session's last knows the session's history:
// its next turn's load is told the list is unchanged instead of getting
// it, and decodes nothing (so a change to an older element, which no
// writer makes since the list is only appended to, goes unseen by it,
// where an instance that reads the list sees it). Once another instance
// appended, the list is read again, the other's messages with it; and a
// turn whose list changed between its load and its write does not take
// its own write for the list. A screen event's load, which reads no
// history, leaves what the instance knows alone.
func TestHistoryKnownAfterOwnWrite(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		const window = 6
		e := newEnv(t, srv, memory.Options{HistoryMax: window})
		other, err := memory.New(e.rdb, memory.Options{Prefix: e.prefix, HistoryMax: window})
		if err != nil {
			t.Fatal(err)
		}
		e.create(t, "s")
		var all []memory.Message
		turn := func(st *memory.Store) {
			t.Helper()
			got, l, err := st.LockAndBegin(ctx, "s", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if want := all[max(0, len(all)-window):]; !reflect.DeepEqual(got.History, want) && len(want)+len(got.History) > 0 {
				t.Fatalf("exchange %d: history\n got %+v\nwant %+v", got.Meta.Exchange, got.History, want)
			}
			msgs := exchangeMsgs(got.Meta.Exchange)
			if err := st.FinishTurn(ctx, "s", memory.Finish{Messages: msgs, Release: l}); err != nil {
				t.Fatal(err)
			}
			all = append(all, msgs...)
		}
		for range 4 {
			turn(e.store)
		}
		key := e.key("s", "history")
		first, err := e.rdb.LIndex(ctx, key, 0).Result()
		if err != nil {
			t.Fatal(err)
		}
		if err := e.rdb.LSet(ctx, key, 0, "damaged").Err(); err != nil {
			t.Fatal(err)
		}
		if _, _, err := other.LockAndBegin(ctx, "s", time.Second); err == nil || !strings.Contains(err.Error(), "stored message 0") {
			t.Fatalf("an instance reading the damaged list: %v", err)
		}
		// A screen event meanwhile (it loads no history) changes nothing.
		_, sl, err := e.store.LockAndLoad(ctx, "s", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.store.SaveScreen(ctx, "s", memory.ScreenSave{Screen: &memory.Screen{Name: "Boss", Hash: "h"}, Release: sl}); err != nil {
			t.Fatal(err)
		}
		turn(e.store) // does not read the list: its write was the last
		if err := e.rdb.LSet(ctx, key, 0, first).Err(); err != nil {
			t.Fatal(err)
		}
		turn(other)
		turn(e.store) // reads the list: the other's messages are in it
		turn(e.store)

		// Another writer appends between this instance's load and write.
		_, l, err := e.store.LockAndBegin(ctx, "s", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		theirs := exchangeMsgs(99)
		if err := other.FinishTurn(ctx, "s", memory.Finish{Messages: theirs}); err != nil {
			t.Fatal(err)
		}
		mine := exchangeMsgs(98)
		// A reply that repeats itself from further back than a DEFLATE
		// window: compressed whole it is smaller than as a delta, so it is
		// stored whole after the chain too, and the list ends with the
		// same element whether the turn's write followed its load or not.
		var noise strings.Builder
		for i := range 640 {
			sum := sha256.Sum256([]byte(fmt.Sprint(i)))
			noise.WriteString(hex.EncodeToString(sum[:]))
		}
		mine[1].Content = noise.String() + noise.String()
		if err := e.store.FinishTurn(ctx, "s", memory.Finish{Messages: mine, Release: l}); err != nil {
			t.Fatal(err)
		}
		all = append(append(all, theirs...), mine...)
		turn(e.store)
		turn(e.store)
	})
}

// The messages a turn's write remembers for the next turn (its load then
// decodes nothing) are the ones a fresh load decodes, field by field: the
// time with its zone as decoded and no monotonic reading, empty lists
// absent, text the encoder escapes, tool arguments the encoder compacts
// or escapes, text that is not UTF-8. Messages that need no decoding share the
// written messages' text instead of decoding it again.
func TestHistoryMemoAsLoaded(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, backends[0], memory.Options{})
	e.create(t, "s")
	turn := func(st *memory.Store, msgs []memory.Message) []memory.Message {
		t.Helper()
		got, l, err := st.LockAndBegin(ctx, "s", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.FinishTurn(ctx, "s", memory.Finish{Messages: msgs, Release: l}); err != nil {
			t.Fatal(err)
		}
		return got.History
	}
	turn(e.store, exchangeMsgs(1))
	empty, retired := "", "the old boss"
	zone := time.FixedZone("IST", 5*3600+1800)
	msgs := []memory.Message{
		{Role: "user", Content: "who counters <this> & that\u2028boss?", Exchange: 2, At: time.Now(), Tokens: 42, WordsTokens: 9,
			Context: "<context>\n- gcs_find_counters_for_boss {\"boss_id\":5001} → Aria & Kaelith\n</context>",
			Shown: &memory.Shown{Screen: &empty, Results: []memory.ShownResult{
				{Key: "k1", CachedAt: 2, Tool: "gcs_get_character_details", Parameters: json.RawMessage(`{"name":"Aria Storm","id":1001}`), Stub: true},
				{Key: "k0", CachedAt: 1, Tool: "gcs_get_boss_details", Parameters: json.RawMessage("{\n  \"boss_id\": 5001,\t\"tags\": [ \"a b\" ]\n}")},
			}, Tools: []string{}}},
		{Role: "assistant", Content: "Aria counters it.", Exchange: 2, At: time.Date(2026, 3, 4, 5, 6, 7, 891011121, zone),
			Tools: []string{"gcs_find_counters_for_boss"}, Offered: []string{}, About: []memory.Subject{{Kind: "character", ID: "1001"}, {Kind: "character", ID: "1002", Focus: true}}},
		// Values the JSON changes: decoded, as a load does.
		{Role: "user", Content: "bad \xff byte", Exchange: 3, At: time.Date(2026, 3, 4, 5, 6, 8, 0, time.UTC), SummaryThrough: 1,
			Shown: &memory.Shown{Player: &retired, Results: []memory.ShownResult{{Key: "k2", Tool: "t", Parameters: json.RawMessage(`{"a": 1}`)}}}},
		{Role: "assistant", Content: "ok", Exchange: 3, At: time.Date(2026, 3, 4, 5, 6, 9, 0, time.UTC),
			Shown: &memory.Shown{Retired: []memory.ShownResult{{Key: "k3", Tool: "t", Parameters: json.RawMessage(`{"q":"<b>"}`)}}}},
	}
	turn(e.store, msgs)
	fresh, err := memory.New(e.rdb, memory.Options{Prefix: e.prefix})
	if err != nil {
		t.Fatal(err)
	}
	want := turn(fresh, nil)
	got := turn(e.store, nil)
	if len(got) != len(want) || len(want) != 6 {
		t.Fatalf("%d messages remembered, %d loaded, want 6", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if !g.At.Equal(w.At) || g.At.Location().String() != w.At.Location().String() || g.At.String() != w.At.String() {
			t.Errorf("message %d: time %v, loaded %v", i, g.At, w.At)
		}
		if g.Context != w.Context || g.Content != w.Content {
			t.Errorf("message %d: content %q context %q, loaded %q %q", i, g.Content, g.Context, w.Content, w.Context)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("message %d remembered\n %#v\nloaded\n %#v", i, g, w)
		}
	}
	for i, m := range msgs[:2] {
		if unsafe.StringData(got[2+i].Content) != unsafe.StringData(m.Content) {
			t.Errorf("message %d was decoded again", i)
		}
	}
}
