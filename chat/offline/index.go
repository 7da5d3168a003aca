package offline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/gameassist/gameassist/tool"
)

// Kind is the kind of a game entity the responder recognises in messages.
type Kind string

// The entity kinds, each indexed from one cache list tool.
const (
	KindChampion Kind = "champion"
	KindBoss     Kind = "boss"
	KindFaction  Kind = "faction"
	KindDungeon  Kind = "dungeon"
	KindGearSet  Kind = "gear_set"
)

// Entity is a named game entity found in a message.
type Entity struct {
	Kind Kind   `json:"kind"`
	ID   string `json:"id"`
	Name string `json:"name"`
	// Names are the entity's display names by locale, when they differ
	// from Name.
	Names map[string]string `json:"names,omitempty"`
}

// Display is the entity's name in locale, Name when it has none there.
func (e Entity) Display(locale string) string {
	if n := e.Names[locale]; n != "" {
		return n
	}
	return e.Name
}

// listSource names the cache tool that lists one kind of entity.
type listSource struct {
	kind Kind
	tool string
}

func listSources() []listSource {
	return []listSource{
		{KindChampion, "cache_get_champions_list"},
		{KindBoss, "cache_get_bosses_list"},
		{KindFaction, "cache_get_factions_list"},
		{KindDungeon, "cache_get_dungeons_list"},
		{KindGearSet, "cache_get_gear_sets_list"},
	}
}

// listItem is one element of a list tool's data.
type listItem struct {
	id    string
	name  string
	names map[string]string // localized display names by locale
}

// parseList finds, in a list tool's data, the array of objects that carry
// both an id and a name, whatever the field is called, the data's
// last_updated stamp and its next_offset (0 when absent).
func parseList(data json.RawMessage) ([]listItem, string, int, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, "", 0, fmt.Errorf("empty data")
	}
	if data[0] == '[' {
		items, ok := itemsOf(data)
		if !ok {
			return nil, "", 0, fmt.Errorf("array without id and name")
		}
		return items, "", 0, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, "", 0, fmt.Errorf("data is not an object: %w", err)
	}
	stamp := ""
	if raw, ok := obj["last_updated"]; ok {
		stamp = string(raw)
	}
	next := 0
	if raw, ok := obj["next_offset"]; ok {
		_ = json.Unmarshal(raw, &next)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if items, ok := itemsOf(obj[k]); ok {
			return items, stamp, next, nil
		}
	}
	return nil, stamp, 0, fmt.Errorf("no array of objects with id and name")
}

func itemsOf(raw json.RawMessage) ([]listItem, bool) {
	var arr []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &arr); err != nil || len(arr) == 0 {
		return nil, false
	}
	var out []listItem
	for _, o := range arr {
		idRaw, hasID := o["id"]
		var name string
		if err := json.Unmarshal(o["name"], &name); !hasID || err != nil || strings.TrimSpace(name) == "" {
			continue
		}
		id := strings.Trim(string(bytes.TrimSpace(idRaw)), `"`)
		it := listItem{id: id, name: name}
		var names map[string]string
		if err := json.Unmarshal(o["names"], &names); err == nil {
			it.names = names
		}
		out = append(out, it)
	}
	return out, len(out) > 0
}

// listPage is the page size asked of list tools that page.
const listPage = 200

// maxListPages bounds the pages read from one list tool.
const maxListPages = 100

// fetchList runs one list tool through the executor, following next_offset
// when the tool pages. A page cut to size by the executor would hide
// entities, so such a page is asked of the tool directly.
func fetchList(ctx context.Context, exec Executor, name string) ([]listItem, string, error) {
	paged := false
	if spec, ok := exec.Registry().Spec(name); ok {
		paged = bytes.Contains(spec.Parameters, []byte(`"limit"`)) && bytes.Contains(spec.Parameters, []byte(`"offset"`))
	}
	var all []listItem
	stamp := ""
	offset := 0
	for page := 0; page < maxListPages; page++ {
		args := json.RawMessage(`{}`)
		if paged {
			args = json.RawMessage(fmt.Sprintf(`{"limit":%d,"offset":%d}`, listPage, offset))
		}
		r := exec.Execute(ctx, tool.Call{Name: name, Arguments: args})
		if !r.OK() {
			return nil, "", fmt.Errorf("%s: %s (%s)", name, r.Message, r.ErrorDetails)
		}
		raw, err := dataJSON(r.Data)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", name, err)
		}
		if r.InternalInfo.Truncated {
			if full, err := callDirect(ctx, exec.Registry(), name, args); err == nil {
				raw = full
			}
		}
		items, st, next, err := parseList(raw)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", name, err)
		}
		all = append(all, items...)
		if page == 0 {
			stamp = st
		}
		if !paged || next <= offset || len(items) == 0 {
			break
		}
		offset = next
	}
	return all, stamp, nil
}

// callDirect calls a registered tool without the executor's size limit,
// guarding against a panic.
func callDirect(ctx context.Context, reg *tool.Registry, name string, args json.RawMessage) (raw json.RawMessage, err error) {
	if reg == nil {
		return nil, fmt.Errorf("no registry")
	}
	t, ok := reg.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown tool %s", name)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("tool %s panicked", name)
		}
	}()
	r, err := t.Call(ctx, args)
	if err != nil {
		return nil, err
	}
	if r.Status == tool.StatusError {
		return nil, fmt.Errorf("%s", r.Message)
	}
	return dataJSON(r.Data)
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

// nameTokens splits a display name into matchable tokens, dropping a
// leading article so "The Fire Knight" also matches "fire knight".
func nameTokens(name string) []string {
	toks := tokens(name)
	if len(toks) > 1 && (toks[0] == "the" || toks[0] == "le" || toks[0] == "la" || toks[0] == "der" || toks[0] == "die") {
		toks = toks[1:]
	}
	return toks
}

// tokens lowercases s, drops accents and splits it into words; a
// possessive 's is dropped and apostrophes inside words are removed, so
// "Ka'zul's" is "kazul" and "Éloïse" is "eloise".
func tokens(s string) []string {
	fields := strings.FieldsFunc(foldAccents(strings.ToLower(s)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
	out := fields[:0]
	for _, f := range fields {
		f = strings.TrimSuffix(strings.TrimSuffix(f, "'s"), "’s")
		f = strings.NewReplacer("'", "", "’", "").Replace(f)
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// foldAccents removes combining marks after canonical decomposition, so
// players who type without accents still match accented names.
func foldAccents(s string) string {
	d := norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
