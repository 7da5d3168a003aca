package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/go-json-experiment/json/jsontext"
)

// maxJSONDepth bounds nesting of request bodies.
const maxJSONDepth = 32

// readBody reads the whole (size-limited) body.
func readBody(c *gin.Context) ([]byte, error) {
	b, err := io.ReadAll(c.Request.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, err
		}
		return nil, httpErr(http.StatusBadRequest, "bad_body", "could not read the request body", err)
	}
	return b, nil
}

// decodeJSON checks content type, UTF-8, depth and duplicate keys, then
// decodes strictly (unknown fields refused) into v. Every JSON body of the
// API (admin, webhook, chat, sessions) goes through it.
func decodeJSON(c *gin.Context, body []byte, v any) error {
	if ct := c.GetHeader("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return httpErr(http.StatusUnsupportedMediaType, "unsupported_media_type", "Content-Type must be application/json", err)
		}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return httpErr(http.StatusBadRequest, "bad_json", "request body is empty", nil)
	}
	if !utf8.Valid(body) {
		return httpErr(http.StatusBadRequest, "bad_json", "request body is not valid UTF-8", nil)
	}
	if err := checkDepth(body, maxJSONDepth); err != nil {
		return httpErr(http.StatusBadRequest, "bad_json", err.Error(), nil)
	}
	if err := checkDuplicateKeys(body); err != nil {
		return httpErr(http.StatusBadRequest, "bad_json", "malformed JSON body: "+err.Error(), err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return httpErr(http.StatusBadRequest, "bad_json", "malformed JSON body: "+jsonErrorText(err), err)
	}
	if dec.More() {
		return httpErr(http.StatusBadRequest, "bad_json", "malformed JSON body: trailing data after the object", nil)
	}
	return nil
}

func jsonErrorText(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q must be %s", te.Field, te.Type.String())
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("syntax error at offset %d", se.Offset)
	}
	msg := err.Error()
	if len(msg) > 200 {
		msg = msg[:200]
	}
	return msg
}

// checkDepth refuses JSON nested deeper than max, without decoding it.
func checkDepth(b []byte, limit int) error {
	depth := 0
	inString, escaped := false, false
	for _, ch := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				inString = false
			}
		case ch == '"':
			inString = true
		case ch == '{' || ch == '[':
			depth++
			if depth > limit {
				return fmt.Errorf("JSON is nested deeper than %d levels", limit)
			}
		case ch == '}' || ch == ']':
			depth--
		}
	}
	return nil
}

// checkDuplicateKeys refuses a body whose objects repeat a key (encoding/json
// would keep the last, so two readers of one body could disagree), naming
// the key and where it is. Other syntax errors are left to the decoder.
func checkDuplicateKeys(b []byte) error {
	_, err := jsontext.NewDecoder(bytes.NewReader(b)).ReadValue()
	if !errors.Is(err, jsontext.ErrDuplicateName) {
		return nil
	}
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		name := se.JSONPointer.LastToken()
		at := string(se.JSONPointer.Parent())
		if at == "" {
			at = "the top-level object"
		}
		return fmt.Errorf("duplicate key %q in %s", name, at)
	}
	return errors.New("duplicate key")
}
