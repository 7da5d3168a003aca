package migrations_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/gameassist/gameassist/migrations"
)

func TestApplyIsIdempotent(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(t.TempDir(), "gcs.db")+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	tests := []struct{ name string }{{"first apply"}, {"second apply"}, {"third apply"}}
	var first int64
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := migrations.Apply(ctx, db)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if v < 1 {
				t.Fatalf("version = %d, want >= 1", v)
			}
			if i == 0 {
				first = v
			} else if v != first {
				t.Fatalf("version changed from %d to %d on re-apply", first, v)
			}
			var recorded int64
			if err := db.QueryRowContext(ctx, `SELECT max(version_id) FROM goose_db_version WHERE is_applied`).Scan(&recorded); err != nil {
				t.Fatalf("read recorded version: %v", err)
			}
			if recorded != v {
				t.Fatalf("recorded version %d, Apply returned %d", recorded, v)
			}
			var applied int
			if err := db.QueryRowContext(ctx, `SELECT count(*) FROM goose_db_version WHERE version_id = ?`, v).Scan(&applied); err != nil {
				t.Fatal(err)
			}
			if applied != 1 {
				t.Fatalf("version %d recorded %d times, want once", v, applied)
			}
		})
	}

	for _, table := range []string{
		"meta", "factions", "champions", "champion_skills", "skill_effects", "bosses",
		"boss_phases", "boss_mechanics", "boss_counters", "champion_strong_against", "dungeons", "dungeon_drops",
		"gear_sets", "masteries", "display_names",
	} {
		t.Run("table "+table, func(t *testing.T) {
			var n int
			if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				t.Fatalf("table %s missing", table)
			}
		})
	}
}

func TestApplyNilDB(t *testing.T) {
	if _, err := migrations.Apply(context.Background(), nil); err == nil {
		t.Fatal("Apply(nil) succeeded, want error")
	}
}
