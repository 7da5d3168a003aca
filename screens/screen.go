package screens

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Limits of screen data sent by the game client or server.
const (
	// MaxScreenDataSize caps the screen data JSON in bytes.
	MaxScreenDataSize = 64 << 10
	// MaxScreenDepth caps the nesting of the screen data; the top-level
	// object is depth 1.
	MaxScreenDepth = 32
	// MaxScreenNameLen caps a screen name in bytes.
	MaxScreenNameLen = 256
)

// ErrBadScreen marks screen input the engine refuses (not an object, too
// large, too deep, a bad name), so the HTTP layer can answer 400.
var ErrBadScreen = errors.New("screens: bad screen")

// Screen is what the game says the player is looking at: a screen name and
// that screen's data object.
type Screen struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data"`
}

// Hash identifies a screen by content (sha256 hex of the name and the
// canonical data JSON, keys sorted), so a caller can tell the same screen
// sent again from a change. Data that does not decode is hashed as sent.
func (s Screen) Hash() string {
	h := sha256.New()
	h.Write([]byte(s.Name))
	h.Write([]byte{0})
	if v, err := decodeData(s.Data); err == nil {
		b, err := json.Marshal(v)
		if err == nil {
			h.Write(b)
			return hex.EncodeToString(h.Sum(nil))
		}
	}
	h.Write(s.Data)
	return hex.EncodeToString(h.Sum(nil))
}

// Validate checks the screen against the input limits (name, size, depth,
// an object as data) without planning it, so a caller can refuse bad input
// before it changes anything. Its errors wrap ErrBadScreen.
func (s Screen) Validate() error {
	if err := checkName(s.Name); err != nil {
		return err
	}
	_, err := decodeData(s.Data)
	return err
}

// checkName refuses empty, oversized or non-printable screen names.
func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: name is empty", ErrBadScreen)
	}
	if len(name) > MaxScreenNameLen {
		return fmt.Errorf("%w: name is longer than %d bytes", ErrBadScreen, MaxScreenNameLen)
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("%w: name is not valid UTF-8", ErrBadScreen)
	}
	for _, c := range name {
		if unsafeRune(c) {
			return fmt.Errorf("%w: name contains the control or invisible character %U", ErrBadScreen, c)
		}
	}
	return nil
}

// decodeData decodes screen data into maps, slices, json.Number, string, bool
// and nil, enforcing the size and depth limits. Absent data or null is an
// empty object; anything else that is not an object is refused.
func decodeData(raw json.RawMessage) (map[string]any, error) {
	if len(raw) > MaxScreenDataSize {
		return nil, fmt.Errorf("%w: data is %d bytes, over the limit of %d", ErrBadScreen, len(raw), MaxScreenDataSize)
	}
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return map[string]any{}, nil
	}
	if t[0] != '{' {
		return nil, fmt.Errorf("%w: data must be a JSON object", ErrBadScreen)
	}
	if d := depth(t); d > MaxScreenDepth {
		return nil, fmt.Errorf("%w: data nests deeper than %d levels", ErrBadScreen, MaxScreenDepth)
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: data: %w", ErrBadScreen, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: data: unexpected content after the object", ErrBadScreen)
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// depth returns the deepest nesting of objects and arrays in JSON text,
// without decoding it; it stops counting once past the limit.
func depth(b []byte) int {
	d, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			d++
			if d > deepest {
				deepest = d
				if deepest > MaxScreenDepth {
					return deepest
				}
			}
		case '}', ']':
			d--
		}
	}
	return deepest
}
