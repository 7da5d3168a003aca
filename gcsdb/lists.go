package gcsdb

import (
	"context"
	"database/sql"
	"fmt"
)

// FactionRow is one faction as the lists show it.
type FactionRow struct {
	ID        int64
	Name      string
	Alignment string
	// Champions is how many champions the faction has.
	Champions int
}

// ChampionRow is one champion as the lists show it.
type ChampionRow struct {
	ID                              int64
	Name                            string
	FactionID                       int64
	Faction, Rarity, Affinity, Role string
}

// BossRow is one boss as the lists show it.
type BossRow struct {
	ID                   int64
	Name                 string
	Affinity, Difficulty string
	// Dungeon is the name of its dungeon, "" when it has none.
	Dungeon string
}

// DungeonRow is one dungeon as the lists show it.
type DungeonRow struct {
	ID     int64
	Name   string
	Kind   string
	Stages int
	// Boss is the name of its boss, "" when it has none.
	Boss string
}

// GearSetRow is one gear set as the lists show it.
type GearSetRow struct {
	ID                 int64
	Name               string
	Pieces             int
	StatBonus, BestFor string
}

// Lists is every entity of the game in list form, each list sorted by name
// then id, with every display name by entity id and locale.
type Lists struct {
	Version   string
	Names     map[int64]map[string]string
	Factions  []FactionRow
	Champions []ChampionRow
	Bosses    []BossRow
	Dungeons  []DungeonRow
	GearSets  []GearSetRow
}

// Lists reads every list in one read transaction, so the lists agree with
// each other and with the version.
func (g *Game) Lists(ctx context.Context) (Lists, error) {
	tx, err := g.db.BeginTx(ctx, nil)
	if err != nil {
		return Lists{}, fmt.Errorf("gcsdb: lists: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	l := Lists{Names: map[int64]map[string]string{}}
	steps := []struct {
		what, query string
		scan        func(*sql.Rows) error
	}{
		{"data version", `SELECT value FROM meta WHERE key = 'data_version'`, func(r *sql.Rows) error { return r.Scan(&l.Version) }},
		{"names", `SELECT entity_id, locale, name FROM display_names`, func(r *sql.Rows) error {
			var id int64
			var loc, name string
			if err := r.Scan(&id, &loc, &name); err != nil {
				return err
			}
			if l.Names[id] == nil {
				l.Names[id] = map[string]string{}
			}
			l.Names[id][loc] = name
			return nil
		}},
		{"factions", `SELECT f.id, f.name, f.alignment, (SELECT count(*) FROM champions c WHERE c.faction_id = f.id)
			FROM factions f ORDER BY f.name, f.id`, func(r *sql.Rows) error {
			var f FactionRow
			err := r.Scan(&f.ID, &f.Name, &f.Alignment, &f.Champions)
			l.Factions = append(l.Factions, f)
			return err
		}},
		{"champions", `SELECT c.id, c.name, c.faction_id, f.name, c.rarity, c.affinity, c.role
			FROM champions c JOIN factions f ON f.id = c.faction_id ORDER BY c.name, c.id`, func(r *sql.Rows) error {
			var c ChampionRow
			err := r.Scan(&c.ID, &c.Name, &c.FactionID, &c.Faction, &c.Rarity, &c.Affinity, &c.Role)
			l.Champions = append(l.Champions, c)
			return err
		}},
		{"bosses", `SELECT b.id, b.name, b.affinity, b.difficulty, coalesce(d.name, '')
			FROM bosses b LEFT JOIN dungeons d ON d.id = b.dungeon_id ORDER BY b.name, b.id`, func(r *sql.Rows) error {
			var b BossRow
			err := r.Scan(&b.ID, &b.Name, &b.Affinity, &b.Difficulty, &b.Dungeon)
			l.Bosses = append(l.Bosses, b)
			return err
		}},
		{"dungeons", `SELECT d.id, d.name, d.kind, d.stages, coalesce(b.name, '')
			FROM dungeons d LEFT JOIN bosses b ON b.id = d.boss_id ORDER BY d.name, d.id`, func(r *sql.Rows) error {
			var x DungeonRow
			err := r.Scan(&x.ID, &x.Name, &x.Kind, &x.Stages, &x.Boss)
			l.Dungeons = append(l.Dungeons, x)
			return err
		}},
		{"gear sets", `SELECT id, name, pieces, stat_bonus, best_for FROM gear_sets ORDER BY name, id`, func(r *sql.Rows) error {
			var x GearSetRow
			err := r.Scan(&x.ID, &x.Name, &x.Pieces, &x.StatBonus, &x.BestFor)
			l.GearSets = append(l.GearSets, x)
			return err
		}},
	}
	for _, s := range steps {
		if err := each(ctx, tx, s.query, s.scan); err != nil {
			return Lists{}, fmt.Errorf("gcsdb: lists: %s: %w", s.what, err)
		}
	}
	return l, nil
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
