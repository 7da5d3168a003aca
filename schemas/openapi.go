package schemas

import _ "embed" // for the OpenAPI document

// openAPI is a string so that the embedded document cannot be modified.
//
//go:embed openapi.json
var openAPI string

// OpenAPI returns the OpenAPI 3.1 document of the HTTP API (served at
// GET /openapi.json and used by the HTTP tests to validate every exchange).
// Each call returns a fresh copy, so a caller may modify it freely.
func OpenAPI() []byte {
	return []byte(openAPI)
}
