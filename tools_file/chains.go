package toolsfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// Limits of the chains of a tools file.
const (
	// MaxChains bounds how many chains one file defines.
	MaxChains = 50
	// MaxSteps bounds the steps of one chain.
	MaxSteps = 16
	// MaxParallelSteps bounds how many steps of one chain call run at once.
	MaxParallelSteps = 4
	// maxArgDepth bounds how deep a step's arguments nest.
	maxArgDepth = 8
)

var stepIDPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// ChainDef is one chain as the file defines it: a composite tool whose
// steps call other tools, checked for form and for its own references (step
// ids, $params, cycles) but not yet against the tools it calls (Set.Link).
type ChainDef struct {
	Name           string
	Description    string
	Category       tool.Category
	LLMInstruction string
	Aliases        []string
	// DisplayNames are the chain's names for players by locale, from
	// display_name (nil when the file gives none).
	DisplayNames tool.DisplayNames
	// Version is the chain's version, from version: (0, unversioned, when
	// the file gives none). Several definitions of one name, each with its
	// own version, are the versions of one chain, rolled out like a tool's.
	Version int
	// Parameters is the JSON Schema of the chain's arguments.
	Parameters json.RawMessage
	Steps      []StepDef
	// Line is where the definition starts in the file.
	Line int
	// ReadsPlayer is set when a step reads $player: the chain's result
	// then depends on the session's player state.
	ReadsPlayer bool
}

// StepDef is one step of a chain.
type StepDef struct {
	ID string
	// Tool is the tool the step calls, as the file names it.
	Tool string
	// Arguments are the step's arguments: JSON values where a string
	// "$params.x" or "$<step>.data.<path>" is a reference (see Ref).
	Arguments map[string]any
	// Optional steps may fail without failing the chain.
	Optional bool
	// After are the ids of the steps whose data the arguments read.
	After []string
	Line  int
}

// Ref is a reference in a step's arguments: the chain's arguments
// ($params, $params.x.y) or an earlier step's data ($boss, $boss.data.id).
type Ref struct {
	// Text is the reference as written.
	Text string
	// Step is the step whose data is read, "" for the chain's arguments.
	Step string
	// Path is the dotted path into the data (the screen rules' syntax);
	// empty means the whole value.
	Path screens.Path
	// Whole is set when Path is empty.
	Whole bool
	// Player is set for $player.<path>: the session's player state.
	Player bool
}

type chainYAML struct {
	Name           string         `yaml:"name"`
	Description    string         `yaml:"description"`
	Category       string         `yaml:"category"`
	LLMInstruction string         `yaml:"llm_instruction"`
	Aliases        []string       `yaml:"aliases"`
	DisplayName    any            `yaml:"display_name"`
	Version        *int           `yaml:"version"`
	Parameters     map[string]any `yaml:"parameters"`
	Steps          []ast.Node     `yaml:"steps"`
}

type stepYAML struct {
	ID        string         `yaml:"id"`
	Tool      string         `yaml:"tool"`
	Arguments map[string]any `yaml:"arguments"`
	Optional  bool           `yaml:"optional"`
}

type chainsYAML struct {
	Chains []ast.Node `yaml:"chains"`
}

// chainFieldNames rewrites go-yaml's Go field names ("Go struct field
// stepYAML.ID") into the file's ("id") in decoding errors.
var chainFieldNames = func() *strings.Replacer {
	var pairs []string
	for _, t := range []reflect.Type{reflect.TypeFor[chainYAML](), reflect.TypeFor[stepYAML]()} {
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			pairs = append(pairs, "Go struct field "+t.Name()+"."+f.Name, tag)
		}
	}
	return strings.NewReplacer(pairs...)
}()

// chainProblem locates a problem of a chain (and step, when step is set).
func chainProblem(file string, line int, chain, step string, err error) error {
	what := "chain " + chain
	if step != "" {
		what += ": step " + step
	}
	return &Problem{File: file, Line: line, Err: fmt.Errorf("%s: %w", what, err)}
}

// parseChains reads the chains: section of a tools file and checks each
// chain's form and references. tools are the file's tools; builtins are
// the tools outside the file (nil: none), whose names a chain may not take.
func parseChains(file string, data []byte, tools []*SQLTool, builtins Builtins) ([]ChainDef, []error) {
	doc, err := parser.ParseBytes(data, 0)
	if err != nil || len(doc.Docs) != 1 || doc.Docs[0].Body == nil {
		return nil, nil // Parse has reported it
	}
	var top chainsYAML
	if err := yaml.NodeToValue(doc.Docs[0].Body, &top); err != nil {
		return nil, []error{&Problem{File: file, Err: fmt.Errorf("chains: %s", chainYAMLError(err))}}
	}
	var problems []error
	if len(top.Chains) > MaxChains {
		problems = append(problems, &Problem{File: file, Err: fmt.Errorf("%d chains, over the limit of %d", len(top.Chains), MaxChains)})
		top.Chains = top.Chains[:MaxChains]
	}
	names := map[string]string{} // name or alias -> what uses it
	for _, t := range tools {
		for _, n := range append([]string{t.def.Name}, t.def.Aliases...) {
			names[n] = fmt.Sprintf("tool %s (line %d)", t.def.Name, t.def.Line)
		}
	}
	chainNames := map[string]bool{}
	versions := map[string]map[int]int{} // chain name -> version -> line
	aliasOf := map[string]string{}       // alias -> chain name
	var defs []ChainDef
	for i, n := range top.Chains {
		d, errs := parseChain(file, i, n)
		if d.Name != "" && chainNames[d.Name] {
			// Another version of a chain defined above: its name (and
			// the aliases it shares with it) are its own.
			errs = append(errs, chainVersionProblems(file, d, versions[d.Name])...)
		}
		for j, nm := range append([]string{d.Name}, d.Aliases...) {
			if nm == "" || (j == 0 && chainNames[nm]) || (j > 0 && aliasOf[nm] == d.Name) {
				continue
			}
			if prev, dup := names[nm]; dup {
				errs = append(errs, chainProblem(file, d.Line, d.Name, "", fmt.Errorf("name %q is already used by %s", nm, prev)))
			} else if _, taken := resolve(builtins, nm); taken {
				errs = append(errs, chainProblem(file, d.Line, d.Name, "", fmt.Errorf("name %q is taken by a built-in tool", nm)))
			}
			names[nm] = fmt.Sprintf("chain %s (line %d)", d.Name, d.Line)
			if j > 0 {
				aliasOf[nm] = d.Name
			}
		}
		if d.Name != "" {
			chainNames[d.Name] = true
			if versions[d.Name] == nil {
				versions[d.Name] = map[int]int{}
			}
			if _, seen := versions[d.Name][d.Version]; !seen {
				versions[d.Name][d.Version] = d.Line
			}
		}
		problems = append(problems, errs...)
		if len(errs) == 0 {
			defs = append(defs, d)
		}
	}
	// A chain calling a chain could recurse; chains call tools only.
	for _, d := range defs {
		for _, s := range d.Steps {
			if chainNames[s.Tool] {
				problems = append(problems, chainProblem(file, s.Line, d.Name, s.ID,
					fmt.Errorf("tool %s is a chain; a step calls a tool, not another chain", s.Tool)))
			}
		}
	}
	return defs, problems
}

// chainVersionProblems checks a chain defined again under a name already
// used by a chain (whose versions are seen, version to line): each
// definition of one name needs its own version:.
func chainVersionProblems(file string, d ChainDef, seen map[int]int) []error {
	if at, dup := seen[d.Version]; dup && d.Version > 0 {
		return []error{chainProblem(file, d.Line, d.Name, "", fmt.Errorf("version %d of chain %s is already defined at line %d (give each version of a chain its own version:)", d.Version, d.Name, at))}
	}
	if _, unversioned := seen[0]; unversioned || d.Version == 0 {
		lines := slices.Sorted(maps.Values(seen))
		return []error{chainProblem(file, d.Line, d.Name, "", fmt.Errorf("chain %s is also defined at line %d (give each version of a chain its own version:)", d.Name, lines[0]))}
	}
	return nil
}

func chainYAMLError(err error) string {
	return chainFieldNames.Replace(yamlError(err))
}

// parseChain decodes and checks the index-th chain.
func parseChain(file string, index int, n ast.Node) (ChainDef, []error) {
	at := line(n)
	label := fmt.Sprintf("#%d", index+1)
	if n == nil {
		return ChainDef{Name: label}, []error{chainProblem(file, 0, label, "", errors.New("the entry is empty"))}
	}
	var y chainYAML
	if err := yaml.NodeToValue(n, &y, yaml.Strict()); err != nil {
		if nm := peekName(n); nm != "" {
			label = nm
		}
		return ChainDef{Name: label, Line: at}, []error{chainProblem(file, at, label, "", errors.New(chainYAMLError(err)))}
	}
	if y.Name != "" {
		label = tool.Clip(y.Name, 64)
	}
	var errs []error
	bad := func(step string, line int, format string, args ...any) {
		errs = append(errs, chainProblem(file, line, label, step, fmt.Errorf(format, args...)))
	}
	h := checkHeading(heading{y.Name, y.Description, y.Category, y.LLMInstruction, y.Aliases, y.DisplayName, y.Version},
		"chain", tool.CategoryCustom, func(format string, args ...any) { bad("", at, format, args...) })
	d := ChainDef{
		Name: h.Name, Description: h.Description, Category: h.Category, LLMInstruction: h.LLMInstruction,
		Aliases: h.Aliases, DisplayNames: h.DisplayNames, Version: h.Version, Line: at,
	}
	params, err := parameters(d.Name, y.Parameters)
	if err != nil {
		bad("", at, "parameters: %v", err)
	}
	d.Parameters = params
	declared := schemaProperties(y.Parameters)

	switch {
	case len(y.Steps) == 0:
		bad("", at, "steps: is missing or empty")
	case len(y.Steps) > MaxSteps:
		bad("", at, "%d steps, over the limit of %d", len(y.Steps), MaxSteps)
		y.Steps = y.Steps[:MaxSteps]
	}
	ids := map[string]int{} // step id -> index
	for i, sn := range y.Steps {
		s, serrs := parseStep(file, label, i, sn)
		errs = append(errs, serrs...)
		if len(serrs) > 0 {
			continue
		}
		if j, dup := ids[s.ID]; dup {
			bad(s.ID, s.Line, "id %q is already used by step #%d", s.ID, j+1)
			continue
		}
		ids[s.ID] = len(d.Steps)
		d.Steps = append(d.Steps, s)
	}
	if len(errs) > 0 {
		return d, errs
	}

	// References: every $params.x declared, every $step a step of this
	// chain other than the step itself; every declared parameter used.
	used := map[string]bool{}
	for i := range d.Steps {
		s := &d.Steps[i]
		after := map[string]bool{}
		walkRefs(s.Arguments, "arguments", func(where string, r Ref) {
			if r.Player {
				d.ReadsPlayer = true
				return
			}
			if r.Step == "" {
				if r.Whole {
					for _, p := range declared {
						used[p] = true
					}
					return
				}
				first, _, _ := strings.Cut(r.Path.String(), ".")
				if !slices.Contains(declared, first) {
					bad(s.ID, s.Line, "%s: %s reads parameter %q, which the chain's parameters do not declare (declared: %s)",
						where, r.Text, first, listOrNone(declared))
					return
				}
				used[first] = true
				return
			}
			if r.Step == s.ID {
				bad(s.ID, s.Line, "%s: %s reads the step's own data", where, r.Text)
				return
			}
			if _, ok := ids[r.Step]; !ok {
				bad(s.ID, s.Line, "%s: %s names no step of this chain (steps: %s)", where, r.Text, strings.Join(stepIDs(d.Steps), ", "))
				return
			}
			after[r.Step] = true
		})
		s.After = slices.Sorted(maps.Keys(after))
	}
	for _, p := range declared {
		if !used[p] {
			bad("", at, "parameter %q is declared but no step reads $params.%s", p, p)
		}
	}
	if len(errs) > 0 {
		return d, errs
	}
	if cycle := findCycle(d.Steps, ids); cycle != nil {
		bad("", at, "steps %s form a cycle: each needs the data of the next", strings.Join(cycle, " -> "))
		return d, errs
	}
	// A required step cannot wait on an optional one: the chain could
	// then neither succeed nor say which step to blame.
	for _, s := range d.Steps {
		if s.Optional {
			continue
		}
		for _, a := range s.After {
			if d.Steps[ids[a]].Optional {
				bad(s.ID, s.Line, "reads the data of optional step %s, so it must be optional: true too", a)
			}
		}
	}
	return d, errs
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

func stepIDs(steps []StepDef) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.ID
	}
	return out
}

// findCycle returns the step ids of a dependency cycle, the first one
// repeated at the end, or nil when the steps form a DAG.
func findCycle(steps []StepDef, ids map[string]int) []string {
	const (
		unseen = iota
		open
		closed
	)
	state := make([]int, len(steps))
	var stack []string
	var visit func(i int) []string
	visit = func(i int) []string {
		state[i] = open
		stack = append(stack, steps[i].ID)
		for _, a := range steps[i].After {
			j := ids[a]
			switch state[j] {
			case open:
				k := slices.Index(stack, a)
				return append(slices.Clone(stack[k:]), a)
			case unseen:
				if c := visit(j); c != nil {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[i] = closed
		return nil
	}
	for i := range steps {
		if state[i] == unseen {
			if c := visit(i); c != nil {
				return c
			}
		}
	}
	return nil
}

// parseStep decodes and checks the index-th step of chain.
func parseStep(file, chain string, index int, n ast.Node) (StepDef, []error) {
	at := line(n)
	label := fmt.Sprintf("#%d", index+1)
	if n == nil {
		return StepDef{}, []error{chainProblem(file, 0, chain, label, errors.New("the entry is empty"))}
	}
	var y stepYAML
	if err := yaml.NodeToValue(n, &y, yaml.Strict()); err != nil {
		return StepDef{}, []error{chainProblem(file, at, chain, label, errors.New(chainYAMLError(err)))}
	}
	if stepIDPattern.MatchString(y.ID) {
		label = y.ID
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, chainProblem(file, at, chain, label, fmt.Errorf(format, args...)))
	}
	switch {
	case !stepIDPattern.MatchString(y.ID):
		bad("id %q must match %s", tool.Clip(y.ID, 40), stepIDPattern)
	case y.ID == "params" || y.ID == "steps" || y.ID == "player":
		bad("id %q is reserved ($params reads the chain's arguments, $player the player state; data.steps lists the steps)", y.ID)
	}
	if y.Tool == "" {
		bad("tool is required")
	}
	args, err := parseArguments(y.Arguments)
	if err != nil {
		bad("%v", err)
	}
	return StepDef{ID: y.ID, Tool: y.Tool, Arguments: args, Optional: y.Optional, Line: at}, errs
}

// parseArguments turns a step's YAML arguments into JSON values (numbers as
// json.Number) with references parsed into Ref values.
func parseArguments(m map[string]any) (map[string]any, error) {
	if m == nil {
		return map[string]any{}, nil
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("arguments: not representable as JSON: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("arguments: %w", err)
	}
	var problems []string
	out, _ := parseValue(v, "arguments", 0, &problems).(map[string]any)
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	return out, nil
}

func parseValue(v any, where string, depth int, problems *[]string) any {
	if depth > maxArgDepth {
		*problems = append(*problems, fmt.Sprintf("%s: nested deeper than %d levels", where, maxArgDepth))
		return nil
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = parseValue(e, where+"."+k, depth+1, problems)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = parseValue(e, fmt.Sprintf("%s.%d", where, i), depth+1, problems)
		}
		return out
	case string:
		if !strings.HasPrefix(x, "$") {
			return x
		}
		if rest, ok := strings.CutPrefix(x, "$$"); ok {
			return "$" + rest // an escaped literal $
		}
		r, err := parseRef(x)
		if err != nil {
			*problems = append(*problems, fmt.Sprintf("%s: %v", where, err))
			return nil
		}
		return r
	}
	return v
}

// parseRef reads "$params", "$params.<path>", "$<step>.data",
// "$<step>.data.<path>" or "$player.<path>".
func parseRef(s string) (Ref, error) {
	body := s[1:]
	head, rest, more := strings.Cut(body, ".")
	r := Ref{Text: s}
	usage := fmt.Errorf("%q is not a reference: write $params.<name>, $<step>.data.<path>, $player.<path>, or $$ for a literal $", tool.Clip(s, 80))
	switch {
	case head == "player":
		if !more {
			return Ref{}, usage
		}
		r.Player = true
	case head == "params":
		if !more {
			r.Whole = true
			return r, nil
		}
	case stepIDPattern.MatchString(head):
		r.Step = head
		if !more || (rest != "data" && !strings.HasPrefix(rest, "data.")) {
			return Ref{}, usage
		}
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, "data"), ".")
		if rest == "" {
			r.Whole = true
			return r, nil
		}
	default:
		return Ref{}, usage
	}
	p, err := screens.ParsePath(rest)
	if err != nil {
		return Ref{}, fmt.Errorf("%s: %w", tool.Clip(s, 80), err)
	}
	r.Path = p
	return r, nil
}

// walkRefs calls f for every reference in v, with where it sits.
func walkRefs(v any, where string, f func(where string, r Ref)) {
	switch x := v.(type) {
	case Ref:
		f(where, x)
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walkRefs(x[k], where+"."+k, f)
		}
	case []any:
		for i, e := range x {
			walkRefs(e, fmt.Sprintf("%s.%d", where, i), f)
		}
	}
}

// hasRef reports whether v holds a reference.
func hasRef(v any) bool {
	found := false
	walkRefs(v, "", func(string, Ref) { found = true })
	return found
}

// Tools is what linking chains needs of the tools they call (the
// built-ins and the file's tools); *tool.Registry satisfies it.
type Tools interface {
	Spec(name string) (tool.Spec, bool)
	// Versions and SpecVersion give every version of a tool with several:
	// a step runs whichever version its session is on, so it must fit all.
	Versions(name string) []int
	SpecVersion(name string, version int) (tool.Spec, bool)
	IsComposite(name string) bool
	Closest(name string, n int) []string
}

var _ Tools = (*tool.Registry)(nil)

// Link checks the set's chains against tools, the registry the file's
// tools are about to join (built-ins and the file's own tools): every step
// names a known tool that is no chain, its literal arguments fit the tool's
// schema (every version's, for a tool with several), every argument
// the tool requires is given, and the tool is one the LLM may call:
// offered is the rule of the LLM's tool list (SQL tools only with
// SQL_TOOLS_FOR_LLM; nil offers every tool), and a chain, which the LLM
// and MCP clients call, may call on their behalf only what they may call
// themselves. It then builds the chains, which List and Names include from
// then on. The error wraps tool.ErrInvalidTools and names the file, line,
// chain and step.
func (s *Set) Link(tools Tools, offered func(tool.Spec) bool) error {
	if tools == nil {
		return errors.New("toolsfile: link: nil tools")
	}
	var problems []error
	chains := make([]*Chain, 0, len(s.chainDefs))
	for _, d := range s.chainDefs {
		c, errs := link(s.File, d, tools, offered)
		problems = append(problems, errs...)
		if len(errs) == 0 {
			chains = append(chains, c)
		}
	}
	if err := invalid(problems); err != nil {
		return err
	}
	s.Chains = chains
	return nil
}

// link builds one chain over tools.
func link(file string, d ChainDef, tools Tools, offered func(tool.Spec) bool) (*Chain, []error) {
	var errs []error
	c := &Chain{def: d, steps: make([]step, len(d.Steps))}
	index := map[string]int{}
	for i, sd := range d.Steps {
		index[sd.ID] = i
	}
	cacheFor := MaxCacheDuration
	for i, sd := range d.Steps {
		bad := func(format string, args ...any) {
			errs = append(errs, chainProblem(file, sd.Line, d.Name, sd.ID, fmt.Errorf(format, args...)))
		}
		spec, ok := tools.Spec(sd.Tool)
		if !ok {
			bad("tool %s is not a known tool (did you mean %s?)", tool.Clip(sd.Tool, 80), strings.Join(tools.Closest(sd.Tool, 3), ", "))
			continue
		}
		if tools.IsComposite(sd.Tool) {
			bad("tool %s is a chain; a step calls a tool, not another chain", sd.Tool)
			continue
		}
		specs := []tool.Spec{spec}
		if vs := tools.Versions(sd.Tool); len(vs) > 1 {
			specs = specs[:0]
			for _, v := range vs {
				if sv, ok := tools.SpecVersion(sd.Tool, v); ok {
					specs = append(specs, sv)
				}
			}
		}
		req := map[string]bool{}
		fits := true
		for _, sp := range specs {
			if offered != nil && !offered(sp) {
				bad("tool %s is withheld from the LLM (category %s; SQL tools need SQL_TOOLS_FOR_LLM=true), and a chain may call only what the LLM may", sp.Name, sp.Category)
				fits = false
				break
			}
			r, err := checkStepArgs(sp, sd.Arguments)
			if err != nil {
				if len(specs) > 1 {
					err = fmt.Errorf("version %d of %s: %w", sp.Version, sp.Name, err)
				}
				bad("%v", err)
				fits = false
				break
			}
			maps.Copy(req, r)
			cacheFor = min(cacheFor, sp.CacheDuration)
		}
		if !fits {
			continue
		}
		st := step{id: sd.ID, tool: spec.Name, args: sd.Arguments, optional: sd.Optional, required: req}
		for _, a := range sd.After {
			st.after = append(st.after, index[a])
		}
		c.steps[i] = st
	}
	if len(errs) > 0 {
		return nil, errs
	}
	c.cacheFor = max(cacheFor, 0)
	return c, nil
}

// checkStepArgs checks a step's arguments against its tool's schema: all
// of them when they are all literals; otherwise each literal argument
// against its property's schema, each argument a known property (when the
// schema admits no others) and every required property given. It returns
// the tool's required properties.
func checkStepArgs(spec tool.Spec, args map[string]any) (map[string]bool, error) {
	var schema map[string]any
	doc := spec.Parameters
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	}
	if err := json.Unmarshal(doc, &schema); err != nil {
		return nil, fmt.Errorf("tool %s: schema: %w", spec.Name, err)
	}
	required := map[string]bool{}
	if rs, ok := schema["required"].([]any); ok {
		for _, r := range rs {
			if n, ok := r.(string); ok {
				required[n] = true
			}
		}
	}
	if !hasRef(args) {
		raw, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("arguments: %w", err)
		}
		if err := tool.ValidateSchema(spec.Name, doc, raw); err != nil {
			return nil, fmt.Errorf("arguments do not fit %s: %w", spec.Name, err)
		}
		return required, nil
	}
	props, _ := schema["properties"].(map[string]any)
	closed := schema["additionalProperties"] == false
	literal := map[string]any{}
	var problems []string
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if _, known := props[k]; !known && closed {
			problems = append(problems, fmt.Sprintf("arguments.%s: %s has no parameter %q (parameters: %s)",
				k, spec.Name, k, listOrNone(slices.Sorted(maps.Keys(props)))))
			continue
		}
		if !hasRef(args[k]) {
			literal[k] = args[k]
		}
	}
	for _, r := range slices.Sorted(maps.Keys(required)) {
		if _, ok := args[r]; !ok {
			problems = append(problems, fmt.Sprintf("arguments: %s requires %q, which the step does not give", spec.Name, r))
		}
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	if len(literal) > 0 {
		// The literal arguments alone, against the properties they fill.
		partial := map[string]any{"type": "object", "properties": props}
		for _, k := range []string{"$defs", "definitions"} {
			if v, ok := schema[k]; ok {
				partial[k] = v
			}
		}
		doc, err := json.Marshal(partial)
		if err != nil {
			return nil, fmt.Errorf("tool %s: schema: %w", spec.Name, err)
		}
		raw, err := json.Marshal(literal)
		if err != nil {
			return nil, fmt.Errorf("arguments: %w", err)
		}
		if err := tool.ValidateSchema(spec.Name, doc, raw); err != nil {
			return nil, fmt.Errorf("arguments do not fit %s: %w", spec.Name, err)
		}
	}
	return required, nil
}

// resolve is b.Resolve, false when b is nil.
func resolve(b Builtins, name string) (string, bool) {
	if b == nil {
		return "", false
	}
	return b.Resolve(name)
}
