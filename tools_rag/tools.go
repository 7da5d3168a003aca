package toolsrag

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/editdist"
	"github.com/gameassist/gameassist/gcsdb/resolve"
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
		"db_get_lore_details":    {BaseFilters: cat("champion", "boss", "faction", "dungeon", "lore"), SimilarityChunks: 5},
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
	// StudioGame leaves out the sample game's tools (SampleOnly): a
	// studio's own game has no champions, bosses, factions or dungeons of
	// the sample's.
	StudioGame bool
}

// SampleOnly reports whether the tool named name serves only the sample
// game: the entity tools over its champions, bosses, factions and
// dungeons, and the lore search over them.
func SampleOnly(name string) bool {
	switch name {
	case "rag_get_champion_details", "rag_get_boss_details", "rag_get_faction_lore", "rag_get_dungeon_guide", "db_get_lore_details":
		return true
	}
	return false
}

// SearchedCategories returns the document categories the tools named
// names filter on (with their default search configurations).
func SearchedCategories(names []string) map[string]bool {
	cfgs := DefaultSearchConfigs()
	out := map[string]bool{}
	for _, n := range names {
		for _, c := range cfgs[n].BaseFilters.Categories {
			out[c] = true
		}
	}
	return out
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

// NewTools returns the RAG tools over retriever, ready to register; each is
// a tool.Def over its arguments struct and its schema file.
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
	b := &builder{r: retriever, log: logger, cfgs: cfgs}
	out := []tool.Tool{
		entityDef[ChampionNameArgs](b, "rag_get_champion_details",
			tool.DisplayNames{"en": "Champion lore", "fr": "Histoire du champion", "de": "Champion-Hintergrund"},
			"champion_name", "champion", "Lore, abilities and guide text of one champion, by name."),
		entityDef[BossNameArgs](b, "rag_get_boss_details",
			tool.DisplayNames{"en": "Boss guide", "fr": "Guide du boss", "de": "Boss-Guide"},
			"boss_name", "boss", "Lore, phases, mechanics and strategy text of one boss, by name."),
		entityDef[FactionNameArgs](b, "rag_get_faction_lore",
			tool.DisplayNames{"en": "Faction lore", "fr": "Histoire de la faction", "de": "Fraktionsgeschichte"},
			"faction_name", "faction", "History and lore of one faction, by name."),
		entityDef[DungeonNameArgs](b, "rag_get_dungeon_guide",
			tool.DisplayNames{"en": "Dungeon guide", "fr": "Guide du donjon", "de": "Dungeon-Guide"},
			"dungeon_name", "dungeon", "Guide to one dungeon or campaign area: stages, strategy, rewards."),
		searchDef[QueryArgs](b, "db_get_ux_details",
			tool.DisplayNames{"en": "Screen help", "fr": "Aide de l'écran", "de": "Bildschirmhilfe"},
			"query", "ux", 2,
			"How a screen or feature of the game's interface works; pass a screen name such as ChampionFeatureModelsPresenter or a question."),
		searchDef[QueryArgs](b, "db_get_lore_details",
			tool.DisplayNames{"en": "Lore", "fr": "Histoire", "de": "Hintergrund"},
			"query", "lore", 3,
			"Search the game's lore and story (champions, bosses, factions, dungeons) for a person, place or event."),
		searchDef[QueryArgs](b, "rag_search_faq",
			tool.DisplayNames{"en": "FAQ", "fr": "FAQ", "de": "FAQ"},
			"query", "faq", 0, "Search the frequently asked questions."),
		searchDef[TopicArgs](b, "rag_get_game_mechanics",
			tool.DisplayNames{"en": "Game mechanics", "fr": "Mécaniques de jeu", "de": "Spielmechanik"},
			"topic", "mechanics", 0, "Explain a game mechanic (e.g. speed, turn meter, buffs, affinities)."),
		searchDef[QueryArgs](b, "rag_search_patch_notes",
			tool.DisplayNames{"en": "Patch notes", "fr": "Notes de version", "de": "Patchnotes"},
			"query", "patch_notes", 0, "Search the patch notes for changes, fixes and balance updates."),
		ragDef(b, "rag_semantic_search",
			tool.DisplayNames{"en": "Document search", "fr": "Recherche documentaire", "de": "Dokumentsuche"},
			0, "Semantic and keyword search over every game document, with optional filters; use when no specialised tool fits.",
			b.semantic(cfgs["rag_semantic_search"])),
		ragDefWith(b, "rag_list_documents",
			tool.DisplayNames{"en": "Document list", "fr": "Liste des documents", "de": "Dokumentliste"},
			0, "", "List the indexed documents (id, title, category, entity), optionally filtered.", b.list),
		ragDef(b, "rag_get_document",
			tool.DisplayNames{"en": "Document", "fr": "Document", "de": "Dokument"},
			0, "The full text of one document, by document_id (from a citation or rag_list_documents).", b.document),
	}
	if b.err != nil {
		return nil, b.err
	}
	if opts.StudioGame {
		out = slices.DeleteFunc(out, func(t tool.Tool) bool { return SampleOnly(t.Spec().Name) })
	}
	return out, nil
}

// builder holds what the RAG tools share and the first schema error.
type builder struct {
	r    *Retriever
	log  *slog.Logger
	cfgs map[string]SearchConfig
	err  error
}

func ragDef[A any](b *builder, name string, names tool.DisplayNames, cache int, desc string, run func(context.Context, A) (tool.Result, error)) *tool.Def[A] {
	return ragDefWith(b, name, names, cache, instruction, desc, run)
}

func ragDefWith[A any](b *builder, name string, names tool.DisplayNames, cache int, instr, desc string, run func(context.Context, A) (tool.Result, error)) *tool.Def[A] {
	params, err := schemas.Tool(name)
	if err != nil && b.err == nil {
		b.err = fmt.Errorf("toolsrag: %w", err)
	}
	return &tool.Def[A]{
		// Personal: what a search may return depends on the player's
		// progress (documents gated by unlocks_at).
		Personal: true,
		Name:     name, Description: desc, Category: tool.CategoryRAG, CacheFor: cache, Instruction: instr,
		Schema: params, DisplayNames: names, Run: run,
	}
}

// texter is an arguments struct with one text argument.
type texter interface{ text() string }

// ChampionNameArgs are the arguments of rag_get_champion_details.
type ChampionNameArgs struct {
	ChampionName string `json:"champion_name"`
}

func (a ChampionNameArgs) text() string { return a.ChampionName }

// BossNameArgs are the arguments of rag_get_boss_details.
type BossNameArgs struct {
	BossName string `json:"boss_name"`
}

func (a BossNameArgs) text() string { return a.BossName }

// FactionNameArgs are the arguments of rag_get_faction_lore.
type FactionNameArgs struct {
	FactionName string `json:"faction_name"`
}

func (a FactionNameArgs) text() string { return a.FactionName }

// DungeonNameArgs are the arguments of rag_get_dungeon_guide.
type DungeonNameArgs struct {
	DungeonName string `json:"dungeon_name"`
}

func (a DungeonNameArgs) text() string { return a.DungeonName }

// QueryArgs are the arguments of the free-text search tools.
type QueryArgs struct {
	Query string `json:"query"`
}

func (a QueryArgs) text() string { return a.Query }

// TopicArgs are the arguments of rag_get_game_mechanics.
type TopicArgs struct {
	Topic string `json:"topic"`
}

func (a TopicArgs) text() string { return a.Topic }

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
	return Passage{DocumentID: c.DocID, Title: c.Title, Section: c.Section, Score: math.Round(score*1e4) / 1e4,
		Text: tool.Clip(c.Text, maxPassageChars)}
}

// relevantShare: a search hit scoring under 1/relevantShare of the best
// one is left out. A passage of an entity the query names scores over 1
// (the embedded store's entity boost), one that only ranks well a few hundredths
// (reciprocal rank fusion): next to the former, the latter is noise in the
// model's context. Hits that all rank alike are all kept.
const relevantShare = 4

// relevant drops the hits scoring under 1/relevantShare of the best.
func relevant(hits []vectorstore.Hit) []vectorstore.Hit {
	best := 0.0
	for _, h := range hits {
		best = max(best, h.Score)
	}
	return slices.DeleteFunc(slices.Clone(hits), func(h vectorstore.Hit) bool { return h.Score*relevantShare < best })
}

func passages(hits []vectorstore.Hit) []Passage {
	out := make([]Passage, len(hits))
	for i, h := range hits {
		out[i] = passage(h.Chunk, h.Score)
	}
	return out
}

// EntityPassages is the data of the entity tools: passages of one entity's
// document.
type EntityPassages struct {
	Category   string    `json:"category"`
	DocumentID string    `json:"document_id"`
	Entity     string    `json:"entity"`
	EntityID   int       `json:"entity_id"`
	Passages   []Passage `json:"passages"`
	Title      string    `json:"title"`
}

// Entities implements tool.Entities: the entity the passages are about.
func (e EntityPassages) Entities() []tool.EntityRef {
	return []tool.EntityRef{{Kind: e.Category, ID: int64(e.EntityID), Name: e.Entity}}
}

// Summary implements tool.Summarizer.
func (e EntityPassages) Summary() string {
	return fmt.Sprintf("%d passages about %s from %q.", len(e.Passages), e.Entity, e.Title)
}

// entityDef defines a tool looking up one named entity's document.
func entityDef[A texter](b *builder, name string, names tool.DisplayNames, param, kind, desc string) tool.Tool {
	cfg := b.cfgs[name]
	return ragDef(b, name, names, 0, desc, func(ctx context.Context, a A) (tool.Result, error) {
		entity, r, ok := requireText(name, param, a.text(), 100)
		if !ok {
			return r, nil
		}
		doc, suggestions, err := b.resolveEntity(ctx, cfg, entity)
		if err != nil {
			return tool.Result{}, err
		}
		if doc == nil {
			b.log.LogAttrs(ctx, slog.LevelDebug, "rag entity not found", slog.String("tool", name), slog.String("name", entity))
			guidance := fmt.Sprintf("Check the spelling of the %s's name.", kind)
			if len(suggestions) > 0 {
				guidance = "Did you mean: " + strings.Join(suggestions, ", ") + "? Call " + name + " again with the exact name."
			}
			return tool.Failure(fmt.Sprintf("No %s named %q was found in the documents.", kind, entity),
				"unknown "+kind, guidance+" rag_list_documents lists every documented "+kind+"."), nil
		}
		ps, err := b.entityPassages(ctx, cfg, doc)
		if err != nil {
			return tool.Result{}, err
		}
		data := EntityPassages{
			Entity: doc.Entity, EntityID: doc.EntityID, Category: doc.Category,
			DocumentID: doc.DocID, Title: doc.Title, Passages: ps,
		}
		return tool.Success(fmt.Sprintf("%d passages about %s.", len(ps), doc.Entity), data), nil
	})
}

// entityPassages returns the best chunks of doc plus its required sections,
// in document order.
func (b *builder) entityPassages(ctx context.Context, cfg SearchConfig, doc *DocumentInfo) ([]Passage, error) {
	f := cfg.BaseFilters
	f.DocID = doc.DocID
	k := max(cfg.SimilarityChunks, 1)
	hits, err := b.r.Search(ctx, strings.TrimSpace(doc.Entity+" "+cfg.QueryHint), f, k)
	if err != nil {
		return nil, err
	}
	scores := map[int]float64{}
	picked := map[int]chunk.Chunk{}
	for _, h := range hits {
		picked[h.Chunk.Index] = h.Chunk
		scores[h.Chunk.Index] = h.Score
	}
	if len(cfg.RequiredSections) > 0 {
		all, err := b.r.Chunks(ctx, vectorstore.Filter{DocID: doc.DocID}, 0)
		if err != nil {
			return nil, err
		}
		for _, c := range all {
			if slices.ContainsFunc(cfg.RequiredSections, func(s string) bool { return strings.EqualFold(s, c.Section) }) {
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
	return ps, nil
}

// ragNameRule is how a model's entity names resolve against the documents:
// exact, folded (case, accents, titles, the entity id) or a unique partial
// name ("gorath", "the sunken crypt"); a typo gets "Did you mean".
const ragNameRule = resolve.Partial

// resolveEntity finds the document of the named entity through the one name
// resolver over the documented entities of the tool's categories; otherwise
// it returns the closest names as suggestions.
func (b *builder) resolveEntity(ctx context.Context, cfg SearchConfig, name string) (*DocumentInfo, []string, error) {
	docs, err := b.r.Documents(ctx, func(d DocumentInfo) bool {
		return len(cfg.BaseFilters.Categories) == 0 || slices.Contains(cfg.BaseFilters.Categories, d.Category)
	})
	if err != nil {
		return nil, nil, err
	}
	// One candidate per entity; its id indexes byEntity.
	var cands []resolve.Candidate
	var byEntity [][]DocumentInfo
	index := map[string]int{}
	for _, d := range docs {
		key := vectorstore.EntityKey(d.Entity)
		if key == "" {
			continue
		}
		i, ok := index[key]
		if !ok {
			i = len(cands)
			index[key] = i
			cands = append(cands, resolve.Candidate{Kind: d.Category, ID: int64(i + 1), Name: d.Entity})
			byEntity = append(byEntity, nil)
		}
		byEntity[i] = append(byEntity[i], d)
		c := &cands[i]
		c.Aliases = append(c.Aliases, d.Title)
		if d.EntityID > 0 {
			c.Aliases = append(c.Aliases, strconv.Itoa(d.EntityID))
		}
	}
	r := resolve.New(cands)
	m, ok := r.LookupUpTo("", name, ragNameRule)
	if !ok {
		return nil, r.Suggest("", name, 3), nil
	}
	return b.pick(byEntity[m.ID-1]), nil, nil
}

// pick prefers the retriever's locale among an entity's documents.
func (b *builder) pick(ds []DocumentInfo) *DocumentInfo {
	for i := range ds {
		if ds[i].Locale == b.r.opts.Locale {
			return &ds[i]
		}
	}
	return &ds[0]
}

// SearchPassages is the data of the search tools.
type SearchPassages struct {
	Passages []Passage `json:"passages"`
	Query    string    `json:"query"`
}

// searchDef defines a tool searching one category (or a few) with free text.
func searchDef[A texter](b *builder, name string, names tool.DisplayNames, param, kind string, cache int, desc string) tool.Tool {
	cfg := b.cfgs[name]
	return ragDef(b, name, names, cache, desc, func(ctx context.Context, a A) (tool.Result, error) {
		q, r, ok := requireText(name, param, a.text(), 500)
		if !ok {
			return r, nil
		}
		hits, err := b.r.Search(ctx, q, cfg.BaseFilters, max(cfg.SimilarityChunks, 1))
		if err != nil {
			return tool.Result{}, err
		}
		if len(hits) == 0 {
			res := tool.Success(fmt.Sprintf("No %s document matched %q.", strings.ReplaceAll(kind, "_", " "), q),
				SearchPassages{Query: q, Passages: []Passage{}})
			res.LLMInstruction = "Nothing relevant was found: say so, or try rag_semantic_search with other words."
			return res, nil
		}
		hits = relevant(hits)
		return tool.Success(fmt.Sprintf("%d passages matched.", len(hits)), SearchPassages{Query: q, Passages: passages(hits)}), nil
	})
}

// FilterArgs are the optional filters of the generic tools.
type FilterArgs struct {
	Category string `json:"category"`
	Entity   string `json:"entity"`
	Locale   string `json:"locale"`
}

func (f FilterArgs) filter() vectorstore.Filter {
	out := vectorstore.Filter{Entity: strings.TrimSpace(f.Entity), Locale: strings.TrimSpace(f.Locale)}
	if c := strings.TrimSpace(f.Category); c != "" {
		out.Categories = []string{c}
	}
	return out
}

// SemanticArgs are the arguments of rag_semantic_search.
type SemanticArgs struct {
	Query   string     `json:"query"`
	TopK    *int       `json:"top_k"`
	Filters FilterArgs `json:"filters"`
}

// semantic is the generic search.
func (b *builder) semantic(cfg SearchConfig) func(context.Context, SemanticArgs) (tool.Result, error) {
	const name = "rag_semantic_search"
	return func(ctx context.Context, in SemanticArgs) (tool.Result, error) {
		q, r, ok := requireText(name, "query", in.Query, 500)
		if !ok {
			return r, nil
		}
		k := max(cfg.SimilarityChunks, 1)
		if in.TopK != nil {
			if *in.TopK < 1 || *in.TopK > 20 {
				return tool.Failure("top_k is out of range.", fmt.Sprintf("top_k is %d", *in.TopK), "Use a top_k from 1 to 20."), nil
			}
			k = *in.TopK
		}
		f := in.Filters.filter()
		if len(f.Categories) == 0 {
			f.Categories = cfg.BaseFilters.Categories
		}
		hits, err := b.r.Search(ctx, q, f, k)
		if err != nil {
			return tool.Result{}, err
		}
		if len(hits) == 0 {
			return tool.Failure("No document matched.", "no results for the query and filters",
				"Remove filters or use other words; rag_list_documents shows the categories and entities."), nil
		}
		hits = relevant(hits)
		return tool.Success(fmt.Sprintf("%d passages matched.", len(hits)), SearchPassages{Query: q, Passages: passages(hits)}), nil
	}
}

// ListArgs are the arguments of rag_list_documents.
type ListArgs struct {
	Filters FilterArgs `json:"filters"`
	Limit   *int       `json:"limit"`
}

// DocumentList is the data of rag_list_documents.
type DocumentList struct {
	Documents []DocumentInfo `json:"documents"`
	Total     int            `json:"total"`
}

// Page implements tool.Pager: the first Returned of Total documents.
func (l DocumentList) Page() tool.Page { return tool.Page{Total: l.Total, Returned: len(l.Documents)} }

// Entities implements tool.Entities: the documented entities in order.
func (l DocumentList) Entities() []tool.EntityRef {
	var out []tool.EntityRef
	for _, d := range l.Documents {
		if d.Entity != "" {
			out = append(out, tool.EntityRef{Kind: d.Category, ID: int64(d.EntityID), Name: d.Entity})
		}
	}
	return out
}

// list lists documents.
func (b *builder) list(ctx context.Context, in ListArgs) (tool.Result, error) {
	limit := 50
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 200 {
			return tool.Failure("limit is out of range.", fmt.Sprintf("limit is %d", *in.Limit), "Use a limit from 1 to 200."), nil
		}
		limit = *in.Limit
	}
	f := in.Filters.filter()
	ek := vectorstore.EntityKey(f.Entity)
	docs, err := b.r.Documents(ctx, func(d DocumentInfo) bool {
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
	return tool.Success(msg, DocumentList{Total: total, Documents: docs}), nil
}

// DocumentArgs are the arguments of rag_get_document.
type DocumentArgs struct {
	DocumentID string `json:"document_id"`
}

// Section is one section of a document's full text.
type Section struct {
	Section string `json:"section"`
	Text    string `json:"text"`
}

// Document is the data of rag_get_document.
type Document struct {
	Category   string    `json:"category"`
	DocumentID string    `json:"document_id"`
	Entity     string    `json:"entity"`
	EntityID   int       `json:"entity_id"`
	Locale     string    `json:"locale"`
	Sections   []Section `json:"sections"`
	Title      string    `json:"title"`
}

// Entities implements tool.Entities: the entity the document is about, if any.
func (d Document) Entities() []tool.EntityRef {
	if d.Entity == "" {
		return nil
	}
	return []tool.EntityRef{{Kind: d.Category, ID: int64(d.EntityID), Name: d.Entity}}
}

// document returns one document's full text by section.
func (b *builder) document(ctx context.Context, in DocumentArgs) (tool.Result, error) {
	const name = "rag_get_document"
	id, r, ok := requireText(name, "document_id", in.DocumentID, 128)
	if !ok {
		return r, nil
	}
	chunks, err := b.r.Chunks(ctx, vectorstore.Filter{DocID: id}, 0)
	if err != nil {
		return tool.Result{}, err
	}
	if len(chunks) == 0 {
		docs, err := b.r.Documents(ctx, nil)
		if err != nil {
			return tool.Result{}, err
		}
		sort.SliceStable(docs, func(i, j int) bool {
			return editdist.Distance(id, docs[i].DocID) < editdist.Distance(id, docs[j].DocID)
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
	var secs []Section
	for _, c := range chunks {
		if n := len(secs); n > 0 && secs[n-1].Section == c.Section {
			secs[n-1].Text = joinOverlap(secs[n-1].Text, c.Text)
			continue
		}
		secs = append(secs, Section{c.Section, c.Text})
	}
	c0 := chunks[0]
	data := Document{
		DocumentID: c0.DocID, Title: c0.Title, Category: c0.Category,
		Entity: c0.Entity, EntityID: c0.EntityID, Locale: c0.Locale, Sections: secs,
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
