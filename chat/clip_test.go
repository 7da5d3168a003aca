package chat

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// unusedFallback is a Fallback for a test that runs no turn.
type unusedFallback struct{}

func (unusedFallback) Answer(context.Context, FallbackTurn, RunFunc) FallbackAnswer {
	panic("no turn runs in this test")
}

// An id quoted in an error is clipped by runes: a multi-byte id is never
// cut inside a rune (which %q would print as \x escapes).
func TestErrorsClipIDsByRunes(t *testing.T) {
	exec, err := tool.NewExecutor(tool.NewRegistry(), tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Authorize refuses an id that is not a UUID before it asks the store.
	svc, err := NewService(Deps{Store: (*memory.Store)(nil), Executor: exec, Fallback: unusedFallback{}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	id := strings.Repeat("€", 50) // 3 bytes a rune: a cut at 40 bytes splits one
	err = svc.Authorize(context.Background(), id, "token")
	if !errors.Is(err, memory.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	msg := err.Error()
	if strings.Contains(msg, `\x`) || !utf8.ValidString(msg) {
		t.Errorf("error cuts the id inside a rune: %s", msg)
	}
	if !strings.Contains(msg, strings.Repeat("€", 30)) || strings.Contains(msg, id) {
		t.Errorf("error does not quote the id clipped: %s", msg)
	}
}
