// Package migrations holds the numbered SQL migrations of the GCS game
// database, embedded in the binary so `migrate` and server start-up can bring
// any database file to the current schema without files on disk.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"

	"github.com/pressly/goose/v3"
)

//go:embed *.sql
var files embed.FS

// Apply brings db to the newest schema version and returns that version.
// It is idempotent: a database already at the newest version is left as is.
// The applied version is recorded in goose's version table.
func Apply(ctx context.Context, db *sql.DB) (version int64, err error) {
	if db == nil {
		return 0, errors.New("migrations: apply: nil db")
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, files, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return 0, fmt.Errorf("migrations: provider: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return 0, fmt.Errorf("migrations: up: %w", err)
	}
	v, err := p.GetDBVersion(ctx)
	if err != nil {
		return 0, fmt.Errorf("migrations: version: %w", err)
	}
	return v, nil
}
