package offline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/tool"
	toolsrag "github.com/gameassist/gameassist/tools_rag"
)

// This file is where the responder reads tool results. The sample game's
// tools return typed data (gcsdb's entities, toolsgcs' lists and
// comparisons, toolscache's lists, toolsrag's passages); the responder reads
// it as those types and what every result declares through the tool
// package's capabilities (Result.Facts: summary, entities, page). A result
// whose data does not fit its tool's type reads as nothing, never as a
// guess. A studio's file tools are untyped by nature and are read generically
// (filetools.go).

// dataAs returns a result's data as T: the typed value the tool returned
// when the call ran in this process, or its JSON decoded into T when the
// result came back from the session cache.
func dataAs[T any](r tool.Result) (T, bool) {
	var zero T
	if !r.OK() {
		return zero, false
	}
	switch v := r.Value.(type) {
	case T:
		return v, true
	case *T:
		if v != nil {
			return *v, true
		}
	}
	raw, err := dataJSON(r.Data)
	if err != nil || len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return zero, false
	}
	var t T
	if err := json.Unmarshal(raw, &t); err != nil {
		return zero, false
	}
	return t, true
}

// passage is one RAG passage.
type passage = toolsrag.Passage

// passagesOf reads the passages of a RAG result (an entity's document or a
// search), in the tool's order.
func passagesOf(r tool.Result) []passage {
	switch v := r.Value.(type) {
	case toolsrag.EntityPassages:
		return v.Passages
	case toolsrag.SearchPassages:
		return v.Passages
	}
	// From the cache: both kinds hold their passages under the same field.
	sp, ok := dataAs[toolsrag.SearchPassages](r)
	if !ok {
		return nil
	}
	return sp.Passages
}

// textPassages is passagesOf without the passages that hold no text.
func textPassages(r tool.Result) []passage {
	var out []passage
	for _, p := range passagesOf(r) {
		if strings.TrimSpace(p.Text) != "" {
			out = append(out, p)
		}
	}
	return out
}

// factsEntity is the entity a result is about: the first one its data
// declared (tool.Entities), as the executor recorded it.
func factsEntity(r tool.Result) (tool.EntityRef, bool) {
	if !r.OK() {
		return tool.EntityRef{}, false
	}
	es := r.Facts().Entities
	if len(es) == 0 || es[0].ID == 0 || es[0].Name == "" {
		return tool.EntityRef{}, false
	}
	return es[0], true
}

// idString is an entity id as Entity holds it.
func idString(id int64) string {
	if id == 0 {
		return ""
	}
	return strconv.FormatInt(id, 10)
}

// dataJSON returns a result's data as JSON whatever Go value holds it.
func dataJSON(v any) (json.RawMessage, error) {
	switch d := v.(type) {
	case json.RawMessage:
		return d, nil
	case []byte:
		return d, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode data: %w", err)
	}
	return b, nil
}
