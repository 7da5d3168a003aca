package gamedata

import (
	"bytes"
	"encoding/json"
)

// EncodeJSON is the canonical encoding of the committed data files
// (game.json, rag_eval.json): two-space indented, HTML characters not
// escaped, map keys sorted, one trailing newline. Generator and tests share
// it so committed files can be compared byte for byte.
func EncodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
