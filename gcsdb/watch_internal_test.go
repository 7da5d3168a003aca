package gcsdb

import (
	"context"
	"database/sql"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gameassist/gameassist/gamedata"
)

// quietGame writes a small game to a file whose modification time is an
// hour old, and opens the read model over it.
func quietGame(t *testing.T) (*Game, *sql.DB, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gcs.db")
	g := gamedata.Game{Factions: []gamedata.Faction{{ID: 101, Key: "a", Name: "Wardens"}}}
	if _, err := Prepare(ctx, path, g, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	db, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	game, err := NewGame(db)
	if err != nil {
		t.Fatal(err)
	}
	if game.watch == nil || game.watch.path != path {
		t.Fatalf("the game watches %+v, want %s", game.watch, path)
	}
	return game, db, path
}

// TestVersionOfQuietFileNotQueried: once a query found the database's file
// unchanged for a while, checks return its version without querying (the
// database is closed here, so a query would fail) until the file changes.
func TestVersionOfQuietFileNotQueried(t *testing.T) {
	ctx := context.Background()
	game, db, _ := quietGame(t)
	want, err := game.Version(ctx)
	if err != nil || want == "" {
		t.Fatalf("first check: %q, %v", want, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if v, err := game.Version(ctx); err != nil || v != want {
			t.Fatalf("check of an unchanged file: %q, %v; want %q without a query", v, err, want)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := game.Version(cancelled); err == nil {
		t.Fatal("a check with an ended context answered")
	}
}

// TestVersionAfterWriteQueried: a write to the file, even one that keeps
// its size, makes the next check query; a file written within quietFor is
// queried on every check.
func TestVersionAfterWriteQueried(t *testing.T) {
	ctx := context.Background()
	game, _, path := quietGame(t)
	before, err := game.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rw.Close() })
	// The same length: only the file's time tells the change.
	if _, err := rw.ExecContext(ctx, `UPDATE meta SET value = substr(value, 2) || 'x' WHERE key = ?`, MetaDataVersion); err != nil {
		t.Fatal(err)
	}
	after, err := game.Version(ctx)
	if err != nil || after == before || len(after) != len(before) {
		t.Fatalf("after a write: %q, %v; before %q", after, err, before)
	}
	// Written just now: not trusted until it has been quiet for quietFor.
	game.watch.mu.Lock()
	ok := game.watch.ok
	game.watch.mu.Unlock()
	if ok {
		t.Fatal("a file written just now stands in for the query")
	}
	if _, err := rw.ExecContext(ctx, `UPDATE meta SET value = substr(value, 2) || 'y' WHERE key = ?`, MetaDataVersion); err != nil {
		t.Fatal(err)
	}
	if again, err := game.Version(ctx); err != nil || again == after {
		t.Fatalf("a second write just after: %q, %v; before %q", again, err, after)
	}
}

// TestSameFile: the same file, size and time; a WAL that appears or goes.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	if err := os.WriteFile(a, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	fa, _ := os.Stat(a)
	fa2, _ := os.Stat(a)
	if !sameFile(fa, fa2) || !sameFile(nil, nil) || sameFile(fa, nil) || sameFile(nil, fa) {
		t.Fatal("sameFile on one unchanged file or on absent ones")
	}
	if err := os.WriteFile(a, []byte("two!"), 0o600); err != nil {
		t.Fatal(err)
	}
	fb, _ := os.Stat(a)
	if sameFile(fa, fb) {
		t.Fatal("a file of another size is the same")
	}
	b := filepath.Join(dir, "b")
	if err := os.WriteFile(b, []byte("two!"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(b, fb.ModTime(), fb.ModTime()); err != nil {
		t.Fatal(err)
	}
	fc, _ := os.Stat(b)
	if sameFile(fb, fc) {
		t.Fatal("another file of the same size and time is the same")
	}
}
