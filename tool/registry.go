package tool

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gameassist/gameassist/editdist"
)

// Registry holds the tools of one server, by name and alias, with their
// compiled parameter schemas. Reads are lock-free and safe for concurrent
// use; Register and ReplaceGroup publish a new immutable state at once, so
// a reader sees either the old set of tools or the new one, never a mix.
type Registry struct {
	mu    sync.Mutex // serializes writers
	state atomic.Pointer[registryState]
}

// registryState is one immutable set of tools. A name may hold several
// versions of a tool (Spec.Version); tools holds the highest, the default
// of a call that names no version, and versions every one, ascending.
type registryState struct {
	tools    map[string]*entry   // canonical name -> default (highest) version
	versions map[string][]*entry // canonical name -> every version, ascending
	aliases  map[string]string   // alias -> canonical name
	order    []string
	groups   map[string][]string // group -> canonical names registered with it
	// gen counts the states a registry has published (see Generation).
	gen uint64
}

type entry struct {
	tool   Tool
	spec   Spec
	schema *jsonschema.Schema
	group  string
	// valid remembers argument documents this schema accepted.
	valid validMemo
	// unversioned is set on an unversioned tool promoted to version 1
	// while a versioned tool of another group shares its name: the entry
	// it was, restored when that group leaves (see promote).
	unversioned *entry
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	r := &Registry{}
	r.state.Store(&registryState{tools: map[string]*entry{}, versions: map[string][]*entry{}, aliases: map[string]string{}, groups: map[string][]string{}})
	return r
}

// clone copies s, leaving out the tools of group when drop is set.
func (s *registryState) clone(drop string) *registryState {
	n := &registryState{
		tools: make(map[string]*entry, len(s.tools)), versions: make(map[string][]*entry, len(s.versions)),
		aliases: make(map[string]string, len(s.aliases)),
		order:   make([]string, 0, len(s.order)), groups: make(map[string][]string, len(s.groups)),
	}
	for _, name := range s.order {
		kept := make([]*entry, 0, len(s.versions[name]))
		for _, e := range s.versions[name] {
			if drop != "" && e.group == drop {
				continue
			}
			kept = append(kept, e)
		}
		if len(kept) == 1 && kept[0].unversioned != nil {
			// The versions that joined it have left: the tool is
			// unversioned again.
			kept[0] = kept[0].unversioned
		}
		for _, e := range kept {
			n.put(e)
		}
	}
	return n
}

// promote turns the one unversioned tool of name into version 1, so that
// a versioned tool of another group can join it: a copy of its entry with
// Version 1 (outcomes, cache keys, stats and rollouts follow the spec's
// version) that remembers the original for clone to restore.
func (s *registryState) promote(name string) {
	e := s.versions[name][0]
	spec := e.spec
	spec.Version = 1
	p := &entry{tool: e.tool, spec: spec, schema: e.schema, group: e.group, unversioned: e}
	s.versions[name] = []*entry{p}
	s.tools[name] = p
}

// joins reports whether spec, registered under group, takes the name of
// the one unversioned tool of another group, which then becomes version 1.
func (s *registryState) joins(group string, spec Spec) bool {
	vs := s.versions[spec.Name]
	return len(vs) == 1 && vs[0].spec.Version == 0 && vs[0].group != group && spec.Version >= 2
}

// put files e under its name, version and aliases; the caller checked
// that nothing clashes.
func (s *registryState) put(e *entry) {
	name := e.spec.Name
	vs := s.versions[name]
	if len(vs) == 0 {
		s.order = append(s.order, name)
	}
	i, _ := slices.BinarySearchFunc(vs, e.spec.Version, func(x *entry, v int) int { return cmp.Compare(x.spec.Version, v) })
	vs = slices.Insert(slices.Clone(vs), i, e)
	s.versions[name] = vs
	s.tools[name] = vs[len(vs)-1]
	for _, a := range e.spec.Aliases {
		s.aliases[a] = name
	}
	if !slices.Contains(s.groups[e.group], name) {
		s.groups[e.group] = append(s.groups[e.group], name)
	}
}

// add registers tools in s under group. A name already registered takes
// another version when both are versioned (Version > 0) and the versions
// differ, or when a versioned tool (Version 2 or more) joins the one
// unversioned tool of another group, which counts as version 1 until that
// version leaves; the versions of one name may share aliases.
func (s *registryState) add(group string, tools []Tool) error {
	for _, t := range tools {
		if t == nil {
			return fmt.Errorf("tool: register: nil tool")
		}
		spec := t.Spec()
		if spec.Name == "" {
			return fmt.Errorf("tool: register: empty name")
		}
		if spec.Version < 0 {
			return fmt.Errorf("tool: register %s: version %d is negative", spec.Name, spec.Version)
		}
		if err := s.fits(group, spec); err != nil {
			return fmt.Errorf("tool: register %s: %w", spec.Name, err)
		}
		if err := spec.DisplayNames.Validate(); err != nil {
			return fmt.Errorf("tool: register %s: %w", spec.Name, err)
		}
		schema, err := CompileSchema(spec.Name, spec.Parameters)
		if err != nil {
			return fmt.Errorf("tool: register %s: %w", spec.Name, err)
		}
		if err := CheckPlayerParams(spec); err != nil {
			return fmt.Errorf("tool: register %s: %w", spec.Name, err)
		}
		if s.joins(group, spec) {
			s.promote(spec.Name)
		}
		s.put(&entry{tool: t, spec: spec, schema: schema, group: group})
	}
	return nil
}

// fits reports why spec, registered under group, cannot join s: its name
// or an alias taken by another tool, or its name taken by an unversioned
// tool (unless spec joins it, see joins) or the same version.
func (s *registryState) fits(group string, spec Spec) error {
	if c, ok := s.aliases[spec.Name]; ok {
		return fmt.Errorf("name %q already taken by an alias of %s", spec.Name, c)
	}
	for _, e := range s.versions[spec.Name] {
		switch {
		case s.joins(group, spec):
		case e.spec.Version == 0 && spec.Version == 1 && e.group != group:
			return fmt.Errorf("name %q already taken by an unversioned tool, which counts as version 1 beside other versions (number the new versions from 2)", spec.Name)
		case e.spec.Version == 0 || spec.Version == 0:
			return fmt.Errorf("name %q already taken (several versions of one tool each need a version number)", spec.Name)
		case e.spec.Version == spec.Version:
			return fmt.Errorf("name %q already taken by version %d", spec.Name, spec.Version)
		}
	}
	for _, a := range spec.Aliases {
		if a == spec.Name {
			return fmt.Errorf("alias %q repeats the name", a)
		}
		if _, ok := s.tools[a]; ok {
			return fmt.Errorf("name %q already taken", a)
		}
		if c, ok := s.aliases[a]; ok && c != spec.Name {
			return fmt.Errorf("name %q already taken by an alias of %s", a, c)
		}
	}
	return nil
}

// Register adds tools; it refuses a nil tool, an empty or taken name or alias,
// invalid display names and a parameter schema that does not compile. On error nothing is added.
func (r *Registry) Register(tools ...Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	prev := r.state.Load()
	next := prev.clone("")
	if err := next.add("", tools); err != nil {
		return err
	}
	next.gen = prev.gen + 1
	r.state.Store(next)
	return nil
}

// ReplaceGroup swaps every tool registered earlier under group (a non-empty
// label such as "file") for tools, atomically: calls that start after it
// returns see only the new set. A name or alias taken by a tool outside the
// group (other than a version joining it, see add), or any other problem
// Register refuses, leaves the registry as it was. A tool outside the group
// that a version of the group had joined is unversioned again once no
// such version is left.
func (r *Registry) ReplaceGroup(group string, tools ...Tool) error {
	if group == "" {
		return fmt.Errorf("tool: replace group: empty group")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	prev := r.state.Load()
	next, err := prev.withGroup(group, tools)
	if err != nil {
		return err
	}
	next.gen = prev.gen + 1
	r.state.Store(next)
	return nil
}

// WithGroup returns a copy of the registry whose group holds tools instead
// of its current ones, leaving r unchanged: a candidate set can be checked
// (screen rules against it, say) before ReplaceGroup installs it.
func (r *Registry) WithGroup(group string, tools ...Tool) (*Registry, error) {
	if group == "" {
		return nil, fmt.Errorf("tool: with group: empty group")
	}
	next, err := r.state.Load().withGroup(group, tools)
	if err != nil {
		return nil, err
	}
	c := &Registry{}
	c.state.Store(next)
	return c, nil
}

func (s *registryState) withGroup(group string, tools []Tool) (*registryState, error) {
	next := s.clone(group)
	if err := next.add(group, tools); err != nil {
		return nil, err
	}
	return next, nil
}

// Group returns the canonical names registered under group, in order.
func (r *Registry) Group(group string) []string {
	return append([]string(nil), r.state.Load().groups[group]...)
}

func (s *registryState) taken(name string) bool {
	_, t := s.tools[name]
	_, a := s.aliases[name]
	return t || a
}

// Taken reports whether name is a registered tool name or alias.
func (r *Registry) Taken(name string) bool { return r.state.Load().taken(name) }

// CompileSchema compiles a JSON Schema document; an empty document means
// "an object with no properties".
func CompileSchema(name string, doc json.RawMessage) (*jsonschema.Schema, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("schema of %s: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	url := "mem://tool/" + name + ".json"
	if err := c.AddResource(url, v); err != nil {
		return nil, fmt.Errorf("schema of %s: %w", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("schema of %s: %w", name, err)
	}
	return s, nil
}

// Resolve returns the canonical name for a name or alias.
func (r *Registry) Resolve(name string) (string, bool) {
	return r.state.Load().resolve(name)
}

func (s *registryState) resolve(name string) (string, bool) {
	if _, ok := s.tools[name]; ok {
		return name, true
	}
	c, ok := s.aliases[name]
	return c, ok
}

// lookup returns the entry of name or alias from one consistent state.
func (r *Registry) lookup(name string) (*entry, bool) {
	s := r.state.Load()
	c, ok := s.resolve(name)
	if !ok {
		return nil, false
	}
	return s.tools[c], true
}

// Lookup returns the tool registered under name or alias.
func (r *Registry) Lookup(name string) (Tool, bool) {
	e, ok := r.lookup(name)
	if !ok {
		return nil, false
	}
	return e.tool, true
}

// Spec returns the spec of the tool registered under name or alias.
func (r *Registry) Spec(name string) (Spec, bool) {
	e, ok := r.lookup(name)
	if !ok {
		return Spec{}, false
	}
	return e.spec, true
}

// Generation identifies the registry's current set of tools: it changes
// whenever Register or ReplaceGroup changes the set, so a reader can keep
// what it derived from Specs until then.
func (r *Registry) Generation() uint64 { return r.state.Load().gen }

// Specs returns every spec in registration order, optionally filtered.
func (r *Registry) Specs(keep func(Spec) bool) []Spec {
	st := r.state.Load()
	out := make([]Spec, 0, len(st.order))
	for _, n := range st.order {
		s := st.tools[n].spec
		if keep == nil || keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// lookupVersion returns the entry of version of name or alias; version 0
// is the default (highest) version.
func (r *Registry) lookupVersion(name string, version int) (*entry, bool) {
	s := r.state.Load()
	c, ok := s.resolve(name)
	if !ok {
		return nil, false
	}
	if version == 0 {
		return s.tools[c], true
	}
	for _, e := range s.versions[c] {
		if e.spec.Version == version {
			return e, true
		}
	}
	return nil, false
}

// HasVersions reports whether the tool registered under name or alias has
// several versions; unlike Versions it allocates nothing, for the checks
// a turn makes on every offered tool and call.
func (r *Registry) HasVersions(name string) bool {
	s := r.state.Load()
	c, ok := s.resolve(name)
	return ok && len(s.versions[c]) > 1
}

// Versions returns the versions of the tool registered under name or
// alias, ascending: one element for a tool with a single version ([0] when
// it is unversioned), nil for an unknown name.
func (r *Registry) Versions(name string) []int {
	s := r.state.Load()
	c, ok := s.resolve(name)
	if !ok {
		return nil
	}
	vs := s.versions[c]
	out := make([]int, len(vs))
	for i, e := range vs {
		out[i] = e.spec.Version
	}
	return out
}

// SpecVersion returns the spec of one version of the tool registered under
// name or alias; version 0 is the default (highest) version. A session
// assigned to a version is offered that version's spec.
func (r *Registry) SpecVersion(name string, version int) (Spec, bool) {
	e, ok := r.lookupVersion(name, version)
	if !ok {
		return Spec{}, false
	}
	return e.spec, true
}

// ValidateArgs checks arguments against the tool's schema and returns a
// readable error naming the offending field. A tool with several versions
// must accept them in every version (screen rules call whichever version a
// session is on); the error names the version that refuses them.
func (r *Registry) ValidateArgs(name string, args json.RawMessage) error {
	s := r.state.Load()
	c, ok := s.resolve(name)
	if !ok {
		return fmt.Errorf("unknown tool %q", name)
	}
	vs := s.versions[c]
	for _, e := range vs {
		// Arguments a version accepted before (here or in the executor)
		// skip the schema walk.
		if e.valid.has(args) {
			continue
		}
		if err := validate(e.schema, args); err != nil {
			if len(vs) > 1 {
				return fmt.Errorf("version %d: %w", e.spec.Version, err)
			}
			return err
		}
		e.valid.add(args)
	}
	return nil
}

func validate(s *jsonschema.Schema, args json.RawMessage) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return errors.New("arguments are not valid JSON")
	}
	if err := s.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if ok := asValidationError(err, &ve); ok {
			return fmt.Errorf("%s", describeValidation(ve))
		}
		return err
	}
	return nil
}

// Closest returns up to n registered names nearest to name, for guidance.
func (r *Registry) Closest(name string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	lname := strings.ToLower(name)
	for _, t := range r.state.Load().order {
		d := editdist.Distance(lname, t)
		if strings.Contains(t, lname) || strings.Contains(lname, strings.TrimPrefix(strings.TrimPrefix(t, "gcs_"), "rag_")) {
			d /= 2
		}
		cs = append(cs, cand{t, d})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	out := make([]string, 0, n)
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// Versioned lists the canonical names of the tools that have several
// versions, in registration order.
func (r *Registry) Versioned() []string {
	s := r.state.Load()
	var out []string
	for _, n := range s.order {
		if len(s.versions[n]) > 1 {
			out = append(out, n)
		}
	}
	return out
}
