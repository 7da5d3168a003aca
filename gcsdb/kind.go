package gcsdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// HasTable reports whether db has a table or view called name.
func HasTable(ctx context.Context, db *sql.DB, name string) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ?`, name).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("gcsdb: look for table %s: %w", name, err)
	}
	return n > 0, nil
}

// SampleVersion reports whether db holds gameassist's sample game (the
// schema of the migrations with a loaded data version) and which version.
// Any other database is a studio's own: gameassist opens it as is, never
// migrates it and offers only the tools that fit it.
func SampleVersion(ctx context.Context, db *sql.DB) (version string, sample bool, err error) {
	for _, t := range []string{"meta", "champions", "bosses", "display_names"} {
		ok, err := HasTable(ctx, db, t)
		if err != nil || !ok {
			return "", false, err
		}
	}
	v, err := DataVersion(ctx, db)
	if errors.Is(err, ErrNoData) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return v, true, nil
}
