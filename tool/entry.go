package tool

import "encoding/json"

// Entry is a tool as catalogues list it (the admin tool list, the MCP tools
// resource): one view of a Spec, so both show the same fields the same way.
type Entry struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Category    Category `json:"category"`
	// Aliases is never null: a tool without aliases lists [].
	Aliases []string `json:"aliases"`
	// Parameters is the JSON Schema of the arguments; a tool without one
	// lists {"type":"object"}.
	Parameters    json.RawMessage `json:"parameters"`
	CacheDuration int             `json:"cache_duration"`
}

// Entry returns the catalogue view of s.
func (s Spec) Entry() Entry {
	params := s.Parameters
	if len(params) == 0 {
		params = json.RawMessage(`{"type":"object"}`)
	}
	aliases := s.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return Entry{
		Name: s.Name, Description: s.Description, Category: s.Category,
		Aliases: aliases, Parameters: params, CacheDuration: s.CacheDuration,
	}
}
