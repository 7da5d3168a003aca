package toolsgcs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/mattn/go-sqlite3"

	"github.com/gameassist/gameassist/internal/sqlitero"
	"github.com/gameassist/gameassist/tool"
)

const (
	defaultQueryTimeout = 2 * time.Second
	defaultRowCap       = 50
	maxCountedRows      = 100_000
	maxCellRunes        = 500
)

// quoteIdent quotes an SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// DBTables is gcs_db_tables: the tables of the GCS database.
type DBTables struct{ base }

// TablesArgs are the arguments of gcs_db_tables.
type TablesArgs struct {
	Filter     string `json:"filter"`
	IgnoreCase *bool  `json:"ignore_case"`
}

// answer lists tables with their row counts, optionally filtered by name.
func (t *DBTables) answer(ctx context.Context, a TablesArgs) (tool.Result, error) {
	ignore := a.IgnoreCase == nil || *a.IgnoreCase
	names, err := t.strs(ctx, "list tables", `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return tool.Result{}, err
	}
	type table struct {
		Name string `json:"name"`
		Rows int64  `json:"rows"`
	}
	out := []table{}
	for _, n := range names {
		match := strings.Contains(n, a.Filter)
		if ignore {
			match = strings.Contains(strings.ToLower(n), strings.ToLower(a.Filter))
		}
		if !match {
			continue
		}
		var rows int64
		if err := t.db.QueryRowContext(ctx, `SELECT count(*) FROM `+quoteIdent(n)).Scan(&rows); err != nil {
			return tool.Result{}, backendErr("count "+n, err)
		}
		out = append(out, table{n, rows})
	}
	msg := fmt.Sprintf("%d tables.", len(out))
	if len(out) == 0 {
		msg = "No table name contains " + quoted(a.Filter) + "."
	}
	r := tool.Success(msg, map[string]any{"total": len(out), "tables": out})
	r.LLMInstruction = "Call gcs_db_schema with table names before writing a query."
	return r, nil
}

// DBSchema is gcs_db_schema: columns and keys of tables.
type DBSchema struct{ base }

// SchemaArgs are the arguments of gcs_db_schema.
type SchemaArgs struct {
	Tables []string `json:"tables"`
}

// answer describes each table; an unknown table is reported in place while
// the others still answer.
func (t *DBSchema) answer(ctx context.Context, a SchemaArgs) (tool.Result, error) {
	if len(a.Tables) == 0 {
		return tool.Failure("No tables given.", "tables is empty", "Call gcs_db_tables to see the table names."), nil
	}
	if len(a.Tables) > 20 {
		a.Tables = a.Tables[:20]
	}
	var b strings.Builder
	found := 0
	for _, name := range a.Tables {
		var stored string
		err := t.db.QueryRowContext(ctx, `SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND lower(name) = lower(?)`, name).Scan(&stored)
		if errors.Is(err, sql.ErrNoRows) {
			fmt.Fprintf(&b, "%s: [table not found]\n\n", tool.Clip(name, 100))
			continue
		}
		if err != nil {
			return tool.Result{}, backendErr("schema "+name, err)
		}
		found++
		if err := t.describe(ctx, &b, stored); err != nil {
			return tool.Result{}, err
		}
	}
	r := tool.Success(fmt.Sprintf("Schema of %d of %d tables.", found, len(a.Tables)), strings.TrimRight(b.String(), "\n"))
	if found < len(a.Tables) {
		r.Guidance = "Some tables were not found; call gcs_db_tables for the list."
	}
	r.LLMInstruction = "Use these exact column names in gcs_db_query; foreign keys are shown as column -> table.column."
	return r, nil
}

func (t *DBSchema) describe(ctx context.Context, b *strings.Builder, table string) error {
	fks := map[string][]string{}
	readFKs := func() error {
		rows, err := t.db.QueryContext(ctx, `SELECT "from", "table", coalesce("to", '') FROM pragma_foreign_key_list(?) ORDER BY id, seq`, table)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var from, parent, to string
			if err := rows.Scan(&from, &parent, &to); err != nil {
				return err
			}
			if to == "" {
				to = "id"
			}
			fks[from] = append(fks[from], parent+"."+to)
		}
		return rows.Err()
	}
	if err := readFKs(); err != nil {
		return backendErr("foreign keys of "+table, err)
	}

	rows, err := t.db.QueryContext(ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		return backendErr("columns of "+table, err)
	}
	defer rows.Close()
	fmt.Fprintf(b, "%s:\n", table)
	var pks []string
	for rows.Next() {
		var name, typ string
		var notNull bool
		var pk int
		if err := rows.Scan(&name, &typ, &notNull, &pk); err != nil {
			return backendErr("columns of "+table, err)
		}
		line := "  " + name + " " + typ
		if pk > 0 {
			pks = append(pks, name)
			line += " PRIMARY KEY"
		}
		if notNull {
			line += " NOT NULL"
		} else {
			line += " NULL"
		}
		for _, fk := range fks[name] {
			line += " -> " + fk
		}
		b.WriteString(line + "\n")
	}
	if err := rows.Err(); err != nil {
		return backendErr("columns of "+table, err)
	}
	if len(pks) > 1 {
		b.WriteString("  primary key (" + strings.Join(pks, ", ") + ")\n")
	}
	b.WriteString("\n")
	return nil
}

// DBQuery is gcs_db_query: one read-only SELECT. Read-only is enforced by
// the database three times over: the handle is opened read-only with
// query_only, the statement must be one SQLite reports as read-only, and an
// authorizer allows only reading while it is prepared.
type DBQuery struct {
	base
	queryTimeout time.Duration
	rowCap       int
}

// errParams marks a parameter count mismatch.
type errParams struct{ want, got int }

func (e errParams) Error() string {
	return fmt.Sprintf("the statement has %d parameters but %d were given", e.want, e.got)
}

// QueryArgs are the arguments of gcs_db_query.
type QueryArgs struct {
	SQL    string          `json:"sql"`
	Params json.RawMessage `json:"params"`
}

// answer runs the query.
func (t *DBQuery) answer(ctx context.Context, a QueryArgs) (tool.Result, error) {
	params, bad := decodeParams(a.Params)
	if bad != "" {
		return tool.Failure("Invalid params.", bad, `Pass params as an object of names to values, e.g. {"name": "Kaelith"} for :name.`), nil
	}
	first, rest := splitStatement(a.SQL)
	if blank(first) {
		return tool.Failure("The sql is empty.", "no statement", "Pass one SELECT statement."), nil
	}
	if !blank(rest) {
		return tool.Failure("Only one statement is allowed.", "multiple statements", "Send one SELECT statement without other statements after it."), nil
	}
	if bad := checkParamUse(first, params); bad != "" {
		return tool.Failure("Parameters do not match the statement.", bad,
			`Write each value as :name in the sql and give it in params, e.g. "WHERE name = :name" with {"name": "Kaelith"}; positional ? parameters are not supported.`), nil
	}
	qctx, cancel := context.WithTimeout(ctx, t.queryTimeout)
	defer cancel()
	res, err := t.run(qctx, first, params)
	if err == nil {
		return res, nil
	}
	return t.classify(ctx, qctx, err)
}

// classify turns a query failure into an envelope the model can act on, or
// an error when the backend failed.
func (t *DBQuery) classify(ctx, qctx context.Context, err error) (tool.Result, error) {
	if ctx.Err() != nil {
		return tool.Result{}, ctx.Err()
	}
	var se sqlite3.Error
	var pe errParams
	switch {
	case errors.Is(err, sqlitero.ErrNotReadOnly):
		return tool.Failure("Only read-only SELECT statements are allowed.", "the statement would change the database",
			"Rewrite it as a SELECT; the GCS database is read-only."), nil
	case errors.As(err, &pe):
		return tool.Failure("Parameters do not match the statement.", pe.Error(),
			"Give one value in params for each :name in the sql; positional ? parameters are not supported."), nil
	case qctx.Err() != nil || (errors.As(err, &se) && se.Code == sqlite3.ErrInterrupt):
		return tool.Failure(fmt.Sprintf("The query ran longer than %s and was stopped.", t.queryTimeout), "timeout",
			"Narrow the query with WHERE and LIMIT, or avoid unbounded recursion and cross joins."), nil
	case errors.As(err, &se):
		switch se.Code {
		case sqlite3.ErrAuth, sqlite3.ErrReadonly, sqlite3.ErrPerm:
			return tool.Failure("Only read-only SELECT statements are allowed.", "not authorized: "+se.Error(),
				"Rewrite it as a plain SELECT over the tables from gcs_db_tables; PRAGMA, ATTACH and writes are refused."), nil
		case sqlite3.ErrTooBig, sqlite3.ErrNomem:
			return tool.Failure("The query built a value larger than the database allows and was stopped.",
				"a string, blob or row over the size limit (about 1 MB), or over the memory limit",
				"Select the stored columns you need with WHERE and LIMIT; functions that build huge values (randomblob, zeroblob, printf widths, replace or group_concat over many rows) are refused."), nil
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			return tool.Result{}, tool.Transient(fmt.Errorf("toolsgcs: query: %w", err))
		case sqlite3.ErrError, sqlite3.ErrRange, sqlite3.ErrMismatch, sqlite3.ErrConstraint:
			return tool.Failure("The query failed.", tool.Clip(se.Error(), 300),
				"Fix the SQL; check table and column names with gcs_db_schema."), nil
		}
	}
	return tool.Result{}, fmt.Errorf("toolsgcs: query: %w", err)
}

// decodeParams reads the params object; numbers keep integer precision.
func decodeParams(raw json.RawMessage) ([]any, string) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, ""
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, "params must be an object: " + err.Error()
	}
	out := make([]any, 0, len(m))
	for k, v := range m {
		if !validParamName(k) {
			return nil, "invalid parameter name " + quoted(k)
		}
		switch x := v.(type) {
		case json.Number:
			if i, err := strconv.ParseInt(x.String(), 10, 64); err == nil {
				v = i
			} else if f, err := x.Float64(); err == nil {
				v = f
			} else {
				return nil, "parameter " + k + " is not a number SQLite can hold"
			}
		case string, bool, nil:
		default:
			return nil, "parameter " + k + " must be a string, number, boolean or null"
		}
		out = append(out, sql.Named(k, v))
	}
	return out, ""
}

func validParamName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i, r := range s {
		letter := r < 128 && unicode.IsLetter(r)
		digit := r < 128 && unicode.IsDigit(r)
		if r != '_' && !letter && (i == 0 || !digit) {
			return false
		}
	}
	return true
}

// run prepares the statement under the read-only authorizer, checks it
// with SQLite, then executes it on the same connection.
func (t *DBQuery) run(ctx context.Context, query string, params []any) (tool.Result, error) {
	conn, err := t.db.Conn(ctx)
	if err != nil {
		return tool.Result{}, err
	}
	defer conn.Close()
	n, err := sqlitero.Check(conn, query)
	if err != nil {
		return tool.Result{}, err
	}
	if n != len(params) {
		return tool.Result{}, errParams{want: n, got: len(params)}
	}
	rows, err := conn.QueryContext(ctx, query, params...)
	if err != nil {
		return tool.Result{}, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return tool.Result{}, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b strings.Builder
	total, shown := 0, 0
	for rows.Next() {
		total++
		if total > t.rowCap {
			if total > maxCountedRows {
				break
			}
			continue
		}
		if err := rows.Scan(ptrs...); err != nil {
			return tool.Result{}, err
		}
		shown++
		fmt.Fprintf(&b, "-- row %d --\n", shown)
		for i, c := range cols {
			b.WriteString(c + ": " + cell(vals[i]) + "\n")
		}
	}
	if err := rows.Err(); err != nil {
		return tool.Result{}, err
	}
	if total == 0 {
		r := tool.Success("No rows returned", map[string]any{"columns": cols, "row_count": 0, "rows": "No rows returned"})
		return r, nil
	}
	data := map[string]any{"columns": cols, "row_count": total, "shown": shown, "rows": strings.TrimRight(b.String(), "\n")}
	msg := fmt.Sprintf("%d rows.", total)
	if total > t.rowCap {
		count := strconv.Itoa(total)
		if total > maxCountedRows {
			count = "more than " + strconv.Itoa(maxCountedRows)
		}
		msg = fmt.Sprintf("Showing the first %d of %s rows; add WHERE or LIMIT to narrow the query.", shown, count)
		data["truncated"] = true
	}
	r := tool.Success(msg, data)
	r.LLMInstruction = "Answer from these rows only; quote values exactly."
	return r, nil
}

// cell renders one value for the vertical row format.
func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return tool.Clip(string(x), maxCellRunes)
	case string:
		return tool.Clip(strings.ReplaceAll(x, "\n", `\n`), maxCellRunes)
	case time.Time:
		return x.Format(time.RFC3339)
	default:
		return fmt.Sprint(x)
	}
}

// splitStatement returns the text up to the first semicolon outside quotes,
// identifiers and comments, and the text after it. The database then sees
// only the first statement; a non-blank remainder is refused by the caller.
func splitStatement(s string) (first, rest string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"', '`':
			i = skipQuoted(s, i, c)
		case '[':
			if j := strings.IndexByte(s[i+1:], ']'); j >= 0 {
				i += j + 1
			} else {
				i = len(s)
			}
		case '-':
			if i+1 < len(s) && s[i+1] == '-' {
				if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
					i += j
				} else {
					i = len(s)
				}
			}
		case '/':
			if i+1 < len(s) && s[i+1] == '*' {
				if j := strings.Index(s[i+2:], "*/"); j >= 0 {
					i += j + 3
				} else {
					i = len(s)
				}
			}
		case ';':
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// checkParamUse compares the parameters written in query with params: a
// positional ? (SQLite would bind it to NULL), a :name without a value or
// a value no :name uses is reported; "" means they match.
func checkParamUse(query string, params []any) string {
	used := map[string]bool{}
	positional := false
	for i := 0; i < len(query); i++ {
		switch c := query[i]; c {
		case '\'', '"', '`':
			i = skipQuoted(query, i, c)
		case '[':
			if j := strings.IndexByte(query[i+1:], ']'); j >= 0 {
				i += j + 1
			} else {
				i = len(query)
			}
		case '-':
			if i+1 < len(query) && query[i+1] == '-' {
				if j := strings.IndexByte(query[i:], '\n'); j >= 0 {
					i += j
				} else {
					i = len(query)
				}
			}
		case '/':
			if i+1 < len(query) && query[i+1] == '*' {
				if j := strings.Index(query[i+2:], "*/"); j >= 0 {
					i += j + 3
				} else {
					i = len(query)
				}
			}
		case '?':
			positional = true
		case ':', '@', '$':
			j := i + 1
			for j < len(query) && (query[j] == '_' || query[j] < 128 && (unicode.IsLetter(rune(query[j])) || unicode.IsDigit(rune(query[j])))) {
				j++
			}
			if j > i+1 {
				used[query[i+1:j]] = true
			}
			i = j - 1
		}
	}
	if positional {
		return "the sql has a positional ? parameter"
	}
	given := map[string]bool{}
	for _, p := range params {
		if nv, ok := p.(sql.NamedArg); ok {
			given[nv.Name] = true
			if !used[nv.Name] {
				return "params has " + quoted(nv.Name) + " but the sql has no :" + nv.Name
			}
		}
	}
	for name := range used {
		if !given[name] {
			return "the sql uses :" + name + " but params has no " + quoted(name)
		}
	}
	return ""
}

// skipQuoted returns the index of the closing quote of the quoted run
// starting at i (a doubled quote is an escaped one).
func skipQuoted(s string, i int, q byte) int {
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j
		}
	}
	return len(s)
}

// blank reports whether s holds only whitespace, comments and semicolons.
func blank(s string) bool {
	for {
		s = strings.TrimLeft(s, " \t\r\n\f\v;")
		switch {
		case s == "":
			return true
		case strings.HasPrefix(s, "--"):
			j := strings.IndexByte(s, '\n')
			if j < 0 {
				return true
			}
			s = s[j+1:]
		case strings.HasPrefix(s, "/*"):
			j := strings.Index(s[2:], "*/")
			if j < 0 {
				return true
			}
			s = s[j+4:]
		default:
			return false
		}
	}
}
