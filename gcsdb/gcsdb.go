// Package gcsdb owns the GCS ("Game Content System") SQLite database: it
// migrates the file, loads the game's content into it when the content
// changed, opens it read-only for the tools and translates entity ids into
// display names for screen prompts.
package gcsdb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3" // the sqlite3 database/sql driver

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/migrations"
)

// The keys of the meta table.
const (
	MetaDataVersion = "data_version"
	MetaLoadedAt    = "loaded_at"
)

// Version returns the data version of g: the first 12 hex digits of the
// SHA-256 of its canonical JSON. Prepare stores it in the meta table, so a
// changed game reloads and an unchanged one does not.
func Version(g gamedata.Game) (string, error) {
	b, err := json.Marshal(g)
	if err != nil {
		return "", fmt.Errorf("gcsdb: version: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:12], nil
}

// fileURI turns a path into an SQLite URI path, escaping the characters
// URIs give a meaning to.
func fileURI(path string) string {
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return "file:" + r.Replace(path)
}

// Prepare opens the database at path read-write (creating it and its
// directory when missing), applies the migrations and, in one transaction,
// loads g when the database is empty or holds another data version. It
// returns the data version the database holds afterwards.
func Prepare(ctx context.Context, path string, g gamedata.Game, logger *slog.Logger) (version string, err error) {
	if logger == nil {
		return "", errors.New("gcsdb: prepare: nil logger")
	}
	if strings.TrimSpace(path) == "" {
		return "", errors.New("gcsdb: prepare: empty path")
	}
	want, err := Version(g)
	if err != nil {
		return "", err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return "", fmt.Errorf("gcsdb: prepare %s: %w", path, err)
		}
	}
	db, err := sql.Open("sqlite3", fileURI(path)+"?mode=rwc&_foreign_keys=on&_busy_timeout=5000&_txlock=immediate")
	if err != nil {
		return "", fmt.Errorf("gcsdb: open %s: %w", path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)

	schema, err := migrations.Apply(ctx, db)
	if err != nil {
		return "", fmt.Errorf("gcsdb: prepare %s: %w", path, err)
	}
	have, err := DataVersion(ctx, db)
	if err != nil && !errors.Is(err, ErrNoData) {
		return "", err
	}
	if have == want {
		logger.LogAttrs(ctx, slog.LevelInfo, "gcs database up to date",
			slog.String("path", path), slog.String("data_version", have), slog.Int64("schema_version", schema))
		return have, nil
	}
	start := time.Now()
	if err := load(ctx, db, g, want); err != nil {
		return "", fmt.Errorf("gcsdb: load %s: %w", path, err)
	}
	logger.LogAttrs(ctx, slog.LevelInfo, "gcs database loaded",
		slog.String("path", path), slog.String("previous_version", have), slog.String("data_version", want),
		slog.Int64("schema_version", schema), slog.Int("champions", len(g.Champions)),
		slog.Duration("took", time.Since(start)))
	return want, nil
}

// OpenReadOnly opens the database at path so that nothing can change it: the
// file is opened read-only and every connection has query_only set. Every
// connection also gets the run-time limits of readLimits, so a query that
// builds a huge value (randomblob(1e9), hex(zeroblob(4e8)), a printf width)
// fails at once with SQLITE_TOOBIG instead of growing the process. The
// tools use this handle.
func OpenReadOnly(ctx context.Context, path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("gcsdb: open read-only %s: %w", path, err)
	}
	drv := &sqlite3.SQLiteDriver{ConnectHook: limitConn}
	db := sql.OpenDB(connector{drv: drv, dsn: fileURI(path) + "?mode=ro&_query_only=true&_busy_timeout=2000&_stmt_cache_size=64"})
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("gcsdb: open read-only %s: %w", path, err)
	}
	return db, nil
}

// MaxValueBytes is the largest string, blob or row a read-only connection
// builds (SQLITE_LIMIT_LENGTH).
const MaxValueBytes = 1_000_000

// readLimits are the SQLite run-time limits (sqlite3_limit) of every
// read-only connection: far above what the game's queries need, far below
// what hurts the process.
func readLimits() map[int]int {
	return map[int]int{
		sqlite3.SQLITE_LIMIT_LENGTH:              MaxValueBytes,
		sqlite3.SQLITE_LIMIT_SQL_LENGTH:          100_000,
		sqlite3.SQLITE_LIMIT_COLUMN:              200,
		sqlite3.SQLITE_LIMIT_EXPR_DEPTH:          100,
		sqlite3.SQLITE_LIMIT_COMPOUND_SELECT:     50,
		sqlite3.SQLITE_LIMIT_FUNCTION_ARG:        64,
		sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH: 1_000,
		sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER:     1_000,
		sqlite3.SQLITE_LIMIT_ATTACHED:            0,
	}
}

// Heap limits of the SQLite library (process-wide, set by every read-only
// connection): past the soft one SQLite frees caches, past the hard one an
// allocation fails with SQLITE_NOMEM.
const (
	SoftHeapLimit = 64 << 20
	HardHeapLimit = 256 << 20
)

// limitConn applies readLimits and the heap limits to a new connection.
func limitConn(c *sqlite3.SQLiteConn) error {
	for id, v := range readLimits() {
		c.SetLimit(id, v)
	}
	for _, p := range []string{
		"PRAGMA soft_heap_limit = " + strconv.Itoa(SoftHeapLimit),
		"PRAGMA hard_heap_limit = " + strconv.Itoa(HardHeapLimit),
	} {
		if _, err := c.Exec(p, nil); err != nil {
			return fmt.Errorf("gcsdb: %s: %w", p, err)
		}
	}
	return nil
}

// connector opens connections of one DSN with its own driver value, so a
// ConnectHook needs no process-wide sql.Register.
type connector struct {
	drv *sqlite3.SQLiteDriver
	dsn string
}

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }

func (c connector) Driver() driver.Driver { return c.drv }

// ErrNoData means the database has the schema but no game loaded yet.
var ErrNoData = errors.New("gcsdb: no data loaded")

// DataVersion returns the data version stored in the meta table, so caches
// keyed by it can tell when the content changed. It returns ErrNoData when
// nothing was loaded.
func DataVersion(ctx context.Context, db *sql.DB) (string, error) {
	var v string
	err := db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, MetaDataVersion).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNoData
	}
	if err != nil {
		return "", fmt.Errorf("gcsdb: data version: %w", err)
	}
	return v, nil
}

// contentTables lists every content table; load empties them before filling.
func contentTables() []string {
	return []string{
		"display_names", "dungeon_drops", "champion_strong_against", "boss_counters", "boss_immunities",
		"boss_weaknesses", "boss_mechanics", "boss_phases", "skill_effects", "champion_skills", "champion_tags",
		"masteries", "gear_sets", "champions", "factions", "bosses", "dungeons", "meta",
	}
}

func nullID(id int) any {
	if id == 0 {
		return nil
	}
	return id
}

// load replaces the content of db by g in one transaction.
func load(ctx context.Context, db *sql.DB, g gamedata.Game, version string) (err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
		return err
	}
	for _, t := range contentTables() {
		// t comes from contentTables, a fixed list; a table name cannot be a parameter.
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+t); err != nil { //nolint:gosec // fixed table names
			return fmt.Errorf("empty %s: %w", t, err)
		}
	}
	l := loader{ctx: ctx, tx: tx}
	for _, f := range g.Factions {
		l.exec(`INSERT INTO factions (id, key, name, alignment, homeland, description) VALUES (?, ?, ?, ?, ?, ?)`,
			f.ID, f.Key, f.Name, f.Alignment, f.Homeland, f.Description)
		l.names(f.ID, f.Name, f.Names)
	}
	for _, c := range g.Champions {
		s := c.Stats
		l.exec(`INSERT INTO champions (id, key, name, faction_id, rarity, affinity, role, hp, atk, def, spd, c_rate, c_dmg, res, acc, lore)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.ID, c.Key, c.Name, c.FactionID, c.Rarity, c.Affinity, c.Role,
			s.HP, s.ATK, s.DEF, s.SPD, s.CRate, s.CDmg, s.RES, s.ACC, c.Lore)
		l.names(c.ID, c.Name, c.Names)
		for _, tag := range uniq(c.Tags) {
			l.exec(`INSERT INTO champion_tags (champion_id, tag) VALUES (?, ?)`, c.ID, tag)
		}
		for _, sk := range c.Skills {
			l.exec(`INSERT INTO champion_skills (champion_id, slot, name, cooldown, description) VALUES (?, ?, ?, ?, ?)`,
				c.ID, sk.Slot, sk.Name, sk.Cooldown, sk.Description)
			for _, e := range uniq(sk.Effects) {
				l.exec(`INSERT INTO skill_effects (champion_id, slot, effect) VALUES (?, ?, ?)`, c.ID, sk.Slot, e)
			}
		}
		for _, b := range uniqInts(c.StrongAgainst) {
			l.exec(`INSERT INTO champion_strong_against (champion_id, boss_id) VALUES (?, ?)`, c.ID, b)
		}
	}
	for _, d := range g.Dungeons {
		l.exec(`INSERT INTO dungeons (id, key, name, kind, stages, energy_cost, boss_id, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			d.ID, d.Key, d.Name, d.Kind, d.Stages, d.EnergyCost, nullID(d.BossID), d.Description)
		l.names(d.ID, d.Name, d.Names)
		for _, gs := range uniqInts(d.Drops) {
			l.exec(`INSERT INTO dungeon_drops (dungeon_id, gear_set_id) VALUES (?, ?)`, d.ID, gs)
		}
	}
	for _, b := range g.Bosses {
		l.exec(`INSERT INTO bosses (id, key, name, affinity, dungeon_id, difficulty, hp, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			b.ID, b.Key, b.Name, b.Affinity, nullID(b.DungeonID), b.Difficulty, b.HP, b.Description)
		l.names(b.ID, b.Name, b.Names)
		for _, p := range b.Phases {
			l.exec(`INSERT INTO boss_phases (boss_id, number, name, hp_threshold, description) VALUES (?, ?, ?, ?, ?)`,
				b.ID, p.Number, p.Name, p.HPThreshold, p.Description)
		}
		for i, m := range b.Mechanics {
			l.exec(`INSERT INTO boss_mechanics (boss_id, seq, mechanic) VALUES (?, ?, ?)`, b.ID, i+1, m)
		}
		for _, w := range uniq(b.Weaknesses) {
			l.exec(`INSERT INTO boss_weaknesses (boss_id, effect) VALUES (?, ?)`, b.ID, w)
		}
		for _, im := range uniq(b.Immunities) {
			l.exec(`INSERT INTO boss_immunities (boss_id, effect) VALUES (?, ?)`, b.ID, im)
		}
		for i, c := range uniqInts(b.RecommendedCounters) {
			l.exec(`INSERT INTO boss_counters (boss_id, champion_id, rank) VALUES (?, ?, ?)`, b.ID, c, i+1)
		}
	}
	for _, gs := range g.GearSets {
		l.exec(`INSERT INTO gear_sets (id, key, name, pieces, bonus, stat_bonus, best_for, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			gs.ID, gs.Key, gs.Name, gs.Pieces, gs.Bonus, gs.StatBonus, gs.BestFor, gs.Description)
		l.names(gs.ID, gs.Name, gs.Names)
	}
	for _, m := range g.Masteries {
		l.exec(`INSERT INTO masteries (id, key, name, tree, tier, description) VALUES (?, ?, ?, ?, ?, ?)`,
			m.ID, m.Key, m.Name, m.Tree, m.Tier, m.Description)
		l.names(m.ID, m.Name, m.Names)
	}
	l.exec(`INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)`,
		MetaDataVersion, version, MetaLoadedAt, time.Now().UTC().Format(time.RFC3339))
	if l.err != nil {
		return l.err
	}
	if err := foreignKeyCheck(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// foreignKeyCheck reports dangling references with the rows that hold them,
// so a content mistake reads as such and not as a bare constraint failure.
func foreignKeyCheck(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT "table", rowid, parent FROM pragma_foreign_key_check`)
	if err != nil {
		return fmt.Errorf("foreign key check: %w", err)
	}
	defer rows.Close()
	var bad []string
	for rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		if err := rows.Scan(&table, &rowid, &parent); err != nil {
			return fmt.Errorf("foreign key check: %w", err)
		}
		if len(bad) < 10 {
			bad = append(bad, fmt.Sprintf("%s row %d references a missing %s", table, rowid.Int64, parent))
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("foreign key check: %w", err)
	}
	if len(bad) > 0 {
		return fmt.Errorf("game data has dangling references: %s", strings.Join(bad, "; "))
	}
	return nil
}

// loader runs inserts in a transaction and keeps the first error.
type loader struct {
	ctx context.Context
	tx  *sql.Tx
	err error
}

func (l *loader) exec(query string, args ...any) {
	if l.err != nil {
		return
	}
	if _, err := l.tx.ExecContext(l.ctx, query, args...); err != nil {
		l.err = fmt.Errorf("%s: %w", strings.Fields(query)[2], err)
		if len(args) > 0 {
			l.err = fmt.Errorf("%s id %v: %w", strings.Fields(query)[2], args[0], err)
		}
	}
}

// names stores the display names of an entity; the entity's name stands in
// for English when the content gives none.
func (l *loader) names(id int, name string, names gamedata.Names) {
	seen := map[string]bool{}
	for loc, n := range names {
		loc = normLocale(loc)
		if loc == "" || strings.TrimSpace(n) == "" || seen[loc] {
			continue
		}
		seen[loc] = true
		l.exec(`INSERT INTO display_names (entity_id, locale, name) VALUES (?, ?, ?)`, id, loc, n)
	}
	if !seen["en"] && name != "" {
		l.exec(`INSERT INTO display_names (entity_id, locale, name) VALUES (?, ?, ?)`, id, "en", name)
	}
}

func uniq(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if x != "" && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func uniqInts(xs []int) []int {
	seen := make(map[int]bool, len(xs))
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		if x != 0 && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
