package memory

import (
	"bytes"
	"crypto/md5" //nolint:gosec // md5 names cache entries; it guards nothing.
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// The session tool cache keeps tool results a session's later turns reuse.
// Its rules all live in this file:
//
//   - Key. A call is keyed by CallKey: the md5 hex of the tool's canonical
//     name, with "@v" and the version for the session's version of a tool
//     that has several (a result of one version is never served to a session
//     on another), and the canonical JSON of the arguments, so the same call
//     hits however the model spelled the JSON.
//   - What is cached. A successful result, for the exchanges its
//     llm_cache_duration says (the tool's default unless the tool set one;
//     error results carry 0); a screen rule's proactive result for at least
//     one exchange, as the next turn is what it was fetched for
//     (EntryDuration). Nothing is read or written while the game data
//     version cannot be read.
//   - Expiry by exchange. An entry cached at exchange C for D exchanges is
//     served at exchanges C through C+D (Live) and dropped by the first turn
//     that begins past C+D: the store scores each key with ExpiresAfter and
//     BeginTurn and LockAndBegin remove the lower scores.
//   - Scope. An entry belongs to one session (its keys share the session's
//     hash tag) and is served only while the game data version it was
//     computed from is current (Serves). Within one turn a repeated call is
//     answered once, by the turn's scope in package chat.

// CacheEntry is one cached tool result. It is served, and stays in the LLM's
// context, from exchange CachedAt through CachedAt+Duration.
type CacheEntry struct {
	Key  string `json:"key"`
	Tool string `json:"tool"`
	// Version is the tool version that computed the result (0: unversioned).
	Version     int             `json:"version,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Result      json.RawMessage `json:"result"` // the tool.Result envelope as JSON
	CachedAt    int             `json:"cached_at_exchange"`
	Duration    int             `json:"duration"`
	DataVersion string          `json:"data_version"`
	Hits        int             `json:"hits"`
}

// ExpiresAfter is the last exchange at which the entry is served.
func (e CacheEntry) ExpiresAfter() int { return e.CachedAt + e.Duration }

// Remaining is how many more exchanges after current the entry is served.
func (e CacheEntry) Remaining(current int) int { return e.ExpiresAfter() - current }

// Live reports whether the entry is served at exchange current.
func (e CacheEntry) Live(current int) bool { return current <= e.ExpiresAfter() }

// Serves reports whether the entry answers a call at exchange current when
// the game data is at dataVersion: live, and computed from that data.
func (e CacheEntry) Serves(current int, dataVersion string) bool {
	return e.Live(current) && e.DataVersion == dataVersion
}

// Size is the entry's size in bytes as the admin view reports it: the
// length of the stored result envelope.
func (e CacheEntry) Size() int { return len(e.Result) }

// EntryDuration is how many exchanges after the current one a successful
// result is cached for, given the llm_cache_duration it carries; proactive
// results (screen rules) stay at least one. 0 or less: not cached.
func EntryDuration(resultDuration int, proactive bool) int {
	if proactive {
		return max(resultDuration, 1)
	}
	return resultDuration
}

// CallKey is the cache key of a call of tool (its canonical name) at
// version (0: a tool with one version) with params: CacheKey of the name,
// "name@v2" for version 2; for params that are not JSON, the md5 of the
// name and the raw text, so a malformed call is still keyed.
func CallKey(tool string, version int, params json.RawMessage) string {
	if version > 0 {
		tool += "@v" + strconv.Itoa(version)
	}
	if k, err := CacheKey(tool, params); err == nil {
		return k
	}
	sum := md5.Sum(append([]byte(tool+":raw:"), params...)) //nolint:gosec // see import
	return hex.EncodeToString(sum[:])
}

// CacheKey names a tool result in a session's cache, so the same call with
// the same arguments hits the cache however the LLM spelled the JSON: it is
// the md5 hex of toolName + ":" + the canonical JSON of params (object keys
// sorted at every depth, whitespace removed, numbers kept as written).
// Empty or null params count as {}. CallKey adds the version suffix and
// keys malformed params too.
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
