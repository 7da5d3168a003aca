package toolsgcs

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/tool"
)

func queryTool(t *testing.T) *DBQuery {
	t.Helper()
	db := gcsdb.NewStmtDB(gcsdbtest.Open(t, gcsdbtest.Game()))
	return &DBQuery{base: base{db: db, log: slog.New(slog.DiscardHandler)}, queryTimeout: defaultQueryTimeout, rowCap: defaultRowCap}
}

func TestDBQueryOwnTimeout(t *testing.T) {
	// Each case gets its own timeout: the endless query one it always
	// outlasts, the quick one one it never nears, so no case depends on how
	// fast a loaded machine runs SELECT 1.
	tests := []struct {
		name    string
		sql     string
		timeout time.Duration
		ok      bool
	}{
		{"endless recursion stops", "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n", 30 * time.Millisecond, false},
		{"quick query answers", "SELECT 1", time.Minute, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := queryTool(t)
			q.queryTimeout = tt.timeout
			reg := tool.NewRegistry()
			g := &gcs{}
			if err := reg.Register(g.queryDef(q)); err != nil || g.err != nil {
				t.Fatal(err)
			}
			ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{MaxAttempts: 1, Timeout: 2 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			args, _ := json.Marshal(map[string]string{"sql": tt.sql})
			r := ex.Execute(context.Background(), tool.Call{Name: "gcs_db_query", Arguments: args})
			if r.OK() != tt.ok {
				t.Fatalf("result %s", r.ForLLM())
			}
			if !tt.ok && !strings.Contains(r.Message, "was stopped") {
				t.Fatalf("message %q, want the query timeout", r.Message)
			}
		})
	}
}

func TestDBQueryRowCap(t *testing.T) {
	q := queryTool(t)
	q.rowCap = 2
	r, err := q.answer(context.Background(), QueryArgs{SQL: "SELECT id FROM champions ORDER BY id"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Message, "first 2 of 5 rows") {
		t.Fatalf("message %q", r.Message)
	}
}

func TestSplitStatement(t *testing.T) {
	tests := []struct {
		name, in, first string
		blankRest       bool
	}{
		{"single", "SELECT 1", "SELECT 1", true},
		{"trailing semicolon", "SELECT 1;", "SELECT 1", true},
		{"two", "SELECT 1; SELECT 2", "SELECT 1", false},
		{"quoted semicolon", "SELECT ';'; x", "SELECT ';'", false},
		{"escaped quote", "SELECT 'it''s;'", "SELECT 'it''s;'", true},
		{"double quoted", `SELECT ";" FROM t`, `SELECT ";" FROM t`, true},
		{"backtick", "SELECT `a;b`", "SELECT `a;b`", true},
		{"brackets", "SELECT [a;b]", "SELECT [a;b]", true},
		{"line comment", "SELECT 1 -- ; not a split\n", "SELECT 1 -- ; not a split\n", true},
		{"block comment", "SELECT /* ; */ 1", "SELECT /* ; */ 1", true},
		{"comment after", "SELECT 1; /* c */ -- d", "SELECT 1", true},
		{"unterminated quote", "SELECT 'abc; DROP", "SELECT 'abc; DROP", true},
		{"unterminated comment", "SELECT 1 /* ; x", "SELECT 1 /* ; x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, rest := splitStatement(tt.in)
			if first != tt.first || blank(rest) != tt.blankRest {
				t.Fatalf("split(%q) = %q, %q (blank %v)", tt.in, first, rest, blank(rest))
			}
		})
	}
}

func FuzzSplitStatement(f *testing.F) {
	for _, s := range []string{"SELECT 1", "SELECT ';'; DROP TABLE x", "/* ; */ SELECT 1 -- x\n;", "'", "[", "`", "--", "/*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		first, rest := splitStatement(s)
		if len(first)+len(rest) > len(s) {
			t.Fatalf("split grew the input: %q -> %q + %q", s, first, rest)
		}
		if !strings.HasPrefix(s, first) {
			t.Fatalf("first %q is not a prefix of %q", first, s)
		}
		_ = blank(rest)
	})
}
