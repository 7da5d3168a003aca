package offline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// This file is the one place that reads tool result data. Results are
// decoded into plain maps and read defensively (a missing or differently
// typed field yields a zero value, never a panic), so a tool changing its
// shape degrades an answer instead of breaking it. When package tool grows
// typed results with optional capabilities, only this file changes.

// item is one named thing in a result list: a champion, boss, dungeon...
type item struct {
	id, name string
	names    map[string]string
	obj      map[string]any
}

// decode turns a result's data into plain maps, slices, strings, numbers.
func decode(r tool.Result) any {
	raw, err := dataJSON(r.Data)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return v
}

// entityOf finds the entity object in a details result: the data itself,
// or its single object member with a name (e.g. {"champion": {...}}).
func entityOf(v any) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if _, ok := m["name"]; ok {
		return m
	}
	for _, k := range sortedKeys(m) {
		if sub, ok := m[k].(map[string]any); ok {
			if _, ok := sub["name"]; ok {
				return sub
			}
		}
	}
	return m
}

// itemOf reads an object as an item.
func itemOf(m map[string]any) item {
	it := item{id: scalar(m["id"]), name: scalar(m["name"]), obj: m}
	if it.name == "" {
		it.name = scalar(m["champion_name"])
	}
	if ns, ok := m["names"].(map[string]any); ok {
		it.names = map[string]string{}
		for k, v := range ns {
			if s := scalar(v); s != "" {
				it.names[k] = s
			}
		}
	}
	return it
}

// items lists the named objects of an array (in the tool's order), or of
// the first array member of an object named by prefer.
func items(v any, prefer ...string) []item {
	var out []item
	for _, m := range objectArray(v, prefer...) {
		if it := itemOf(m); it.name != "" {
			out = append(out, it)
		}
	}
	return out
}

// namedList lists a member that is an array of names or named objects.
func namedList(m map[string]any, key string) []item {
	xs, ok := m[key].([]any)
	if !ok {
		return nil
	}
	var out []item
	for _, x := range xs {
		switch e := x.(type) {
		case string:
			out = append(out, item{name: e})
		case map[string]any:
			if it := itemOf(e); it.name != "" {
				out = append(out, it)
			}
		}
	}
	return out
}

// rankOrder sorts items by a "rank" member when every item has one.
func rankOrder(xs []item) []item {
	for _, x := range xs {
		if scalar(x.obj["rank"]) == "" {
			return xs
		}
	}
	out := append([]item(nil), xs...)
	sort.SliceStable(out, func(i, j int) bool { return number(out[i].obj["rank"]) < number(out[j].obj["rank"]) })
	return out
}

// passage is one RAG passage.
type passage struct {
	doc, title, section, text string
}

// passages reads the passages of a RAG result, in the tool's order.
func passages(v any) []passage {
	if s, ok := v.(string); ok {
		return []passage{{text: s}}
	}
	arr := objectArray(v, "passages", "results", "chunks", "documents", "matches", "hits")
	var out []passage
	for _, x := range arr {
		p := passage{doc: scalar(x["document_id"]), title: first(x, "title", "heading", "name"), section: scalar(x["section"])}
		p.text = first(x, "text", "content", "chunk", "snippet", "body", "answer", "summary", "description")
		if p.text != "" {
			out = append(out, p)
		}
	}
	return out
}

// scoredPassage is a passage with its search score.
type scoredPassage struct {
	passage
	score float64
}

// passageScores reads the passages of a RAG result with their scores (0
// when a passage has none).
func passageScores(v any) []scoredPassage {
	arr := objectArray(v, "passages", "results", "chunks", "documents", "matches", "hits")
	var out []scoredPassage
	for _, x := range arr {
		p := passage{doc: scalar(x["document_id"]), title: first(x, "title", "heading", "name"), section: scalar(x["section"])}
		p.text = first(x, "text", "content", "chunk", "snippet", "body", "answer", "summary", "description")
		if p.text != "" {
			out = append(out, scoredPassage{passage: p, score: max(number(x["score"]), 0)})
		}
	}
	return out
}

// first returns the first non-empty scalar among keys of m.
func first(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s := scalar(m[k]); s != "" {
			return s
		}
	}
	return ""
}

// objectArray returns the first array of objects in v: v itself, or a
// member named by prefer, or any member.
func objectArray(v any, prefer ...string) []map[string]any {
	toObjs := func(x any) []map[string]any {
		xs, ok := x.([]any)
		if !ok || len(xs) == 0 {
			return nil
		}
		var out []map[string]any
		for _, e := range xs {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	if objs := toObjs(v); objs != nil {
		return objs
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	for _, k := range prefer {
		if objs := toObjs(m[k]); objs != nil {
			return objs
		}
	}
	for _, k := range sortedKeys(m) {
		if objs := toObjs(m[k]); objs != nil {
			return objs
		}
	}
	return nil
}

// stringList lists the strings in an array, with underscores as spaces.
func stringList(v any) []string {
	xs, ok := v.([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, x := range xs {
		if s, ok := x.(string); ok && s != "" {
			out = append(out, strings.ReplaceAll(s, "_", " "))
		}
	}
	return out
}

func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		if x {
			return "yes"
		}
		return "no"
	}
	return ""
}

// number reads a numeric member; -1 when absent or not a number.
func number(v any) float64 {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err == nil {
			return f
		}
	case float64:
		return x
	}
	return -1
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// obj reads a member object.
func obj(m map[string]any, key string) map[string]any {
	o, _ := m[key].(map[string]any)
	return o
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
