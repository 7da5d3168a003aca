package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/config"
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
