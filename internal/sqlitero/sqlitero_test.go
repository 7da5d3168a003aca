package sqlitero_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/mattn/go-sqlite3"

	"github.com/gameassist/gameassist/internal/sqlitero"
)

// conn opens a writable database file with one table, so only the check
// (not the handle) can refuse a write.
func conn(t *testing.T) *sql.Conn {
	t.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER, name TEXT); INSERT INTO t VALUES (1, 'a')`); err != nil {
		t.Fatal(err)
	}
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestCheckAllowsQueriesAndCountsParameters(t *testing.T) {
	c := conn(t)
	for q, want := range map[string]int{
		`SELECT name FROM t WHERE id = :id AND name = :name`:                                        2,
		`WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 3) SELECT x FROM n`: 0,
		`VALUES (1), (2)`:           0,
		`SELECT upper(name) FROM t`: 0,
	} {
		n, err := sqlitero.Check(c, q)
		if err != nil || n != want {
			t.Errorf("Check(%q) = %d, %v; want %d, nil", q, n, err, want)
		}
	}
}

func TestCheckRefusesAllButReading(t *testing.T) {
	c := conn(t)
	for _, q := range []string{
		`INSERT INTO t VALUES (2, 'b')`,
		`UPDATE t SET name = 'x'`,
		`DELETE FROM t`,
		`DROP TABLE t`,
		`CREATE TABLE u (x)`,
		`PRAGMA writable_schema = 1`,
		`ATTACH DATABASE ':memory:' AS other`,
		`BEGIN`,
	} {
		_, err := sqlitero.Check(c, q)
		var se sqlite3.Error
		if !errors.As(err, &se) && !errors.Is(err, sqlitero.ErrNotReadOnly) {
			t.Errorf("Check(%q) = %v; want a SQLite refusal or ErrNotReadOnly", q, err)
		}
	}
	// Nothing was written.
	var n int
	if err := c.QueryRowContext(context.Background(), `SELECT count(*) FROM t`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("rows after refused writes = %d, %v; want 1", n, err)
	}
}

func TestCheckRemovesTheAuthorizer(t *testing.T) {
	c := conn(t)
	if _, err := sqlitero.Check(c, `DELETE FROM t`); err == nil {
		t.Fatal("Check allowed a DELETE")
	}
	// The same connection serves the application's own writes afterwards.
	if _, err := c.ExecContext(context.Background(), `INSERT INTO t VALUES (2, 'b')`); err != nil {
		t.Fatalf("write after Check: %v", err)
	}
}
