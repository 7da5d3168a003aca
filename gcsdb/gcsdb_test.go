package gcsdb_test

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
)

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

func openRW(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func count(t *testing.T, db *sql.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestPrepareLoadsOnlyWhenDataChanges(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "gcs.db")
	g := gcsdbtest.Game()

	v1, err := gcsdb.Prepare(ctx, path, g, discard())
	if err != nil {
		t.Fatalf("first Prepare: %v", err)
	}
	want, _ := gcsdb.Version(g)
	if v1 != want || len(v1) != 12 {
		t.Fatalf("version = %q, want %q (12 hex digits)", v1, want)
	}
	rw := openRW(t, path)
	if n := count(t, rw, `SELECT count(*) FROM champions`); n != len(g.Champions) {
		t.Fatalf("champions = %d, want %d", n, len(g.Champions))
	}
	// A marker row survives an unchanged Prepare and disappears with a reload.
	if _, err := rw.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('marker', 'x')`); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name       string
		game       func() gamedata.Game
		wantMarker int
	}{
		{"same data keeps the database", gcsdbtest.Game, 1},
		{"changed data reloads", func() gamedata.Game {
			g := gcsdbtest.Game()
			g.Champions[0].Stats.ATK = 1501
			g.Champions = g.Champions[:4]
			return g
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.game()
			v, err := gcsdb.Prepare(ctx, path, g, discard())
			if err != nil {
				t.Fatalf("Prepare: %v", err)
			}
			want, _ := gcsdb.Version(g)
			if v != want {
				t.Fatalf("version = %q, want %q", v, want)
			}
			if got, err := gcsdb.DataVersion(ctx, rw); err != nil || got != want {
				t.Fatalf("DataVersion = %q, %v; want %q", got, err, want)
			}
			if n := count(t, rw, `SELECT count(*) FROM meta WHERE key = 'marker'`); n != tt.wantMarker {
				t.Fatalf("marker rows = %d, want %d", n, tt.wantMarker)
			}
			if n := count(t, rw, `SELECT count(*) FROM champions`); n != len(g.Champions) {
				t.Fatalf("champions = %d, want %d", n, len(g.Champions))
			}
		})
	}
	if n := count(t, rw, `SELECT atk FROM champions WHERE id = 1001`); n != 1501 {
		t.Fatalf("atk after reload = %d, want 1501", n)
	}
}

func TestPrepareRefusesBadInput(t *testing.T) {
	dangling := gcsdbtest.Game()
	dangling.Champions[0].FactionID = 199
	dup := gcsdbtest.Game()
	dup.Champions[1].ID = dup.Champions[0].ID
	tests := []struct {
		name   string
		path   string
		game   gamedata.Game
		logger *slog.Logger
	}{
		{"dangling faction reference", filepath.Join(t.TempDir(), "a.db"), dangling, discard()},
		{"duplicate champion id", filepath.Join(t.TempDir(), "b.db"), dup, discard()},
		{"empty path", "  ", gcsdbtest.Game(), discard()},
		{"nil logger", filepath.Join(t.TempDir(), "c.db"), gcsdbtest.Game(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := gcsdb.Prepare(context.Background(), tt.path, tt.game, tt.logger); err == nil {
				t.Fatal("Prepare succeeded, want error")
			}
		})
	}
}

func TestPrepareFailedLoadKeepsOldData(t *testing.T) {
	ctx := context.Background()
	path := gcsdbtest.Prepare(t, gcsdbtest.Game())
	bad := gcsdbtest.Game()
	bad.Bosses[0].RecommendedCounters = []int{1999}
	if _, err := gcsdb.Prepare(ctx, path, bad, discard()); err == nil {
		t.Fatal("Prepare with a dangling counter succeeded")
	}
	rw := openRW(t, path)
	want, _ := gcsdb.Version(gcsdbtest.Game())
	if got, err := gcsdb.DataVersion(ctx, rw); err != nil || got != want {
		t.Fatalf("DataVersion after failed load = %q, %v; want %q", got, err, want)
	}
}

func TestOpenReadOnlyRefusesWrites(t *testing.T) {
	ctx := context.Background()
	path := gcsdbtest.Prepare(t, gcsdbtest.Game())
	ro, err := gcsdb.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	tests := []struct{ name, stmt string }{
		{"insert", `INSERT INTO meta (key, value) VALUES ('x', 'y')`},
		{"update", `UPDATE champions SET atk = 1 WHERE id = 1001`},
		{"delete", `DELETE FROM champions`},
		{"create table", `CREATE TABLE evil (x)`},
		{"drop table", `DROP TABLE champions`},
		{"create index", `CREATE INDEX evil ON champions (atk)`},
		{"alter table", `ALTER TABLE champions ADD COLUMN evil TEXT`},
		{"replace", `REPLACE INTO meta (key, value) VALUES ('data_version', 'x')`},
		{"vacuum", `VACUUM`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ro.ExecContext(ctx, tt.stmt); err == nil {
				t.Fatalf("%s succeeded on the read-only handle", tt.stmt)
			}
		})
	}
	if n := count(t, ro, `SELECT count(*) FROM champions WHERE atk = 1500`); n != 1 {
		t.Fatalf("data changed through the read-only handle")
	}
	if n := count(t, ro, `SELECT count(*) FROM sqlite_schema WHERE name = 'evil'`); n != 0 {
		t.Fatalf("DDL went through the read-only handle")
	}
}

func TestOpenReadOnlyMissingFile(t *testing.T) {
	if _, err := gcsdb.OpenReadOnly(context.Background(), filepath.Join(t.TempDir(), "none.db")); err == nil {
		t.Fatal("OpenReadOnly of a missing file succeeded")
	}
}

func TestPathWithURICharacters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "we?ird#dir%20", "gcs.db")
	if _, err := gcsdb.Prepare(ctx, path, gcsdbtest.Game(), discard()); err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	ro, err := gcsdb.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("OpenReadOnly: %v", err)
	}
	defer ro.Close()
	if n := count(t, ro, `SELECT count(*) FROM factions`); n != 2 {
		t.Fatalf("factions = %d, want 2", n)
	}
}

func TestDataVersionEmpty(t *testing.T) {
	db := openRW(t, filepath.Join(t.TempDir(), "empty.db"))
	if _, err := db.Exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)`); err != nil {
		t.Fatal(err)
	}
	if _, err := gcsdb.DataVersion(context.Background(), db); !errors.Is(err, gcsdb.ErrNoData) {
		t.Fatalf("err = %v, want ErrNoData", err)
	}
}

func TestDisplayName(t *testing.T) {
	ctx := context.Background()
	g := gcsdbtest.Game()
	g.Masteries[1].Names = gamedata.Names{"fr": "Peau de Fer"} // no English name given
	db := gcsdbtest.Open(t, g)
	names, err := gcsdb.NewNames(db)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		id      int64
		locale  string
		want    string
		wantErr error
	}{
		{"english", 1001, "en", "Kaelith", nil},
		{"french boss", 5001, "fr", "Roi Noyé", nil},
		{"region subtag", 5001, "fr-FR", "Roi Noyé", nil},
		{"upper case locale", 5002, "DE", "Glutwurm", nil},
		{"unknown locale falls back to english", 5002, "ja", "Ember Wyrm", nil},
		{"empty locale is english", 101, "", "Sunguard", nil},
		{"hostile locale", 101, "'; DROP TABLE display_names; --", "Sunguard", nil},
		{"canonical name stands in for english", 9002, "de", "Iron Skin", nil},
		{"faction", 102, "de", "Hohler Hof", nil},
		{"unknown id", 4242, "en", "", gcsdb.ErrUnknownID},
		{"negative id", -1, "en", "", gcsdb.ErrUnknownID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 2 { // the second lookup is served from the cache
				got, err := names.DisplayName(ctx, tt.id, tt.locale)
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				if got != tt.want {
					t.Fatalf("name = %q, want %q", got, tt.want)
				}
			}
		})
	}
	if _, err := gcsdb.NewNames(nil); err == nil {
		t.Fatal("NewNames(nil) succeeded")
	}
}

func TestDisplayNameClosedDB(t *testing.T) {
	db := gcsdbtest.Open(t, gcsdbtest.Game())
	names, err := gcsdb.NewNames(db)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = names.DisplayName(context.Background(), 1001, "en")
	if err == nil || errors.Is(err, gcsdb.ErrUnknownID) {
		t.Fatalf("err = %v, want a backend error", err)
	}
}

func TestVersionIsDeterministic(t *testing.T) {
	a, err := gcsdb.Version(gcsdbtest.Game())
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		b, _ := gcsdb.Version(gcsdbtest.Game())
		if a != b {
			t.Fatalf("version changed between runs: %s vs %s", a, b)
		}
	}
}
