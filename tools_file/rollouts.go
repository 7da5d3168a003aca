package toolsfile

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/gameassist/gameassist/tool"
)

// RolloutTotal is what one tool's weights in rollouts: sum to: each weight
// is a percentage of new sessions.
const RolloutTotal = 100

// Rollout is the weights of one tool's versions from the rollouts: section:
// version → percentage of new sessions (summing to RolloutTotal).
type Rollout map[int]int

// parseRollouts reads the rollouts: section,
//
//	rollouts:
//	  cards_get_card: {"1": 80, "2": 20}
//
// and checks it against versions (the versions of each tool and chain of
// the file, by name): every tool or chain named is defined in the file with
// several versions, every version exists, every weight is a whole number
// from 0 to RolloutTotal, and each one's weights sum to RolloutTotal.
func parseRollouts(file string, n ast.Node, versions map[string][]int) (map[string]Rollout, []error) {
	if n == nil {
		return nil, nil
	}
	at := line(n)
	if _, isNull := n.(*ast.NullNode); isNull {
		return nil, nil
	}
	mapping, ok := n.(*ast.MappingNode)
	if !ok {
		return nil, []error{&Problem{File: file, Line: at, Err: errors.New(`rollouts: must map tool names to weights, like cards_get_card: {"1": 80, "2": 20}`)}}
	}
	var problems []error
	out := map[string]Rollout{}
	for _, kv := range mapping.Values {
		name := kv.Key.String()
		if s, ok := kv.Key.(*ast.StringNode); ok {
			name = s.Value
		}
		kl := line(kv.Key)
		bad := func(format string, args ...any) {
			problems = append(problems, &Problem{File: file, Line: kl, Tool: tool.Clip(name, 64), Err: fmt.Errorf("rollouts: "+format, args...)})
		}
		if _, dup := out[name]; dup {
			bad("the tool is listed twice")
			continue
		}
		var raw map[string]any
		if kv.Value == nil {
			bad(`weights must map versions to whole numbers, like {"1": 80, "2": 20}`)
			continue
		}
		if err := yaml.NodeToValue(kv.Value, &raw); err != nil || raw == nil {
			bad(`weights must map versions to whole numbers, like {"1": 80, "2": 20}`)
			continue
		}
		vs, known := versions[name]
		if !known {
			bad("no tool of that name is defined in this file, nor a chain")
			continue
		}
		if len(vs) < 2 {
			if vs[0] == 0 {
				bad("the chain is not versioned; a rollout needs several versions (version: on each definition)")
			} else {
				bad("the tool has only version %d; a rollout needs several versions", vs[0])
			}
			continue
		}
		r, errs := rolloutWeights(raw, vs)
		for _, e := range errs {
			bad("%v", e)
		}
		if len(errs) == 0 {
			out[name] = r
		}
	}
	return out, problems
}

// rolloutWeights checks one tool's weights against its versions.
func rolloutWeights(raw map[string]any, versions []int) (Rollout, []error) {
	var errs []error
	r := Rollout{}
	sum := 0
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, err := strconv.Atoi(k)
		if err != nil || v < 1 || strconv.Itoa(v) != k {
			errs = append(errs, fmt.Errorf("version %q must be a whole number from 1", tool.Clip(k, 40)))
			continue
		}
		if !slices.Contains(versions, v) {
			errs = append(errs, fmt.Errorf("version %d is not defined (the tool has versions %v)", v, versions))
			continue
		}
		w, ok := wholeNumber(raw[k])
		if !ok || w < 0 || w > RolloutTotal {
			errs = append(errs, fmt.Errorf("weight of version %d must be a whole number from 0 to %d", v, RolloutTotal))
			continue
		}
		r[v] = w
		sum += w
	}
	if len(errs) == 0 && sum != RolloutTotal {
		errs = append(errs, fmt.Errorf("the weights sum to %d, not %d", sum, RolloutTotal))
	}
	return r, errs
}

// wholeNumber reads a YAML scalar decoded as any: an integer of any width.
func wholeNumber(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), n == int64(int(n))
	case uint64:
		return int(n), n <= RolloutTotal
	}
	return 0, false
}

// names tracks the names, versions and aliases of a file's tools: a name
// may be defined once per version, and its versions may share aliases; a
// name or alias of one tool is never another tool's.
type names struct {
	versions map[string]map[int]int // name -> version -> line
	aliasOf  map[string]string      // alias -> name
	aliasAt  map[string]int         // alias -> line of first use
}

func (n *names) add(file string, d Def) []error {
	if n.versions == nil {
		n.versions, n.aliasOf, n.aliasAt = map[string]map[int]int{}, map[string]string{}, map[string]int{}
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, &Problem{File: file, Line: d.Line, Tool: d.Name, Err: fmt.Errorf(format, args...)})
	}
	if owner, ok := n.aliasOf[d.Name]; ok {
		bad("name %q is already used at line %d as an alias of %s", d.Name, n.aliasAt[d.Name], owner)
	}
	if at, ok := n.versions[d.Name][d.Version]; ok {
		bad("version %d of %s is already defined at line %d (give each version of a tool its own version:)", d.Version, d.Name, at)
	}
	for _, a := range d.Aliases {
		if vs, ok := n.versions[a]; ok {
			for _, at := range vs {
				bad("alias %q is already used at line %d as a tool name", a, at)
				break
			}
		}
		if owner, ok := n.aliasOf[a]; ok && owner != d.Name {
			bad("alias %q is already used at line %d by %s", a, n.aliasAt[a], owner)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if n.versions[d.Name] == nil {
		n.versions[d.Name] = map[int]int{}
	}
	n.versions[d.Name][d.Version] = d.Line
	for _, a := range d.Aliases {
		if _, ok := n.aliasOf[a]; !ok {
			n.aliasOf[a], n.aliasAt[a] = d.Name, d.Line
		}
	}
	return nil
}
