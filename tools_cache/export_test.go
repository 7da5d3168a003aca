package toolscache

import (
	"context"
	"time"
)

// RunTicks is Run with the ticks given, for tests.
func (s *Snapshot) RunTicks(ctx context.Context, ticks <-chan time.Time) { s.runTicks(ctx, ticks) }
