package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

// TestDraftStoresSameBytes: two sessions play the same turns, one
// recording each turn's first message through a draft made while the
// turn went on, the other without: their history lists hold the same
// bytes after every turn, through new chains, full chains, messages too
// long to share a run and a history trimmed to its window, and read back
// the same messages.
func TestDraftStoresSameBytes(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		const window = 8
		e := newEnv(t, srv, memory.Options{HistoryMax: window})
		e.create(t, "plain")
		e.create(t, "drafted")
		rng := rand.New(rand.NewPCG(7, 25))
		var all []memory.Message
		for ex := 1; ex <= 50; ex++ {
			msgs := exchangeMsgs(ex)
			// Some blocks too long to share a run with the reply, some
			// replies long, some exchanges of one message.
			if rng.IntN(5) == 0 {
				msgs[0].Context += strings.Repeat(fmt.Sprintf(" filler %d", rng.IntN(1000)), 600)
			}
			if rng.IntN(4) == 0 {
				msgs[1].Content = strings.Repeat(fmt.Sprintf("long answer %d. ", rng.IntN(1000)), 40)
			}
			if rng.IntN(8) == 0 {
				msgs = msgs[:1]
			}
			_, pl, err := e.store.LockAndBegin(ctx, "plain", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.store.FinishTurn(ctx, "plain", memory.Finish{Messages: msgs, Release: pl}); err != nil {
				t.Fatal(err)
			}
			_, dl, err := e.store.LockAndBegin(ctx, "drafted", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			drafted := make(chan *memory.Draft, 1)
			go func() { drafted <- e.store.Draft(dl, msgs[0]) }()
			d := <-drafted
			if err := e.store.FinishTurn(ctx, "drafted", memory.Finish{Draft: d, Messages: msgs[1:], Release: dl}); err != nil {
				t.Fatal(err)
			}
			all = append(all, msgs...)
			want, err := e.rdb.LRange(ctx, e.key("plain", "history"), 0, -1).Result()
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.rdb.LRange(ctx, e.key("drafted", "history"), 0, -1).Result()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("exchange %d: the drafted history's %d elements differ from the plain one's %d", ex, len(got), len(want))
			}
		}
		h, err := e.store.History(ctx, "drafted")
		if err != nil || !reflect.DeepEqual(h, all[len(all)-window:]) {
			t.Fatalf("History = %+v, %v", h, err)
		}
	})
}

// TestDraftOfAnotherLock: a draft made under another turn's lock (or no
// lock) is not gone on from: the write encodes its message itself, and
// the history still holds every message.
func TestDraftOfAnotherLock(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "s")
		e.create(t, "other")
		var all []memory.Message
		for ex := 1; ex <= 3; ex++ {
			_, l, err := e.store.LockAndBegin(ctx, "s", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			_, ol, err := e.store.LockAndBegin(ctx, "other", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			msgs := exchangeMsgs(ex)
			d := e.store.Draft(ol, msgs[0])
			if ex == 3 {
				d = e.store.Draft(nil, msgs[0])
			}
			if err := e.store.FinishTurn(ctx, "s", memory.Finish{Draft: d, Messages: msgs[1:], Release: l}); err != nil {
				t.Fatal(err)
			}
			if err := ol.Release(ctx); err != nil {
				t.Fatal(err)
			}
			all = append(all, msgs...)
		}
		h, err := e.store.History(ctx, "s")
		if err != nil || !reflect.DeepEqual(h, all) {
			t.Fatalf("History = %+v, %v", h, err)
		}
	})
}
