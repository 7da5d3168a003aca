package toolsfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/gameassist/gameassist/internal/yamlguard"
	"github.com/gameassist/gameassist/tool"
)

// Limits of a tools file: it is operator input, but a mistake in it must
// not take the server down.
const (
	// MaxFileBytes bounds the size of a tools file.
	MaxFileBytes = 1 << 20
	// MaxTools bounds how many tools one file defines.
	MaxTools = 200
	// DefaultMaxRows is max_rows when a rows tool gives none.
	DefaultMaxRows = 50
	// MaxMaxRows is the largest max_rows accepted.
	MaxMaxRows = 1000
	// MaxCacheDuration is the largest cache_duration accepted, in exchanges.
	MaxCacheDuration = 100
	maxDescription   = 2000
	maxStatement     = 20000
	maxAliases       = 10
	// MaxSchemaBytes bounds a tool's parameter schema as JSON: every LLM
	// request offering the tool carries it.
	MaxSchemaBytes = 16 << 10
)

// Shape is how a tool's rows become its data.
type Shape string

// The result shapes of a file tool.
const (
	// ShapeRows is a list of row objects, cut to max_rows.
	ShapeRows Shape = "rows"
	// ShapeRow is the first row as an object, or null.
	ShapeRow Shape = "row"
	// ShapeValue is the first column of the first row, or null.
	ShapeValue Shape = "value"
)

var namePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{2,63}$`)

// Def is one tool as the file defines it, checked for form but not yet
// against a database.
type Def struct {
	Name           string
	Description    string
	Category       tool.Category
	CacheDuration  int
	LLMInstruction string
	Aliases        []string
	// DisplayNames are the tool's names for players by locale, from
	// display_name (nil when the file gives none).
	DisplayNames tool.DisplayNames
	// Version is the definition's version (1 when the file gives none).
	Version int
	// Versioned is set when the definition gives version: (a file version
	// of a built-in tool must).
	Versioned  bool
	Parameters json.RawMessage
	Statement  string
	Result     Shape
	MaxRows    int
	// Line is where the definition starts in the file.
	Line int
	// Player binds boolean parameters to the session's player state
	// (player: {flag: path}): the statement's :flag is then the JSON array
	// of the values at path when the flag is true, NULL otherwise.
	Player []tool.PlayerParam
	// Names declares what the tool looks up by name (names:), nil when the
	// file leaves it to be read from the statement.
	Names *NamesDef
}

// fileYAML is the top level of a tools file. Chains are read by
// parseChains.
type fileYAML struct {
	Tools    []ast.Node `yaml:"tools"`
	Chains   ast.Node   `yaml:"chains"`
	Rollouts ast.Node   `yaml:"rollouts"`
}

type defYAML struct {
	Name           string            `yaml:"name"`
	Description    string            `yaml:"description"`
	Category       string            `yaml:"category"`
	CacheDuration  *int              `yaml:"cache_duration"`
	LLMInstruction string            `yaml:"llm_instruction"`
	Aliases        []string          `yaml:"aliases"`
	DisplayName    any               `yaml:"display_name"`
	Version        *int              `yaml:"version"`
	Parameters     map[string]any    `yaml:"parameters"`
	Player         map[string]string `yaml:"player"`
	Statement      string            `yaml:"statement"`
	Result         string            `yaml:"result"`
	MaxRows        *int              `yaml:"max_rows"`
	Names          *namesYAML        `yaml:"names"`
}

// Problem is one thing wrong with a tools file, located by file, line and
// tool, so an operator can go straight to it.
type Problem struct {
	File string
	Line int
	Tool string
	Err  error
}

func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	if p.Tool != "" {
		fmt.Fprintf(&b, ": tool %s", p.Tool)
	}
	b.WriteString(": ")
	b.WriteString(p.Err.Error())
	return b.String()
}

func (p *Problem) Unwrap() error { return p.Err }

// invalid joins problems into one error wrapping tool.ErrInvalidTools.
func invalid(problems []error) error {
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("toolsfile: %w: %w", tool.ErrInvalidTools, errors.Join(problems...))
}

// Parse reads a tools file's text (file names it in errors) and returns its
// definitions, checked for form: field names and types (unknown fields are
// refused), name pattern, unique names and aliases (one name may be
// defined once per version), the rollouts: section (against the file's
// tools and chains; Build also knows the built-ins' versions, which Parse
// does not), category, result shape, limits and parameter schemas that
// compile. Statements are checked against the database by Build.
func Parse(file string, data []byte) ([]Def, error) {
	defs, _, err := parse(file, data, nil)
	return defs, err
}

// parse is Parse, also returning the rollouts: section, checked against
// the versions of the file's tools and chains and, for a file version of a
// built-in tool, the built-in's (builtins may be nil: none).
func parse(file string, data []byte, builtins Builtins) ([]Def, map[string]Rollout, error) {
	if len(data) > MaxFileBytes {
		return nil, nil, invalid([]error{&Problem{File: file, Err: fmt.Errorf("file is %d bytes, over the %d-byte limit", len(data), MaxFileBytes)}})
	}
	if !utf8.Valid(data) {
		return nil, nil, invalid([]error{&Problem{File: file, Err: errors.New("file is not valid UTF-8")}})
	}
	// goccy/go-yaml expands every alias and copies deep paths: bound both
	// before it parses anything.
	if err := yamlguard.Check(data, yamlguard.Default); err != nil {
		var ge *yamlguard.Error
		if errors.As(err, &ge) {
			return nil, nil, invalid([]error{&Problem{File: file, Line: ge.Line, Err: ge}})
		}
		return nil, nil, invalid([]error{&Problem{File: file, Err: err}})
	}
	doc, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, nil, invalid([]error{&Problem{File: file, Err: errors.New(yamlError(err))}})
	}
	if len(doc.Docs) != 1 || doc.Docs[0].Body == nil {
		return nil, nil, invalid([]error{&Problem{File: file, Err: errors.New("want one YAML document with a tools: list")}})
	}
	var top fileYAML
	if err := yaml.NodeToValue(doc.Docs[0].Body, &top, yaml.Strict()); err != nil {
		return nil, nil, invalid([]error{&Problem{File: file, Err: errors.New(yamlError(err))}})
	}
	var problems []error
	if len(top.Tools) == 0 && top.Chains == nil {
		problems = append(problems, &Problem{File: file, Err: errors.New("tools: is missing or empty")})
	}
	if len(top.Tools) > MaxTools {
		problems = append(problems, &Problem{File: file, Err: fmt.Errorf("%d tools, over the limit of %d", len(top.Tools), MaxTools)})
		top.Tools = top.Tools[:MaxTools]
	}
	defs := make([]Def, 0, len(top.Tools))
	var seen names
	for i, n := range top.Tools {
		d, errs := parseDef(file, i, n)
		problems = append(problems, errs...)
		if len(errs) > 0 {
			continue
		}
		if errs := seen.add(file, d); len(errs) > 0 {
			problems = append(problems, errs...)
			continue
		}
		defs = append(defs, d)
	}
	versions := map[string][]int{}
	for _, d := range defs {
		if _, ok := versions[d.Name]; !ok {
			versions[d.Name] = builtinVersions(builtins, d.Name)
		}
		if !slices.Contains(versions[d.Name], d.Version) {
			versions[d.Name] = append(versions[d.Name], d.Version)
		}
	}
	for _, vs := range versions {
		slices.Sort(vs)
	}
	for name, vs := range chainVersions(top.Chains) {
		if _, clash := versions[name]; !clash { // parseChains reports the clash
			versions[name] = vs
		}
	}
	rollouts, errs := parseRollouts(file, top.Rollouts, versions)
	problems = append(problems, errs...)
	if err := invalid(problems); err != nil {
		return nil, nil, err
	}
	return defs, rollouts, nil
}

func line(n ast.Node) int {
	if n == nil || n.GetToken() == nil || n.GetToken().Position == nil {
		return 0
	}
	return n.GetToken().Position.Line
}

// yamlError renders a go-yaml error on one line, with its [line:column],
// naming fields as the file spells them rather than as Go does.
func yamlError(err error) string {
	s := yaml.FormatError(err, false, false)
	s = strings.Join(strings.Fields(s), " ")
	return goFieldNames.Replace(s)
}

// goFieldNames rewrites "Go struct field defYAML.CacheDuration" into
// "cache_duration" in decoding errors.
var goFieldNames = func() *strings.Replacer {
	var pairs []string
	for _, t := range []reflect.Type{reflect.TypeFor[defYAML](), reflect.TypeFor[fileYAML]()} {
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			pairs = append(pairs, "Go struct field "+t.Name()+"."+f.Name, tag)
		}
	}
	return strings.NewReplacer(pairs...)
}()

// parseDef decodes and checks the index-th tool definition.
func parseDef(file string, index int, n ast.Node) (Def, []error) {
	at := line(n)
	label := fmt.Sprintf("#%d", index+1)
	if n == nil {
		// An empty list item ("  -"): go-yaml cannot decode a nil node.
		return Def{}, []error{&Problem{File: file, Tool: label, Err: errors.New("the tool definition is empty")}}
	}
	var y defYAML
	if err := yaml.NodeToValue(n, &y, yaml.Strict()); err != nil {
		if nm := peekName(n); nm != "" {
			label = nm
		}
		return Def{}, []error{&Problem{File: file, Line: at, Tool: label, Err: errors.New(yamlError(err))}}
	}
	if y.Name != "" {
		label = tool.Clip(y.Name, 64)
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, &Problem{File: file, Line: at, Tool: label, Err: fmt.Errorf(format, args...)})
	}
	h := checkHeading(heading{y.Name, y.Description, y.Category, y.LLMInstruction, y.Aliases, y.DisplayName, y.Version},
		"tool", tool.CategoryGCS, bad)
	d := Def{
		Name: h.Name, Description: h.Description, Category: h.Category, LLMInstruction: h.LLMInstruction,
		Aliases: h.Aliases, DisplayNames: h.DisplayNames, Version: 1, Versioned: h.Versioned,
		Statement: strings.TrimSpace(y.Statement), Result: Shape(y.Result), Line: at,
	}
	if h.Versioned {
		d.Version = h.Version
	}
	if y.CacheDuration != nil {
		d.CacheDuration = *y.CacheDuration
		if d.CacheDuration < 0 || d.CacheDuration > MaxCacheDuration {
			bad("cache_duration %d is not from 0 to %d exchanges", d.CacheDuration, MaxCacheDuration)
		}
	}
	switch d.Result {
	case "":
		d.Result = ShapeRows
	case ShapeRows, ShapeRow, ShapeValue:
	default:
		bad("result %q is not one of rows, row, value", tool.Clip(y.Result, 40))
	}
	if y.MaxRows != nil {
		if d.Result != ShapeRows {
			bad("max_rows applies only to result: rows")
		}
		d.MaxRows = *y.MaxRows
		if d.MaxRows < 1 || d.MaxRows > MaxMaxRows {
			bad("max_rows %d is not from 1 to %d", d.MaxRows, MaxMaxRows)
		}
	} else if d.Result == ShapeRows {
		d.MaxRows = DefaultMaxRows
	}
	switch {
	case d.Statement == "":
		bad("statement is required")
	case len(d.Statement) > maxStatement:
		bad("statement is over %d bytes", maxStatement)
	}
	params, err := parameters(d.Name, y.Parameters)
	if err != nil {
		bad("parameters: %v", err)
	}
	d.Parameters = params
	for _, flag := range slices.Sorted(maps.Keys(y.Player)) {
		d.Player = append(d.Player, tool.PlayerParam{Flag: flag, Path: y.Player[flag]})
	}
	if err := tool.CheckPlayerParams(tool.Spec{Name: d.Name, Parameters: d.Parameters, Player: d.Player}); err != nil {
		bad("player: %v", err)
	}
	if y.Names != nil {
		nd, err := parseNames(*y.Names, d.Parameters)
		if err != nil {
			errs = append(errs, &Problem{File: file, Line: namesLine(n, at), Tool: label, Err: fmt.Errorf("names: %w", err)})
		} else {
			nd.Line = namesLine(n, at)
		}
		d.Names = nd
	}
	return d, errs
}

// chainVersions reads the name: and version: of each chain of the chains:
// section (0 for a chain without version:), for the rollouts: section;
// parseChains checks the chains themselves and reports their problems.
func chainVersions(n ast.Node) map[string][]int {
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		return nil
	}
	out := map[string][]int{}
	for _, item := range seq.Values {
		if item == nil {
			continue
		}
		var y struct {
			Name    string `yaml:"name"`
			Version *int   `yaml:"version"`
		}
		if yaml.NodeToValue(item, &y) != nil || !namePattern.MatchString(y.Name) {
			continue
		}
		v := 0
		if y.Version != nil {
			v = *y.Version
		}
		if !slices.Contains(out[y.Name], v) {
			out[y.Name] = append(out[y.Name], v)
		}
	}
	for _, vs := range out {
		slices.Sort(vs)
	}
	return out
}

// peekName reads the name: of a definition that failed to decode, so the
// error can still name the tool.
func peekName(n ast.Node) string {
	var y struct {
		Name string `yaml:"name"`
	}
	if yaml.NodeToValue(n, &y) != nil {
		return ""
	}
	if namePattern.MatchString(y.Name) {
		return y.Name
	}
	return ""
}

// parameters turns the YAML schema into JSON and checks it: an object
// schema whose properties are plain identifiers, compiled with the
// registry's JSON Schema compiler.
func parameters(name string, m map[string]any) (json.RawMessage, error) {
	if m == nil {
		m = map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("not representable as JSON: %w", err)
	}
	if len(raw) > MaxSchemaBytes {
		return nil, fmt.Errorf("the schema is %d bytes as JSON, over the %d-byte limit", len(raw), MaxSchemaBytes)
	}
	if t, ok := m["type"]; !ok || t != "object" {
		return nil, errors.New(`type must be "object"`)
	}
	if _, err := tool.CompileSchema(name, raw); err != nil {
		return nil, err
	}
	for _, p := range schemaProperties(m) {
		if !identPattern.MatchString(p) {
			return nil, fmt.Errorf("property %q must be a plain name matching %s (it is a :%s statement parameter)", tool.Clip(p, 80), identPattern, tool.Clip(p, 80))
		}
	}
	return raw, nil
}

var identPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// schemaProperties returns the property names of an object schema, sorted.
func schemaProperties(m map[string]any) []string {
	props, _ := m["properties"].(map[string]any)
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// displayNames reads display_name: one name (English, and every locale
// without its own), or a map of names by locale ({en: Card, fr: Carte}).
func displayNames(v any) (tool.DisplayNames, error) {
	var names tool.DisplayNames
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		names = tool.DisplayNames{"en": strings.TrimSpace(v)}
	case map[string]any:
		if len(v) == 0 {
			return nil, errors.New("empty map; give a name, or names by locale such as {en: Card, fr: Carte}")
		}
		names = make(tool.DisplayNames, len(v))
		for loc, n := range v {
			s, ok := n.(string)
			if !ok {
				return nil, fmt.Errorf("%s: want a string, not %T", tool.Clip(loc, 20), n)
			}
			names[loc] = strings.TrimSpace(s)
		}
	default:
		return nil, fmt.Errorf("want a name, or names by locale such as {en: Card, fr: Carte}, not %T", v)
	}
	if err := names.Validate(); err != nil {
		return nil, err
	}
	return names, nil
}
