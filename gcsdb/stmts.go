package gcsdb

import (
	"context"
	"database/sql"
	"sync"
)

// maxCachedStmts bounds the prepared statements kept; queries past it run
// unprepared (tools build some queries from optional filters).
const maxCachedStmts = 512

// StmtDB is the read-only GCS handle with a cache of prepared statements
// (go-sqlite3 compiles a statement on every unprepared query); the read model
// and the SQL tools share one.
type StmtDB struct {
	*sql.DB
	mu    sync.RWMutex
	stmts map[string]*sql.Stmt
}

// NewStmtDB wraps db with a statement cache.
func NewStmtDB(db *sql.DB) *StmtDB {
	return &StmtDB{DB: db, stmts: map[string]*sql.Stmt{}}
}

// stmt returns the prepared statement of query, preparing it once; nil
// when the cache is full.
func (d *StmtDB) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	d.mu.RLock()
	st, ok := d.stmts[query]
	full := len(d.stmts) >= maxCachedStmts
	d.mu.RUnlock()
	if ok || full {
		return st, nil
	}
	st, err := d.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if prev, ok := d.stmts[query]; ok {
		_ = st.Close() //nolint:sqlclosecheck // a racing caller prepared it first; ours is not needed
		return prev, nil
	}
	d.stmts[query] = st
	return st, nil
}

// QueryContext runs query as a prepared statement; the caller closes the
// rows, the statement lives as long as the cache.
//
//nolint:sqlclosecheck // see above
func (d *StmtDB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := d.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return d.DB.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext runs query as a prepared statement; errors surface from
// Scan, and the statement lives as long as the cache.
//
//nolint:sqlclosecheck // see above
func (d *StmtDB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := d.stmt(ctx, query)
	if err != nil || st == nil {
		return d.DB.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}
