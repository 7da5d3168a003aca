package gcsdb_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
)

// studioDB writes a studio's own database (no meta table, none of the
// sample's tables) and opens it read-only.
func studioDB(t *testing.T, ddl string) *sql.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "studio.db")
	rw, err := sql.Open("sqlite3", "file:"+path+"?mode=rwc")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rw.Exec(ddl); err != nil {
		t.Fatal(err)
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := gcsdb.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ro.Close() })
	return ro
}

func TestStudioDisplayNames(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		ddl     string
		id      int64
		locale  string
		want    string
		unknown bool
	}{
		{
			name: "localized name", id: 7, locale: "fr-FR", want: "Diablotin de braise",
			ddl: `CREATE TABLE cards (id INTEGER PRIMARY KEY, name TEXT);
				CREATE TABLE display_names (entity_id INTEGER, locale TEXT, name TEXT);
				INSERT INTO display_names VALUES (7, 'en', 'Ember Imp'), (7, 'fr', 'Diablotin de braise');`,
		},
		{
			name: "english fallback, text ids", id: 7, locale: "de", want: "Ember Imp",
			ddl: `CREATE TABLE display_names (entity_id TEXT, locale TEXT, name TEXT);
				INSERT INTO display_names VALUES ('7', 'en', 'Ember Imp');`,
		},
		{
			name: "no display_names table", id: 7, locale: "en", unknown: true,
			ddl: `CREATE TABLE cards (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO cards VALUES (7, 'Ember Imp');`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := studioDB(t, tc.ddl)
			if _, sample, err := gcsdb.SampleVersion(ctx, db); err != nil || sample {
				t.Fatalf("a studio database taken for the sample: %v %v", sample, err)
			}
			names, err := gcsdb.NewNames(db)
			if err != nil {
				t.Fatal(err)
			}
			got, err := names.DisplayName(ctx, tc.id, tc.locale)
			if tc.unknown {
				if !errors.Is(err, gcsdb.ErrUnknownID) {
					t.Fatalf("got %q, %v; want ErrUnknownID", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestSampleVersion(t *testing.T) {
	db := gcsdbtest.Open(t, gcsdbtest.Game())
	v, sample, err := gcsdb.SampleVersion(context.Background(), db)
	if err != nil || !sample || v == "" {
		t.Fatalf("sample database: %q %v %v", v, sample, err)
	}
}
