package toolsfile

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/gameassist/gameassist/internal/sqlitero"
	"github.com/gameassist/gameassist/tool"
)

// maxNames bounds the names read for one tool's lookup.
const maxNames = 5000

// namesYAML is a tool's optional names: block: what it looks up by name.
type namesYAML struct {
	Kind      string            `yaml:"kind"`
	Parameter string            `yaml:"parameter"`
	Column    string            `yaml:"column"`
	List      string            `yaml:"list"`
	Sentences map[string]string `yaml:"sentences"`
}

// NamesDef declares what a tool looks up by name, where reading it from
// the statement would be fragile: the kind of thing ("crop"), the argument
// that takes the name, the result column holding a row's name, a query
// listing every name (its first column), and sentences for result columns.
type NamesDef struct {
	Kind      string
	Parameter string
	Column    string
	List      string
	Sentences map[string]string
	// Line is where names: starts in the file.
	Line int
}

var kindPattern = regexp.MustCompile(`^[\p{L}][\p{L} '-]{0,39}$`)

// parseNames checks a names: block against the tool's parameters.
func parseNames(y namesYAML, params json.RawMessage) (*NamesDef, error) {
	d := &NamesDef{Kind: strings.TrimSpace(y.Kind), Parameter: y.Parameter, Column: y.Column, List: strings.TrimSpace(y.List), Sentences: y.Sentences}
	var problems []string
	if d.Kind != "" && !kindPattern.MatchString(d.Kind) {
		problems = append(problems, fmt.Sprintf("kind %q is not a word or two of letters (up to 40)", tool.Clip(d.Kind, 40)))
	}
	strs := stringParams(params)
	switch {
	case d.Parameter == "" && len(strs) == 1:
		d.Parameter = strs[0]
	case d.Parameter == "":
		problems = append(problems, fmt.Sprintf("parameter is required when the tool has %d string parameters", len(strs)))
	case !slices.Contains(strs, d.Parameter):
		problems = append(problems, fmt.Sprintf("parameter %q is not a string parameter of the tool", tool.Clip(d.Parameter, 64)))
	}
	if d.List == "" {
		problems = append(problems, "list is required: one query whose first column lists every name")
	} else if len(d.List) > maxStatement {
		problems = append(problems, fmt.Sprintf("list is over %d bytes", maxStatement))
	}
	for col, s := range d.Sentences {
		if !strings.Contains(s, "{value}") {
			problems = append(problems, fmt.Sprintf("sentences.%s has no {value}", tool.Clip(col, 64)))
		}
		if len(s) > 200 {
			problems = append(problems, fmt.Sprintf("sentences.%s is over 200 bytes", tool.Clip(col, 64)))
		}
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	return d, nil
}

// stringParams returns the free-text string properties of a parameters
// schema (an enum's values are known already).
func stringParams(raw json.RawMessage) []string {
	var s struct {
		Properties map[string]struct {
			Type any   `json:"type"`
			Enum []any `json:"enum"`
		} `json:"properties"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	var out []string
	for k, p := range s.Properties {
		if p.Type == "string" && len(p.Enum) == 0 {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// namesLine returns the line of a tool's names: key, else at.
func namesLine(n ast.Node, at int) int {
	if m, ok := n.(*ast.MappingNode); ok {
		for _, kv := range m.Values {
			if kv.Key.String() == "names" {
				return line(kv.Key)
			}
		}
	}
	return at
}

var (
	// compared finds "col = :param" or "t.col LIKE :param".
	compared = regexp.MustCompile(`(?i)(?:\b([a-z_][a-z0-9_]*)\.)?\b([a-z_][a-z0-9_]*)\s*(?:=|\bLIKE\b)\s*:([a-z_][a-z0-9_]*)`)
	// fromTable finds "FROM table [AS] alias" and "JOIN table alias".
	fromTable = regexp.MustCompile(`(?i)\b(?:FROM|JOIN)\s+([a-z_][a-z0-9_]*)(?:\s+(?:AS\s+)?([a-z_][a-z0-9_]*))?`)
	// selected finds "[t.]col AS alias" in a select list.
	selected = regexp.MustCompile(`(?i)(?:\b[a-z_][a-z0-9_]*\.)?\b([a-z_][a-z0-9_]*)\s+AS\s+([a-z_][a-z0-9_]*)`)
)

// sqlWords are keywords the table pattern may take for an alias.
var sqlWords = map[string]bool{"where": true, "join": true, "left": true, "inner": true, "on": true, "order": true, "group": true, "limit": true, "cross": true, "natural": true, "using": true}

// guessNames reads what a tool looks up by name from its statement (a
// string parameter compared with a column of a table) and the query that
// lists those names; ok is false when the statement does not say.
func guessNames(d Def) (NamesDef, bool) {
	strs := stringParams(d.Parameters)
	for _, m := range compared.FindAllStringSubmatch(d.Statement, -1) {
		qual, col, param := m[1], m[2], m[3]
		if !slices.Contains(strs, param) {
			continue
		}
		table := ""
		for _, f := range fromTable.FindAllStringSubmatch(d.Statement, -1) {
			alias := f[2]
			if sqlWords[strings.ToLower(alias)] {
				alias = ""
			}
			if qual == "" || strings.EqualFold(qual, f[1]) || strings.EqualFold(qual, alias) {
				table = f[1]
				break
			}
		}
		if table == "" {
			continue
		}
		column := col
		for _, s := range selected.FindAllStringSubmatch(d.Statement, -1) {
			if strings.EqualFold(s[1], col) {
				column = s[2]
				break
			}
		}
		kind := strings.ReplaceAll(strings.ToLower(table), "_", " ")
		if strings.HasSuffix(kind, "ies") {
			kind = strings.TrimSuffix(kind, "ies") + "y"
		} else if strings.HasSuffix(kind, "s") && !strings.HasSuffix(kind, "ss") {
			kind = strings.TrimSuffix(kind, "s")
		}
		return NamesDef{
			Kind: kind, Parameter: param, Column: column,
			List: fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL ORDER BY 1", col, table, col),
		}, true
	}
	return NamesDef{}, false
}

// buildLookup reads the names a tool looks up, from its names: block or
// guessed from its statement. A declared block that fails is a problem; a
// guess that fails leaves the tool without a lookup.
func buildLookup(ctx context.Context, db *sql.DB, d Def, cols []string) (*tool.Lookup, error) {
	nd, declared := NamesDef{}, d.Names != nil
	if declared {
		nd = *d.Names
	} else {
		var ok bool
		if nd, ok = guessNames(d); !ok {
			return nil, nil
		}
	}
	names, err := listNames(ctx, db, nd.List)
	if err != nil {
		if declared {
			return nil, fmt.Errorf("names: list %w", err)
		}
		return nil, nil
	}
	if declared {
		var problems []string
		if nd.Column != "" && !slices.Contains(cols, nd.Column) {
			problems = append(problems, fmt.Sprintf("column %q is not a column of the statement's result (%s)", tool.Clip(nd.Column, 64), strings.Join(cols, ", ")))
		}
		for _, c := range slices.Sorted(maps.Keys(nd.Sentences)) {
			if !slices.Contains(cols, c) {
				problems = append(problems, fmt.Sprintf("sentences: %q is not a column of the statement's result (%s)", tool.Clip(c, 64), strings.Join(cols, ", ")))
			}
		}
		if len(problems) > 0 {
			return nil, fmt.Errorf("names: %s", strings.Join(problems, "; "))
		}
	}
	if nd.Kind == "" {
		nd.Kind = "thing"
	}
	return &tool.Lookup{Kind: nd.Kind, Param: nd.Parameter, Column: nd.Column, Names: names, Sentences: nd.Sentences}, nil
}

// listNames runs a names query (read-only, no parameters) and returns its
// first column's text values.
func listNames(ctx context.Context, db *sql.DB, stmt string) ([]string, error) {
	if !startsAsQuery(stmt) {
		return nil, errors.New("must be one query starting with SELECT, WITH or VALUES")
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	defer conn.Close()
	n, err := sqlitero.Check(conn, stmt)
	switch {
	case errors.Is(err, sqlitero.ErrNotReadOnly):
		return nil, errors.New("is not read-only")
	case err != nil:
		return nil, fmt.Errorf("does not prepare: %w", err)
	case n != 0:
		return nil, errors.New("takes no parameters")
	}
	rows, err := conn.QueryContext(ctx, stmt)
	if err != nil {
		return nil, fmt.Errorf("fails: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("fails: %w", err)
	}
	var out []string
	for rows.Next() && len(out) < maxNames {
		vals := make([]any, len(cols))
		for i := range vals {
			vals[i] = new(any)
		}
		if err := rows.Scan(vals...); err != nil {
			return nil, fmt.Errorf("fails: %w", err)
		}
		switch v := (*vals[0].(*any)).(type) {
		case string:
			if s := strings.TrimSpace(v); s != "" {
				out = append(out, tool.Clip(s, 100))
			}
		case []byte:
			if s := strings.TrimSpace(string(v)); s != "" {
				out = append(out, tool.Clip(s, 100))
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("fails: %w", err)
	}
	return out, nil
}

// resultColumns returns the column names of a statement's result, running
// it with every parameter NULL and no row read.
func resultColumns(ctx context.Context, db *sql.DB, stmt string, params []string) ([]string, error) {
	args := make([]any, 0, len(params))
	for _, p := range params {
		args = append(args, sql.Named(p, nil))
	}
	rows, err := db.QueryContext(ctx, stmt, args...)
	if err != nil {
		return nil, fmt.Errorf("names: statement: %w", err)
	}
	defer rows.Close()
	return rows.Columns()
}
