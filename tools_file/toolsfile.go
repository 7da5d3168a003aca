// Package toolsfile gives a studio its own tools without Go: a YAML file
// (TOOLS_FILE, in the spirit of the tools.yaml of Google's MCP Toolbox for
// Databases) defines SQL tools over the game's read-only database, each
// with its JSON Schema parameters, a read-only statement with :named
// parameters and a result shape. Every definition is checked at load: the
// statement is prepared on the read-only handle and must be read-only, every
// :param is declared and every declared parameter used, and a bad file names
// the file, line and tool. The tools then join the registry like any other.
//
// The file may also define chains: composite tools whose steps call other
// tools (built-in or the file's) with arguments taken from the chain's
// arguments or earlier steps' data, run concurrently where they do not
// depend on each other, each through the caller's session cache (see
// Chain and Set.Link). Tools and chains alike may have several versions
// (version:), which the rollouts: section splits sessions between; a tool
// may also be a new version of a built-in tool (see Load).
package toolsfile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gameassist/gameassist/internal/sqlitero"
	"github.com/gameassist/gameassist/tool"
)

// Group is the registry group file tools are registered under, so a reload
// replaces them all at once (tool.Registry.ReplaceGroup).
const Group = tool.GroupFile

// Set is the result of loading a tools file.
type Set struct {
	// File is the path the set was read from.
	File string
	// Tools are the file's tools, in file order; one name may appear once
	// per version.
	Tools []*SQLTool
	// Rollouts are the rollouts: section's weights by tool name.
	Rollouts map[string]Rollout
	// Chains are the file's chains, in file order, once Link has checked
	// them against the tools they call.
	Chains []*Chain
	// chainDefs are the chains as parsed, for Link.
	chainDefs []ChainDef
}

// List returns the set's tools, then its linked chains, as tool.Tool
// values, for the registry.
func (s *Set) List() []tool.Tool {
	out := make([]tool.Tool, 0, len(s.Tools)+len(s.Chains))
	for _, t := range s.Tools {
		out = append(out, t)
	}
	for _, c := range s.Chains {
		out = append(out, c)
	}
	return out
}

// Names returns the canonical names of the set's tools, each once (a tool
// with several versions is one name), then of its linked chains, each once
// too.
func (s *Set) Names() []string {
	out := make([]string, 0, len(s.Tools)+len(s.Chains))
	for _, t := range s.Tools {
		if !slices.Contains(out, t.def.Name) {
			out = append(out, t.def.Name)
		}
	}
	for _, c := range s.Chains {
		if !slices.Contains(out, c.def.Name) {
			out = append(out, c.def.Name)
		}
	}
	return out
}

// Builtins is what loading a tools file needs to know of the tools defined
// outside it (the built-ins); *tool.Registry satisfies it, and a registry
// without the file's group (Registry.WithGroup with no tools) gives exactly
// the built-ins.
type Builtins interface {
	// Resolve returns the canonical name of a tool name or alias.
	Resolve(name string) (string, bool)
	// Versions returns a tool's versions ([0] when it is unversioned).
	Versions(name string) []int
}

var _ Builtins = (*tool.Registry)(nil)

// builtinVersions returns the versions the built-in tool name has beside
// a file version of it: 1 for an unversioned one, else its own; nil when
// name is no built-in tool's name.
func builtinVersions(b Builtins, name string) []int {
	if b == nil {
		return nil
	}
	if c, ok := b.Resolve(name); !ok || c != name {
		return nil
	}
	vs := b.Versions(name)
	if len(vs) == 1 && vs[0] == 0 {
		return []int{1}
	}
	return slices.Clone(vs)
}

// Load reads the tools file at path and builds its tools over db (the
// read-only GCS handle). builtins are the tools defined outside the file;
// nil means none. A definition may take a built-in tool's name when it
// declares version: (2 or more against an unversioned built-in, which counts
// as version 1; a version the built-in does not have otherwise) and then
// share the built-in's aliases; rollouts: may split sessions between the
// built-in's versions and the file's. Every problem found is reported, each
// naming the file, line and tool; the error wraps tool.ErrInvalidTools.
// The file's chains are parsed and checked for form here; Set.Link checks
// them against the tools they call and adds them to the set.
func Load(ctx context.Context, path string, db *sql.DB, builtins Builtins) (*Set, error) {
	data, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	return Build(ctx, path, data, db, builtins)
}

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path) //nolint:gosec // the operator's TOOLS_FILE, read by design
	if err != nil {
		return nil, fmt.Errorf("toolsfile: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("toolsfile: read %s: %w", path, err)
	}
	return b, nil
}

// Build is Load over the file's content; file names it in errors.
func Build(ctx context.Context, file string, data []byte, db *sql.DB, builtins Builtins) (*Set, error) {
	if db == nil {
		return nil, errors.New("toolsfile: nil db")
	}
	defs, rollouts, err := parse(file, data, builtins)
	if err != nil {
		return nil, err
	}
	var problems []error
	set := &Set{File: file, Rollouts: rollouts}
	for _, d := range defs {
		bad := func(err error) {
			problems = append(problems, &Problem{File: file, Line: d.Line, Tool: d.Name, Err: err})
		}
		for _, err := range builtinClashes(builtins, d) {
			bad(err)
		}
		params, err := checkStatement(ctx, db, d)
		if err != nil {
			bad(err)
			continue
		}
		var cols []string
		badNames := func(err error) {
			problems = append(problems, &Problem{File: file, Line: d.Names.Line, Tool: d.Name, Err: err})
		}
		if d.Names != nil {
			if cols, err = resultColumns(ctx, db, d.Statement, params); err != nil {
				badNames(err)
				continue
			}
		}
		lookup, err := buildLookup(ctx, db, d, cols)
		if err != nil {
			badNames(err)
			continue
		}
		set.Tools = append(set.Tools, &SQLTool{def: d, db: db, params: params, lookup: lookup})
	}
	chains, errs := parseChains(file, data, set.Tools, builtins)
	problems = append(problems, errs...)
	set.chainDefs = chains
	if err := invalid(problems); err != nil {
		return nil, err
	}
	return set, nil
}

// checkStatement matches the statement's :params with the declared
// parameters, prepares it on db and checks that it only reads. It returns
// the parameter names in statement order.
func checkStatement(ctx context.Context, db *sql.DB, d Def) ([]string, error) {
	used, err := statementParams(d.Statement)
	if err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	declared, err := declaredParams(d.Parameters)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, u := range used {
		if !slices.Contains(declared, u) {
			problems = append(problems, fmt.Sprintf(":%s is not declared in parameters.properties", u))
		}
	}
	for _, p := range declared {
		if !slices.Contains(used, p) {
			problems = append(problems, fmt.Sprintf("parameter %q is declared but the statement never uses :%s", p, p))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("statement: %s", strings.Join(problems, "; "))
	}
	if !startsAsQuery(d.Statement) {
		return nil, errors.New("statement must be one query starting with SELECT, WITH or VALUES")
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("statement: database: %w", err)
	}
	defer conn.Close()
	n, err := sqlitero.Check(conn, d.Statement)
	switch {
	case errors.Is(err, sqlitero.ErrNotReadOnly):
		err = errors.New("is not read-only: only a query (SELECT, WITH ... SELECT or VALUES) is allowed")
	case err != nil:
		err = fmt.Errorf("does not prepare (or does more than read): %w", err)
	case n != len(used):
		err = fmt.Errorf("has %d parameters, but %d :name parameters were read from its text", n, len(used))
	}
	if err != nil {
		return nil, fmt.Errorf("statement %w", err)
	}
	return used, nil
}

// declaredParams returns the property names of a parameters schema.
func declaredParams(raw []byte) ([]string, error) {
	var s struct {
		Properties map[string]any `json:"properties"`
	}
	if err := jsonUnmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("parameters: %w", err)
	}
	out := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		out = append(out, k)
	}
	slices.Sort(out)
	return out, nil
}

// builtinClashes returns why d cannot use its name or aliases beside the
// built-in tools: a name or alias a built-in holds, unless d is a version
// (version:) of that built-in, whose aliases it may share; a version the
// built-in already has, or version 1 of an unversioned built-in (which
// counts as version 1 beside the file's versions).
func builtinClashes(b Builtins, d Def) []error {
	if b == nil {
		return nil
	}
	var errs []error
	ofBuiltin := false
	if c, ok := b.Resolve(d.Name); ok {
		switch {
		case c != d.Name:
			errs = append(errs, fmt.Errorf("name %q is taken by a built-in tool (an alias of %s)", d.Name, c))
		case !d.Versioned:
			errs = append(errs, fmt.Errorf("name %q is taken by a built-in tool; a file version of it needs version: (2 or more)", d.Name))
		default:
			ofBuiltin = true
			vs := b.Versions(d.Name)
			if len(vs) == 1 && vs[0] == 0 && d.Version == 1 {
				errs = append(errs, fmt.Errorf("version 1 of %s is the built-in tool (unversioned, it counts as version 1 beside the file's versions); number the file's versions from 2", d.Name))
			} else if slices.Contains(vs, d.Version) {
				errs = append(errs, fmt.Errorf("version %d of %s is a built-in tool's (the built-in has versions %v)", d.Version, d.Name, vs))
			}
		}
	}
	for _, a := range d.Aliases {
		if c, ok := b.Resolve(a); ok && !(ofBuiltin && c == d.Name) {
			errs = append(errs, fmt.Errorf("name %q is taken by a built-in tool", a))
		}
	}
	return errs
}
