package chat

import (
	"slices"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// catalogHeader opens the tool catalog at the end of the system prompt
// (TOOL_SELECTION=auto): the tools called through use_tool, one line
// each.
const catalogHeader = "## Tools to call through use_tool\nname(arguments; ? optional, x|y allowed values, given once per name): what it does\n"

// catalogCacheSize bounds the catalogs a Service remembers (one per set
// of tool versions in use).
const catalogCacheSize = 64

// catalog is a session's tool catalog: the text the system prompt ends
// with, and the tools it lists (by describedID).
type catalog struct {
	text   string
	listed map[string]bool
}

// catalog returns the catalog of specs within the Service's
// ToolCatalogBytes (see catalogOf), from memory when the same tools (and
// versions) were listed before.
func (s *Service) catalog(specs []tool.Spec) catalog {
	if s.opts.ToolCatalogBytes <= 0 || len(specs) == 0 {
		return catalog{}
	}
	ids := make([]string, len(specs))
	for i, sp := range specs {
		ids[i] = describedID(sp)
	}
	key := strings.Join(ids, ",")
	if c, ok := s.cat.Get(key); ok {
		return c
	}
	c := catalogOf(specs, s.opts.ToolCatalogBytes)
	s.cat.Put(key, c)
	return c
}

// catalogOf lists specs by name, one line each (see catalogLine), as long
// as the catalog stays within maxBytes; the tools left out are described
// in a turn's data block when the turn selects them, as without a
// catalog.
func catalogOf(specs []tool.Spec, maxBytes int) catalog {
	sorted := slices.Clone(specs)
	slices.SortFunc(sorted, func(a, b tool.Spec) int { return strings.Compare(a.Name, b.Name) })
	var b strings.Builder
	b.WriteString(catalogHeader)
	c := catalog{listed: map[string]bool{}}
	enums := map[string]string{}
	for _, sp := range sorted {
		line := catalogLine(sp, enums)
		if b.Len()+len(line) > maxBytes {
			continue
		}
		b.WriteString(line)
		c.listed[describedID(sp)] = true
	}
	if len(c.listed) > 0 {
		c.text = b.String()
	}
	return c
}

// catalogLine is one tool of the catalog: its name, its arguments as a
// signature (see signature) and the first sentence of its description.
//
//   - gcs_recommend_gear(champion_name, owned_only?: bool): Gear sets that suit one champion.
//
// enums holds the values or type written for each argument name so far;
// an argument of that name with the same is written without them.
func catalogLine(sp tool.Spec, enums map[string]string) string {
	return "- " + sp.Name + "(" + signature(sp.Parameters, enums) + "): " + firstSentence(oneLine(sp.Description)) + "\n"
}

// signature is a tool's arguments in one line, in the schema's order:
// each name, "?" when it is optional, then the allowed values of an enum
// or the type when it is not a string (int, number, bool, array,
// object). Bounds, defaults and descriptions are left out: a call that
// breaks them gets an error naming the rule, and find_tools gives the
// whole schema. A schema that is not an object of properties reads
// "see find_tools". What enums holds for the argument's name (its values
// or type as written before) is not written again; anything new for a
// name is added to enums.
func signature(raw []byte, enums map[string]string) string {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return ""
	}
	v, err := parseOrdered(raw)
	if err != nil || v.kind != 'o' {
		return "see find_tools"
	}
	props := v.field("properties")
	if props == nil {
		return ""
	}
	if props.kind != 'o' {
		return "see find_tools"
	}
	var required []string
	if r := v.field("required"); r != nil {
		for _, x := range r.vals {
			required = append(required, x.text())
		}
	}
	parts := make([]string, 0, len(props.keys))
	for i, name := range props.keys {
		arg := name
		if !slices.Contains(required, name) {
			arg += "?"
		}
		switch t := argType(props.vals[i]); {
		case t == "" || enums[name] == t:
		case enums[name] == "":
			enums[name] = t
			arg += ": " + t
		default:
			arg += ": " + t
		}
		parts = append(parts, arg)
	}
	return strings.Join(parts, ", ")
}

// argType is what signature writes after an argument's name: an enum's
// values joined by "|", or a type other than string in short.
func argType(p *jsonValue) string {
	if p.kind != 'o' {
		return ""
	}
	if e := p.field("enum"); e != nil {
		opts := make([]string, 0, len(e.vals))
		for _, o := range e.vals {
			opts = append(opts, o.text())
		}
		return strings.Join(opts, "|")
	}
	t := p.field("type")
	if t == nil {
		return ""
	}
	switch typ := t.text(); typ {
	case "string":
		return ""
	case "integer":
		return "int"
	case "boolean":
		return "bool"
	default:
		return typ
	}
}
