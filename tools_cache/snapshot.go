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

	"github.com/gameassist/gameassist/gcsdb"
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
	// Names holds the display names that differ from Name, by locale.
	Names map[string]string `json:"names,omitempty"`

	search []string
}

// GearSetEntry is one gear set of cache_get_gear_sets_list.
type GearSetEntry struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Pieces    int    `json:"pieces"`
	StatBonus string `json:"stat_bonus"`
	BestFor   string `json:"best_for"`
	// Names holds the display names that differ from Name, by locale.
	Names map[string]string `json:"names,omitempty"`

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
	game *gcsdb.Game
	log  *slog.Logger
	cur  atomic.Pointer[data]
}

// NewSnapshot loads the first snapshot from db (the read-only GCS handle).
func NewSnapshot(ctx context.Context, db *sql.DB, logger *slog.Logger) (*Snapshot, error) {
	if db == nil {
		return nil, errors.New("toolscache: nil db")
	}
	if logger == nil {
		return nil, errors.New("toolscache: nil logger")
	}
	game, err := gcsdb.NewGame(db)
	if err != nil {
		return nil, fmt.Errorf("toolscache: %w", err)
	}
	s := &Snapshot{game: game, log: logger}
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
	s.runTicks(ctx, t.C)
}

// runTicks refreshes the snapshot on each tick until ctx ends.
func (s *Snapshot) runTicks(ctx context.Context, ticks <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			if err := s.Refresh(ctx); err != nil && ctx.Err() == nil {
				s.log.LogAttrs(ctx, slog.LevelWarn, "cache snapshot refresh failed", slog.String("error", err.Error()))
			}
		}
	}
}

// Refresh reloads the snapshot when the database's data version changed
// since the last load.
func (s *Snapshot) Refresh(ctx context.Context) error {
	version, err := s.game.Version(ctx)
	if err != nil {
		return fmt.Errorf("toolscache: refresh: %w", err)
	}
	if old := s.cur.Load(); old != nil && old.version == version && version != "" {
		return nil
	}
	d, err := load(ctx, s.game)
	if err != nil {
		return fmt.Errorf("toolscache: refresh: %w", err)
	}
	s.cur.Store(d)
	s.log.LogAttrs(ctx, slog.LevelInfo, "cache snapshot loaded", slog.String("data_version", d.version),
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

// load reads every list through the read model, in one read transaction.
func load(ctx context.Context, game *gcsdb.Game) (*data, error) {
	l, err := game.Lists(ctx)
	if err != nil {
		return nil, err
	}
	d := &data{version: l.Version, loadedAt: time.Now().UTC(), names: l.Names, factionByID: map[int64]FactionEntry{}}
	for _, r := range l.Factions {
		f := FactionEntry{ID: r.ID, Name: r.Name, Alignment: r.Alignment, Champions: r.Champions,
			Names: otherNames(r.Name, d.names[r.ID]), search: searchNames(r.Name, d.names[r.ID])}
		d.factions = append(d.factions, f)
		d.factionByID[f.ID] = f
	}
	for _, r := range l.Champions {
		d.champions = append(d.champions, ChampionEntry{ID: r.ID, Name: r.Name, Faction: r.Faction, Rarity: r.Rarity,
			Affinity: r.Affinity, Role: r.Role, factionID: r.FactionID, search: searchNames(r.Name, d.names[r.ID])})
	}
	for _, r := range l.Bosses {
		d.bosses = append(d.bosses, BossEntry{ID: r.ID, Name: r.Name, Affinity: r.Affinity, Difficulty: r.Difficulty,
			Dungeon: r.Dungeon, Names: otherNames(r.Name, d.names[r.ID]), search: searchNames(r.Name, d.names[r.ID])})
	}
	for _, r := range l.Dungeons {
		d.dungeons = append(d.dungeons, DungeonEntry{ID: r.ID, Name: r.Name, Kind: r.Kind, Stages: r.Stages, Boss: r.Boss,
			Names: otherNames(r.Name, d.names[r.ID]), search: searchNames(r.Name, d.names[r.ID])})
	}
	for _, r := range l.GearSets {
		d.gearSets = append(d.gearSets, GearSetEntry{ID: r.ID, Name: r.Name, Pieces: r.Pieces, StatBonus: r.StatBonus,
			BestFor: r.BestFor, Names: otherNames(r.Name, d.names[r.ID]), search: searchNames(r.Name, d.names[r.ID])})
	}
	fcands := make([]resolve.Candidate, len(d.factions))
	for i, f := range d.factions {
		fcands[i] = resolve.Candidate{Kind: "faction", ID: f.ID, Name: f.Name, Aliases: f.search}
	}
	d.factionNames = resolve.New(fcands)
	return d, nil
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
