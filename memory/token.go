package memory

import (
	"bytes"
	"crypto/md5" //nolint:gosec // md5 names cache entries (docs/architecture.md, "Session tool cache"); it guards nothing.
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// NewToken returns a fresh session token for the client and the hash the
// server keeps, so a Redis dump never holds a usable token.
func NewToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("memory: new token: %w", err)
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashToken(token), nil
}

// HashToken is the stored form of a session token (hex SHA-256), used to
// check a presented token against Meta.TokenHash.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CacheKey names a tool result in a session's cache, so the same call with
// the same arguments hits the cache however the LLM spelled the JSON: it is
// the md5 hex of toolName + ":" + the canonical JSON of params (object keys
// sorted at every depth, whitespace removed, numbers kept as written).
// Empty or null params count as {}.
func CacheKey(toolName string, params json.RawMessage) (string, error) {
	canon, err := canonicalJSON(params)
	if err != nil {
		return "", fmt.Errorf("memory: cache key %s: %w", toolName, err)
	}
	sum := md5.Sum(append([]byte(toolName+":"), canon...)) //nolint:gosec // see import
	return hex.EncodeToString(sum[:]), nil
}

// canonicalJSON re-encodes raw with sorted keys and no insignificant
// whitespace; numbers keep their literal text.
func canonicalJSON(raw json.RawMessage) ([]byte, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return []byte("{}"), nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("parameters are not valid JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("parameters hold data after the JSON value")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// encoding/json writes map keys sorted, at every depth.
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("re-encode parameters: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
