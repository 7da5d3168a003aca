package gcsdb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/gameassist/gameassist/gcsdb/resolve"
)

// Kind is a kind of game entity the read model resolves by name.
type Kind string

// The entity kinds of the sample game's schema.
const (
	KindChampion Kind = "champion"
	KindBoss     Kind = "boss"
	KindFaction  Kind = "faction"
	KindDungeon  Kind = "dungeon"
	KindGearSet  Kind = "gear_set"
	KindMastery  Kind = "mastery"
)

// Kinds lists every kind in a fixed order.
func Kinds() []Kind {
	return []Kind{KindChampion, KindBoss, KindFaction, KindDungeon, KindGearSet, KindMastery}
}

// table is the table holding entities of kind k; never user input.
func (k Kind) table() string {
	switch k {
	case KindChampion:
		return "champions"
	case KindBoss:
		return "bosses"
	case KindFaction:
		return "factions"
	case KindDungeon:
		return "dungeons"
	case KindGearSet:
		return "gear_sets"
	case KindMastery:
		return "masteries"
	}
	return ""
}

// Noun is how messages name the kind: "gear set".
func (k Kind) Noun() string {
	if k == KindGearSet {
		return "gear set"
	}
	return string(k)
}

// Game is the typed read model of the GCS database: typed queries over
// champions, bosses, factions, dungeons, gear sets, masteries and counters,
// the one name resolver (package resolve) over every entity's names, and the
// one counter-scoring rule (gamedata.CounterFacts.Score). The gcs_* tools,
// the cache snapshot and the offline responder read the game through it.
// It is safe for concurrent use; name indexes, counter rankings and champion
// views are kept in memory until the database's data version changes.
type Game struct {
	db *StmtDB
	// watch, for a database in a file, lets a version check skip its query
	// while the file is unchanged (nil: every check queries).
	watch *versionWatch

	mu        sync.Mutex
	version   string
	loaded    bool
	resolver  *resolve.Resolver
	ranked    map[int64][]RankedCounter
	champions map[int64]Champion
}

// maxChampionViews bounds the champion views a Game keeps per data version
// (a few KB each); past it, further champions are read every time.
const maxChampionViews = 4096

// NewGame returns the read model over db, the read-only handle from
// OpenReadOnly.
func NewGame(db *sql.DB) (*Game, error) {
	if db == nil {
		return nil, errors.New("gcsdb: game: nil db")
	}
	g := &Game{db: NewStmtDB(db)}
	path, err := mainFile(context.Background(), db)
	if err != nil {
		return nil, fmt.Errorf("gcsdb: game: %w", err)
	}
	if path != "" {
		g.watch = newVersionWatch(path)
	}
	return g, nil
}

// mainFile returns the path of db's main database file, "" for one in
// memory.
func mainFile(ctx context.Context, db *sql.DB) (string, error) {
	rows, err := db.QueryContext(ctx, `PRAGMA database_list`)
	if err != nil {
		return "", fmt.Errorf("database list: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var seq int
		var name, file string
		if err := rows.Scan(&seq, &name, &file); err != nil {
			return "", fmt.Errorf("database list: %w", err)
		}
		if name == "main" {
			return file, nil
		}
	}
	return "", rows.Err()
}

// DB returns the statement-caching handle the model reads through, for
// tools that run their own read-only SQL.
func (g *Game) DB() *StmtDB { return g.db }

// versionQuery reads the data version.
const versionQuery = `SELECT value FROM meta WHERE key = ?`

// Version returns the data version, "" when nothing is loaded. Every tool
// call checks it, so it runs on a pooled connection's driver directly: the
// driver interrupts the statement when ctx ends without a goroutine, where
// database/sql would start one per query to watch ctx.
//
// For a database in a file, a check whose files (the database and its
// write-ahead log) are as they were at the last query, and had then been
// unchanged for a while (see versionWatch), returns that query's version
// without querying.
func (g *Game) Version(ctx context.Context) (string, error) {
	w := g.watch
	if w == nil {
		return g.queryVersion(ctx)
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("gcsdb: data version: %w", err)
	}
	if v, ok := w.cached(); ok {
		return v, nil
	}
	at := w.now()
	st, serr := w.stamp()
	v, err := g.queryVersion(ctx)
	if err == nil && serr == nil {
		w.remember(st, at, v)
	}
	return v, err
}

// queryVersion reads the data version from the meta table.
func (g *Game) queryVersion(ctx context.Context) (string, error) {
	c, err := g.db.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("gcsdb: data version: %w", err)
	}
	defer c.Close()
	var v string
	err = c.Raw(func(dc any) error {
		q, ok := dc.(driver.QueryerContext)
		if !ok {
			return fmt.Errorf("driver connection %T cannot query", dc)
		}
		rows, err := q.QueryContext(ctx, versionQuery, []driver.NamedValue{{Ordinal: 1, Value: MetaDataVersion}})
		if err != nil {
			return err
		}
		defer rows.Close()
		dest := make([]driver.Value, 1)
		if err := rows.Next(dest); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		switch x := dest[0].(type) {
		case string:
			v = x
		case []byte:
			v = string(x)
		default:
			return fmt.Errorf("meta value is %T, not text", x)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("gcsdb: data version: %w", err)
	}
	return v, nil
}

// View is the read model as of one data version check: a tool that
// resolves a name and then reads the entity checks the version once.
type View struct {
	g       *Game
	version string
	r       *resolve.Resolver
}

// View checks the data version (rebuilding the in-memory indexes when it
// changed) and returns the model as of that version.
func (g *Game) View(ctx context.Context) (View, error) {
	v, r, err := g.fresh(ctx)
	if err != nil {
		return View{}, err
	}
	return View{g: g, version: v, r: r}, nil
}

// fresh drops the in-memory indexes when the data version changed and
// returns the current version and resolver, building it when needed.
func (g *Game) fresh(ctx context.Context) (string, *resolve.Resolver, error) {
	v, err := g.Version(ctx)
	if err != nil {
		return "", nil, err
	}
	g.mu.Lock()
	if g.loaded && g.version == v {
		r := g.resolver
		g.mu.Unlock()
		return v, r, nil
	}
	g.mu.Unlock()
	r, err := g.buildResolver(ctx)
	if err != nil {
		return "", nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.version, g.loaded, g.resolver, g.ranked = v, true, r, map[int64][]RankedCounter{}
	g.champions = map[int64]Champion{}
	return v, r, nil
}

// buildResolver reads every entity's name, key and display names.
func (g *Game) buildResolver(ctx context.Context) (*resolve.Resolver, error) {
	display := map[int64][]string{}
	byLocale := map[int64]map[string]string{}
	rows, err := g.db.QueryContext(ctx, `SELECT entity_id, locale, name FROM display_names ORDER BY entity_id, locale`)
	if err != nil {
		return nil, fmt.Errorf("gcsdb: display names: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var loc, n string
		if err := rows.Scan(&id, &loc, &n); err != nil {
			return nil, fmt.Errorf("gcsdb: display names: %w", err)
		}
		display[id] = append(display[id], n)
		if byLocale[id] == nil {
			byLocale[id] = map[string]string{}
		}
		byLocale[id][loc] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gcsdb: display names: %w", err)
	}
	var cands []resolve.Candidate
	for _, k := range Kinds() {
		// k.table() is a fixed table name; a table name cannot be a parameter.
		rows, err := g.db.QueryContext(ctx, `SELECT id, name, key FROM `+k.table()+` ORDER BY id`) //nolint:gosec // fixed table names
		if err != nil {
			return nil, fmt.Errorf("gcsdb: %s names: %w", k, err)
		}
		for rows.Next() {
			c := resolve.Candidate{Kind: string(k)}
			var key string
			if err := rows.Scan(&c.ID, &c.Name, &key); err != nil {
				_ = rows.Close()
				return nil, fmt.Errorf("gcsdb: %s names: %w", k, err)
			}
			c.Aliases = append([]string{key}, display[c.ID]...)
			c.Display = byLocale[c.ID]
			cands = append(cands, c)
		}
		err = rows.Err()
		_ = rows.Close()
		if err != nil {
			return nil, fmt.Errorf("gcsdb: %s names: %w", k, err)
		}
	}
	return resolve.New(cands), nil
}

// Resolution is a name resolved to an entity, or the names to suggest.
type Resolution struct {
	// ID is the entity's id; 0 when the name matched nothing.
	ID int64
	// Name is the entity's canonical name.
	Name string
	// How is the rule that matched.
	How resolve.How
	// Suggestions are up to three close names when nothing matched.
	Suggestions []string
}

// Found reports whether the name matched an entity.
func (r Resolution) Found() bool { return r.ID != 0 }

// Resolve resolves name to an entity of kind k, by the rules up to upto
// (see package resolve); when nothing matches it returns up to three
// suggestions.
func (g *Game) Resolve(ctx context.Context, k Kind, name string, upto resolve.How) (Resolution, error) {
	v, err := g.View(ctx)
	if err != nil {
		return Resolution{}, err
	}
	return v.Resolve(k, name, upto), nil
}

// Resolve is Game.Resolve as of the view's data version.
func (v View) Resolve(k Kind, name string, upto resolve.How) Resolution {
	if m, ok := v.r.LookupUpTo(string(k), name, upto); ok {
		return Resolution{ID: m.ID, Name: m.Name, How: m.How}
	}
	return Resolution{Suggestions: v.r.Suggest(string(k), name, 3)}
}

// FindNames returns every entity (of any kind) named in text, in text order,
// tolerating typos: the offline responder reads player messages with it.
func (g *Game) FindNames(ctx context.Context, text string) ([]resolve.Match, error) {
	_, r, err := g.fresh(ctx)
	if err != nil {
		return nil, err
	}
	return r.FindAll("", text), nil
}

// NameIndex returns the resolver over every entity's names (canonical,
// key, localized, with display names by locale) as of the current data
// version. It is immutable: a caller reading several names for one answer
// checks the data version once.
func (g *Game) NameIndex(ctx context.Context) (*resolve.Resolver, error) {
	_, r, err := g.fresh(ctx)
	return r, err
}

// Exists reports whether an entity of kind k has id.
func (g *Game) Exists(ctx context.Context, k Kind, id int64) (bool, error) {
	var found int64
	// k.table() is a fixed table name.
	err := g.db.QueryRowContext(ctx, `SELECT id FROM `+k.table()+` WHERE id = ?`, id).Scan(&found) //nolint:gosec // fixed table names
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("gcsdb: find %s %d: %w", k, id, err)
	}
	return true, nil
}

// DisplayNames returns the display names of an entity by locale.
func (g *Game) DisplayNames(ctx context.Context, id int64) (map[string]string, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT locale, name FROM display_names WHERE entity_id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("gcsdb: display names of %d: %w", id, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var l, n string
		if err := rows.Scan(&l, &n); err != nil {
			return nil, fmt.Errorf("gcsdb: display names of %d: %w", id, err)
		}
		out[l] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gcsdb: display names of %d: %w", id, err)
	}
	return out, nil
}

// Ref names another entity.
type Ref struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// refs runs a query returning (id, name) rows.
func (g *Game) refs(ctx context.Context, op, query string, args ...any) ([]Ref, error) {
	rows, err := g.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("gcsdb: %s: %w", op, err)
	}
	defer rows.Close()
	out := []Ref{}
	for rows.Next() {
		var r Ref
		if err := rows.Scan(&r.ID, &r.Name); err != nil {
			return nil, fmt.Errorf("gcsdb: %s: %w", op, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gcsdb: %s: %w", op, err)
	}
	return out, nil
}

// strs runs a query returning one text column.
func (g *Game) strs(ctx context.Context, op, query string, args ...any) ([]string, error) {
	rows, err := g.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("gcsdb: %s: %w", op, err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("gcsdb: %s: %w", op, err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gcsdb: %s: %w", op, err)
	}
	return out, nil
}
