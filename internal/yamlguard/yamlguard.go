// Package yamlguard checks YAML text for nesting and alias bombs before a
// decoder sees it. It parses with go.yaml.in/yaml/v3 into nodes, which
// keeps each alias as one node pointing at its anchor (nothing is
// expanded), then measures the tree: its depth and how many nodes the
// aliases would add once expanded, both with the aliases followed.
// The parse itself refuses nesting past 10,000 levels; the check then
// refuses anything past the caller's much lower bounds, so a tools file
// or a scenario of a few hundred bytes cannot make its decoder allocate
// gigabytes.
package yamlguard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Limits bound a YAML text.
type Limits struct {
	// MaxDepth bounds the nesting of mappings and sequences, counting
	// what aliases reach.
	MaxDepth int
	// MaxAliasNodes bounds how many nodes alias expansion adds to the
	// documents.
	MaxAliasNodes int
}

// Default is the bound for configuration files: deeper than any real
// tools file or scenario, far below what hurts.
var Default = Limits{MaxDepth: 64, MaxAliasNodes: 100_000}

// ErrBomb is wrapped by an Error for text over the limits.
var ErrBomb = errors.New("yaml over the nesting or alias limits")

// Error is a refusal with the line it points at (0 when unknown); its
// text leaves the line to the caller, which names the file.
type Error struct {
	Line int
	Msg  string
	// Bomb is set when the text is over the limits (rather than not YAML).
	Bomb bool
}

func (e *Error) Error() string { return e.Msg }

// Is reports ErrBomb for a refusal over the limits.
func (e *Error) Is(target error) bool { return target == ErrBomb && e.Bomb }

// Check parses src (every document of it) and refuses it when it is not
// YAML or is over lim. It decodes nothing and expands no alias.
func Check(src []byte, lim Limits) error {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	added := 0
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return parseError(err)
		}
		m := measurer{lim: lim, memo: map[*yaml.Node]shape{}}
		s, err := m.measure(&doc, 0)
		if err != nil {
			return err
		}
		added += s.nodes - m.parsed
		if added > lim.MaxAliasNodes {
			return &Error{Line: doc.Line, Msg: fmt.Sprintf("aliases expand to over %d nodes", lim.MaxAliasNodes), Bomb: true}
		}
	}
}

// shape is what a node amounts to once its aliases are expanded.
type shape struct {
	nodes int // nodes, saturating past the limit
	depth int // levels of mappings and sequences below and including it
}

type measurer struct {
	lim    Limits
	memo   map[*yaml.Node]shape
	parsed int // nodes of the text itself
	active []*yaml.Node
}

// measure returns n's expanded shape; at is n's depth in the expansion.
func (m *measurer) measure(n *yaml.Node, at int) (shape, error) {
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return shape{}, &Error{Line: n.Line, Msg: "alias to no anchor"}
		}
		for _, a := range m.active {
			if a == n.Alias {
				return shape{}, &Error{Line: n.Line, Msg: fmt.Sprintf("alias *%s refers to itself", n.Value), Bomb: true}
			}
		}
		m.parsed++ // the alias node itself
		s, err := m.expand(n.Alias, at)
		if err != nil {
			return shape{}, err
		}
		return s, nil
	}
	m.parsed++
	container := n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode
	below := at
	if container {
		below++
		if below > m.lim.MaxDepth {
			return shape{}, &Error{Line: n.Line, Msg: fmt.Sprintf("nested over %d levels deep", m.lim.MaxDepth), Bomb: true}
		}
	}
	m.active = append(m.active, n)
	defer func() { m.active = m.active[:len(m.active)-1] }()
	s := shape{nodes: 1}
	for _, c := range n.Content {
		cs, err := m.measure(c, below)
		if err != nil {
			return shape{}, err
		}
		s.nodes = min(s.nodes+cs.nodes, m.lim.MaxAliasNodes+m.parsed+1)
		s.depth = max(s.depth, cs.depth)
		if s.nodes-m.parsed > m.lim.MaxAliasNodes {
			return shape{}, &Error{Line: c.Line, Msg: fmt.Sprintf("aliases expand to over %d nodes", m.lim.MaxAliasNodes), Bomb: true}
		}
	}
	if container {
		s.depth++
	}
	m.memo[n] = s
	return s, nil
}

// expand is an alias's target as the alias sees it: measured once (the
// anchor was measured where it stands), then counted again in full at
// every alias, its depth added to the alias's own.
func (m *measurer) expand(target *yaml.Node, at int) (shape, error) {
	s, ok := m.memo[target]
	if !ok {
		return shape{}, &Error{Line: target.Line, Msg: "alias before its anchor"}
	}
	if at+s.depth > m.lim.MaxDepth {
		return shape{}, &Error{Line: target.Line, Msg: fmt.Sprintf("aliases nest over %d levels deep", m.lim.MaxDepth), Bomb: true}
	}
	return s, nil
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// parseError turns a yaml.v3 error into an Error with its line.
func parseError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimSpace(strings.ReplaceAll(msg, "\n", "; "))
	e := &Error{Msg: msg, Bomb: strings.Contains(msg, "exceeded max depth") || strings.Contains(msg, "excessive aliasing")}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = strings.TrimSpace(strings.TrimPrefix(msg[strings.Index(msg, m[0])+len(m[0]):], ":"))
	}
	return e
}
