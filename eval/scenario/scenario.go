// Package scenario reads `gameassist eval` scenario files: YAML, one
// scenario per document, checked against the embedded JSON Schema
// (schemas/eval_scenario.json) so that a file the command accepts is one an
// editor with the schema accepts too. Every refusal names the file, the line
// and the field.
package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/gameassist/gameassist/internal/yamlguard"
	"github.com/gameassist/gameassist/schemas"
)

// MaxFileBytes bounds a scenario file; a suite is many small files.
const MaxFileBytes = 4 << 20

// Scenario is one session: a locale, then steps in order.
type Scenario struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Locale      string `json:"locale,omitempty"`
	Steps       []Step `json:"steps"`
	// File and Line say where the scenario was read, for reports.
	File string `json:"-"`
	Line int    `json:"-"`
}

// Step is a screen change or a player message (Say) with its expectations.
type Step struct {
	Screen *Screen `json:"screen,omitempty"`
	// Player is the player's state from this step on: the runner pushes it
	// for the scenario's own player id before the next message.
	Player json.RawMessage `json:"player,omitempty"`
	Say    string          `json:"say,omitempty"`
	Expect *Expect         `json:"expect,omitempty"`
	// Line is where the step starts in its file.
	Line int `json:"-"`
}

// Screen is the screen the player is on from this step on.
type Screen struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Expect is what a player message's answer must satisfy.
type Expect struct {
	Tools           []ToolRef `json:"tools,omitempty"`
	NotTools        []ToolRef `json:"not_tools,omitempty"`
	Facts           []Pattern `json:"facts,omitempty"`
	Forbid          []Pattern `json:"forbid,omitempty"`
	MaxRounds       *int      `json:"max_rounds,omitempty"`
	MaxPromptTokens *int      `json:"max_prompt_tokens,omitempty"`
}

// ToolRef names a tool call, optionally with key arguments and a source
// ("executed", "cache", "duplicate", "proactive"). In YAML it is a bare
// name or an object.
type ToolRef struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments,omitempty"`
	Source    string         `json:"source,omitempty"`
}

// UnmarshalJSON accepts a bare tool name or {name, arguments, source}.
func (t *ToolRef) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err == nil {
		*t = ToolRef{Name: name}
		return nil
	}
	type plain ToolRef
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return err
	}
	*t = ToolRef(p)
	return nil
}

// MarshalJSON writes a reference with only a name as the bare name, the
// form UnmarshalJSON reads back.
func (t ToolRef) MarshalJSON() ([]byte, error) {
	if len(t.Arguments) == 0 && t.Source == "" {
		return json.Marshal(t.Name)
	}
	type plain ToolRef
	return json.Marshal(plain(t))
}

// String renders the reference as a report shows it.
func (t ToolRef) String() string {
	s := t.Name
	if len(t.Arguments) > 0 {
		b, _ := json.Marshal(t.Arguments)
		s += string(b)
	}
	if t.Source != "" {
		s += " (" + t.Source + ")"
	}
	return s
}

// Pattern is a case-insensitive substring, or a regular expression written
// /expr/flags.
type Pattern struct {
	Source string
	re     *regexp.Regexp
}

// UnmarshalJSON reads the pattern's text and compiles a /regex/.
func (p *Pattern) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	re, err := compilePattern(s)
	if err != nil {
		return err
	}
	*p = Pattern{Source: s, re: re}
	return nil
}

// MarshalJSON writes the pattern as it was written.
func (p Pattern) MarshalJSON() ([]byte, error) { return json.Marshal(p.Source) }

// String is the pattern as written.
func (p Pattern) String() string { return p.Source }

// Match reports whether the pattern is found in text.
func (p Pattern) Match(text string) bool {
	if p.re != nil {
		return p.re.MatchString(text)
	}
	return strings.Contains(strings.ToLower(text), strings.ToLower(p.Source))
}

var regexForm = regexp.MustCompile(`^/(.+)/([a-z]*)$`)

// compilePattern returns nil for a substring, or the compiled /regex/flags.
func compilePattern(s string) (*regexp.Regexp, error) {
	m := regexForm.FindStringSubmatch(s)
	if m == nil {
		return nil, nil
	}
	flags := ""
	for _, f := range m[2] {
		if !strings.ContainsRune("ims", f) {
			return nil, fmt.Errorf("regex flag %q is not one of i, m, s", f)
		}
		if !strings.ContainsRune(flags, f) {
			flags += string(f)
		}
	}
	expr := m[1]
	if flags != "" {
		expr = "(?" + flags + ")" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("bad regex: %w", err)
	}
	return re, nil
}

// Error is a refused scenario file: where, which field, why.
type Error struct {
	File  string
	Line  int
	Field string // dotted path like steps[1].expect.tools[0]; empty for the document
	Msg   string
	Err   error // the cause, when one is known (yamlguard.ErrBomb for a YAML bomb)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Parser reads scenario files; build it once with NewParser (it compiles the
// schema) and use it from any goroutine.
type Parser struct {
	schema *jsonschema.Schema
}

// NewParser compiles the embedded scenario schema.
func NewParser() (*Parser, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemas.EvalScenario()))
	if err != nil {
		return nil, fmt.Errorf("scenario: schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	const url = "mem://schemas/eval_scenario.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("scenario: schema: %w", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("scenario: schema: %w", err)
	}
	return &Parser{schema: s}, nil
}

// ReadFile reads and parses one scenario file.
func (p *Parser) ReadFile(path string) ([]Scenario, error) {
	f, err := os.Open(path) //nolint:gosec // the operator names the files to run
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	defer func() { _ = f.Close() }()
	src, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("scenario: read %s: %w", path, err)
	}
	if len(src) > MaxFileBytes {
		return nil, &Error{File: path, Msg: fmt.Sprintf("file is over %d bytes", MaxFileBytes)}
	}
	return p.Parse(path, src)
}

// Parse reads the scenarios of one file's content; file names it in errors.
// Scenario names must be unique within the file.
func (p *Parser) Parse(file string, src []byte) ([]Scenario, error) {
	if err := yamlguard.Check(src, yamlguard.Default); err != nil {
		var ge *yamlguard.Error
		if errors.As(err, &ge) {
			return nil, &Error{File: file, Line: ge.Line, Msg: "YAML: " + ge.Msg, Err: ge}
		}
		return nil, &Error{File: file, Msg: "YAML: " + err.Error(), Err: err}
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var out []Scenario
	names := map[string]int{}
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, yamlError(file, err)
		}
		if len(doc.Content) == 0 || isNull(doc.Content[0]) {
			continue // an empty document, e.g. comments only or a trailing ---
		}
		sc, err := p.document(file, doc.Content[0])
		if err != nil {
			return nil, err
		}
		if prev, dup := names[sc.Name]; dup {
			msg := fmt.Sprintf("scenario %q is already defined at line %d", sc.Name, prev)
			return nil, &Error{File: file, Line: sc.Line, Field: "name", Msg: msg}
		}
		names[sc.Name] = sc.Line
		out = append(out, sc)
	}
	if len(out) == 0 {
		return nil, &Error{File: file, Line: 1, Msg: "no scenario in file"}
	}
	return out, nil
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func (p *Parser) document(file string, body *yaml.Node) (Scenario, error) {
	lines := map[string]int{}
	walkLines(body, "", lines)
	docLine := body.Line
	var v any
	if err := body.Decode(&v); err != nil {
		return Scenario{}, yamlError(file, err)
	}
	raw, err := json.Marshal(jsonable(v))
	if err != nil {
		return Scenario{}, &Error{File: file, Line: docLine, Msg: "document cannot be read as JSON: " + err.Error()}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return Scenario{}, &Error{File: file, Line: docLine, Msg: err.Error()}
	}
	if err := p.schema.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return Scenario{}, &Error{File: file, Line: docLine, Msg: err.Error()}
		}
		loc, msg := leaf(ve)
		return Scenario{}, &Error{File: file, Line: nearestLine(lines, loc, docLine), Field: fieldPath(loc), Msg: msg}
	}
	// What the schema cannot say: a /regex/ must compile. Checked before
	// decoding, whose error would not say where.
	if doc, ok := v.(map[string]any); ok {
		if err := checkPatterns(doc); err != nil {
			return Scenario{}, &Error{File: file, Line: nearestLine(lines, err.loc, docLine), Field: fieldPath(err.loc), Msg: err.msg}
		}
	}
	var sc Scenario
	if err := json.Unmarshal(raw, &sc); err != nil {
		return Scenario{}, &Error{File: file, Line: docLine, Msg: err.Error()}
	}
	sc.File, sc.Line = file, docLine
	for i := range sc.Steps {
		sc.Steps[i].Line = nearestLine(lines, []string{"steps", strconv.Itoa(i)}, docLine)
	}
	return sc, nil
}

type locError struct {
	loc []string
	msg string
}

// checkPatterns compiles every facts and forbid pattern of a schema-valid document.
func checkPatterns(doc map[string]any) *locError {
	steps, _ := doc["steps"].([]any)
	for i, st := range steps {
		step, _ := st.(map[string]any)
		exp, _ := step["expect"].(map[string]any)
		for _, key := range []string{"facts", "forbid"} {
			pats, _ := exp[key].([]any)
			for j, pat := range pats {
				s, _ := pat.(string)
				if _, err := compilePattern(s); err != nil {
					return &locError{loc: []string{"steps", strconv.Itoa(i), "expect", key, strconv.Itoa(j)}, msg: err.Error()}
				}
			}
		}
	}
	return nil
}

// leaf picks the most specific cause of a validation error: the deepest
// instance location, first found.
func leaf(ve *jsonschema.ValidationError) ([]string, string) {
	p := message.NewPrinter(language.English)
	var best *jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			if best == nil || rank(e) > rank(best) {
				best = e
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	msg := best.ErrorKind.LocalizedString(p)
	loc := best.InstanceLocation
	if ap, ok := best.ErrorKind.(*kind.AdditionalProperties); ok && len(ap.Properties) > 0 {
		// Point at the unknown field itself.
		loc = append(slices.Clone(loc), ap.Properties[0])
		msg = "unknown field; " + msg
	}
	if isStep(best.InstanceLocation) {
		switch k := best.ErrorKind.(type) {
		case *kind.OneOf:
			msg = stepShape
		case *kind.Required:
			if slices.Contains(k.Missing, "say") || slices.Contains(k.Missing, "screen") || slices.Contains(k.Missing, "player") {
				msg = stepShape
			}
		}
	}
	return loc, msg
}

// stepShape explains the two kinds of step.
const stepShape = "a step is either a screen (screen:), a player state (player:) or a player message (say:): exactly one of them"

// rank orders leaf errors: deeper first; at one depth, an unknown field
// says more than a missing one, which says more than a wrong type (the
// usual noise of the branches of a oneOf).
func rank(e *jsonschema.ValidationError) int {
	r := len(e.InstanceLocation) * 4
	switch e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		r += 3
	case *kind.Type:
	case *kind.Required:
		r++
	default:
		r += 2
	}
	return r
}

func isStep(loc []string) bool { return len(loc) == 2 && loc[0] == "steps" }

// fieldPath renders ["steps","1","expect","tools","0"] as steps[1].expect.tools[0].
func fieldPath(loc []string) string {
	var b strings.Builder
	for _, s := range loc {
		if _, err := strconv.Atoi(s); err == nil {
			b.WriteString("[" + s + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// nearestLine is the line of loc, or of its closest ancestor known.
func nearestLine(lines map[string]int, loc []string, def int) int {
	for n := len(loc); n >= 0; n-- {
		if l, ok := lines[strings.Join(loc[:n], "/")]; ok && l > 0 {
			return l
		}
	}
	return def
}

// walkLines records the line of every mapping key and sequence item under
// node, keyed by its JSON-pointer-like path ("steps/1/say").
func walkLines(n *yaml.Node, path string, lines map[string]int) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "/" + k
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := join(n.Content[i].Value)
			lines[p] = n.Content[i].Line
			walkLines(n.Content[i+1], p, lines)
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			p := join(strconv.Itoa(i))
			lines[p] = v.Line
			walkLines(v, p, lines)
		}
	}
}

// jsonable turns YAML-decoded values into JSON-encodable ones (maps with
// non-string keys get string keys).
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	default:
		return v
	}
}

// yamlLine finds the line number yaml.v3 puts in its messages.
var yamlLine = regexp.MustCompile(`line (\d+)`)

// yamlError turns a YAML syntax or decoding error into an Error with its line.
func yamlError(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.ReplaceAll(strings.TrimPrefix(msg, "unmarshal errors:\n"), "\n", "; ")
	msg = strings.TrimSpace(msg)
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimSpace(strings.TrimPrefix(msg[strings.Index(msg, m[0])+len(m[0]):], ":"))
	}
	return &Error{File: file, Line: line, Msg: "YAML: " + msg}
}
