package screens

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gameassist/gameassist/editdist"
	"github.com/gameassist/gameassist/tool"
)

// Limits of a rules file. They keep a mistaken or hostile file from making
// the server slow or its error messages unreadable.
const (
	// MaxRulesFileSize caps the size of a rules file in bytes.
	MaxRulesFileSize = 1 << 20
	// MaxRules caps the number of screens a rules file may describe.
	MaxRules = 500
	// MaxDataTools caps the data tools of one rule.
	MaxDataTools = 16
	// MaxRequiredFields caps the required fields of one prompt injection.
	MaxRequiredFields = 32
	// MaxTemplateLen caps a prompt injection template in bytes.
	MaxTemplateLen = 2000
	// MaxPathLen caps a json_field path in bytes.
	MaxPathLen = 256
	// MaxPathSegments caps the segments of a json_field path.
	MaxPathSegments = 32
	// MaxRuleNameLen caps a screen name in bytes.
	MaxRuleNameLen = 128
)

// ErrInvalidRules marks a rules file that was refused (bad JSON, unknown
// keys, unknown tools, parameters that do not fit, undeclared placeholders),
// so the HTTP layer can answer 422 and keep the running rules.
var ErrInvalidRules = errors.New("screens: invalid rules")

// Validator is what the rule engine needs from the tool registry to check
// rules at load and planned calls at run time; *tool.Registry satisfies it.
type Validator interface {
	// Resolve returns the canonical name of a tool name or alias.
	Resolve(name string) (string, bool)
	// Spec returns the spec (with the parameter schema) of a tool.
	Spec(name string) (tool.Spec, bool)
	// ValidateArgs checks arguments against the tool's parameter schema.
	ValidateArgs(name string, args json.RawMessage) error
}

// suggester is implemented by validators that can propose the nearest tool
// names for a misspelled one (*tool.Registry does).
type suggester interface {
	Closest(name string, n int) []string
}

var _ Validator = (*tool.Registry)(nil)

// ruleJSON, toolJSON, dataToolJSON and injectionJSON are the file format.
type ruleJSON struct {
	ContextTool     *toolJSON      `json:"context_tool"`
	DataTools       []dataToolJSON `json:"data_tools"`
	PromptInjection *injectionJSON `json:"prompt_injection"`
}

type toolJSON struct {
	Tool       string          `json:"tool"`
	Parameters json.RawMessage `json:"parameters"`
}

type dataToolJSON struct {
	Tool          string          `json:"tool"`
	JSONField     string          `json:"json_field"`
	ParameterName string          `json:"parameter_name"`
	Parameters    json.RawMessage `json:"parameters"`
}

type injectionJSON struct {
	Template       string   `json:"template"`
	RequiredFields []string `json:"required_fields"`
}

// RuleSet is a parsed and validated rules file: one rule per screen name.
// It is immutable, so the engine can swap it atomically on reload.
type RuleSet struct {
	rules map[string]*rule
	doc   []byte // the rules file as loaded
}

// rule is one validated screen rule, ready to plan.
type rule struct {
	name     string
	context  *tool.Call // canonical tool name and canonical arguments
	data     []dataTool
	tmpl     *template
	required []field
}

// dataTool is one validated data tool of a rule.
type dataTool struct {
	tool  string // canonical name
	field field
	param string
	kinds []string // JSON Schema types the parameter accepts; empty: any
	fixed map[string]json.RawMessage
}

// Names returns the screen names the rules cover, sorted.
func (rs *RuleSet) Names() []string {
	return slices.Sorted(maps.Keys(rs.rules))
}

// Len returns how many screens the rules cover.
func (rs *RuleSet) Len() int { return len(rs.rules) }

// Parse decodes a rules file strictly (unknown keys, duplicate screens and
// trailing data refused) and validates every rule against v. All problems are
// reported at once, each naming its rule; the error wraps ErrInvalidRules.
func Parse(data []byte, v Validator) (*RuleSet, error) {
	if v == nil {
		return nil, errors.New("screens: parse: nil validator")
	}
	if len(data) > MaxRulesFileSize {
		return nil, fmt.Errorf("%w: file is %d bytes, over the %d-byte limit", ErrInvalidRules, len(data), MaxRulesFileSize)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: file is not valid UTF-8", ErrInvalidRules)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidRules, located(data, err))
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%w: the file must be a JSON object of screen name to rule", ErrInvalidRules)
	}
	rs := &RuleSet{rules: map[string]*rule{}, doc: bytes.Clone(data)}
	var problems []error
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidRules, located(data, err))
		}
		name, _ := tok.(string)
		var rj ruleJSON
		if err := dec.Decode(&rj); err != nil {
			if isFatalDecodeError(err) {
				return nil, fmt.Errorf("%w: %w", ErrInvalidRules, errors.Join(append(problems, fmt.Errorf("rule %s: %w", ruleLabel(name), located(data, err)))...))
			}
			problems = append(problems, fmt.Errorf("rule %s: %w", ruleLabel(name), describeDecodeError(err)))
			continue
		}
		if seen[name] {
			problems = append(problems, fmt.Errorf("rule %s: screen appears more than once", ruleLabel(name)))
			continue
		}
		seen[name] = true
		if len(seen) > MaxRules {
			return nil, fmt.Errorf("%w: more than %d rules", ErrInvalidRules, MaxRules)
		}
		r, errs := compileRule(name, rj, v)
		for _, e := range errs {
			problems = append(problems, fmt.Errorf("rule %s: %w", ruleLabel(name), e))
		}
		if len(errs) == 0 {
			rs.rules[name] = r
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, fmt.Errorf("%w: %w", ErrInvalidRules, located(data, err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		problems = append(problems, errors.New("unexpected data after the rules object"))
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrInvalidRules, errors.Join(problems...))
	}
	return rs, nil
}

// located follows a syntax error with the line and column (from 1, in
// bytes) of the character it is at. The streaming decoder's offsets count
// from what it buffered, so the file is scanned again whole for the exact
// place; a file cut short ends at its last byte.
func located(data []byte, err error) error {
	var whole json.RawMessage
	var se *json.SyntaxError
	off := int64(len(data))
	if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) && errors.As(json.Unmarshal(data, &whole), &se) {
		off = se.Offset - 1 // the offset is past the offending character
	}
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return fmt.Errorf("%w (line %d, column %d)", err, line, col)
}

// isFatalDecodeError reports whether the decoder cannot go on after err (a
// syntax error), as opposed to a value that did not fit its Go type.
func isFatalDecodeError(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// describeDecodeError words a value of the wrong JSON type in the file's
// terms rather than Go's.
func describeDecodeError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	want := "a different type"
	switch te.Type.Kind() {
	case reflect.Slice, reflect.Array:
		want = "an array"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		want = "an object"
	case reflect.String:
		want = "a string"
	}
	where := te.Field
	if where == "" {
		where = "rule"
	}
	return fmt.Errorf("%s must be %s, not %s", where, want, te.Value)
}

// ruleLabel prints a rule name for messages; odd names are quoted.
func ruleLabel(name string) string {
	if validRuleName(name) {
		return name
	}
	return fmt.Sprintf("%q", tool.Clip(name, MaxRuleNameLen))
}

func validRuleName(name string) bool {
	if name == "" || len(name) > MaxRuleNameLen {
		return false
	}
	for _, c := range name {
		if !isNameChar(c) && c != '.' && c != ':' {
			return false
		}
	}
	return true
}

func isNameChar(c rune) bool {
	return c == '_' || c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// compileRule validates one rule and returns it ready to plan, or every
// problem found.
func compileRule(name string, rj ruleJSON, v Validator) (*rule, []error) {
	var errs []error
	if !validRuleName(name) {
		errs = append(errs, fmt.Errorf("screen name must be 1-%d characters of letters, digits, '_', '-', '.', ':'", MaxRuleNameLen))
	}
	if rj.ContextTool == nil && len(rj.DataTools) == 0 && rj.PromptInjection == nil {
		errs = append(errs, errors.New("rule has no context_tool, data_tools or prompt_injection"))
	}
	r := &rule{name: name}
	if rj.ContextTool != nil {
		call, err := compileContextTool(*rj.ContextTool, v)
		if err != nil {
			errs = append(errs, fmt.Errorf("context_tool: %w", err))
		}
		r.context = call
	}
	if len(rj.DataTools) > MaxDataTools {
		errs = append(errs, fmt.Errorf("data_tools: %d tools, over the limit of %d", len(rj.DataTools), MaxDataTools))
	}
	declared := map[string]bool{}
	for i, dj := range rj.DataTools {
		dt, dErrs := compileDataTool(dj, v)
		for _, e := range dErrs {
			errs = append(errs, fmt.Errorf("data_tools[%d]: %w", i, e))
		}
		if len(dErrs) == 0 {
			r.data = append(r.data, dt)
		}
		declared[dj.JSONField] = true
	}
	if pj := rj.PromptInjection; pj != nil {
		if len(pj.RequiredFields) > MaxRequiredFields {
			errs = append(errs, fmt.Errorf("prompt_injection: %d required_fields, over the limit of %d", len(pj.RequiredFields), MaxRequiredFields))
		}
		for i, rf := range pj.RequiredFields {
			f, err := parseField(rf)
			if err != nil {
				errs = append(errs, fmt.Errorf("prompt_injection: required_fields[%d]: %w", i, err))
				continue
			}
			declared[rf] = true
			r.required = append(r.required, f)
		}
		t, err := compileTemplate(pj.Template, declared)
		if err != nil {
			errs = append(errs, fmt.Errorf("prompt_injection: %w", err))
		}
		r.tmpl = t
	}
	return r, errs
}

// compileContextTool checks that the tool exists and its fixed parameters fit
// its schema; it returns the call with the canonical name and arguments.
func compileContextTool(tj toolJSON, v Validator) (*tool.Call, error) {
	canonical, err := resolveTool(tj.Tool, v)
	if err != nil {
		return nil, err
	}
	fixed, err := objectParams(tj.Parameters)
	if err != nil {
		return nil, err
	}
	args, err := marshalArgs(fixed)
	if err != nil {
		return nil, err
	}
	if err := v.ValidateArgs(canonical, args); err != nil {
		return nil, fmt.Errorf("parameters do not fit the schema of %s: %w", canonical, err)
	}
	return &tool.Call{Name: canonical, Arguments: args}, nil
}

// compileDataTool checks a data tool: the tool exists, the json_field is a
// valid path, the schema has the mapped parameter, and the call validates
// with the fixed parameters and a representative value of that parameter.
func compileDataTool(dj dataToolJSON, v Validator) (dataTool, []error) {
	var errs []error
	dt := dataTool{param: dj.ParameterName}
	f, err := parseField(dj.JSONField)
	if err != nil {
		errs = append(errs, fmt.Errorf("json_field: %w", err))
	}
	dt.field = f
	if dj.ParameterName == "" {
		errs = append(errs, errors.New("parameter_name is empty"))
	}
	canonical, err := resolveTool(dj.Tool, v)
	if err != nil {
		return dt, append(errs, err)
	}
	dt.tool = canonical
	fixed, err := objectParams(dj.Parameters)
	if err != nil {
		return dt, append(errs, err)
	}
	dt.fixed = fixed
	if dj.ParameterName == "" {
		return dt, errs
	}
	if _, ok := fixed[dj.ParameterName]; ok {
		return dt, append(errs, fmt.Errorf("parameter %s is both mapped from json_field and fixed in parameters", dj.ParameterName))
	}
	spec, _ := v.Spec(canonical)
	props, err := schemaProperties(spec.Parameters)
	if err != nil {
		return dt, append(errs, fmt.Errorf("schema of %s: %w", canonical, err))
	}
	prop, ok := props[dj.ParameterName]
	if !ok {
		names := slices.Sorted(maps.Keys(props))
		return dt, append(errs, fmt.Errorf("tool %s has no parameter %s (parameters: %s)", canonical, dj.ParameterName, strings.Join(names, ", ")))
	}
	kinds, err := fittingKinds(canonical, dj.ParameterName, prop, fixed, v)
	if err != nil {
		return dt, append(errs, err)
	}
	dt.kinds = kinds
	return dt, errs
}

// resolveTool returns the canonical name of a tool, or an error with a
// "did you mean" suggestion when the validator can offer one.
func resolveTool(name string, v Validator) (string, error) {
	if name == "" {
		return "", errors.New("tool is empty")
	}
	if c, ok := v.Resolve(name); ok {
		return c, nil
	}
	label := tool.Clip(name, 100)
	if s, ok := v.(suggester); ok {
		if near := s.Closest(name, 1); len(near) == 1 && editdist.Distance(strings.ToLower(name), near[0]) <= max(3, len(near[0])/4) {
			return "", fmt.Errorf("tool %s does not exist (did you mean %s?)", label, near[0])
		}
	}
	return "", fmt.Errorf("tool %s does not exist", label)
}

// objectParams decodes fixed parameters; absent or null means none.
func objectParams(raw json.RawMessage) (map[string]json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return map[string]json.RawMessage{}, nil
	}
	if t[0] != '{' {
		return nil, errors.New("parameters must be a JSON object")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(t, &m); err != nil {
		return nil, fmt.Errorf("parameters: %w", err)
	}
	return m, nil
}

// marshalArgs encodes arguments with sorted keys, the canonical form the
// session cache keys on.
func marshalArgs(m map[string]json.RawMessage) (json.RawMessage, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("parameters: %w", err)
	}
	return b, nil
}

// schemaProperties returns the property schemas of an object schema.
func schemaProperties(doc json.RawMessage) (map[string]json.RawMessage, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(doc, &s); err != nil {
		return nil, err
	}
	if s.Properties == nil {
		s.Properties = map[string]json.RawMessage{}
	}
	return s.Properties, nil
}

// fittingKinds returns the JSON types the mapped parameter accepts, checking
// that a call with the fixed parameters and a representative value of each
// declared type (or each enum value) validates. It fails when none does; it
// returns nil when the schema accepts any type.
func fittingKinds(toolName, param string, prop json.RawMessage, fixed map[string]json.RawMessage, v Validator) ([]string, error) {
	var ps struct {
		Type             json.RawMessage   `json:"type"`
		Minimum          *float64          `json:"minimum"`
		ExclusiveMinimum *float64          `json:"exclusiveMinimum"`
		Maximum          *float64          `json:"maximum"`
		MinLength        *int              `json:"minLength"`
		Enum             []json.RawMessage `json:"enum"`
		Const            json.RawMessage   `json:"const"`
	}
	_ = json.Unmarshal(prop, &ps) // a boolean schema or odd keywords leave the zero value
	if ps.Minimum == nil && ps.ExclusiveMinimum != nil {
		m := math.Floor(*ps.ExclusiveMinimum) + 1
		ps.Minimum = &m
	}
	declared := schemaTypes(ps.Type)
	type candidate struct {
		kind string
		rep  json.RawMessage
	}
	var cands []candidate
	enum := ps.Enum
	if len(ps.Const) > 0 {
		enum = []json.RawMessage{ps.Const}
	}
	for _, e := range enum[:min(len(enum), 20)] {
		var x any
		d := json.NewDecoder(bytes.NewReader(e))
		d.UseNumber()
		if d.Decode(&x) == nil {
			cands = append(cands, candidate{kind: kindOf(x), rep: e})
		}
	}
	if len(enum) == 0 {
		kinds := declared
		if len(kinds) == 0 {
			kinds = []string{"integer", "string", "number", "boolean"}
		}
		for _, k := range kinds {
			if rep := representative(k, ps.Minimum, ps.Maximum, ps.MinLength); rep != nil {
				cands = append(cands, candidate{kind: k, rep: rep})
			}
		}
	}
	var kinds []string
	var lastErr error
	for _, c := range cands {
		args := maps.Clone(fixed)
		args[param] = c.rep
		raw, err := marshalArgs(args)
		if err != nil {
			return nil, err
		}
		if err := v.ValidateArgs(toolName, raw); err != nil {
			lastErr = err
			continue
		}
		if !slices.Contains(kinds, c.kind) {
			kinds = append(kinds, c.kind)
		}
	}
	if len(kinds) == 0 {
		if lastErr == nil {
			lastErr = errors.New("no usable type")
		}
		return nil, fmt.Errorf("a call of %s with %s from json_field does not fit its schema: %w", toolName, param, lastErr)
	}
	if len(declared) == 0 && len(enum) == 0 {
		return nil, nil
	}
	return kinds, nil
}

func schemaTypes(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil && one != "" {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	return nil
}

// representative returns a value of kind k within the schema's bounds.
func representative(k string, minimum, maximum *float64, minLen *int) json.RawMessage {
	switch k {
	case "integer", "number":
		n := 1.0
		if minimum != nil {
			n = math.Ceil(*minimum)
		} else if maximum != nil && *maximum < n {
			n = *maximum
		}
		b, _ := json.Marshal(int64(n))
		return b
	case "string":
		n := 1
		if minLen != nil && *minLen > 1 && *minLen < 10000 {
			n = *minLen
		}
		b, _ := json.Marshal(strings.Repeat("a", n))
		return b
	case "boolean":
		return json.RawMessage("true")
	case "object":
		return json.RawMessage("{}")
	case "array":
		return json.RawMessage("[]")
	}
	return nil
}

// Tools returns the distinct tools the rule of screen names: data tools in
// rule order (the screen's main subject first), then the context tool; nil
// for a screen without a rule.
func (rs *RuleSet) Tools(screen string) []string {
	r, ok := rs.rules[screen]
	if !ok {
		return nil
	}
	var out []string
	for _, d := range r.data {
		if !slices.Contains(out, d.tool) {
			out = append(out, d.tool)
		}
	}
	if r.context != nil && !slices.Contains(out, r.context.Name) {
		out = append(out, r.context.Name)
	}
	return out
}
