package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Registry holds the tools of one server, by name and alias, with their
// compiled parameter schemas. It is safe for concurrent reads once built.
type Registry struct {
	tools   map[string]*entry // canonical name
	aliases map[string]string // alias -> canonical name
	order   []string
}

type entry struct {
	tool   Tool
	spec   Spec
	schema *jsonschema.Schema
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{tools: map[string]*entry{}, aliases: map[string]string{}}
}

// Register adds tools; it refuses a nil tool, an empty or taken name or alias,
// and a parameter schema that does not compile.
func (r *Registry) Register(tools ...Tool) error {
	for _, t := range tools {
		if t == nil {
			return fmt.Errorf("tool: register: nil tool")
		}
		spec := t.Spec()
		if spec.Name == "" {
			return fmt.Errorf("tool: register: empty name")
		}
		names := append([]string{spec.Name}, spec.Aliases...)
		for _, n := range names {
			if r.taken(n) {
				return fmt.Errorf("tool: register %s: name %q already taken", spec.Name, n)
			}
		}
		schema, err := CompileSchema(spec.Name, spec.Parameters)
		if err != nil {
			return fmt.Errorf("tool: register %s: %w", spec.Name, err)
		}
		r.tools[spec.Name] = &entry{tool: t, spec: spec, schema: schema}
		for _, a := range spec.Aliases {
			r.aliases[a] = spec.Name
		}
		r.order = append(r.order, spec.Name)
	}
	return nil
}

func (r *Registry) taken(name string) bool {
	_, t := r.tools[name]
	_, a := r.aliases[name]
	return t || a
}

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
	if _, ok := r.tools[name]; ok {
		return name, true
	}
	c, ok := r.aliases[name]
	return c, ok
}

// Lookup returns the tool registered under name or alias.
func (r *Registry) Lookup(name string) (Tool, bool) {
	c, ok := r.Resolve(name)
	if !ok {
		return nil, false
	}
	return r.tools[c].tool, true
}

// Spec returns the spec of the tool registered under name or alias.
func (r *Registry) Spec(name string) (Spec, bool) {
	c, ok := r.Resolve(name)
	if !ok {
		return Spec{}, false
	}
	return r.tools[c].spec, true
}

// Specs returns every spec in registration order, optionally filtered.
func (r *Registry) Specs(keep func(Spec) bool) []Spec {
	out := make([]Spec, 0, len(r.order))
	for _, n := range r.order {
		s := r.tools[n].spec
		if keep == nil || keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// ValidateArgs checks arguments against the tool's schema and returns a
// readable error naming the offending field.
func (r *Registry) ValidateArgs(name string, args json.RawMessage) error {
	c, ok := r.Resolve(name)
	if !ok {
		return fmt.Errorf("unknown tool %q", name)
	}
	return validate(r.tools[c].schema, args)
}

func validate(s *jsonschema.Schema, args json.RawMessage) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return fmt.Errorf("arguments are not valid JSON: %w", err)
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
	for _, t := range r.order {
		d := Levenshtein(lname, t)
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

// Levenshtein is the edit distance between a and b, by rune; tools use it for
// "did you mean" suggestions.
func Levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
