package memory_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
)

func TestSaveSummary(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, srv redistest.Backend) {
		ctx := context.Background()
		e := newEnv(t, srv, memory.Options{})
		e.create(t, "s1")
		steps := []struct {
			name       string
			sum        memory.Summary
			wantStored bool
			wantText   string
		}{
			{name: "first", sum: memory.Summary{Text: "asked about Kaelith", Through: 3}, wantStored: true, wantText: "asked about Kaelith"},
			{name: "older writer loses", sum: memory.Summary{Text: "stale", Through: 2}, wantText: "asked about Kaelith"},
			{name: "same coverage loses", sum: memory.Summary{Text: "again", Through: 3}, wantText: "asked about Kaelith"},
			{name: "newer wins", sum: memory.Summary{Text: "Kaelith, then Sylva", Through: 6}, wantStored: true, wantText: "Kaelith, then Sylva"},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				ok, err := e.store.SaveSummary(ctx, "s1", st.sum)
				if err != nil || ok != st.wantStored {
					t.Fatalf("SaveSummary = %v, %v; want %v", ok, err, st.wantStored)
				}
				turn, err := e.store.BeginTurn(ctx, "s1")
				if err != nil {
					t.Fatal(err)
				}
				if turn.Meta.Summary == nil || turn.Meta.Summary.Text != st.wantText {
					t.Errorf("summary at turn start = %+v, want text %q", turn.Meta.Summary, st.wantText)
				}
			})
		}
		t.Run("unknown session", func(t *testing.T) {
			for _, id := range []string{"nope", "bad{id}"} {
				if _, err := e.store.SaveSummary(ctx, id, memory.Summary{Text: "x", Through: 1}); !errors.Is(err, memory.ErrNotFound) {
					t.Errorf("SaveSummary(%q) error %v, want ErrNotFound", id, err)
				}
			}
		})
	})
}
