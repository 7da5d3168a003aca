// Package toolscache holds the cache_* tools: the lists of champions,
// bosses, factions, dungeons and gear sets, served from an in-process
// snapshot of the GCS database that is refreshed in the background, so the
// lists the LLM asks for most cost microseconds.
package toolscache

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gameassist/gameassist/gcsdb/resolve"
)

// Named is an entity with its display names in every locale; the offline
// responder scans player messages for them.
type Named struct {
	ID    int64             `json:"id"`
	Name  string            `json:"name"`
	Names map[string]string `json:"names,omitempty"`
}

// ChampionEntry is one champion of cache_get_champions_list.
type ChampionEntry struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Faction  string `json:"faction"`
	Rarity   string `json:"rarity"`
	Affinity string `json:"affinity"`
	Role     string `json:"role"`

	factionID int64
	search    []string
}

// BossEntry is one boss of cache_get_bosses_list.
type BossEntry struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Affinity   string `json:"affinity"`
	Difficulty string `json:"difficulty"`
	Dungeon    string `json:"dungeon,omitempty"`
	// Names holds the display names that differ from Name, by locale.
	Names map[string]string `json:"names,omitempty"`

	search []string
}

// FactionEntry is one faction of cache_get_factions_list.
type FactionEntry struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Alignment string `json:"alignment"`
	Champions int    `json:"champions"`
	// Names holds the display names that differ from Name, by locale.
	Names map[string]string `json:"names,omitempty"`

	search []string
}

// DungeonEntry is one dungeon of cache_get_dungeons_list.
type DungeonEntry struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Stages int    `json:"stages"`
	Boss   string `json:"boss,omitempty"`

	search []string
}

// GearSetEntry is one gear set of cache_get_gear_sets_list.
type GearSetEntry struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Pieces    int    `json:"pieces"`
	StatBonus string `json:"stat_bonus"`
	BestFor   string `json:"best_for"`

	search []string
}

// data is one immutable snapshot of the lists.
type data struct {
	version     string
	loadedAt    time.Time
	champions   []ChampionEntry
	bosses      []BossEntry
	factions    []FactionEntry
	dungeons    []DungeonEntry
	gearSets    []GearSetEntry
	names       map[int64]map[string]string
	factionByID map[int64]FactionEntry
	// factionNames resolves the faction filter (the one name resolver).
	factionNames *resolve.Resolver
}

// Snapshot is an in-process copy of the GCS lists, swapped atomically on
// refresh so readers never lock.
type Snapshot struct {
	db  *sql.DB
	log *slog.Logger
	cur atomic.Pointer[data]
}

// NewSnapshot loads the first snapshot from db (the read-only GCS handle).
func NewSnapshot(ctx context.Context, db *sql.DB, logger *slog.Logger) (*Snapshot, error) {
	if db == nil {
		return nil, errors.New("toolscache: nil db")
	}
	if logger == nil {
		return nil, errors.New("toolscache: nil logger")
	}
	s := &Snapshot{db: db, log: logger}
	if err := s.Refresh(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Run refreshes the snapshot every interval until ctx ends; a failed
// refresh is logged and the previous snapshot kept.
func (s *Snapshot) Run(ctx context.Context, every time.Duration) {
	if every <= 0 {
		every = time.Minute
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.Refresh(ctx); err != nil && ctx.Err() == nil {
				s.log.LogAttrs(ctx, slog.LevelWarn, "cache snapshot refresh failed", slog.String("error", err.Error()))
			}
		}
	}
}

// Refresh reloads the snapshot when the database's data version changed
// since the last load.
func (s *Snapshot) Refresh(ctx context.Context) error {
	var version string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'data_version'`).Scan(&version)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("toolscache: refresh: %w", err)
	}
	if old := s.cur.Load(); old != nil && old.version == version && version != "" {
		return nil
	}
	d, err := load(ctx, s.db)
	if err != nil {
		return fmt.Errorf("toolscache: refresh: %w", err)
	}
	d.version = version
	s.cur.Store(d)
	s.log.LogAttrs(ctx, slog.LevelInfo, "cache snapshot loaded", slog.String("data_version", version),
		slog.Int("champions", len(d.champions)), slog.Int("bosses", len(d.bosses)))
	return nil
}

// Version returns the data version of the current snapshot.
func (s *Snapshot) Version() string { return s.cur.Load().version }

// LastUpdated returns when the current snapshot was loaded.
func (s *Snapshot) LastUpdated() time.Time { return s.cur.Load().loadedAt }

func named(d *data, id int64, name string) Named {
	return Named{ID: id, Name: name, Names: d.names[id]}
}

// Champions returns every champion with its names in all locales. The
// slice is a copy; the name maps are shared and must not be modified.
func (s *Snapshot) Champions() []Named {
	d := s.cur.Load()
	return namedList(d, d.champions, func(c ChampionEntry) (int64, string) { return c.ID, c.Name })
}

// Bosses returns every boss with its names in all locales (see Champions).
func (s *Snapshot) Bosses() []Named {
	d := s.cur.Load()
	return namedList(d, d.bosses, func(b BossEntry) (int64, string) { return b.ID, b.Name })
}

// Factions returns every faction with its names in all locales (see Champions).
func (s *Snapshot) Factions() []Named {
	d := s.cur.Load()
	return namedList(d, d.factions, func(f FactionEntry) (int64, string) { return f.ID, f.Name })
}

func namedList[T any](d *data, items []T, key func(T) (int64, string)) []Named {
	out := make([]Named, len(items))
	for i, it := range items {
		id, name := key(it)
		out[i] = named(d, id, name)
	}
	return out
}

// load reads every list in one read transaction, so the lists agree.
func load(ctx context.Context, db *sql.DB) (*data, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	d := &data{loadedAt: time.Now().UTC(), names: map[int64]map[string]string{}, factionByID: map[int64]FactionEntry{}}

	if err := each(ctx, tx, `SELECT entity_id, locale, name FROM display_names`, func(r *sql.Rows) error {
		var id int64
		var loc, name string
		if err := r.Scan(&id, &loc, &name); err != nil {
			return err
		}
		if d.names[id] == nil {
			d.names[id] = map[string]string{}
		}
		d.names[id][loc] = name
		return nil
	}); err != nil {
		return nil, fmt.Errorf("names: %w", err)
	}
	if err := each(ctx, tx, `SELECT f.id, f.name, f.alignment, (SELECT count(*) FROM champions c WHERE c.faction_id = f.id)
		FROM factions f ORDER BY f.name, f.id`, func(r *sql.Rows) error {
		var f FactionEntry
		if err := r.Scan(&f.ID, &f.Name, &f.Alignment, &f.Champions); err != nil {
			return err
		}
		f.search = searchNames(f.Name, d.names[f.ID])
		f.Names = otherNames(f.Name, d.names[f.ID])
		d.factions = append(d.factions, f)
		d.factionByID[f.ID] = f
		return nil
	}); err != nil {
		return nil, fmt.Errorf("factions: %w", err)
	}
	if err := each(ctx, tx, `SELECT c.id, c.name, c.faction_id, f.name, c.rarity, c.affinity, c.role
		FROM champions c JOIN factions f ON f.id = c.faction_id ORDER BY c.name, c.id`, func(r *sql.Rows) error {
		var c ChampionEntry
		if err := r.Scan(&c.ID, &c.Name, &c.factionID, &c.Faction, &c.Rarity, &c.Affinity, &c.Role); err != nil {
			return err
		}
		c.search = searchNames(c.Name, d.names[c.ID])
		d.champions = append(d.champions, c)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("champions: %w", err)
	}
	if err := each(ctx, tx, `SELECT b.id, b.name, b.affinity, b.difficulty, coalesce(d.name, '')
		FROM bosses b LEFT JOIN dungeons d ON d.id = b.dungeon_id ORDER BY b.name, b.id`, func(r *sql.Rows) error {
		var b BossEntry
		if err := r.Scan(&b.ID, &b.Name, &b.Affinity, &b.Difficulty, &b.Dungeon); err != nil {
			return err
		}
		b.search = searchNames(b.Name, d.names[b.ID])
		b.Names = otherNames(b.Name, d.names[b.ID])
		d.bosses = append(d.bosses, b)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("bosses: %w", err)
	}
	if err := each(ctx, tx, `SELECT d.id, d.name, d.kind, d.stages, coalesce(b.name, '')
		FROM dungeons d LEFT JOIN bosses b ON b.id = d.boss_id ORDER BY d.name, d.id`, func(r *sql.Rows) error {
		var x DungeonEntry
		if err := r.Scan(&x.ID, &x.Name, &x.Kind, &x.Stages, &x.Boss); err != nil {
			return err
		}
		x.search = searchNames(x.Name, d.names[x.ID])
		d.dungeons = append(d.dungeons, x)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("dungeons: %w", err)
	}
	if err := each(ctx, tx, `SELECT id, name, pieces, stat_bonus, best_for FROM gear_sets ORDER BY name, id`, func(r *sql.Rows) error {
		var g GearSetEntry
		if err := r.Scan(&g.ID, &g.Name, &g.Pieces, &g.StatBonus, &g.BestFor); err != nil {
			return err
		}
		g.search = searchNames(g.Name, d.names[g.ID])
		d.gearSets = append(d.gearSets, g)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("gear sets: %w", err)
	}
	fcands := make([]resolve.Candidate, len(d.factions))
	for i, f := range d.factions {
		fcands[i] = resolve.Candidate{Kind: "faction", ID: f.ID, Name: f.Name, Aliases: f.search}
	}
	d.factionNames = resolve.New(fcands)
	return d, nil
}

func each(ctx context.Context, tx *sql.Tx, query string, fn func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// otherNames returns the display names that differ from name, so players
// (and the offline responder) can use a localized name; nil when none do.
func otherNames(name string, names map[string]string) map[string]string {
	var out map[string]string
	for loc, n := range names {
		if n != "" && n != name {
			if out == nil {
				out = map[string]string{}
			}
			out[loc] = n
		}
	}
	return out
}

// searchNames returns the folded names of an entity (resolve.Fold: case,
// accents and punctuation ignored), deduplicated.
func searchNames(name string, names map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		n = resolve.Fold(n)
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	add(name)
	locales := make([]string, 0, len(names))
	for l := range names {
		locales = append(locales, l)
	}
	sort.Strings(locales)
	for _, l := range locales {
		add(names[l])
	}
	return out
}

// matchPrefix reports whether any name, or any word of one, starts with q
// (already folded).
func matchPrefix(search []string, q string) bool {
	for _, n := range search {
		if strings.HasPrefix(n, q) || strings.Contains(n, " "+q) {
			return true
		}
	}
	return false
}
