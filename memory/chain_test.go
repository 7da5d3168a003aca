package memory_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

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
