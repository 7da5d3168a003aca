package toolscache

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gameassist/gameassist/gcsdb/resolve"
	"github.com/gameassist/gameassist/schemas"
	"github.com/gameassist/gameassist/tool"
)

const (
	defaultLimit = 60
	maxLimit     = 200
	instruction  = "Use the exact names and ids from this list; call the gcs_* details tools for stats and descriptions."
)

// Tools returns the cache_* tools served from s; it fails when a tool's
// schema file cannot be read.
func (s *Snapshot) Tools() ([]tool.Tool, error) {
	var out []tool.Tool
	var errs []error
	add := func(t tool.Tool, err error) {
		if err != nil {
			errs = append(errs, err)
			return
		}
		out = append(out, t)
	}
	add(list("cache_get_champions_list", tool.DisplayNames{"en": "Champion list", "fr": "Liste des champions", "de": "Championliste"},
		"Every champion with id, faction, rarity, affinity and role. From an in-memory snapshot (fast). "+
			"Filter by name_prefix, faction, rarity, affinity or role. Use it to find a champion's exact name or id, or to list a group.",
		s.champions))
	add(list("cache_get_bosses_list", tool.DisplayNames{"en": "Boss list", "fr": "Liste des boss", "de": "Bossliste"},
		"Every boss with id, affinity, difficulty and dungeon. From an in-memory snapshot (fast). Filter by name_prefix, affinity or difficulty.",
		s.bosses))
	add(list("cache_get_factions_list", tool.DisplayNames{"en": "Faction list", "fr": "Liste des factions", "de": "Fraktionsliste"},
		"Every faction with id, alignment and how many champions it has. From an in-memory snapshot (fast).",
		s.factions))
	add(list("cache_get_dungeons_list", tool.DisplayNames{"en": "Dungeon list", "fr": "Liste des donjons", "de": "Dungeonliste"},
		"Every dungeon and campaign area with id, kind, stages and boss. From an in-memory snapshot (fast). Filter by name_prefix or kind.",
		s.dungeons))
	add(list("cache_get_gear_sets_list", tool.DisplayNames{"en": "Gear set list", "fr": "Liste des sets", "de": "Setliste"},
		"Every gear set with id, pieces, stat bonus and the role it suits. From an in-memory snapshot (fast). Filter by name_prefix or best_for.",
		s.gearSets))
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

func list[A any](name string, names tool.DisplayNames, desc string, run func(context.Context, A) (tool.Result, error)) (tool.Tool, error) {
	params, err := schemas.Tool(name)
	if err != nil {
		return nil, fmt.Errorf("toolscache: tool %s: %w", name, err)
	}
	return &tool.Def[A]{
		Name: name, Description: desc, Category: tool.CategoryCache, Instruction: instruction, Schema: params,
		Paging:       &tool.Paging{LimitParam: "limit", OffsetParam: "offset", MaxLimit: maxLimit},
		DisplayNames: names,
		Run:          run,
	}, nil
}

// PageArgs are the arguments every list shares.
type PageArgs struct {
	NamePrefix *string `json:"name_prefix"`
	Limit      *int    `json:"limit"`
	Offset     *int    `json:"offset"`
}

// ListPage is the paging part every list result carries.
type ListPage struct {
	LastUpdated string `json:"last_updated"`
	NextOffset  int    `json:"next_offset,omitempty"`
	Returned    int    `json:"returned"`
	Total       int    `json:"total"`
	offset      int
}

// Page implements tool.Pager.
func (p ListPage) Page() tool.Page {
	return tool.Page{Total: p.Total, Offset: p.offset, Returned: p.Returned, NextOffset: p.NextOffset}
}

// eq compares an optional filter case-insensitively.
func eq(filter *string, v string) bool {
	return filter == nil || strings.EqualFold(strings.TrimSpace(*filter), v)
}

func prefix(p *string) string {
	if p == nil {
		return ""
	}
	return resolve.Fold(*p)
}

// page filters items and cuts the requested page; entries carry search
// names so the prefix filter matches any locale.
func page[T any](d *data, items []T, keep func(T) bool, a PageArgs) ([]T, ListPage) {
	limit, offset := defaultLimit, 0
	if a.Limit != nil {
		limit = min(max(*a.Limit, 1), maxLimit)
	}
	if a.Offset != nil {
		offset = max(*a.Offset, 0)
	}
	out := make([]T, 0, min(limit, len(items)))
	total := 0
	for _, it := range items {
		if !keep(it) {
			continue
		}
		if total >= offset && len(out) < limit {
			out = append(out, it)
		}
		total++
	}
	p := ListPage{LastUpdated: d.loadedAt.Format(time.RFC3339), Returned: len(out), Total: total, offset: offset}
	if offset+len(out) < total {
		p.NextOffset = offset + len(out)
	}
	return out, p
}

// listResult builds the envelope every list returns.
func listResult(noun string, p ListPage, data any) tool.Result {
	msg := fmt.Sprintf("%d %s.", p.Total, noun)
	switch {
	case p.Total == 0:
		msg = "No " + noun + " match these filters."
	case p.Returned < p.Total:
		msg = fmt.Sprintf("%d %s; showing %d from offset %d. Call again with offset %d for more.", p.Total, noun, p.Returned, p.offset, p.offset+p.Returned)
	}
	return tool.Success(msg, data)
}

func refs[T any](kind string, items []T, key func(T) (int64, string)) []tool.EntityRef {
	out := make([]tool.EntityRef, len(items))
	for i, it := range items {
		id, name := key(it)
		out[i] = tool.EntityRef{Kind: kind, ID: id, Name: name}
	}
	return out
}

// ChampionsArgs are the arguments of cache_get_champions_list.
type ChampionsArgs struct {
	PageArgs
	Faction  *string `json:"faction"`
	Rarity   *string `json:"rarity"`
	Affinity *string `json:"affinity"`
	Role     *string `json:"role"`
}

// ChampionList is the data of cache_get_champions_list.
type ChampionList struct {
	Champions []ChampionEntry `json:"champions"`
	ListPage
}

// Entities implements tool.Entities.
func (l ChampionList) Entities() []tool.EntityRef {
	return refs("champion", l.Champions, func(c ChampionEntry) (int64, string) { return c.ID, c.Name })
}

func (s *Snapshot) champions(_ context.Context, a ChampionsArgs) (tool.Result, error) {
	d := s.cur.Load()
	var factionID int64 = -1
	if a.Faction != nil {
		m, ok := d.factionNames.LookupUpTo("faction", *a.Faction, resolve.Folded)
		if !ok {
			names := make([]string, len(d.factions))
			for i, f := range d.factions {
				names[i] = f.Name
			}
			return tool.Failure("No faction is called "+fmt.Sprintf("%q", tool.Clip(*a.Faction, 60))+".", "unknown faction",
				"Use one of: "+strings.Join(names, ", ")+"."), nil
		}
		factionID = m.ID
	}
	q := prefix(a.NamePrefix)
	items, p := page(d, d.champions, func(c ChampionEntry) bool {
		return (factionID < 0 || c.factionID == factionID) && eq(a.Rarity, c.Rarity) && eq(a.Affinity, c.Affinity) &&
			eq(a.Role, c.Role) && (q == "" || matchPrefix(c.search, q))
	}, a.PageArgs)
	return listResult("champions", p, ChampionList{Champions: items, ListPage: p}), nil
}

// BossesArgs are the arguments of cache_get_bosses_list.
type BossesArgs struct {
	PageArgs
	Affinity   *string `json:"affinity"`
	Difficulty *string `json:"difficulty"`
}

// BossList is the data of cache_get_bosses_list.
type BossList struct {
	Bosses []BossEntry `json:"bosses"`
	ListPage
}

// Entities implements tool.Entities.
func (l BossList) Entities() []tool.EntityRef {
	return refs("boss", l.Bosses, func(b BossEntry) (int64, string) { return b.ID, b.Name })
}

func (s *Snapshot) bosses(_ context.Context, a BossesArgs) (tool.Result, error) {
	d := s.cur.Load()
	q := prefix(a.NamePrefix)
	items, p := page(d, d.bosses, func(b BossEntry) bool {
		return eq(a.Affinity, b.Affinity) && eq(a.Difficulty, b.Difficulty) && (q == "" || matchPrefix(b.search, q))
	}, a.PageArgs)
	return listResult("bosses", p, BossList{Bosses: items, ListPage: p}), nil
}

// FactionList is the data of cache_get_factions_list.
type FactionList struct {
	Factions []FactionEntry `json:"factions"`
	ListPage
}

// Entities implements tool.Entities.
func (l FactionList) Entities() []tool.EntityRef {
	return refs("faction", l.Factions, func(f FactionEntry) (int64, string) { return f.ID, f.Name })
}

func (s *Snapshot) factions(_ context.Context, a PageArgs) (tool.Result, error) {
	d := s.cur.Load()
	q := prefix(a.NamePrefix)
	items, p := page(d, d.factions, func(f FactionEntry) bool {
		return q == "" || matchPrefix(f.search, q)
	}, a)
	return listResult("factions", p, FactionList{Factions: items, ListPage: p}), nil
}

// DungeonsArgs are the arguments of cache_get_dungeons_list.
type DungeonsArgs struct {
	PageArgs
	Kind *string `json:"kind"`
}

// DungeonList is the data of cache_get_dungeons_list.
type DungeonList struct {
	Dungeons []DungeonEntry `json:"dungeons"`
	ListPage
}

// Entities implements tool.Entities.
func (l DungeonList) Entities() []tool.EntityRef {
	return refs("dungeon", l.Dungeons, func(x DungeonEntry) (int64, string) { return x.ID, x.Name })
}

func (s *Snapshot) dungeons(_ context.Context, a DungeonsArgs) (tool.Result, error) {
	d := s.cur.Load()
	q := prefix(a.NamePrefix)
	items, p := page(d, d.dungeons, func(x DungeonEntry) bool {
		return eq(a.Kind, x.Kind) && (q == "" || matchPrefix(x.search, q))
	}, a.PageArgs)
	return listResult("dungeons", p, DungeonList{Dungeons: items, ListPage: p}), nil
}

// GearSetsArgs are the arguments of cache_get_gear_sets_list.
type GearSetsArgs struct {
	PageArgs
	BestFor *string `json:"best_for"`
}

// GearSetList is the data of cache_get_gear_sets_list.
type GearSetList struct {
	GearSets []GearSetEntry `json:"gear_sets"`
	ListPage
}

// Entities implements tool.Entities.
func (l GearSetList) Entities() []tool.EntityRef {
	return refs("gear_set", l.GearSets, func(g GearSetEntry) (int64, string) { return g.ID, g.Name })
}

func (s *Snapshot) gearSets(_ context.Context, a GearSetsArgs) (tool.Result, error) {
	d := s.cur.Load()
	q := prefix(a.NamePrefix)
	items, p := page(d, d.gearSets, func(g GearSetEntry) bool {
		return eq(a.BestFor, g.BestFor) && (q == "" || matchPrefix(g.search, q))
	}, a.PageArgs)
	return listResult("gear sets", p, GearSetList{GearSets: items, ListPage: p}), nil
}
