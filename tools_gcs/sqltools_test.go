package toolsgcs_test

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/tool"
)

func TestDBTablesAndSchema(t *testing.T) {
	ex := newExecutor(t, gcsdbtest.Open(t, gcsdbtest.Game()))
	tests := []tcase{
		{
			name: "all", tool: "gcs_db_tables", args: `{}`, ok: true,
			want: []string{`{"name":"champions","rows":5}`, `"boss_phases"`, `"display_names"`}, notWant: []string{"sqlite_"},
		},
		{name: "filter", tool: "gcs_db_tables", args: `{"filter": "BOSS"}`, ok: true, want: []string{`"boss_counters"`, `"bosses"`}, notWant: []string{`"champions"`}},
		{name: "filter case-sensitive", tool: "gcs_db_tables", args: `{"filter": "BOSS", "ignore_case": false}`, ok: true, want: []string{`"total":0`}},
		{name: "filter injection", tool: "gcs_db_tables", args: `{"filter": "' OR '1'='1"}`, ok: true, want: []string{`"total":0`}},
		{name: "filter unicode", tool: "gcs_db_tables", args: `{"filter": "ÉLOÏSE"}`, ok: true, want: []string{`"total":0`}},
		{name: "filter wrong type", tool: "gcs_db_tables", args: `{"filter": 3}`, ok: false},
		{name: "unknown field", tool: "gcs_db_tables", args: `{"tables": "x"}`, ok: false},
		{
			name: "schema", tool: "gcs_db_schema", args: `{"tables": ["champions", "skill_effects"]}`, ok: true,
			want: []string{
				"champions:", "id INTEGER PRIMARY KEY NOT NULL", "faction_id INTEGER NOT NULL -> factions.id",
				"slot INTEGER PRIMARY KEY NOT NULL -> champion_skills.slot", "champion_id INTEGER PRIMARY KEY NOT NULL -> champion_skills.champion_id",
				"primary key (champion_id, slot, effect)",
			},
		},
		{name: "schema nullable", tool: "gcs_db_schema", args: `{"tables": ["bosses"]}`, ok: true, want: []string{"dungeon_id INTEGER NULL -> dungeons.id"}},
		{
			name: "schema unknown table", tool: "gcs_db_schema", args: `{"tables": ["nope", "factions"]}`, ok: true,
			want: []string{"nope: [table not found]", "factions:", "name TEXT NOT NULL"},
		},
		{
			name: "schema injection", tool: "gcs_db_schema", args: `{"tables": ["champions; DROP TABLE champions", "' OR '1'='1"]}`, ok: true,
			want: []string{"champions; DROP TABLE champions: [table not found]"},
		},
		{name: "schema empty list", tool: "gcs_db_schema", args: `{"tables": []}`, ok: false},
		{name: "schema not a list", tool: "gcs_db_schema", args: `{"tables": "champions"}`, ok: false},
		{name: "schema 100 KB", tool: "gcs_db_schema", args: `{"tables": ["` + strings.Repeat("t", 100*1024) + `"]}`, ok: false},
		{name: "schema missing", tool: "gcs_db_schema", args: `{}`, ok: false},
	}
	run(t, ex, tests)
}

func TestDBQuery(t *testing.T) {
	g := gcsdbtest.Game()
	for i := range 60 {
		g.Masteries = append(g.Masteries, gamedata.Mastery{ID: 9100 + i, Key: "m" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Name: "M", Tree: "Support"})
	}
	ex := newExecutor(t, gcsdbtest.Open(t, g))
	q := func(sql string) string {
		b, _ := json.Marshal(map[string]string{"sql": sql})
		return string(b)
	}
	tests := []tcase{
		{
			name: "select", args: q(`SELECT id, name FROM champions WHERE id = 1001`), ok: true,
			want: []string{`-- row 1 --\nid: 1001\nname: Kaelith`, `"row_count":1`},
		},
		{
			name: "named params", args: `{"sql": "SELECT name, atk FROM champions WHERE lower(name) = lower(:name) AND atk >= :min", "params": {"name": "KAELITH", "min": 1000}}`, ok: true,
			want: []string{"name: Kaelith", "atk: 1500"},
		},
		{
			name: "param with injection is a value", args: `{"sql": "SELECT count(*) AS n FROM champions WHERE name = :n", "params": {"n": "' OR '1'='1"}}`, ok: true,
			want: []string{"n: 0"},
		},
		{
			name: "null and float params", args: `{"sql": "SELECT :a IS NULL AS a, :b * 2 AS b, :c AS c", "params": {"a": null, "b": 1.25, "c": true}}`, ok: true,
			want: []string{"a: 1", "b: 2.5", "c: 1"},
		},
		{name: "unicode", args: `{"sql": "SELECT name FROM display_names WHERE name = :n", "params": {"n": "Éloïse la Brave"}}`, ok: true, want: []string{"Éloïse la Brave"}},
		{name: "no rows", args: q(`SELECT * FROM champions WHERE id = 42`), ok: true, want: []string{"No rows returned"}},
		{name: "null value", args: q(`SELECT NULL AS x`), ok: true, want: []string{"x: NULL"}},
		{name: "cte", args: q(`WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT sum(x) AS s FROM n`), ok: true, want: []string{"s: 6"}},
		{name: "trailing semicolon and comment", args: q("SELECT 1 AS one; -- done\n/* end */"), ok: true, want: []string{"one: 1"}},
		{name: "semicolon inside string", args: q(`SELECT 'a;b' AS s`), ok: true, want: []string{"s: a;b"}},
		{
			name: "row cap", args: q(`SELECT id FROM masteries ORDER BY id`), ok: true,
			want: []string{"Showing the first 50 of 62 rows", "-- row 50 --", `"truncated":true`}, notWant: []string{"-- row 51 --"},
		},
		{name: "insert", args: q(`INSERT INTO meta (key, value) VALUES ('a', 'b')`), ok: false, want: []string{"read-only"}},
		{name: "update", args: q(`UPDATE champions SET atk = 0`), ok: false, want: []string{"read-only"}},
		{name: "delete", args: q(`DELETE FROM champions`), ok: false, want: []string{"read-only"}},
		{name: "drop", args: q(`DROP TABLE champions`), ok: false, want: []string{"read-only"}},
		{name: "create", args: q(`CREATE TABLE evil (x)`), ok: false, want: []string{"read-only"}},
		{name: "create temp", args: q(`CREATE TEMP TABLE evil (x)`), ok: false, want: []string{"read-only"}},
		{name: "lowercase sneaky update", args: q(`  /* hi */ update champions set atk = 0`), ok: false, want: []string{"read-only"}},
		{name: "cte update", args: q(`WITH x AS (SELECT 1) UPDATE champions SET atk = 0`), ok: false, want: []string{"read-only"}},
		{name: "pragma write", args: q(`PRAGMA query_only = 0`), ok: false},
		{name: "pragma read", args: q(`PRAGMA table_info(champions)`), ok: false},
		{name: "attach", args: q(`ATTACH DATABASE ':memory:' AS evil`), ok: false},
		{name: "begin", args: q(`BEGIN`), ok: false},
		{name: "vacuum into", args: q(`VACUUM INTO '/tmp/evil.db'`), ok: false},
		{name: "multiple statements", args: q(`SELECT 1; DELETE FROM champions`), ok: false, want: []string{"one statement"}},
		{name: "multiple selects", args: q(`SELECT 1; SELECT 2`), ok: false, want: []string{"one statement"}},
		{name: "injection shaped", args: q(`SELECT * FROM champions WHERE name = '' OR '1'='1'; DROP TABLE champions`), ok: false, want: []string{"one statement"}},
		{name: "syntax error", args: q(`SELEC 1`), ok: false, want: []string{"syntax error", "gcs_db_schema"}},
		{name: "unknown table", args: q(`SELECT * FROM nope`), ok: false, want: []string{"no such table"}},
		{name: "missing param", args: q(`SELECT :x AS x`), ok: false, want: []string{":x", "params has no"}},
		{name: "positional param", args: `{"sql": "SELECT ? AS x", "params": {"x": 1}}`, ok: false, want: []string{"positional ?", ":name"}},
		{name: "positional numbered param", args: `{"sql": "SELECT ?1 AS x", "params": {"x": 1}}`, ok: false, want: []string{"positional ?"}},
		{name: "positional param without params", args: q(`SELECT name FROM champions WHERE id = ?`), ok: false, want: []string{"positional ?"}},
		{name: "question mark in a string", args: `{"sql": "SELECT '?' AS q, :x AS x /* ? */", "params": {"x": 2}}`, ok: true, want: []string{"q: ?", "x: 2"}},
		{name: "param not used", args: `{"sql": "SELECT :x AS x", "params": {"x": 1, "y": 2}}`, ok: false, want: []string{"but the sql has no :y"}},
		{name: "param of another name", args: `{"sql": "SELECT :y AS y", "params": {"x": 1}}`, ok: false, want: []string{"but the sql has no :x"}},
		{name: "bad param name", args: `{"sql": "SELECT 1", "params": {"a b": 1}}`, ok: false},
		{name: "param object value", args: `{"sql": "SELECT :a", "params": {"a": {"b": 1}}}`, ok: false},
		{name: "empty sql", args: q(``), ok: false},
		{name: "only comment", args: q(`-- nothing`), ok: false},
		{name: "wrong type", args: `{"sql": 1}`, ok: false},
		{name: "unknown field", args: `{"sql": "SELECT 1", "db": "x"}`, ok: false},
		{name: "100 KB sql", args: q(strings.Repeat(" ", 100*1024) + "SELECT 1"), ok: false},
	}
	run(t, ex, withTool("gcs_db_query", tests))
}

func TestDBQueryParentTimeout(t *testing.T) {
	ex := newExecutor(t, gcsdbtest.Open(t, gcsdbtest.Game()))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r := ex.Execute(ctx, tool.Call{Name: "gcs_db_query", Arguments: json.RawMessage(
		`{"sql": "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"}`)})
	if r.OK() || !strings.Contains(r.Message, "timed out") {
		t.Fatalf("result = %s, want a timeout envelope", r.ForLLM())
	}
}

func TestDBQueryKeepsPoolClean(t *testing.T) {
	db := gcsdbtest.Open(t, gcsdbtest.Game())
	db.SetMaxOpenConns(1)
	ex := newExecutor(t, db)
	for _, sql := range []string{`DELETE FROM champions`, `SELECT 1`, `PRAGMA query_only = 0`} {
		ex.Execute(context.Background(), tool.Call{Name: "gcs_db_query", Arguments: json.RawMessage(`{"sql": "` + sql + `"}`)})
	}
	// The authorizer is gone: other tools on the same single connection
	// still read the tables, and writes are still refused by the handle.
	r := ex.Execute(context.Background(), tool.Call{Name: "gcs_get_champion_details", Arguments: json.RawMessage(`{"champion_name": "Kaelith"}`)})
	if !r.OK() {
		t.Fatalf("champion details after SQL calls: %s", r.ForLLM())
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM pragma_table_info('champions')`).Scan(&n); err != nil || n == 0 {
		t.Fatalf("pragma through the pool: %d, %v", n, err)
	}
	if _, err := db.Exec(`DELETE FROM champions`); err == nil {
		t.Fatal("write through the read-only pool succeeded")
	}
}

// TestDBQueryHugeValues sends queries whose functions build values of
// hundreds of megabytes: each must fail at once with an error envelope,
// and the process must not grow by anything near those sizes.
func TestDBQueryHugeValues(t *testing.T) {
	ex := newExecutor(t, gcsdbtest.Open(t, gcsdbtest.Game()))
	q := func(sql string) string {
		b, _ := json.Marshal(map[string]string{"sql": sql})
		return string(b)
	}
	before := rssBytes(t)
	tests := []tcase{
		{name: "randomblob", args: q(`SELECT length(randomblob(1e9)) AS n`), want: []string{"larger than the database allows", "randomblob"}},
		{name: "hex of zeroblob", args: q(`SELECT length(hex(zeroblob(4e8))) AS n`), want: []string{"larger than the database allows"}},
		{name: "printf width", args: q(`SELECT length(printf('%.*c', 1000000000, 'x')) AS n`), want: []string{"larger than the database allows"}},
		{name: "printf padding", args: q(`SELECT length(printf('%999999999d', 1)) AS n`), want: []string{"larger than the database allows"}},
		{name: "replace growth", args: q(`SELECT length(replace(hex(zeroblob(400000)), '0', hex(zeroblob(400)))) AS n`), want: []string{"larger than the database allows"}},
		{name: "group_concat growth", args: q(`WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 20000) SELECT length(group_concat(hex(zeroblob(100)))) AS n FROM n`), want: []string{"larger than the database allows"}},
		{name: "deep expression", args: q(`SELECT ` + strings.Repeat("-(", 500) + "1" + strings.Repeat(")", 500)), want: []string{"too large"}},
		{name: "a value under the limit", args: q(`SELECT length(randomblob(500000)) AS n`), ok: true, want: []string{"n: 500000"}},
	}
	run(t, ex, withTool("gcs_db_query", tests))
	// Any one of these, unlimited, needs 400 MB to 2 GB.
	const bound = 100 << 20
	if grown := rssBytes(t) - before; grown > bound {
		t.Fatalf("resident memory grew by %d bytes, over %d", grown, bound)
	}
}

// rssBytes is the process's resident set size, from /proc/self/status.
func rssBytes(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatalf("read /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("VmRSS %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}
