package toolsfile_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/gameassist/gameassist/tool"
	toolsfile "github.com/gameassist/gameassist/tools_file"
)

// latencies records each iteration's duration and reports p50 and p99.
type latencies []time.Duration

func (l latencies) report(b *testing.B) {
	if len(l) == 0 {
		return
	}
	slices.Sort(l)
	b.ReportMetric(float64(l[len(l)*50/100].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(l[min(len(l)-1, len(l)*99/100)].Nanoseconds()), "p99-ns")
}

// BenchmarkFileTool measures a file tool through the executor against its
// handler called directly and against the same statement through
// database/sql, on a real SQLite file opened read-only as the server does.
// The executor's arguments repeat, as when a screen rule or the LLM asks
// again.
func BenchmarkFileTool(b *testing.B) {
	ctx := context.Background()
	db := openDB(b)
	set, err := toolsfile.Build(ctx, "tools.yaml", []byte(goodFile), db, nil)
	if err != nil {
		b.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := reg.ReplaceGroup(toolsfile.Group, set.List()...); err != nil {
		b.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		tool *toolsfile.SQLTool
		args string
		bind []any
	}{
		{name: "row", tool: set.Tools[0], args: `{"name":"Tide Caller"}`, bind: []any{sql.Named("name", "Tide Caller")}},
		{name: "rows", tool: set.Tools[1], args: `{"rarity":"common"}`, bind: []any{sql.Named("rarity", "common"), sql.Named("max_cost", nil)}},
	}
	for _, c := range cases {
		stmt, _ := c.tool.Statement()
		b.Run(c.name+"/database_sql", func(b *testing.B) {
			lat := make(latencies, 0, b.N)
			for b.Loop() {
				start := time.Now()
				rows, err := db.QueryContext(ctx, stmt, c.bind...)
				if err != nil {
					b.Fatal(err)
				}
				cols, _ := rows.Columns()
				for rows.Next() {
					vals := make([]any, len(cols))
					ptrs := make([]any, len(cols))
					for i := range vals {
						ptrs[i] = &vals[i]
					}
					if err := rows.Scan(ptrs...); err != nil {
						b.Fatal(err)
					}
				}
				if err := rows.Close(); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			lat.report(b)
		})
		b.Run(c.name+"/handler", func(b *testing.B) {
			lat := make(latencies, 0, b.N)
			for b.Loop() {
				start := time.Now()
				r, err := c.tool.Call(ctx, json.RawMessage(c.args))
				if err != nil || !r.OK() {
					b.Fatal(err, r)
				}
				lat = append(lat, time.Since(start))
			}
			lat.report(b)
		})
		b.Run(c.name+"/executor", func(b *testing.B) {
			call := tool.Call{Name: c.tool.Spec().Name, Arguments: json.RawMessage(c.args)}
			lat := make(latencies, 0, b.N)
			for b.Loop() {
				start := time.Now()
				if r := ex.Execute(ctx, call); !r.OK() {
					b.Fatal(r)
				}
				lat = append(lat, time.Since(start))
			}
			lat.report(b)
		})
	}
}
