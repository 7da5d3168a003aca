package gcsdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// ErrUnknownID means no entity of the game has the id asked for.
var ErrUnknownID = errors.New("gcsdb: unknown id")

// Names translates entity ids into display names, for screen prompts such
// as "viewing '{ChampionConfigId_translated}'". Lookups are cached in memory
// and the cache is dropped when the database's data version changes.
type Names struct {
	db *sql.DB
	// versionTTL is how long a read data version is trusted.
	versionTTL time.Duration
	maxEntries int

	mu        sync.Mutex
	version   string
	checkedAt time.Time
	cache     map[nameKey]string
	// probed is set once the tables below were looked for: a studio's own
	// database may have neither.
	probed   bool
	hasMeta  bool
	hasNames bool
}

type nameKey struct {
	id     int64
	locale string
}

// NewNames returns a translator over db (the read-only handle will do).
func NewNames(db *sql.DB) (*Names, error) {
	if db == nil {
		return nil, errors.New("gcsdb: names: nil db")
	}
	return &Names{db: db, versionTTL: 2 * time.Second, maxEntries: 10000, cache: map[nameKey]string{}}, nil
}

// normLocale reduces "fr-FR", "FR" or "fr_fr" to "fr".
func normLocale(locale string) string {
	l := strings.ToLower(strings.TrimSpace(locale))
	if i := strings.IndexAny(l, "-_"); i >= 0 {
		l = l[:i]
	}
	if len(l) > 8 {
		return ""
	}
	return l
}

// DisplayName returns the name of entity id in locale, falling back to
// English and then to any name the entity has. It returns ErrUnknownID
// when no entity has that id, and for every id when the database has no
// display_names(entity_id, locale, name) table (a studio's own database
// may have none: screen prompts then show the raw value).
func (n *Names) DisplayName(ctx context.Context, id int64, locale string) (string, error) {
	locale = normLocale(locale)
	if locale == "" {
		locale = "en"
	}
	if err := n.checkVersion(ctx); err != nil {
		return "", err
	}
	n.mu.Lock()
	hasNames := n.hasNames
	n.mu.Unlock()
	if !hasNames {
		return "", fmt.Errorf("gcsdb: display name of %d: no display_names table: %w", id, ErrUnknownID)
	}
	key := nameKey{id: id, locale: locale}
	n.mu.Lock()
	name, ok := n.cache[key]
	n.mu.Unlock()
	if ok {
		return name, nil
	}
	err := n.db.QueryRowContext(ctx, `SELECT name FROM display_names WHERE entity_id = ?
		ORDER BY CASE locale WHEN ? THEN 0 WHEN 'en' THEN 1 ELSE 2 END, locale LIMIT 1`, id, locale).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("gcsdb: display name of %d: %w", id, ErrUnknownID)
	}
	if err != nil {
		return "", fmt.Errorf("gcsdb: display name of %d: %w", id, err)
	}
	n.mu.Lock()
	if len(n.cache) >= n.maxEntries {
		n.cache = map[nameKey]string{}
	}
	n.cache[key] = name
	n.mu.Unlock()
	return name, nil
}

// checkVersion drops the cache when the data version changed; the version
// is read at most once per versionTTL.
func (n *Names) checkVersion(ctx context.Context) error {
	n.mu.Lock()
	fresh := time.Since(n.checkedAt) < n.versionTTL
	n.mu.Unlock()
	if fresh {
		return nil
	}
	hasMeta, hasNames, err := n.probe(ctx)
	if err != nil {
		return err
	}
	v := ""
	if hasMeta {
		v, err = DataVersion(ctx, n.db)
		if err != nil && !errors.Is(err, ErrNoData) {
			return err
		}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.hasMeta, n.hasNames = hasMeta, hasNames
	if v != n.version || !hasMeta {
		// Without a meta table there is no data version to watch: names
		// are trusted for versionTTL only.
		n.version = v
		n.cache = map[nameKey]string{}
	}
	n.checkedAt = time.Now()
	return nil
}

// probe looks once for the tables names need; later calls reuse the answer.
func (n *Names) probe(ctx context.Context) (hasMeta, hasNames bool, err error) {
	n.mu.Lock()
	if n.probed {
		defer n.mu.Unlock()
		return n.hasMeta, n.hasNames, nil
	}
	n.mu.Unlock()
	if hasMeta, err = HasTable(ctx, n.db, "meta"); err != nil {
		return false, false, err
	}
	if hasNames, err = HasTable(ctx, n.db, "display_names"); err != nil {
		return false, false, err
	}
	// The answer is stored with the flag, under one lock: a concurrent
	// call that sees probed must see the tables too (it used to read them
	// unset, and every name failed to translate until the next check).
	n.mu.Lock()
	n.probed, n.hasMeta, n.hasNames = true, hasMeta, hasNames
	n.mu.Unlock()
	return hasMeta, hasNames, nil
}
