package memory_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
	"github.com/klauspost/compress/zstd"
)

func TestSaveExchange(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{HistoryMax: 6, SessionTTL: time.Hour})
		e.create(t, "s")
		want := memory.Exchange{
			Exchange: 1, Message: "who counters Fire Knight?", Reply: "Aria.\nThen Bran.",
			Screen: &memory.ExchangeScreen{Name: "BossBattlePresenter", Data: json.RawMessage(`{"BossConfigId":5001}`)},
			Tools: []memory.ExchangeTool{{
				Name: "gcs_find_counters_for_boss", Arguments: json.RawMessage(`{"boss_name":"Fire Knight"}`),
				Source: "executed", Status: "success", Version: 2,
			}},
			Model: "gpt-4o-mini", TraceID: "0123456789abcdef0123456789abcdef", SpanID: "0123456789abcdef",
			SummaryThrough: 0, At: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		}
		if err := e.store.SaveExchange(ctx, "s", want); err != nil {
			t.Fatalf("SaveExchange: %v", err)
		}
		got, err := e.store.Exchanges(ctx, "s", 1, 2)
		if err != nil {
			t.Fatalf("Exchanges: %v", err)
		}
		if len(got) != 1 {
			t.Fatalf("Exchanges(1, 2) = %d records, want 1 (2 was never recorded)", len(got))
		}
		gb, _ := json.Marshal(got[1])
		wb, _ := json.Marshal(want)
		if string(gb) != string(wb) {
			t.Errorf("round trip:\n got %s\nwant %s", gb, wb)
		}
		// The key lives as long as the session.
		if ttl := e.rdb.PTTL(ctx, e.key("s", "exchanges")).Val(); ttl <= 0 || ttl > time.Hour {
			t.Errorf("exchanges TTL = %v, want (0, 1h]", ttl)
		}
	})
}

func TestSaveExchangeKeepsTheLastHalfHistory(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{HistoryMax: 6})
		e.create(t, "s")
		for n := 1; n <= 5; n++ {
			if err := e.store.SaveExchange(ctx, "s", memory.Exchange{Exchange: n, Message: "m"}); err != nil {
				t.Fatalf("SaveExchange(%d): %v", n, err)
			}
		}
		got, err := e.store.Exchanges(ctx, "s", 1, 2, 3, 4, 5)
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 5; n++ {
			if _, ok := got[n]; ok != (n > 2) {
				t.Errorf("exchange %d kept = %v, want %v (3 kept with a history of 6 messages)", n, ok, n > 2)
			}
		}
		if l := e.rdb.HLen(ctx, e.key("s", "exchanges")).Val(); l != 3 {
			t.Errorf("HLEN = %d, want 3", l)
		}
	})
}

func TestSaveExchangeRefusals(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		if err := e.store.SaveExchange(ctx, "gone", memory.Exchange{Exchange: 1}); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("unknown session: %v, want ErrNotFound", err)
		}
		if n := e.rdb.Exists(ctx, e.key("gone", "exchanges")).Val(); n != 0 {
			t.Error("an unknown session got an exchanges key")
		}
		e.create(t, "s")
		if err := e.store.SaveExchange(ctx, "s", memory.Exchange{Exchange: 0}); err == nil {
			t.Error("exchange 0 accepted")
		}
		if err := e.store.SaveExchange(ctx, "a{b}", memory.Exchange{Exchange: 1}); !errors.Is(err, memory.ErrNotFound) {
			t.Errorf("bad id: %v, want ErrNotFound", err)
		}
		if err := e.rdb.HSet(ctx, e.key("s", "exchanges"), "3", "{not json").Err(); err != nil {
			t.Fatal(err)
		}
		got, err := e.store.Exchanges(ctx, "s", 3)
		if err != nil || len(got) != 0 {
			t.Errorf("damaged record: %v, %v; want skipped", got, err)
		}
	})
}

// Exchange records written by earlier versions (plain JSON, and zstd at
// another level) read as the ones written now.
func TestExchangeRecordsOfEarlierVersions(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, backends[0], memory.Options{})
	e.create(t, "s")
	rec := func(n int) memory.Exchange {
		return memory.Exchange{Exchange: n, Message: "who counters this boss?", Reply: strings.Repeat("Aria counters the Fire Knight. ", 8),
			Screen: &memory.ExchangeScreen{Name: "BossBattlePresenter", Data: json.RawMessage(`{"BossConfigId":5001}`)},
			Tools:  []memory.ExchangeTool{{Name: "gcs_find_counters_for_boss", Arguments: json.RawMessage(`{"boss_id":5001}`), Source: "live", Status: "ok"}},
			At:     time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := json.Marshal(rec(1))
	older, _ := json.Marshal(rec(2))
	if err := e.rdb.HSet(ctx, e.key("s", "exchanges"), "1", plain, "2", append([]byte{0x01}, enc.EncodeAll(older, nil)...)).Err(); err != nil {
		t.Fatal(err)
	}
	if err := e.store.SaveExchange(ctx, "s", rec(3)); err != nil {
		t.Fatal(err)
	}
	got, err := e.store.Exchanges(ctx, "s", 1, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		if !reflect.DeepEqual(got[n], rec(n)) {
			t.Errorf("exchange %d read as %+v", n, got[n])
		}
	}
}
