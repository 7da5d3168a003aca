package gcsdb

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/gameassist/gameassist/gamedata"
)

func TestNamesCacheFollowsDataVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gcs.db")
	g := gamedata.Game{Factions: []gamedata.Faction{{ID: 101, Key: "a", Name: "Old Name"}}}
	n := namesOver(t, path, g)
	n.versionTTL = 0 // read the version on every lookup
	steps := []struct {
		name string
		load string // faction name to load first; empty keeps the data
		want string
	}{
		{"initial", "", "Old Name"},
		{"cached", "", "Old Name"},
		{"after reload", "New Name", "New Name"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.load != "" {
				g.Factions[0].Name = st.load
				if _, err := Prepare(ctx, path, g, slog.New(slog.DiscardHandler)); err != nil {
					t.Fatal(err)
				}
			}
			got, err := n.DisplayName(ctx, 101, "en")
			if err != nil || got != st.want {
				t.Fatalf("DisplayName = %q, %v; want %q", got, err, st.want)
			}
		})
	}
}

// TestNamesProbeStoresTables: once probe has looked for the tables, a
// concurrent check that finds probed set reads the tables found, not the
// zero values: otherwise, on a server's first screens, a name lookup could
// see no display_names table and leave the raw id in the prompt for the
// whole versionTTL.
func TestNamesProbeStoresTables(t *testing.T) {
	ctx := context.Background()
	n := namesOver(t, filepath.Join(t.TempDir(), "gcs.db"), gamedata.Game{Factions: []gamedata.Faction{{ID: 101, Key: "a", Name: "Sunguard"}}})
	// The first caller has probed but not yet recorded its check: a second
	// caller gets the tables from probe's stored answer.
	if _, _, err := n.probe(ctx); err != nil {
		t.Fatal(err)
	}
	hasMeta, hasNames, err := n.probe(ctx)
	if err != nil || !hasMeta || !hasNames {
		t.Fatalf("second probe: meta %v, names %v, %v", hasMeta, hasNames, err)
	}
	if name, err := n.DisplayName(ctx, 101, "en"); err != nil || name != "Sunguard" {
		t.Fatalf("DisplayName = %q, %v", name, err)
	}
}

// namesOver prepares the database at path with g and returns Names over its
// read-only handle, closed with the test.
func namesOver(t *testing.T, path string, g gamedata.Game) *Names {
	t.Helper()
	ctx := context.Background()
	if _, err := Prepare(ctx, path, g, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	db, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	n, err := NewNames(db)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
