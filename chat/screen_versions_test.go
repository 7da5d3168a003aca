package chat

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/screens"
)

// recordingRollouts assigns a new session to version next and keeps a
// stored one, recording the stored version each decision was given.
type recordingRollouts struct {
	mu   sync.Mutex
	next int
	kept []int
}

func (r *recordingRollouts) Version(_ context.Context, _, _ string, _ []int, kept int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kept = append(r.kept, kept)
	if kept > 0 {
		return kept
	}
	return r.next
}

func (r *recordingRollouts) lastKept() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.kept) == 0 {
		return -1
	}
	return r.kept[len(r.kept)-1]
}

// A screen event (the webhook's path) runs the session's version of a
// screen rule's tool, stores that version with the session, and the next
// decision for the session is given it: the session stays on the version
// its screen event chose.
func TestScreenEventStoresTheSessionsVersion(t *testing.T) {
	ctx := context.Background()
	ex, tools := versionedBox(t)
	store, err := memory.New(redisSrv.Client(t), memory.Options{Prefix: redisSrv.Prefix(t)})
	if err != nil {
		t.Fatal(err)
	}
	rules := filepath.Join(t.TempDir(), "rules.json")
	err = os.WriteFile(rules, []byte(`{"CardScreen": {"data_tools": [{"tool": "cards_get_card", "json_field": "CardName", "parameter_name": "name"}]}}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := screens.NewEngine(rules, ex.Registry(), translator{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ro := &recordingRollouts{next: 1}
	svc, err := NewService(Deps{
		Store: store, Executor: ex, Screens: eng, Rollouts: ro, Logger: slog.New(slog.DiscardHandler),
		Fallback: newOfflineFallback(t, ex, offline.Options{}),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	id, _, err := svc.CreateSession(ctx, "p", "en")
	if err != nil {
		t.Fatal(err)
	}

	sr, err := svc.ScreenEvent(ctx, id, screens.Screen{Name: "CardScreen", Data: json.RawMessage(`{"CardName":"Ember"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.Tools) != 1 || sr.Tools[0].Version != 1 || tools[1].count() != 1 || tools[2].count() != 0 {
		t.Fatalf("screen event ran %+v (v1 runs %d, v2 runs %d), want version 1 once", sr.Tools, tools[1].count(), tools[2].count())
	}
	if got := ro.lastKept(); got != 0 {
		t.Fatalf("a new session's decision was given stored version %d, want none", got)
	}
	meta, err := store.Session(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Versions["cards_get_card"] != 1 {
		t.Fatalf("stored versions %v, want cards_get_card at 1", meta.Versions)
	}

	// New sessions now go to version 2; this one keeps the version its
	// screen event stored.
	ro.mu.Lock()
	ro.next = 2
	ro.mu.Unlock()
	sr, err = svc.ScreenEvent(ctx, id, screens.Screen{Name: "CardScreen", Data: json.RawMessage(`{"CardName":"Frost"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := ro.lastKept(); got != 1 {
		t.Fatalf("the second screen event's decision was given stored version %d, want 1", got)
	}
	if len(sr.Tools) != 1 || sr.Tools[0].Version != 1 || tools[2].count() != 0 {
		t.Fatalf("second screen event ran %+v, want version 1 again", sr.Tools)
	}
}
