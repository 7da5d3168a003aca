package toolsfile

import (
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// heading is what a tool and a chain of a tools file share, as written:
// who it is, and how the model and players see it.
type heading struct {
	Name, Description, Category, LLMInstruction string
	Aliases                                     []string
	DisplayName                                 any
	Version                                     *int
}

// checkedHeading is a heading after checkHeading.
type checkedHeading struct {
	Name, Description, LLMInstruction string
	Category                          tool.Category
	Aliases                           []string
	DisplayNames                      tool.DisplayNames
	// Version is version: (0 when absent); Versioned says it was given.
	Version   int
	Versioned bool
}

// checkHeading checks the fields tools and chains share, the same way for
// both: kind ("tool", "chain") names the definition in messages, category
// is the default category, and bad receives each problem.
func checkHeading(h heading, kind string, category tool.Category, bad func(format string, args ...any)) checkedHeading {
	c := checkedHeading{
		Name: h.Name, Description: strings.TrimSpace(h.Description), Category: tool.Category(h.Category),
		LLMInstruction: strings.TrimSpace(h.LLMInstruction), Aliases: h.Aliases,
	}
	if !namePattern.MatchString(c.Name) {
		bad("name %q must match %s", tool.Clip(c.Name, 80), namePattern)
	}
	if h.Version != nil {
		c.Version, c.Versioned = *h.Version, true
		if c.Version < 1 {
			bad("version %d must be 1 or more", c.Version)
		}
	}
	if c.Description == "" || len(c.Description) > maxDescription {
		bad("description is required, up to %d bytes", maxDescription)
	}
	switch c.Category {
	case "":
		c.Category = category
	case tool.CategoryGCS, tool.CategoryCache, tool.CategoryRAG, tool.CategoryCustom:
	default:
		bad("category %q is not one of gcs, cache, rag, custom", tool.Clip(h.Category, 40))
	}
	if len(c.LLMInstruction) > maxDescription {
		bad("llm_instruction is over %d bytes", maxDescription)
	}
	if len(c.Aliases) > maxAliases {
		bad("%d aliases, over the limit of %d", len(c.Aliases), maxAliases)
	}
	for _, a := range c.Aliases {
		if !namePattern.MatchString(a) {
			bad("alias %q must match %s", tool.Clip(a, 80), namePattern)
		}
		if a == c.Name {
			bad("alias %q repeats the %s's name", a, kind)
		}
	}
	names, err := displayNames(h.DisplayName)
	if err != nil {
		bad("display_name: %v", err)
	}
	c.DisplayNames = names
	return c
}
