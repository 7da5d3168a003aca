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

// decodeJSON checks content type, UTF-8 and depth, then decodes strictly
// (unknown fields refused) into v.
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
