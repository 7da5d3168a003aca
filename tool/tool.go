// Package tool is the contract every gameassist tool family builds on: the Tool
// interface, its Spec, the typed definition Def that implements it, the
// optional capabilities of typed results (Summarizer, Entities, Pager), the
// Registry, the result envelope, the safe Executor that every call goes
// through, and Clip. It imports nothing of gameassist's own.
package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"
)

// Category groups tools by backend, so stats, metrics and the LLM tool list can
// treat families differently (the sql category is offered to an LLM only when allowed).
type Category string

// The tool categories of gameassist.
const (
	CategoryCache Category = "cache"
	CategoryGCS   Category = "gcs"
	CategorySQL   Category = "sql"
	CategoryRAG   Category = "rag"
	// CategoryCustom is a studio's own tool (from a tools file) that fits
	// none of the families above.
	CategoryCustom Category = "custom"
)

// GroupFile is the registry group of a studio's tools from a tools file:
// a reload replaces the group, and the offline responder matches questions
// against its descriptions.
const GroupFile = "file"

// ErrInvalidTools marks a set of tool definitions (a tools file) that
// cannot be loaded: callers answer it as the operator's mistake (422), and
// the tools running before stay.
var ErrInvalidTools = errors.New("invalid tool definitions")

// Spec describes a tool to the registry, the executor and the LLM.
type Spec struct {
	// Name is what the LLM calls; it is never renamed once published.
	Name string `json:"name"`
	// Description tells the LLM when to use the tool.
	Description string `json:"description"`
	// Category is the tool family.
	Category Category `json:"category"`
	// Parameters is the JSON Schema (draft 2020-12) of the arguments object.
	Parameters json.RawMessage `json:"parameters"`
	// CacheDuration is the default llm_cache_duration in exchanges; 0 means not cached.
	CacheDuration int `json:"cache_duration"`
	// Aliases are extra names the tool answers to (old names, common misspellings).
	Aliases []string `json:"aliases,omitempty"`
	// Timeout overrides the executor's per-call timeout when positive.
	Timeout time.Duration `json:"-"`
	// Instruction is the llm_instruction a successful result carries when
	// the tool sets none.
	Instruction string `json:"llm_instruction,omitempty"`
	// Version is the tool's version; 0 means unversioned.
	Version int `json:"version,omitempty"`
	// Paging says how the tool pages, nil when it does not; a caller reading
	// a whole list follows it instead of guessing from the schema text.
	Paging *Paging `json:"paging,omitempty"`
	// DisplayNames are the tool's names for players by locale; see
	// DisplayName for the fallbacks.
	DisplayNames DisplayNames `json:"display_names,omitempty"`
	// Player binds boolean parameters to the session's player state (see
	// PlayerParam): the executor hands the tool the bound values.
	Player []PlayerParam `json:"player,omitempty"`
	// Personal marks a tool whose result depends on the player state in
	// another way (a spoiler gate, a chain reading $player).
	Personal bool `json:"-"`
	// Lookup says how the tool finds one thing by name (a studio's tools
	// file declares or implies it), for readers without an LLM; nil when
	// it finds nothing by name.
	Lookup *Lookup `json:"-"`
}

// Lookup is what a tool looks up by name: the kind of thing, the argument
// that names it, the result column holding a row's name, every name the
// game has of that kind, and sentences for columns ("{name} sells for
// {value} gold.").
type Lookup struct {
	Kind   string
	Param  string
	Column string
	Names  []string
	// Sentences maps a result column to its sentence, with {name} and
	// {value} in it.
	Sentences map[string]string
}

// Tool is one callable capability over the game's data.
//
// Call returns a Result for everything the caller (usually an LLM) can act
// on, including bad arguments (use Failure). It returns an error only when a
// backend failed; wrap transient backend failures with Transient so the
// executor retries them.
type Tool interface {
	Spec() Spec
	Call(ctx context.Context, args json.RawMessage) (Result, error)
}

// Status is the outcome of a tool call as the LLM sees it.
type Status string

// The two statuses of a result envelope, and the third an Outcome may
// report for a call that was not run.
const (
	StatusSuccess Status = "success"
	StatusError   Status = "error"
	// StatusSkipped: the call was not run and that is no error (a screen
	// rule's optional field was absent).
	StatusSkipped Status = "skipped"
)

// InternalInfo records what was called; it is kept for logs and admin views
// and never reaches an LLM.
type InternalInfo struct {
	FunctionName string          `json:"function_name"`
	Parameters   json.RawMessage `json:"parameters"`
	// Version is the version of the tool that answered; 0 for an
	// unversioned tool.
	Version   int  `json:"version,omitempty"`
	Truncated bool `json:"truncated,omitempty"`
	FullSize  int  `json:"full_size,omitempty"`
	Attempts  int  `json:"attempts,omitempty"`
	// Rows is how many items the data held before any cut (1 for a single
	// object, 0 for none), for logs.
	Rows int `json:"rows,omitempty"`
	// Summary, Entities and Page are what the typed data declared through
	// Summarizer, Entities and Pager (see Result.Facts); kept with a cached
	// result so its consumers need no second look at the data. An empty
	// page (nothing matched) is not recorded.
	Summary  string      `json:"summary,omitempty"`
	Entities []EntityRef `json:"entities,omitempty"`
	Page     Page        `json:"page,omitzero"`
}

// Result is the envelope every tool returns; its JSON is the contract of
// docs/architecture.md, "Tool result envelope".
type Result struct {
	Status           Status       `json:"status"`
	Message          string       `json:"message"`
	Data             any          `json:"data"`
	LLMCacheDuration int          `json:"llm_cache_duration"`
	LLMInstruction   string       `json:"llm_instruction,omitempty"`
	ErrorDetails     string       `json:"error_details,omitempty"`
	Guidance         string       `json:"guidance,omitempty"`
	InternalInfo     InternalInfo `json:"internal_info"`
	// Value is the typed data as the tool returned it, before the executor
	// encoded Data to JSON; nil for a result read back from a cache. Ask it
	// for capabilities with Facts.
	Value any `json:"-"`
	// Cause is the error behind an envelope the executor built from a
	// backend failure (a timeout, a cancellation, a backend down), for
	// errors.Is; nil otherwise, and for a result read back from a cache.
	Cause error `json:"-"`
}

// Success builds a success envelope; the executor fills the cache duration
// from the Spec unless the tool set one.
func Success(message string, data any) Result {
	return Result{Status: StatusSuccess, Message: message, Data: data, LLMCacheDuration: -1}
}

// Failure builds an error envelope the LLM can read and act on: details say
// what was wrong, guidance says what to try instead.
func Failure(message, details, guidance string) Result {
	return Result{Status: StatusError, Message: message, ErrorDetails: details, Guidance: guidance}
}

// OK reports whether the call succeeded.
func (r Result) OK() bool { return r.Status == StatusSuccess }

// llmView is the envelope without internal_info.
type llmView struct {
	Status           Status `json:"status"`
	Message          string `json:"message"`
	Data             any    `json:"data"`
	LLMCacheDuration int    `json:"llm_cache_duration"`
	LLMInstruction   string `json:"llm_instruction,omitempty"`
	ErrorDetails     string `json:"error_details,omitempty"`
	Guidance         string `json:"guidance,omitempty"`
}

// ForLLM renders the envelope as the LLM sees it: everything but internal_info.
func (r Result) ForLLM() string {
	raw := compactRaw(r.Data)
	v := llmView{
		Status: r.Status, Message: r.Message, Data: r.Data,
		LLMCacheDuration: r.LLMCacheDuration, LLMInstruction: r.LLMInstruction,
		ErrorDetails: r.ErrorDetails, Guidance: r.Guidance,
	}
	if raw != nil {
		v.Data = nil
	}
	b, err := marshalCarrying(v, raw)
	if err != nil {
		return fmt.Sprintf(`{"status":"error","message":%q}`, "result could not be encoded")
	}
	return string(b)
}

// Stored encodes the whole envelope, internal_info included, as a session
// cache keeps it (without escaping HTML, as ForLLM).
func (r Result) Stored() ([]byte, error) {
	raw := compactRaw(r.Data)
	if raw != nil {
		r.Data = nil
	}
	return marshalCarrying(r, raw)
}

// marshalCarrying is marshal of env, an envelope, with raw (when not nil:
// see compactRaw) written into its data member, which the caller left nil.
func marshalCarrying(env any, raw json.RawMessage) ([]byte, error) {
	b, err := marshal(env)
	if err != nil || raw == nil {
		return b, err
	}
	return spliceData(b, raw)
}

// compactRaw returns data when it is JSON text already (the executor
// leaves a result's data encoded, and a session cache reads it back that
// way) with no insignificant whitespace, so an envelope can carry it as is
// instead of encoding/json scanning and compacting it again; nil
// otherwise. Data that the executor encoded is valid JSON; the check here
// is only for whitespace.
func compactRaw(data any) json.RawMessage {
	raw, ok := data.(json.RawMessage)
	if !ok || len(raw) == 0 {
		return nil
	}
	in := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return nil
		}
	}
	if in {
		return nil
	}
	return raw
}

// dataNull is the data member of an envelope encoded with nil data. It
// cannot occur inside an encoded string (a quote there is escaped), and
// the members before data (status, message) are strings, so its first
// occurrence is the member.
const dataNull = `"data":null`

// spliceData returns the encoded envelope b, whose data was nil, with
// data in place of the null.
func spliceData(b []byte, data json.RawMessage) ([]byte, error) {
	i := bytes.Index(b, []byte(dataNull))
	if i < 0 {
		return nil, errors.New("tool: encoded envelope without its data member")
	}
	at := i + len(`"data":`)
	out := make([]byte, 0, len(b)-len("null")+len(data))
	out = append(out, b[:at]...)
	out = append(out, data...)
	return append(out, b[i+len(dataNull):]...), nil
}

// marshal encodes v as compact JSON without HTML escaping, so text such as
// "col -> table.col" reaches the model as written.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := encodeTo(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encodeTo appends v to buf as marshal encodes it, without the trailing
// newline.
func encodeTo(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}

// Call is one requested invocation: a tool name and its JSON arguments.
type Call struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// Version picks one version of a tool that has several; 0 runs the
	// default (highest) one. The chat engine sets the session's version.
	Version int `json:"version,omitempty"`
}

type transientError struct{ err error }

func (e transientError) Error() string { return e.err.Error() }
func (e transientError) Unwrap() error { return e.err }

// Transient marks a backend error as worth retrying (a busy database, a
// dropped connection). The executor retries only errors marked this way.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	return transientError{err: err}
}

// IsTransient reports whether err was marked with Transient.
func IsTransient(err error) bool {
	var t transientError
	return errors.As(err, &t)
}

// DecodeArgs reads a tool's arguments into v, refusing unknown fields; when
// they do not fit it returns a Refusal the model can act on. The executor
// has already checked them against the schema, so this guards the tool
// when it is called directly.
func DecodeArgs(name string, args json.RawMessage, v any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Refuse("Invalid arguments for "+name+".", describeDecode(err),
			"Call "+name+" again with arguments that match its parameter schema.")
	}
	return nil
}

// describeDecode words a JSON decoding error in terms of the tool's
// parameters, for a model or a studio to read: no Go type or struct names.
func describeDecode(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := "arguments"
		if te.Field != "" {
			field = "parameter '" + strings.TrimPrefix(te.Field, ".") + "'"
		}
		return field + ": expected " + jsonKind(te.Type) + ", got " + valueWord(te.Value)
	case errors.As(err, &se):
		return fmt.Sprintf("arguments are not valid JSON (at byte %d)", se.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "arguments are not valid JSON (cut short)"
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return "unknown parameter " + f
	}
	return "arguments do not match the parameter schema"
}

// jsonKind names a Go type as the JSON value it reads.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another type"
}

// valueWord is encoding/json's description of the value sent ("number
// 1001.0", "string"), kept short.
func valueWord(v string) string {
	if len(v) > 40 {
		v = v[:40] + "..."
	}
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return "the number " + n
	}
	switch v {
	case "number":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "array":
		return "a list"
	case "object":
		return "an object"
	}
	return "another type"
}
