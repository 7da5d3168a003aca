package toolsgcs_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/tool"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

// holdAll takes every connection of db's pool until the test ends, so any
// query waits for one until its context ends.
func holdAll(t *testing.T, db *sql.DB) {
	t.Helper()
	for range db.Stats().MaxOpenConnections {
		c, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
	}
}

// TestGCSToolsEndWithTheirContext: every gcs-category tool declares
// tool.ContextBound (the executor runs it on the caller's goroutine), and
// it has to be true: a call blocked on the database returns once its
// context ends, by itself and through the executor's timeout.
func TestGCSToolsEndWithTheirContext(t *testing.T) {
	g := gcsdbtest.Game()
	db := gcsdbtest.Open(t, g)
	tools, err := toolsgcs.New(db, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	var details tool.Tool
	bound := 0
	for _, tl := range tools {
		s := tl.Spec()
		if s.Category != tool.CategoryGCS {
			continue
		}
		if _, ok := tl.(tool.ContextBound); !ok {
			t.Errorf("%s is not tool.ContextBound", s.Name)
		}
		bound++
		if s.Name == "gcs_get_champion_details" {
			details = tl
		}
	}
	if bound < 10 || details == nil {
		t.Fatalf("%d gcs tools, champion details %v", bound, details)
	}
	args := json.RawMessage(`{"champion_name": "` + g.Champions[0].Name + `"}`)
	holdAll(t, db)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := details.Call(ctx, args); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("blocked call: %v, want the context's end", err)
	}

	reg := tool.NewRegistry()
	if err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{MaxAttempts: 1, Timeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := ex.Execute(context.Background(), tool.Call{Name: "gcs_get_champion_details", Arguments: args})
	if r.OK() || !strings.Contains(r.Message, "timed out") || !errors.Is(r.Cause, context.DeadlineExceeded) {
		t.Fatalf("blocked call through the executor: %+v", r)
	}
}

// TestGCSQueryInterruptedByContext: go-sqlite3 interrupts a running
// statement when its context ends, the other half of what makes the gcs
// tools context-bound (the query here would otherwise never end).
func TestGCSQueryInterruptedByContext(t *testing.T) {
	game, err := gcsdb.NewGame(gcsdbtest.Open(t, gamedata.Generate(1)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	var n int64
	err = game.DB().QueryRowContext(ctx, `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c`).Scan(&n)
	if err == nil {
		t.Fatalf("an endless query returned %d", n)
	}
	if ctx.Err() == nil {
		t.Fatalf("the query failed before its context ended: %v", err)
	}
}
