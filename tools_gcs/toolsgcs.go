// Package toolsgcs holds the gcs_* tools: exact game data (champions,
// bosses, factions, dungeons, gear, masteries) read through the GCS read
// model (gcsdb.Game) over a read-only handle, and the read-only SQL
// introspection tools (gcs_db_tables, gcs_db_schema, gcs_db_query). Every
// tool is one tool.Def: its arguments struct, its schema file and its query.
package toolsgcs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/mattn/go-sqlite3"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/resolve"
	"github.com/gameassist/gameassist/schemas"
	"github.com/gameassist/gameassist/tool"
)

// New returns every gcs_* tool over db, which must be the read-only handle
// from gcsdb.OpenReadOnly.
func New(db *sql.DB, logger *slog.Logger) ([]tool.Tool, error) {
	if db == nil {
		return nil, errors.New("toolsgcs: nil db")
	}
	if logger == nil {
		return nil, errors.New("toolsgcs: nil logger")
	}
	game, err := gcsdb.NewGame(db)
	if err != nil {
		return nil, fmt.Errorf("toolsgcs: %w", err)
	}
	g := &gcs{game: game, log: logger}
	b := base{db: game.DB(), log: logger}
	out := []tool.Tool{
		g.championDetails(), g.characterDetailsByID(), g.findChampions(), g.compareCharacters(),
		g.championSkills(), g.bossDetails(), g.countersForBoss(), g.factionDetails(), g.championsByFaction(),
		g.dungeonDetails(), g.gearSetDetails(), g.masteryDetails(), g.recommendGear(), g.championsByEffect(),
		sqlDef(g, "gcs_db_tables",
			tool.DisplayNames{"en": "Database tables", "fr": "Tables de la base", "de": "Datenbanktabellen"},
			"List the tables of the GCS game database with their row counts, optionally filtered by name.",
			(&DBTables{b}).answer),
		sqlDef(g, "gcs_db_schema",
			tool.DisplayNames{"en": "Database schema", "fr": "Schéma de la base", "de": "Datenbankschema"},
			"Columns of GCS database tables: type, primary key, nullability and foreign keys (column -> table.column).",
			(&DBSchema{b}).answer),
		g.queryDef(&DBQuery{base: b, queryTimeout: defaultQueryTimeout, rowCap: defaultRowCap}),
	}
	if g.err != nil {
		return nil, g.err
	}
	return out, nil
}

// gcs builds the tools over the read model; err keeps the first schema
// that could not be read.
type gcs struct {
	game *gcsdb.Game
	log  *slog.Logger
	err  error
}

// schema reads a tool's embedded parameter schema.
func (g *gcs) schema(name string) json.RawMessage {
	s, err := schemas.Tool(name)
	if err != nil && g.err == nil {
		g.err = fmt.Errorf("toolsgcs: %w", err)
	}
	return s
}

// def builds one gcs-category definition; names are its chip labels.
func def[A any](g *gcs, name string, names tool.DisplayNames, cache int, instruction, desc string, run func(context.Context, A) (tool.Result, error)) boundDef[A] {
	return boundDef[A]{&tool.Def[A]{
		Name: name, Description: desc, Category: tool.CategoryGCS, CacheFor: cache, Instruction: instruction,
		Schema: g.schema(name), DisplayNames: names, Run: run,
	}}
}

// boundDef is a gcs-category definition. Its blocking steps are queries
// on the read-only handle, which end when the call's context does (a
// connection wait in database/sql, a statement interrupted by go-sqlite3),
// and its Go work is bounded by the game's size, so it is a
// tool.ContextBound: the executor runs it on the caller's goroutine.
type boundDef[A any] struct{ *tool.Def[A] }

// BoundByContext implements tool.ContextBound.
func (boundDef[A]) BoundByContext() {}

// sqlDef builds one sql-category definition; names are its chip labels.
func sqlDef[A any](g *gcs, name string, names tool.DisplayNames, desc string, run func(context.Context, A) (tool.Result, error)) *tool.Def[A] {
	return &tool.Def[A]{
		Name: name, Description: desc, Category: tool.CategorySQL, Schema: g.schema(name),
		DisplayNames: names, Run: run,
	}
}

// queryDef defines gcs_db_query over q.
func (g *gcs) queryDef(q *DBQuery) tool.Tool {
	return sqlDef(g, "gcs_db_query",
		tool.DisplayNames{"en": "Database query", "fr": "Requête en base", "de": "Datenbankabfrage"},
		"Run one read-only SELECT on the GCS game database with named parameters (:name). "+
			"Returns at most 50 rows in a numbered vertical format. Check gcs_db_schema first.", q.answer)
}

// base carries what the SQL tools need.
type base struct {
	db  *gcsdb.StmtDB
	log *slog.Logger
}

// backendErr wraps a database failure; busy and locked are worth a retry.
func backendErr(op string, err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked) {
		return tool.Transient(fmt.Errorf("toolsgcs: %s: %w", op, err))
	}
	return fmt.Errorf("toolsgcs: %s: %w", op, err)
}

// quoted renders user text for a message: clipped and quoted.
func quoted(s string) string { return fmt.Sprintf("%q", tool.Clip(s, 60)) }

// listHint is the tool listing every entity of a kind, for guidance.
func listHint(k gcsdb.Kind) string {
	switch k {
	case gcsdb.KindChampion:
		return "cache_get_champions_list"
	case gcsdb.KindBoss:
		return "cache_get_bosses_list"
	case gcsdb.KindFaction:
		return "cache_get_factions_list"
	case gcsdb.KindDungeon:
		return "cache_get_dungeons_list"
	case gcsdb.KindGearSet:
		return "cache_get_gear_sets_list"
	}
	return "gcs_db_query"
}

// Suggestions is the data of an unknown-name error: the closest names.
type Suggestions struct {
	Suggestions []string `json:"suggestions"`
}

// notFound is the envelope for a name that matches nothing.
func notFound(k gcsdb.Kind, toolName, name string, suggestions []string) tool.Result {
	hint := listHint(k)
	guidance := "Check the spelling, or call " + hint + " to see every " + k.Noun() + "."
	if len(suggestions) > 0 {
		guidance = "Did you mean: " + strings.Join(suggestions, ", ") + "? Call " + toolName +
			" again with one of these names, or call " + hint + " to see every " + k.Noun() + "."
	}
	r := tool.Failure("No "+k.Noun()+" is called "+quoted(name)+".", "unknown "+k.Noun()+" name", guidance)
	r.Data = Suggestions{Suggestions: nonNil(suggestions)}
	return r
}

// unknownID is the envelope for an id that matches nothing.
func unknownID(k gcsdb.Kind, id int64) tool.Result {
	return tool.Failure(fmt.Sprintf("No %s has id %d.", k.Noun(), id), "unknown "+k.Noun()+" id",
		"Check the id, or call "+listHint(k)+" to see every "+k.Noun()+" with its id.")
}

func emptyName(toolName, field string) tool.Result {
	return tool.Failure("The "+field+" is empty.", field+" must name something",
		"Call "+toolName+" again with a non-empty "+field+".")
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// toolNameRule is how strictly a model's names resolve: exact or folded
// (case, accents, localized names, keys). A typo gets "Did you mean" so the
// model corrects itself instead of the tool guessing.
const toolNameRule = resolve.Folded

// resolveName resolves a name argument; an empty or unknown one is refused
// (tool.Refusal).
func (g *gcs) resolveName(ctx context.Context, k gcsdb.Kind, toolName, name string) (int64, error) {
	if err := refuseEmpty(k, toolName, name); err != nil {
		return 0, err
	}
	view, err := g.game.View(ctx)
	if err != nil {
		return 0, backendErr("resolve "+k.Noun(), err)
	}
	return resolveIn(view, k, toolName, name)
}

// refuseEmpty refuses an empty name argument before any database read.
func refuseEmpty(k gcsdb.Kind, toolName, name string) error {
	if strings.TrimSpace(name) == "" {
		return &tool.Refusal{Result: emptyName(toolName, strings.ReplaceAll(k.Noun(), " ", "_")+"_name")}
	}
	return nil
}

// resolveIn is resolveName as of view, for a name refuseEmpty passed.
func resolveIn(view gcsdb.View, k gcsdb.Kind, toolName, name string) (int64, error) {
	res := view.Resolve(k, tool.Clip(name, 200), toolNameRule)
	if !res.Found() {
		return 0, &tool.Refusal{Result: notFound(k, toolName, name, res.Suggestions)}
	}
	return res.ID, nil
}

// byNameOrID resolves the {x_name | x_id} argument pair shared by the
// details tools; the id wins when both are set.
func (g *gcs) byNameOrID(ctx context.Context, k gcsdb.Kind, toolName string, name *string, id *int64) (int64, error) {
	if id != nil {
		ok, err := g.game.Exists(ctx, k, *id)
		if err != nil {
			return 0, backendErr("find "+k.Noun(), err)
		}
		if !ok {
			return 0, &tool.Refusal{Result: unknownID(k, *id)}
		}
		return *id, nil
	}
	if name == nil {
		return 0, tool.Refuse("No "+k.Noun()+" given.", "give a name or an id",
			"Call "+toolName+" again with the "+k.Noun()+"'s name or its id.")
	}
	return g.resolveName(ctx, k, toolName, *name)
}

// strs runs a query returning one text column.
func (b *base) strs(ctx context.Context, op, query string, args ...any) ([]string, error) {
	rows, err := b.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, backendErr(op, err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, backendErr(op, err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, backendErr(op, err)
	}
	return out, nil
}
