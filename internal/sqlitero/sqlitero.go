// Package sqlitero is the one read-only check for SQL that comes from
// outside the code (a model's query, a tools file's statement): the
// statement is prepared under a SQLite authorizer that allows only reading,
// and SQLite must report the prepared statement read-only.
package sqlitero

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/mattn/go-sqlite3"
)

// ErrNotReadOnly marks a statement that prepared but that SQLite does not
// report as read-only.
var ErrNotReadOnly = errors.New("statement is not read-only")

// SQLite authorizer action codes a read-only query needs
// (https://sqlite.org/c3ref/c_alter_table.html).
const (
	authRead      = 20 // SQLITE_READ
	authSelect    = 21 // SQLITE_SELECT
	authFunction  = 31 // SQLITE_FUNCTION
	authRecursive = 33 // SQLITE_RECURSIVE
)

// authorizeRead allows reading and denies everything else (writes, DDL,
// PRAGMA, ATTACH, transactions).
func authorizeRead(action int, _, _, _ string) int {
	switch action {
	case authRead, authSelect, authFunction, authRecursive:
		return sqlite3.SQLITE_OK
	}
	return sqlite3.SQLITE_DENY
}

// Check prepares query on conn under the read-only authorizer and returns
// the number of parameters the statement takes. A statement the authorizer
// denies or SQLite cannot prepare fails with SQLite's error (a
// sqlite3.Error); one that prepares but is not read-only with
// ErrNotReadOnly. The authorizer is removed before Check returns, so conn
// serves other statements unchanged.
func Check(conn *sql.Conn, query string) (int, error) {
	var n int
	err := conn.Raw(func(dc any) error {
		sc, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("sqlitero: driver connection is %T, not sqlite3", dc)
		}
		sc.RegisterAuthorizer(authorizeRead)
		defer sc.RegisterAuthorizer(nil)
		st, err := sc.Prepare(query)
		if err != nil {
			return err
		}
		defer st.Close()
		if ss, ok := st.(*sqlite3.SQLiteStmt); !ok || !ss.Readonly() {
			return ErrNotReadOnly
		}
		n = st.NumInput()
		return nil
	})
	return n, err
}
