package toolsfile

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/mattn/go-sqlite3"

	"github.com/gameassist/gameassist/tool"
)

// countCap bounds how many rows a rows tool counts past max_rows to say how
// many there were.
const countCap = 10000

// SQLTool is one tool of a tools file: a read-only statement run with the
// call's arguments bound to its :named parameters.
type SQLTool struct {
	def    Def
	db     *sql.DB
	params []string
	// lookup is what the tool looks up by name, nil if nothing.
	lookup *tool.Lookup
	// head is the last query's row header, reused while the statement's
	// columns stay the same (they do unless the database's schema changes).
	head atomic.Pointer[header]
}

var _ tool.ContextBound = (*SQLTool)(nil)

// BoundByContext implements tool.ContextBound: the tool's only blocking step
// is its statement, which go-sqlite3 interrupts when the call's context ends,
// so the executor can run it on the caller's goroutine.
func (t *SQLTool) BoundByContext() {}

// Spec describes the tool to the registry and the LLM.
func (t *SQLTool) Spec() tool.Spec {
	return tool.Spec{
		Name: t.def.Name, Description: t.def.Description, Category: t.def.Category,
		Parameters: t.def.Parameters, CacheDuration: t.def.CacheDuration, Aliases: t.def.Aliases,
		Instruction: t.def.LLMInstruction, Version: t.def.Version, DisplayNames: t.def.DisplayNames,
		Player: t.def.Player, Lookup: t.lookup,
	}
}

// Def returns the definition the tool was built from.
func (t *SQLTool) Def() Def { return t.def }

// Statement returns the tool's SQL statement and its parameter names in
// order, so the same query can be measured through database/sql directly.
func (t *SQLTool) Statement() (string, []string) { return t.def.Statement, t.params }

// Call binds args to the statement's parameters (an absent optional one is
// NULL), runs it and shapes the rows. Arguments that do not decode are an
// error envelope; a busy or locked database is a transient error.
func (t *SQLTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	bound, res, ok := t.bind(args)
	if !ok {
		return res, nil
	}
	t.bindPlayer(ctx, bound)
	rows, err := t.db.QueryContext(ctx, t.def.Statement, bound...)
	if err != nil {
		return tool.Result{}, backendError(t.def.Name, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return tool.Result{}, backendError(t.def.Name, err)
	}
	r, err := t.shape(rows, t.header(cols))
	if err != nil {
		return tool.Result{}, backendError(t.def.Name, err)
	}
	if err := rows.Err(); err != nil {
		return tool.Result{}, backendError(t.def.Name, err)
	}
	r.LLMInstruction = t.def.LLMInstruction
	return r, nil
}

// bind decodes args into named arguments, in statement order.
func (t *SQLTool) bind(args json.RawMessage) ([]any, tool.Result, bool) {
	var m map[string]any
	if len(bytes.TrimSpace(args)) > 0 && string(bytes.TrimSpace(args)) != "null" {
		dec := json.NewDecoder(bytes.NewReader(args))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			return nil, tool.Failure("Invalid arguments for "+t.def.Name+".", err.Error(),
				"Call "+t.def.Name+" again with a JSON object matching its parameter schema."), false
		}
	}
	out := make([]any, len(t.params))
	for i, p := range t.params {
		v, err := sqlValue(m[p])
		if err != nil {
			return nil, tool.Failure("Invalid arguments for "+t.def.Name+".", fmt.Sprintf("%s: %v", p, err),
				"Call "+t.def.Name+" again with arguments that match its parameter schema."), false
		}
		out[i] = sql.Named(p, v)
	}
	return out, tool.Result{}, true
}

// bindPlayer replaces the statement's player-bound flags by the values the
// executor read from the player state, as JSON text for json_each; a flag
// that is not set, or set without a player state, is NULL.
func (t *SQLTool) bindPlayer(ctx context.Context, bound []any) {
	for _, pp := range t.def.Player {
		i := slices.Index(t.params, pp.Flag)
		if i < 0 {
			continue
		}
		var v any
		if vals, known, set := tool.Bound(ctx, pp.Flag); set && known {
			if vals == nil {
				vals = []any{}
			}
			if b, err := json.Marshal(vals); err == nil {
				v = string(b)
			}
		}
		bound[i] = sql.Named(pp.Flag, v)
	}
}

// sqlValue converts a decoded JSON value to what SQLite binds: integers as
// INTEGER, other numbers as REAL, booleans as 1 or 0, arrays and objects as
// JSON text (for json_each), null and absent as NULL.
func sqlValue(v any) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return x, nil
	case bool:
		if x {
			return int64(1), nil
		}
		return int64(0), nil
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, fmt.Errorf("number %s is out of range", x)
		}
		return f, nil
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		return string(b), nil
	}
}

// shape reads the rows into the tool's result shape.
func (t *SQLTool) shape(rows *sql.Rows, cols *header) (tool.Result, error) {
	switch t.def.Result {
	case ShapeRow, ShapeValue:
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return tool.Result{}, err
			}
			return tool.Success("No row matched.", nil), nil
		}
		row, err := scanRow(rows, cols)
		if err != nil {
			return tool.Result{}, err
		}
		if t.def.Result == ShapeValue {
			return tool.Success("One value.", row.vals[0]), nil
		}
		return tool.Success("One row.", row), nil
	}
	list := make([]Row, 0, min(t.def.MaxRows, 64))
	total := 0
	for rows.Next() {
		total++
		if total > t.def.MaxRows {
			if total > countCap {
				break
			}
			continue
		}
		row, err := scanRow(rows, cols)
		if err != nil {
			return tool.Result{}, err
		}
		list = append(list, row)
	}
	if err := rows.Err(); err != nil {
		return tool.Result{}, err
	}
	var msg string
	switch {
	case total == 0:
		msg = "No rows matched."
	case total > countCap:
		msg = fmt.Sprintf("Showing the first %d of more than %d rows.", len(list), countCap)
	case total > len(list):
		msg = fmt.Sprintf("Showing the first %d of %d rows.", len(list), total)
	case total == 1:
		msg = "1 row."
	default:
		msg = fmt.Sprintf("%d rows.", total)
	}
	return tool.Success(msg, list), nil
}

func scanRow(rows *sql.Rows, h *header) (Row, error) {
	vals := make([]any, len(h.cols))
	ptrs := make([]any, len(h.cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return Row{}, err
	}
	for i, v := range vals {
		vals[i] = jsonValue(v)
	}
	return Row{h: h, vals: vals}, nil
}

// jsonValue turns a scanned SQLite value into one JSON encodes as a reader
// expects: text as a string, a blob as text when it is UTF-8 (base64
// otherwise), times in RFC 3339.
func jsonValue(v any) any {
	switch x := v.(type) {
	case []byte:
		if utf8.Valid(x) {
			return string(x)
		}
		return "base64:" + base64.StdEncoding.EncodeToString(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339)
	}
	return v
}

// header is a query's columns, shared by its rows, with each column's JSON
// key ("name":) encoded once rather than once a row.
type header struct {
	cols []string
	// keys holds each column's encoded key; nil for a repeated column name,
	// whose first value wins.
	keys [][]byte
}

// header returns the row header for cols, reusing the last one when the
// columns are the same.
func (t *SQLTool) header(cols []string) *header {
	if h := t.head.Load(); h != nil && slices.Equal(h.cols, cols) {
		return h
	}
	h := newHeader(cols)
	t.head.Store(h)
	return h
}

func newHeader(cols []string) *header {
	h := &header{cols: cols, keys: make([][]byte, len(cols))}
	for i, c := range cols {
		if slices.Contains(cols[:i], c) {
			continue
		}
		k := appendJSONString(nil, c)
		h.keys[i] = append(k, ':')
	}
	return h
}

// Row is one result row: its columns in statement order, encoded as a JSON
// object whose keys keep that order.
type Row struct {
	h    *header
	vals []any
}

// Get returns the value of column name and whether the row has it.
func (r Row) Get(name string) (any, bool) {
	if r.h == nil {
		return nil, false
	}
	for i, c := range r.h.cols {
		if c == name {
			return r.vals[i], true
		}
	}
	return nil, false
}

// Columns returns the row's column names in order.
func (r Row) Columns() []string {
	if r.h == nil {
		return nil
	}
	return slices.Clone(r.h.cols)
}

// MarshalJSON encodes the row as an object in column order; a repeated
// column name keeps its first value. Text is escaped as encoding/json
// escapes it without HTML escaping, so "a -> b" reaches the model as written.
func (r Row) MarshalJSON() ([]byte, error) {
	if r.h == nil {
		return []byte("{}"), nil
	}
	n := 2
	for i, k := range r.h.keys {
		n += len(k) + 1
		if s, ok := r.vals[i].(string); ok {
			n += len(s) + 2
		} else {
			n += 8
		}
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	first := true
	for i, k := range r.h.keys {
		if k == nil {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, k...)
		var err error
		if b, err = appendJSONValue(b, r.vals[i]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJSONValue appends v, a value scanned by jsonValue, as JSON: the
// types SQLite returns directly, anything else through encoding/json.
func appendJSONValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendJSONString(b, x), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case float64:
		if !math.IsInf(x, 0) && !math.IsNaN(x) {
			return appendJSONFloat(b, x), nil
		}
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, enc...), nil
}

// appendJSONFloat formats f as encoding/json does: plain decimals, and an
// exponent only below 1e-6 or from 1e21, without a leading zero in it.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 becomes e-9.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// does with HTML escaping off: quotes, backslashes and control characters,
// invalid UTF-8 as U+FFFD, and U+2028/U+2029 (which break JavaScript).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// backendError wraps a database failure; a busy or locked database is
// transient, so the executor retries it.
func backendError(name string, err error) error {
	err = fmt.Errorf("toolsfile: %s: %w", name, err)
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked) {
		return tool.Transient(err)
	}
	return err
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
