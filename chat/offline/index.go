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
)

// Entity is a named game entity found in a message.
type Entity struct {
	Kind Kind   `json:"kind"`
	ID   string `json:"id"`
	Name string `json:"name"`
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
	}
}

// indexed is one searchable name of an entity.
type indexed struct {
	ent    Entity
	tokens []string
	runes  int
}

// index holds every searchable name, longest first.
type index struct {
	names []indexed
	kinds map[Kind][]Entity
}

func newIndex(lists map[Kind][]listItem) *index {
	idx := &index{kinds: map[Kind][]Entity{}}
	for _, src := range listSources() {
		for _, it := range lists[src.kind] {
			ent := Entity{Kind: src.kind, ID: it.id, Name: it.name}
			idx.kinds[src.kind] = append(idx.kinds[src.kind], ent)
			seen := map[string]bool{}
			for _, n := range append([]string{it.name}, it.alt...) {
				toks := nameTokens(n)
				key := strings.Join(toks, " ")
				if len(toks) == 0 || seen[key] {
					continue
				}
				seen[key] = true
				idx.names = append(idx.names, indexed{ent: ent, tokens: toks, runes: len([]rune(key))})
			}
		}
	}
	sort.SliceStable(idx.names, func(i, j int) bool { return len(idx.names[i].tokens) > len(idx.names[j].tokens) })
	return idx
}

// listItem is one element of a list tool's data.
type listItem struct {
	id   string
	name string
	alt  []string // localized display names
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
			locs := make([]string, 0, len(names))
			for l := range names {
				locs = append(locs, l)
			}
			sort.Strings(locs)
			for _, l := range locs {
				it.alt = append(it.alt, names[l])
			}
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

// tolerance is how many edits a name of n runes may differ by and still
// match: none for short names, which collide with ordinary words.
func tolerance(n int) int {
	switch {
	case n < 5:
		return 0
	case n < 9:
		return 1
	default:
		return 2
	}
}

// commonWords never match a name fuzzily (they still match exactly).
func isCommonWord(w string) bool {
	switch w {
	case "the", "this", "that", "there", "their", "these", "those", "what", "which", "where", "when", "about",
		"tell", "show", "stats", "story", "lore", "good", "best", "better", "against", "counter", "counters",
		"compare", "versus", "screen", "help", "should", "could", "would", "shake", "shade", "stone", "night",
		"light", "knight", "fire", "dark", "with", "from", "have", "does", "some", "more", "than", "skills":
		return true
	}
	return false
}

// match is an entity name found in a message.
type match struct {
	ent        Entity
	start, end int // token span [start, end)
	dist       int
}

// find returns the entities named in toks, in message order, each once.
func (idx *index) find(toks []string) []Entity {
	if idx == nil || len(toks) == 0 {
		return nil
	}
	var cands []match
	for _, n := range idx.names {
		k := len(n.tokens)
		if k > len(toks) {
			continue
		}
		name := strings.Join(n.tokens, " ")
		tol := tolerance(n.runes)
		for i := 0; i+k <= len(toks); i++ {
			win := toks[i : i+k]
			text := strings.Join(win, " ")
			if text == name {
				cands = append(cands, match{n.ent, i, i + k, 0})
				continue
			}
			if tol == 0 || (k == 1 && isCommonWord(text)) {
				continue
			}
			if abs(len([]rune(text))-n.runes) > tol {
				continue
			}
			if d := tool.Levenshtein(text, name); d <= tol {
				cands = append(cands, match{n.ent, i, i + k, d})
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		return cands[i].end-cands[i].start > cands[j].end-cands[j].start
	})
	used := make([]bool, len(toks))
	var picked []match
	seen := map[Entity]bool{}
	for _, c := range cands {
		free := true
		for i := c.start; i < c.end; i++ {
			if used[i] {
				free = false
				break
			}
		}
		if !free || seen[c.ent] {
			continue
		}
		for i := c.start; i < c.end; i++ {
			used[i] = true
		}
		seen[c.ent] = true
		picked = append(picked, c)
	}
	sort.Slice(picked, func(i, j int) bool { return picked[i].start < picked[j].start })
	out := make([]Entity, len(picked))
	for i, p := range picked {
		out[i] = p.ent
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
