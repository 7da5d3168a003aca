// Package schemas embeds the JSON Schemas of every tool's parameters and the
// OpenAPI document of the HTTP API, so the binary carries its own contract.
package schemas

import (
	"embed"
	"encoding/json"
	"fmt"
)

//go:embed tools/*.json
var toolFiles embed.FS

// Tool returns the parameter schema of the named tool, read from
// schemas/tools/<name>.json.
func Tool(name string) (json.RawMessage, error) {
	b, err := toolFiles.ReadFile("tools/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("schemas: tool %s: %w", name, err)
	}
	if !json.Valid(b) {
		return nil, fmt.Errorf("schemas: tool %s: invalid JSON", name)
	}
	return b, nil
}
