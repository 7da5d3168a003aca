package toolscache

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gameassist/gameassist/schemas"
	"github.com/gameassist/gameassist/tool"
)

// Compile-time checks that every list tool is a tool.Tool.
var (
	_ tool.Tool = (*ChampionsList)(nil)
	_ tool.Tool = (*BossesList)(nil)
	_ tool.Tool = (*FactionsList)(nil)
	_ tool.Tool = (*DungeonsList)(nil)
	_ tool.Tool = (*GearSetsList)(nil)
)

const (
	defaultLimit = 60
	maxLimit     = 200
)

// Tools returns the cache_* tools served from s.
func (s *Snapshot) Tools() []tool.Tool {
	return []tool.Tool{
		&ChampionsList{listBase{snap: s, spec: spec("cache_get_champions_list",
			"Every champion with id, faction, rarity, affinity and role, from an in-memory snapshot (fast). "+
				"Filter by name_prefix, faction, rarity, affinity or role. Use it to find a champion's exact name or id, or to list a group.")}},
		&BossesList{listBase{snap: s, spec: spec("cache_get_bosses_list",
			"Every boss with id, affinity, difficulty and dungeon, from an in-memory snapshot (fast). Filter by name_prefix, affinity or difficulty.")}},
		&FactionsList{listBase{snap: s, spec: spec("cache_get_factions_list",
			"Every faction with id, alignment and how many champions it has, from an in-memory snapshot (fast).")}},
		&DungeonsList{listBase{snap: s, spec: spec("cache_get_dungeons_list",
			"Every dungeon and campaign area with id, kind, stages and boss, from an in-memory snapshot (fast). Filter by name_prefix or kind.")}},
		&GearSetsList{listBase{snap: s, spec: spec("cache_get_gear_sets_list",
			"Every gear set with id, pieces, stat bonus and the role it suits, from an in-memory snapshot (fast). Filter by name_prefix or best_for.")}},
	}
}

// spec builds a cache tool spec; a missing schema file is caught by the
// tests and by registration (an empty schema accepts no arguments).
func spec(name, desc string) tool.Spec {
	params, err := schemas.Tool(name)
	if err != nil {
		params = nil
	}
	return tool.Spec{Name: name, Description: desc, Category: tool.CategoryCache, Parameters: params}
}

type listBase struct {
	snap *Snapshot
	spec tool.Spec
}

// Spec describes the tool.
func (l *listBase) Spec() tool.Spec { return l.spec }

// pageArgs are the arguments every list shares.
type pageArgs struct {
	NamePrefix *string `json:"name_prefix"`
	Limit      *int    `json:"limit"`
	Offset     *int    `json:"offset"`
}

// eq compares an optional filter case-insensitively.
func eq(filter *string, v string) bool {
	return filter == nil || strings.EqualFold(strings.TrimSpace(*filter), v)
}

func prefix(p *string) string {
	if p == nil {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(*p))
}

// page filters items and cuts the requested page; entries carry search
// names so the prefix filter matches any locale.
func page[T any](items []T, keep func(T) bool, a pageArgs) ([]T, int, int, int) {
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
	return out, total, offset, limit
}

// listResult builds the envelope every list returns.
func listResult[T any](noun string, d *data, key string, items []T, total, offset, _ int) tool.Result {
	body := map[string]any{
		"total":        total,
		"returned":     len(items),
		"last_updated": d.loadedAt.Format(time.RFC3339),
		key:            items,
	}
	if offset+len(items) < total {
		body["next_offset"] = offset + len(items)
	}
	msg := fmt.Sprintf("%d %s.", total, noun)
	switch {
	case total == 0:
		msg = "No " + noun + " match these filters."
	case len(items) < total:
		msg = fmt.Sprintf("%d %s; showing %d from offset %d. Call again with offset %d for more.", total, noun, len(items), offset, offset+len(items))
	}
	r := tool.Success(msg, body)
	r.LLMInstruction = "Use the exact names and ids from this list; call the gcs_* details tools for stats and descriptions."
	return r
}

// ChampionsList is cache_get_champions_list.
type ChampionsList struct{ listBase }

// Call lists champions.
func (t *ChampionsList) Call(_ context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		pageArgs
		Faction  *string `json:"faction"`
		Rarity   *string `json:"rarity"`
		Affinity *string `json:"affinity"`
		Role     *string `json:"role"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	d := t.snap.cur.Load()
	var factionID int64 = -1
	if a.Faction != nil {
		q := strings.ToLower(strings.TrimSpace(*a.Faction))
		for _, f := range d.factions {
			for _, n := range f.search {
				if n == q {
					factionID = f.ID
				}
			}
		}
		if factionID < 0 {
			names := make([]string, len(d.factions))
			for i, f := range d.factions {
				names[i] = f.Name
			}
			return tool.Failure("No faction is called "+fmt.Sprintf("%q", clip(*a.Faction))+".", "unknown faction",
				"Use one of: "+strings.Join(names, ", ")+"."), nil
		}
	}
	q := prefix(a.NamePrefix)
	items, total, off, lim := page(d.champions, func(c ChampionEntry) bool {
		return (factionID < 0 || c.factionID == factionID) && eq(a.Rarity, c.Rarity) && eq(a.Affinity, c.Affinity) &&
			eq(a.Role, c.Role) && (q == "" || matchPrefix(c.search, q))
	}, a.pageArgs)
	return listResult("champions", d, "champions", items, total, off, lim), nil
}

func clip(s string) string {
	r := []rune(s)
	if len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// BossesList is cache_get_bosses_list.
type BossesList struct{ listBase }

// Call lists bosses.
func (t *BossesList) Call(_ context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		pageArgs
		Affinity   *string `json:"affinity"`
		Difficulty *string `json:"difficulty"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	d := t.snap.cur.Load()
	q := prefix(a.NamePrefix)
	items, total, off, lim := page(d.bosses, func(b BossEntry) bool {
		return eq(a.Affinity, b.Affinity) && eq(a.Difficulty, b.Difficulty) && (q == "" || matchPrefix(b.search, q))
	}, a.pageArgs)
	return listResult("bosses", d, "bosses", items, total, off, lim), nil
}

// FactionsList is cache_get_factions_list.
type FactionsList struct{ listBase }

// Call lists factions.
func (t *FactionsList) Call(_ context.Context, args json.RawMessage) (tool.Result, error) {
	var a pageArgs
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	d := t.snap.cur.Load()
	q := prefix(a.NamePrefix)
	items, total, off, lim := page(d.factions, func(f FactionEntry) bool {
		return q == "" || matchPrefix(f.search, q)
	}, a)
	return listResult("factions", d, "factions", items, total, off, lim), nil
}

// DungeonsList is cache_get_dungeons_list.
type DungeonsList struct{ listBase }

// Call lists dungeons.
func (t *DungeonsList) Call(_ context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		pageArgs
		Kind *string `json:"kind"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	d := t.snap.cur.Load()
	q := prefix(a.NamePrefix)
	items, total, off, lim := page(d.dungeons, func(x DungeonEntry) bool {
		return eq(a.Kind, x.Kind) && (q == "" || matchPrefix(x.search, q))
	}, a.pageArgs)
	return listResult("dungeons", d, "dungeons", items, total, off, lim), nil
}

// GearSetsList is cache_get_gear_sets_list.
type GearSetsList struct{ listBase }

// Call lists gear sets.
func (t *GearSetsList) Call(_ context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct {
		pageArgs
		BestFor *string `json:"best_for"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &a); !ok {
		return r, nil
	}
	d := t.snap.cur.Load()
	q := prefix(a.NamePrefix)
	items, total, off, lim := page(d.gearSets, func(g GearSetEntry) bool {
		return eq(a.BestFor, g.BestFor) && (q == "" || matchPrefix(g.search, q))
	}, a.pageArgs)
	return listResult("gear sets", d, "gear_sets", items, total, off, lim), nil
}
