package main

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/migrations"
)

// TestOpenGCSMissingWithStudioFiles: with a studio's files configured, a
// missing database is an error naming the path and the settings, and
// nothing is built there; the sample's own content (the repository's
// content/, as the container image ships it) or nothing configured builds
// the sample game as on a first run.
func TestOpenGCSMissingWithStudioFiles(t *testing.T) {
	cards := filepath.Join("..", "..", "examples", "cards")
	tests := []struct {
		name string
		cfg  config.Config
		want []string // in the error; none: the sample is built
	}{
		{name: "tools file", cfg: config.Config{ToolsFile: filepath.Join(cards, "tools.yaml")}, want: []string{"TOOLS_FILE=" + filepath.Join(cards, "tools.yaml")}},
		{name: "screen rules", cfg: config.Config{ScreenRules: filepath.Join(cards, "rules.json")}, want: []string{"SCREEN_RULES="}},
		{name: "a studio's content", cfg: config.Config{ContentDir: filepath.Join(cards, "docs")}, want: []string{"CONTENT_DIR=" + filepath.Join(cards, "docs")}},
		{name: "the sample's content", cfg: config.Config{ContentDir: filepath.Join("..", "..", "content")}},
		{name: "nothing configured", cfg: config.Config{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gmae.db")
			tc.cfg.GCSDBPath = path
			src, err := openGCS(context.Background(), tc.cfg, slog.New(slog.DiscardHandler))
			if len(tc.want) == 0 {
				if err != nil || !src.sample {
					t.Fatalf("openGCS: %v", err)
				}
				_ = src.ro.Close()
				return
			}
			if err == nil {
				_ = src.ro.Close()
				t.Fatal("a missing database was built with a studio's files configured")
			}
			for _, w := range append(tc.want, "GCS_DB_PATH "+path, "no such database") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("something was created at %s: %v", path, err)
			}
		})
	}
}

// TestOpenGCSHoldingNoGame: a file that holds no game (empty, or the
// sample's schema without its data, as a first start stopped by a full
// disk leaves it) gets the sample game built in it when nothing of a
// studio's is configured, and is an error naming the path otherwise; a
// studio's own database is still opened as is.
func TestOpenGCSHoldingNoGame(t *testing.T) {
	ctx := context.Background()
	empty := func(t *testing.T, path string) {
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// withDB makes the database at path with do.
	withDB := func(do func(*sql.DB) error) func(*testing.T, string) {
		return func(t *testing.T, path string) {
			db, err := sql.Open("sqlite3", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := do(db); err != nil {
				t.Fatal(err)
			}
		}
	}
	schemaOnly := withDB(func(db *sql.DB) error { _, err := migrations.Apply(ctx, db); return err })
	studio := withDB(func(db *sql.DB) error {
		_, err := db.ExecContext(ctx, `CREATE TABLE cards (id INTEGER PRIMARY KEY, name TEXT)`)
		return err
	})
	tools := filepath.Join("..", "..", "examples", "cards", "tools.yaml")
	tests := []struct {
		name   string
		make   func(*testing.T, string)
		cfg    config.Config
		sample bool     // the sample game is built and opened
		want   []string // in the error
	}{
		{name: "empty file", make: empty, sample: true},
		{name: "schema without data", make: schemaOnly, sample: true},
		{name: "empty file, a studio's tools", make: empty, cfg: config.Config{ToolsFile: tools}, want: []string{"holds no game data", "0 tables", "TOOLS_FILE=" + tools}},
		{name: "schema without data, a studio's tools", make: schemaOnly, cfg: config.Config{ToolsFile: tools}, want: []string{"holds no game data", "TOOLS_FILE="}},
		{name: "a studio's own database", make: studio},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gcs.db")
			tc.make(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tc.cfg.GCSDBPath = path
			src, err := openGCS(ctx, tc.cfg, slog.New(slog.DiscardHandler))
			if len(tc.want) > 0 {
				if err == nil {
					_ = src.ro.Close()
					t.Fatal("a database holding no game was opened with a studio's files configured")
				}
				for _, w := range append(tc.want, "GCS_DB_PATH "+path) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error lacks %q: %v", w, err)
					}
				}
				if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
					t.Errorf("the file changed")
				}
				return
			}
			if err != nil {
				t.Fatalf("openGCS: %v", err)
			}
			defer src.ro.Close()
			if src.sample != tc.sample {
				t.Fatalf("sample %v, want %v", src.sample, tc.sample)
			}
			if !tc.sample {
				if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
					t.Errorf("a studio's database changed")
				}
				return
			}
			var n int
			if err := src.ro.QueryRowContext(ctx, `SELECT count(*) FROM champions`).Scan(&n); err != nil || n == 0 {
				t.Errorf("champions: %d, %v", n, err)
			}
		})
	}
}
