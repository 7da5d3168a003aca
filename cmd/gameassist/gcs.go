package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/config"
	"github.com/gameassist/gameassist/content"
	"github.com/gameassist/gameassist/data"
	"github.com/gameassist/gameassist/gcsdb"
)

// gcsSource is the opened GCS database and what kind it is.
type gcsSource struct {
	ro *sql.DB
	// sample is set for gameassist's sample game: its built-in game tools
	// apply. Otherwise it is a studio's own database, opened as is.
	sample  bool
	version string // the sample's data version
}

// openGCS opens GCS_DB_PATH read-only for the tools. A path with no file
// yet gets the sample game built there (so the first `make run` works),
// unless a studio's own files are configured (TOOLS_FILE, SCREEN_RULES or
// CONTENT_DIR): then a missing database is a typo to report, naming the
// path, not a reason to build the sample game. A file that holds no game
// (no table at all, or the sample's schema without its data: a first
// start stopped while it built the sample, say by a full disk) is treated
// the same way, so a restart finishes the build. Any other database is
// opened as is, never migrated nor written.
func openGCS(ctx context.Context, cfg config.Config, logger *slog.Logger) (*gcsSource, error) {
	path := cfg.GCSDBPath
	kind, err := inspectGCS(ctx, path)
	if err != nil {
		return nil, err
	}
	unfinished := !kind.missing && kind.ours && !kind.sample
	switch {
	case kind.missing && studioFiles(cfg) != "":
		return nil, fmt.Errorf("gcs: GCS_DB_PATH %s: no such database; with %s set (a studio's own game) the sample game is not built in its place: check the path (for the sample game, `gameassist migrate --sample` builds it there)", path, studioFiles(cfg))
	case unfinished && studioFiles(cfg) != "":
		return nil, fmt.Errorf("gcs: GCS_DB_PATH %s: the database holds no game data (%d tables, no data version); with %s set (a studio's own game) the sample game is not built in its place: point GCS_DB_PATH at your game's database", path, kind.tables, studioFiles(cfg))
	}
	version, sample := kind.version, kind.sample
	if kind.missing || unfinished {
		if kind.missing {
			logger.Info("no GCS database yet: building the sample game there", "path", path)
		} else {
			logger.Warn("the GCS database holds no game data (an empty file, or a sample build that did not finish): building the sample game there",
				"path", path, "tables", kind.tables)
		}
		if version, err = buildSample(ctx, path, logger); err != nil {
			return nil, err
		}
		sample = true
	}
	ro, err := gcsdb.OpenReadOnly(ctx, path)
	if err != nil {
		return nil, err
	}
	if sample {
		if want, err := sampleVersion(); err == nil && want != version {
			logger.Warn("the GCS database holds an older sample game than this build; `gameassist migrate --sample` updates it",
				"path", path, "data_version", version, "build_version", want)
		}
	} else {
		logger.Info("GCS database opened as is (a studio's own): the sample game's tools are off; use TOOLS_FILE for yours", "path", path)
	}
	return &gcsSource{ro: ro, sample: sample, version: version}, nil
}

// studioFiles names the settings of a studio's own game that are set, as
// NAME=value ("" for none): TOOLS_FILE, SCREEN_RULES, and CONTENT_DIR
// unless it holds the sample game's documents (the container image points
// it at its copy of them).
func studioFiles(cfg config.Config) string {
	var set []string
	for _, f := range []struct{ name, value string }{{"TOOLS_FILE", cfg.ToolsFile}, {"SCREEN_RULES", cfg.ScreenRules}, {"CONTENT_DIR", cfg.ContentDir}} {
		if f.value == "" || f.name == "CONTENT_DIR" && isSampleContent(f.value) {
			continue
		}
		set = append(set, f.name+"="+f.value)
	}
	return strings.Join(set, ", ")
}

// isSampleContent reports whether dir holds every document of the sample
// game's content, byte for byte.
func isSampleContent(dir string) bool {
	sample := content.FS()
	same := true
	err := fs.WalkDir(sample, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		want, err := fs.ReadFile(sample, path)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
		if err != nil || !bytes.Equal(got, want) {
			same = false
			return fs.SkipAll
		}
		return nil
	})
	return err == nil && same
}

// buildSample creates or upgrades the sample game at path.
func buildSample(ctx context.Context, path string, logger *slog.Logger) (string, error) {
	game, err := data.Sample()
	if err != nil {
		return "", err
	}
	return gcsdb.Prepare(ctx, path, game, logger)
}

func sampleVersion() (string, error) {
	game, err := data.Sample()
	if err != nil {
		return "", err
	}
	return gcsdb.Version(game)
}

// fileVersion versions a studio's database by its file: replacing or
// changing the file changes the version, so cached tool results of the old
// data are not served.
type fileVersion struct{ path string }

func (v fileVersion) DataVersion(context.Context) (string, error) {
	st, err := os.Stat(v.path)
	if err != nil {
		return "", fmt.Errorf("gcs: %w", err)
	}
	h := sha256.Sum256([]byte(st.ModTime().UTC().String() + "/" + strconv.FormatInt(st.Size(), 10)))
	return hex.EncodeToString(h[:6]), nil
}
