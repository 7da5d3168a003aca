package toolsrag

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/schemas"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/tools_rag/chunk"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

// SearchConfig is how one specialised tool searches.
type SearchConfig struct {
	// BaseFilters always apply (usually the document category).
	BaseFilters vectorstore.Filter `json:"base_filters"`
	// RequiredSections of the matched entity's document are returned even
	// when they fall outside the top SimilarityChunks (case-insensitive).
	RequiredSections []string `json:"required_sections,omitempty"`
	// SimilarityChunks is k, the number of chunks taken by similarity.
	SimilarityChunks int `json:"similarity_chunks"`
	// QueryHint is added to an entity's name to rank its chunks.
	QueryHint string `json:"query_hint,omitempty"`
}

// DefaultSearchConfigs returns the search configuration of every
// specialised tool, by tool name.
func DefaultSearchConfigs() map[string]SearchConfig {
	cat := func(c ...string) vectorstore.Filter { return vectorstore.Filter{Categories: c} }
	return map[string]SearchConfig{
		"rag_get_champion_details": {
			BaseFilters: cat("champion"), SimilarityChunks: 6,
			RequiredSections: []string{"Overview", "Biography", "Abilities", "Skills"}, QueryHint: "abilities skills role lore",
		},
		"rag_get_boss_details": {
			BaseFilters: cat("boss"), SimilarityChunks: 6,
			RequiredSections: []string{"Overview", "Mechanics", "Phases", "Strategy", "Weaknesses"}, QueryHint: "mechanics phases strategy weaknesses",
		},
		"rag_get_faction_lore": {
			BaseFilters: cat("faction"), SimilarityChunks: 5,
			RequiredSections: []string{"Overview", "History", "Lore"}, QueryHint: "history lore homeland",
		},
		"rag_get_dungeon_guide": {
			BaseFilters: cat("dungeon"), SimilarityChunks: 6,
			RequiredSections: []string{"Overview", "Strategy", "Guide", "Rewards"}, QueryHint: "guide strategy stages rewards",
		},
		"db_get_ux_details":      {BaseFilters: cat("ux"), SimilarityChunks: 4},
		"db_get_lore_details":    {BaseFilters: cat("champion", "boss", "faction", "dungeon"), SimilarityChunks: 5},
		"rag_search_faq":         {BaseFilters: cat("faq"), SimilarityChunks: 4},
		"rag_get_game_mechanics": {BaseFilters: cat("mechanics"), SimilarityChunks: 5},
		"rag_search_patch_notes": {BaseFilters: cat("patch_notes"), SimilarityChunks: 5},
		"rag_semantic_search":    {SimilarityChunks: 5},
	}
}

// ToolsOptions tunes the RAG tools.
type ToolsOptions struct {
	// Configs overrides DefaultSearchConfigs per tool name.
	Configs map[string]SearchConfig
}

// Passage is one retrieved chunk with its citation.
type Passage struct {
	DocumentID string  `json:"document_id"`
	Title      string  `json:"title"`
	Section    string  `json:"section"`
	Score      float64 `json:"score"`
	Text       string  `json:"text"`
}

const (
	maxPassageChars = 1500
	instruction     = "Answer from these passages only; cite document_id and section for each fact."
)

// NewTools returns the RAG tools over retriever, ready to register.
func NewTools(retriever *Retriever, logger *slog.Logger, opts ToolsOptions) ([]tool.Tool, error) {
	if retriever == nil || logger == nil {
		return nil, errors.New("toolsrag: tools need a retriever and a logger")
	}
	cfgs := DefaultSearchConfigs()
	for name, c := range opts.Configs {
		if _, ok := cfgs[name]; !ok {
			return nil, fmt.Errorf("toolsrag: config for unknown tool %q", name)
		}
		cfgs[name] = c
	}
	base := func(name string, cache int, desc string) (tool.Spec, error) {
		params, err := schemas.Tool(name)
		if err != nil {
			return tool.Spec{}, fmt.Errorf("toolsrag: %w", err)
		}
		return tool.Spec{Name: name, Description: desc, Category: tool.CategoryRAG, Parameters: params, CacheDuration: cache}, nil
	}
	type def struct {
		name, param, kind, desc string
		cache                   int
		entity                  bool
	}
	defs := []def{
		{"rag_get_champion_details", "champion_name", "champion", "Lore, abilities and guide text of one champion, by name.", 0, true},
		{"rag_get_boss_details", "boss_name", "boss", "Lore, phases, mechanics and strategy text of one boss, by name.", 0, true},
		{"rag_get_faction_lore", "faction_name", "faction", "History and lore of one faction, by name.", 0, true},
		{"rag_get_dungeon_guide", "dungeon_name", "dungeon", "Guide to one dungeon or campaign area: stages, strategy, rewards.", 0, true},
		{"db_get_ux_details", "query", "ux", "How a screen or feature of the game's interface works; pass a screen name such as ChampionFeatureModelsPresenter or a question.", 2, false},
		{"db_get_lore_details", "query", "lore", "Search the game's lore (champions, bosses, factions, dungeons) for a person, place or event.", 3, false},
		{"rag_search_faq", "query", "faq", "Search the frequently asked questions.", 0, false},
		{"rag_get_game_mechanics", "topic", "mechanics", "Explain a game mechanic (e.g. speed, turn meter, buffs, affinities).", 0, false},
		{"rag_search_patch_notes", "query", "patch_notes", "Search the patch notes for changes, fixes and balance updates.", 0, false},
	}
	var out []tool.Tool
	for _, d := range defs {
		spec, err := base(d.name, d.cache, d.desc)
		if err != nil {
			return nil, err
		}
		c := cfgs[d.name]
		if d.entity {
			out = append(out, &entityTool{spec: spec, param: d.param, kind: d.kind, cfg: c, r: retriever, log: logger})
		} else {
			out = append(out, &searchTool{spec: spec, param: d.param, kind: d.kind, cfg: c, r: retriever})
		}
	}
	spec, err := base("rag_semantic_search", 0, "Semantic and keyword search over every game document, with optional filters; use when no specialised tool fits.")
	if err != nil {
		return nil, err
	}
	out = append(out, &semanticTool{spec: spec, cfg: cfgs["rag_semantic_search"], r: retriever})
	spec, err = base("rag_list_documents", 0, "List the indexed documents (id, title, category, entity), optionally filtered.")
	if err != nil {
		return nil, err
	}
	out = append(out, &listTool{spec: spec, r: retriever})
	spec, err = base("rag_get_document", 0, "The full text of one document, by document_id (from a citation or rag_list_documents).")
	if err != nil {
		return nil, err
	}
	out = append(out, &documentTool{spec: spec, r: retriever})
	return out, nil
}

func requireText(name, param, v string, maxLen int) (string, tool.Result, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", tool.Failure("Missing "+param+".", param+" is empty", "Call "+name+" with a non-empty "+param+"."), false
	}
	if len(v) > maxLen {
		return "", tool.Failure(param+" is too long.", fmt.Sprintf("%s has %d bytes, limit %d", param, len(v), maxLen),
			"Call "+name+" with a shorter "+param+"."), false
	}
	return v, tool.Result{}, true
}

func passage(c chunk.Chunk, score float64) Passage {
	text := c.Text
	if len(text) > maxPassageChars {
		cut := maxPassageChars
		for cut > 0 && (text[cut]&0xC0) == 0x80 {
			cut--
		}
		text = text[:cut] + "..."
	}
	return Passage{DocumentID: c.DocID, Title: c.Title, Section: c.Section, Score: math.Round(score*1e4) / 1e4, Text: text}
}

func passages(hits []vectorstore.Hit) []Passage {
	out := make([]Passage, len(hits))
	for i, h := range hits {
		out[i] = passage(h.Chunk, h.Score)
	}
	return out
}

// entityTool looks up one named entity's document.
type entityTool struct {
	spec  tool.Spec
	param string
	kind  string
	cfg   SearchConfig
	r     *Retriever
	log   *slog.Logger
}

var _ tool.Tool = (*entityTool)(nil)

// Spec implements tool.Tool.
func (t *entityTool) Spec() tool.Spec { return t.spec }

// Call implements tool.Tool.
func (t *entityTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var in map[string]any
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &in); !ok {
		return r, nil
	}
	raw, _ := in[t.param].(string)
	name, r, ok := requireText(t.spec.Name, t.param, raw, 100)
	if !ok {
		return r, nil
	}
	doc, suggestions, err := t.resolve(ctx, name)
	if err != nil {
		return tool.Result{}, err
	}
	if doc == nil {
		t.log.LogAttrs(ctx, slog.LevelDebug, "rag entity not found", slog.String("tool", t.spec.Name), slog.String("name", name))
		guidance := fmt.Sprintf("Check the spelling of the %s's name.", t.kind)
		if len(suggestions) > 0 {
			guidance = "Did you mean: " + strings.Join(suggestions, ", ") + "? Call " + t.spec.Name + " again with the exact name."
		}
		return tool.Failure(fmt.Sprintf("No %s named %q was found in the documents.", t.kind, name),
			"unknown "+t.kind, guidance+" rag_list_documents lists every documented "+t.kind+"."), nil
	}
	f := t.cfg.BaseFilters
	f.DocID = doc.DocID
	k := max(t.cfg.SimilarityChunks, 1)
	hits, err := t.r.Search(ctx, strings.TrimSpace(doc.Entity+" "+t.cfg.QueryHint), f, k)
	if err != nil {
		return tool.Result{}, err
	}
	scores := map[int]float64{}
	picked := map[int]chunk.Chunk{}
	for _, h := range hits {
		picked[h.Chunk.Index] = h.Chunk
		scores[h.Chunk.Index] = h.Score
	}
	if len(t.cfg.RequiredSections) > 0 {
		all, err := t.r.Chunks(ctx, vectorstore.Filter{DocID: doc.DocID}, 0)
		if err != nil {
			return tool.Result{}, err
		}
		for _, c := range all {
			if slices.ContainsFunc(t.cfg.RequiredSections, func(s string) bool { return strings.EqualFold(s, c.Section) }) {
				picked[c.Index] = c
			}
		}
	}
	idx := make([]int, 0, len(picked))
	for i := range picked {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	ps := make([]Passage, len(idx))
	for i, ci := range idx {
		ps[i] = passage(picked[ci], scores[ci])
	}
	data := map[string]any{
		"entity": doc.Entity, "entity_id": doc.EntityID, "category": doc.Category,
		"document_id": doc.DocID, "title": doc.Title, "passages": ps,
	}
	res := tool.Success(fmt.Sprintf("%d passages about %s.", len(ps), doc.Entity), data)
	res.LLMInstruction = instruction
	return res, nil
}

// resolve finds the document of the named entity: an exact name, title or
// id match, else a unique whole-word partial match; otherwise it returns
// the closest names as suggestions.
func (t *entityTool) resolve(ctx context.Context, name string) (*DocumentInfo, []string, error) {
	docs, err := t.r.Documents(ctx, func(d DocumentInfo) bool {
		return len(t.cfg.BaseFilters.Categories) == 0 || slices.Contains(t.cfg.BaseFilters.Categories, d.Category)
	})
	if err != nil {
		return nil, nil, err
	}
	key := vectorstore.EntityKey(name)
	id, _ := strconv.Atoi(strings.TrimSpace(name))
	var exact, partial []DocumentInfo
	for _, d := range docs {
		ek, tk := vectorstore.EntityKey(d.Entity), vectorstore.EntityKey(d.Title)
		switch {
		case key != "" && (ek == key || tk == key), id > 0 && d.EntityID == id:
			exact = append(exact, d)
		case key != "" && (strings.Contains(" "+ek+" ", " "+key+" ") || strings.Contains(" "+key+" ", " "+ek+" ") && ek != ""):
			partial = append(partial, d)
		}
	}
	if d := t.pick(exact); d != nil {
		return d, nil, nil
	}
	if d := t.pick(partial); d != nil && distinctEntities(partial) == 1 {
		return d, nil, nil
	}
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	seen := map[string]bool{}
	for _, d := range docs {
		if d.Entity == "" || seen[d.Entity] {
			continue
		}
		seen[d.Entity] = true
		cs = append(cs, cand{d.Entity, levenshteinWords(key, vectorstore.EntityKey(d.Entity))})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var sug []string
	for _, c := range cs {
		if len(sug) == 3 || c.d > max(3, len(key)/2) {
			break
		}
		sug = append(sug, c.name)
	}
	return nil, sug, nil
}

// levenshteinWords compares a query with a name and with each word of a
// longer name, so "gorat" is close to "Gorath the Devourer".
func levenshteinWords(q, name string) int {
	d := tool.Levenshtein(q, name)
	if words := strings.Fields(name); len(words) > 1 {
		for _, w := range words {
			if len(w) > 3 {
				d = min(d, tool.Levenshtein(q, w)+1)
			}
		}
	}
	return d
}

// pick prefers the retriever's locale among candidates.
func (t *entityTool) pick(ds []DocumentInfo) *DocumentInfo {
	if len(ds) == 0 {
		return nil
	}
	for i := range ds {
		if ds[i].Locale == t.r.opts.Locale {
			return &ds[i]
		}
	}
	return &ds[0]
}

func distinctEntities(ds []DocumentInfo) int {
	m := map[string]bool{}
	for _, d := range ds {
		m[vectorstore.EntityKey(d.Entity)] = true
	}
	return len(m)
}

// searchTool searches one category (or a few) with a free-text query.
type searchTool struct {
	spec  tool.Spec
	param string
	kind  string
	cfg   SearchConfig
	r     *Retriever
}

var _ tool.Tool = (*searchTool)(nil)

// Spec implements tool.Tool.
func (t *searchTool) Spec() tool.Spec { return t.spec }

// Call implements tool.Tool.
func (t *searchTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var in map[string]any
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &in); !ok {
		return r, nil
	}
	raw, _ := in[t.param].(string)
	q, r, ok := requireText(t.spec.Name, t.param, raw, 500)
	if !ok {
		return r, nil
	}
	hits, err := t.r.Search(ctx, q, t.cfg.BaseFilters, max(t.cfg.SimilarityChunks, 1))
	if err != nil {
		return tool.Result{}, err
	}
	if len(hits) == 0 {
		res := tool.Success(fmt.Sprintf("No %s document matched %q.", strings.ReplaceAll(t.kind, "_", " "), q),
			map[string]any{"query": q, "passages": []Passage{}})
		res.LLMInstruction = "Nothing relevant was found: say so, or try rag_semantic_search with other words."
		return res, nil
	}
	res := tool.Success(fmt.Sprintf("%d passages matched.", len(hits)), map[string]any{"query": q, "passages": passages(hits)})
	res.LLMInstruction = instruction
	return res, nil
}

// filterArgs are the optional filters of the generic tools.
type filterArgs struct {
	Category string `json:"category"`
	Entity   string `json:"entity"`
	Locale   string `json:"locale"`
}

func (f filterArgs) filter() vectorstore.Filter {
	out := vectorstore.Filter{Entity: strings.TrimSpace(f.Entity), Locale: strings.TrimSpace(f.Locale)}
	if c := strings.TrimSpace(f.Category); c != "" {
		out.Categories = []string{c}
	}
	return out
}

// semanticTool is the generic search.
type semanticTool struct {
	spec tool.Spec
	cfg  SearchConfig
	r    *Retriever
}

var _ tool.Tool = (*semanticTool)(nil)

// Spec implements tool.Tool.
func (t *semanticTool) Spec() tool.Spec { return t.spec }

// Call implements tool.Tool.
func (t *semanticTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var in struct {
		Query   string     `json:"query"`
		TopK    *int       `json:"top_k"`
		Filters filterArgs `json:"filters"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &in); !ok {
		return r, nil
	}
	q, r, ok := requireText(t.spec.Name, "query", in.Query, 500)
	if !ok {
		return r, nil
	}
	k := max(t.cfg.SimilarityChunks, 1)
	if in.TopK != nil {
		if *in.TopK < 1 || *in.TopK > 20 {
			return tool.Failure("top_k is out of range.", fmt.Sprintf("top_k is %d", *in.TopK), "Use a top_k from 1 to 20."), nil
		}
		k = *in.TopK
	}
	f := in.Filters.filter()
	base := t.cfg.BaseFilters
	if len(f.Categories) == 0 {
		f.Categories = base.Categories
	}
	hits, err := t.r.Search(ctx, q, f, k)
	if err != nil {
		return tool.Result{}, err
	}
	if len(hits) == 0 {
		return tool.Failure("No document matched.", "no results for the query and filters",
			"Remove filters or use other words; rag_list_documents shows the categories and entities."), nil
	}
	res := tool.Success(fmt.Sprintf("%d passages matched.", len(hits)), map[string]any{"query": q, "passages": passages(hits)})
	res.LLMInstruction = instruction
	return res, nil
}

// listTool lists documents.
type listTool struct {
	spec tool.Spec
	r    *Retriever
}

var _ tool.Tool = (*listTool)(nil)

// Spec implements tool.Tool.
func (t *listTool) Spec() tool.Spec { return t.spec }

// Call implements tool.Tool.
func (t *listTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var in struct {
		Filters filterArgs `json:"filters"`
		Limit   *int       `json:"limit"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &in); !ok {
		return r, nil
	}
	limit := 50
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 200 {
			return tool.Failure("limit is out of range.", fmt.Sprintf("limit is %d", *in.Limit), "Use a limit from 1 to 200."), nil
		}
		limit = *in.Limit
	}
	f := in.Filters.filter()
	ek := vectorstore.EntityKey(f.Entity)
	docs, err := t.r.Documents(ctx, func(d DocumentInfo) bool {
		return (len(f.Categories) == 0 || d.Category == f.Categories[0]) &&
			(f.Locale == "" || d.Locale == f.Locale) &&
			(ek == "" || vectorstore.EntityKey(d.Entity) == ek)
	})
	if err != nil {
		return tool.Result{}, err
	}
	total := len(docs)
	if len(docs) > limit {
		docs = docs[:limit]
	}
	if docs == nil {
		docs = []DocumentInfo{}
	}
	msg := fmt.Sprintf("%d documents.", total)
	if total > limit {
		msg = fmt.Sprintf("%d of %d documents; raise limit or add filters for more.", limit, total)
	}
	return tool.Success(msg, map[string]any{"total": total, "documents": docs}), nil
}

// documentTool returns one document's full text by section.
type documentTool struct {
	spec tool.Spec
	r    *Retriever
}

var _ tool.Tool = (*documentTool)(nil)

// Spec implements tool.Tool.
func (t *documentTool) Spec() tool.Spec { return t.spec }

// Call implements tool.Tool.
func (t *documentTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	var in struct {
		DocumentID string `json:"document_id"`
	}
	if r, ok := tool.DecodeArgs(t.spec.Name, args, &in); !ok {
		return r, nil
	}
	id, r, ok := requireText(t.spec.Name, "document_id", in.DocumentID, 128)
	if !ok {
		return r, nil
	}
	chunks, err := t.r.Chunks(ctx, vectorstore.Filter{DocID: id}, 0)
	if err != nil {
		return tool.Result{}, err
	}
	if len(chunks) == 0 {
		docs, err := t.r.Documents(ctx, nil)
		if err != nil {
			return tool.Result{}, err
		}
		sort.SliceStable(docs, func(i, j int) bool {
			return tool.Levenshtein(id, docs[i].DocID) < tool.Levenshtein(id, docs[j].DocID)
		})
		var sug []string
		for i := 0; i < len(docs) && i < 3; i++ {
			sug = append(sug, docs[i].DocID)
		}
		guidance := "Use rag_list_documents to find document ids."
		if len(sug) > 0 {
			guidance = "Closest ids: " + strings.Join(sug, ", ") + ". " + guidance
		}
		return tool.Failure(fmt.Sprintf("No document with id %q.", id), "unknown document_id", guidance), nil
	}
	type sec struct {
		Section string `json:"section"`
		Text    string `json:"text"`
	}
	var secs []sec
	for _, c := range chunks {
		if n := len(secs); n > 0 && secs[n-1].Section == c.Section {
			secs[n-1].Text = joinOverlap(secs[n-1].Text, c.Text)
			continue
		}
		secs = append(secs, sec{c.Section, c.Text})
	}
	c0 := chunks[0]
	data := map[string]any{
		"document_id": c0.DocID, "title": c0.Title, "category": c0.Category,
		"entity": c0.Entity, "entity_id": c0.EntityID, "locale": c0.Locale, "sections": secs,
	}
	res := tool.Success(fmt.Sprintf("Document %s, %d sections.", c0.DocID, len(secs)), data)
	res.LLMInstruction = "Cite document_id and section for each fact you use."
	return res, nil
}

// joinOverlap appends next to prev, dropping the text the chunker repeated.
func joinOverlap(prev, next string) string {
	for k := min(len(prev), len(next), 400); k >= 20; k-- {
		if strings.HasSuffix(prev, next[:k]) {
			return prev + next[k:]
		}
	}
	return prev + "\n" + next
}
