package toolsrag

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/textsearch/embed"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/tools_rag/vectorstore"
)

const testContent = "testdata/content"

func newExecutor(t *testing.T, r *Retriever) *tool.Executor {
	t.Helper()
	tools, err := NewTools(r, slog.New(slog.DiscardHandler), ToolsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{BaseBackoff: 1})
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

func testRetriever(t *testing.T) *Retriever {
	t.Helper()
	r, sum, err := OpenEmbedded(context.Background(), testContent, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Documents != 9 {
		t.Fatalf("loaded %d documents", sum.Documents)
	}
	return r
}

type envelope struct {
	Status           string          `json:"status"`
	Message          string          `json:"message"`
	Data             json.RawMessage `json:"data"`
	LLMCacheDuration int             `json:"llm_cache_duration"`
	ErrorDetails     string          `json:"error_details"`
	Guidance         string          `json:"guidance"`
}

func call(t *testing.T, ex *tool.Executor, name, args string) (envelope, tool.Result) {
	t.Helper()
	res := ex.Execute(context.Background(), tool.Call{Name: name, Arguments: json.RawMessage(args)})
	var env envelope
	if err := json.Unmarshal([]byte(res.ForLLM()), &env); err != nil {
		t.Fatal(err)
	}
	return env, res
}

type passageData struct {
	Entity     string    `json:"entity"`
	DocumentID string    `json:"document_id"`
	Passages   []Passage `json:"passages"`
	Sections   []struct {
		Section string `json:"section"`
		Text    string `json:"text"`
	} `json:"sections"`
	Documents []DocumentInfo `json:"documents"`
	Total     int            `json:"total"`
}

func TestTools(t *testing.T) {
	ex := newExecutor(t, testRetriever(t))
	tests := []struct {
		name, tool, args string
		wantStatus       string
		wantCache        int
		wantText         []string // substrings of the LLM view
		check            func(t *testing.T, d passageData)
	}{
		{
			name: "champion by name", tool: "rag_get_champion_details", args: `{"champion_name":"kaelith"}`, wantStatus: "success",
			check: func(t *testing.T, d passageData) {
				if d.Entity != "Kaelith" || d.DocumentID != "champion-kaelith" || len(d.Passages) != 3 {
					t.Fatalf("data %+v", d)
				}
				for _, p := range d.Passages {
					if p.DocumentID != "champion-kaelith" || p.Section == "" || p.Title != "Kaelith" || p.Text == "" {
						t.Fatalf("citation incomplete: %+v", p)
					}
				}
			},
		},
		{name: "champion by id", tool: "rag_get_champion_details", args: `{"champion_name":"1002"}`, wantStatus: "success", wantText: []string{"Brannoc"}},
		{
			name: "champion typo suggests", tool: "rag_get_champion_details", args: `{"champion_name":"Kaelth"}`, wantStatus: "error",
			wantText: []string{"No champion named", "Did you mean: Kaelith"},
		},
		{name: "champion of wrong category", tool: "rag_get_champion_details", args: `{"champion_name":"Gorath the Devourer"}`, wantStatus: "error"},
		{name: "champion missing arg", tool: "rag_get_champion_details", args: `{}`, wantStatus: "error", wantText: []string{"champion_name"}},
		{name: "champion wrong type", tool: "rag_get_champion_details", args: `{"champion_name":5}`, wantStatus: "error"},
		{name: "champion blank", tool: "rag_get_champion_details", args: `{"champion_name":"   "}`, wantStatus: "error", wantText: []string{"Missing champion_name"}},
		{name: "boss partial name", tool: "rag_get_boss_details", args: `{"boss_name":"gorath"}`, wantStatus: "success", wantText: []string{"Weaknesses", "Phases"}},
		{name: "faction", tool: "rag_get_faction_lore", args: `{"faction_name":"Sylvan Wardens"}`, wantStatus: "success", wantText: []string{"Moonwell"}},
		{name: "dungeon partial name", tool: "rag_get_dungeon_guide", args: `{"dungeon_name":"the sunken crypt"}`, wantStatus: "success", wantText: []string{"Tidebreaker"}},
		{name: "dungeon ambiguous word", tool: "rag_get_dungeon_guide", args: `{"dungeon_name":"crypts"}`, wantStatus: "error", wantText: []string{"Sunken Crypt"}},
		{name: "dungeon exact", tool: "rag_get_dungeon_guide", args: `{"dungeon_name":"sunken crypt"}`, wantStatus: "success", wantText: []string{"Tidebreaker"}},
		{
			name: "ux by screen", tool: "db_get_ux_details", args: `{"query":"ChampionFeatureModelsPresenter"}`, wantStatus: "success", wantCache: 2,
			wantText: []string{"ux-champion-details"},
		},
		{
			name: "lore", tool: "db_get_lore_details", args: `{"query":"who lost her sister to the Iron Legion"}`, wantStatus: "success", wantCache: 3,
			check: func(t *testing.T, d passageData) {
				if len(d.Passages) == 0 || d.Passages[0].DocumentID != "champion-kaelith" {
					t.Fatalf("passages %+v", d.Passages)
				}
				for _, p := range d.Passages {
					if strings.HasPrefix(p.DocumentID, "faq") || strings.HasPrefix(p.DocumentID, "patch") {
						t.Fatalf("lore search leaked %s", p.DocumentID)
					}
				}
			},
		},
		{name: "faq", tool: "rag_search_faq", args: `{"query":"energy refill"}`, wantStatus: "success", wantText: []string{"faq-energy"}},
		{name: "mechanics", tool: "rag_get_game_mechanics", args: `{"topic":"turn meter"}`, wantStatus: "success", wantText: []string{"mechanics-turn-meter"}},
		{name: "patch notes", tool: "rag_search_patch_notes", args: `{"query":"Moonshot cooldown"}`, wantStatus: "success", wantText: []string{"patch-1-2"}},
		{name: "patch notes nothing", tool: "rag_search_patch_notes", args: `{"query":"zzzz qqqq"}`, wantStatus: "success", wantText: []string{"No patch notes document matched"}},
		{name: "query too long", tool: "rag_search_faq", args: fmt.Sprintf(`{"query":%q}`, strings.Repeat("a", 600)), wantStatus: "error"},
		{
			name: "semantic with filters", tool: "rag_semantic_search", args: `{"query":"defense decrease","top_k":2,"filters":{"category":"boss"}}`, wantStatus: "success",
			check: func(t *testing.T, d passageData) {
				if len(d.Passages) == 0 || d.Passages[0].Section != "Weaknesses" || d.Passages[len(d.Passages)-1].DocumentID != "boss-gorath" {
					t.Fatalf("passages %+v", d.Passages)
				}
			},
		},
		{name: "semantic top_k too big", tool: "rag_semantic_search", args: `{"query":"x","top_k":25}`, wantStatus: "error", wantText: []string{"top_k"}},
		{name: "semantic unknown filter", tool: "rag_semantic_search", args: `{"query":"x","filters":{"tier":"S"}}`, wantStatus: "error"},
		{name: "semantic no match", tool: "rag_semantic_search", args: `{"query":"energy","filters":{"locale":"de"}}`, wantStatus: "error", wantText: []string{"Remove filters"}},
		{
			name: "list by category", tool: "rag_list_documents", args: `{"filters":{"category":"champion"}}`, wantStatus: "success",
			check: func(t *testing.T, d passageData) {
				if d.Total != 2 || len(d.Documents) != 2 || d.Documents[0].DocID != "champion-brannoc" {
					t.Fatalf("%+v", d)
				}
			},
		},
		{name: "list limit", tool: "rag_list_documents", args: `{"limit":3}`, wantStatus: "success", wantText: []string{"3 of 9 documents"}},
		{name: "list bad limit", tool: "rag_list_documents", args: `{"limit":0}`, wantStatus: "error"},
		{
			name: "get document", tool: "rag_get_document", args: `{"document_id":"boss-gorath"}`, wantStatus: "success",
			check: func(t *testing.T, d passageData) {
				if len(d.Sections) != 3 || d.Sections[1].Section != "Phases" {
					t.Fatalf("%+v", d.Sections)
				}
			},
		},
		{name: "get unknown document", tool: "rag_get_document", args: `{"document_id":"boss-goraht"}`, wantStatus: "error", wantText: []string{"boss-gorath"}},
		{name: "get document bad id", tool: "rag_get_document", args: `{"document_id":"../../etc/passwd"}`, wantStatus: "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, res := call(t, ex, tt.tool, tt.args)
			if env.Status != tt.wantStatus {
				t.Fatalf("status %s, want %s: %s", env.Status, tt.wantStatus, res.ForLLM())
			}
			if env.Status == "error" && (env.Guidance == "" || env.ErrorDetails == "") {
				t.Fatalf("error without guidance: %s", res.ForLLM())
			}
			if env.LLMCacheDuration != tt.wantCache {
				t.Fatalf("cache duration %d, want %d", env.LLMCacheDuration, tt.wantCache)
			}
			view := res.ForLLM()
			for _, s := range tt.wantText {
				if !strings.Contains(view, s) {
					t.Fatalf("%q not in %s", s, view)
				}
			}
			if tt.check != nil {
				var d passageData
				if err := json.Unmarshal(env.Data, &d); err != nil {
					t.Fatal(err)
				}
				tt.check(t, d)
			}
		})
	}
}

func TestEntityToolReturnsRequiredSections(t *testing.T) {
	r := testRetriever(t)
	tools, err := NewTools(r, slog.New(slog.DiscardHandler), ToolsOptions{Configs: map[string]SearchConfig{
		"rag_get_champion_details": {
			BaseFilters: vectorstore.Filter{Categories: []string{"champion"}}, SimilarityChunks: 1,
			QueryHint: "elven archer forest", RequiredSections: []string{"strategy"},
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var champ tool.Tool
	for _, tl := range tools {
		if tl.Spec().Name == "rag_get_champion_details" {
			champ = tl
		}
	}
	res, err := champ.Call(context.Background(), json.RawMessage(`{"champion_name":"Kaelith"}`))
	if err != nil {
		t.Fatal(err)
	}
	ps := res.Data.(EntityPassages).Passages
	var secs []string
	for _, p := range ps {
		secs = append(secs, p.Section)
	}
	if strings.Join(secs, ",") != "Biography,Strategy" {
		t.Fatalf("sections %v, want the top chunk (Biography) plus the required Strategy", secs)
	}
	if _, err := NewTools(r, slog.New(slog.DiscardHandler), ToolsOptions{Configs: map[string]SearchConfig{"rag_nope": {}}}); err == nil {
		t.Fatal("config for unknown tool accepted")
	}
}

func TestToolSpecs(t *testing.T) {
	tools, err := NewTools(testRetriever(t), slog.New(slog.DiscardHandler), ToolsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"rag_get_champion_details": 0, "rag_get_boss_details": 0, "db_get_ux_details": 2, "db_get_lore_details": 3,
		"rag_get_faction_lore": 0, "rag_get_dungeon_guide": 0, "rag_search_faq": 0, "rag_get_game_mechanics": 0,
		"rag_search_patch_notes": 0, "rag_semantic_search": 0, "rag_list_documents": 0, "rag_get_document": 0,
	}
	if len(tools) != len(want) {
		t.Fatalf("%d tools", len(tools))
	}
	for _, tl := range tools {
		s := tl.Spec()
		d, ok := want[s.Name]
		if !ok || s.CacheDuration != d || s.Category != tool.CategoryRAG || s.Description == "" {
			t.Errorf("spec %+v", s)
		}
	}
	if _, err := NewTools(nil, slog.New(slog.DiscardHandler), ToolsOptions{}); err == nil {
		t.Fatal("nil retriever accepted")
	}
}

// downStore fails like an unreachable Qdrant.
type downStore struct{ *vectorstore.Memory }

var errDown = fmt.Errorf("dial qdrant:6334: %w", vectorstore.ErrUnavailable)

func (downStore) Search(context.Context, vectorstore.Query) ([]vectorstore.Hit, error) {
	return nil, errDown
}

func (downStore) List(context.Context, vectorstore.Filter, int) ([]vectorstore.Point, error) {
	return nil, errDown
}

func (downStore) Ping(context.Context) error { return errDown }

func TestStoreDownGivesErrorEnvelopes(t *testing.T) {
	h, _ := embed.NewHashing(embed.HashingOptions{})
	m, _ := vectorstore.NewMemory(h.Name(), h.Dim())
	var logs bytes.Buffer
	r, err := NewRetriever(h, downStore{m}, slog.New(slog.NewTextHandler(&logs, nil)), RetrieverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ex := newExecutor(t, r)
	for _, c := range []struct{ tool, args string }{
		{"rag_get_champion_details", `{"champion_name":"Kaelith"}`},
		{"rag_search_faq", `{"query":"energy"}`},
		{"rag_list_documents", `{}`},
		{"rag_get_document", `{"document_id":"faq-energy"}`},
	} {
		t.Run(c.tool, func(t *testing.T) {
			env, res := call(t, ex, c.tool, c.args)
			if env.Status != "error" || env.Guidance == "" || !strings.Contains(env.Message, "temporarily unavailable") {
				t.Fatalf("%s", res.ForLLM())
			}
			if res.InternalInfo.Attempts != 3 {
				t.Fatalf("attempts = %d, want retries of a transient failure", res.InternalInfo.Attempts)
			}
		})
	}
	if err := r.Ping(context.Background()); !errors.Is(err, vectorstore.ErrUnavailable) {
		t.Fatalf("ping: %v", err)
	}
}

func TestEmbedderMismatchRefused(t *testing.T) {
	h, _ := embed.NewHashing(embed.HashingOptions{Dim: 512})
	m, _ := vectorstore.NewMemory("remote-text-embedding-3-small", 1536)
	r, err := NewRetriever(h, m, slog.New(slog.DiscardHandler), RetrieverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Search(context.Background(), "x", vectorstore.Filter{}, 3)
	if err == nil || !strings.Contains(err.Error(), "remote-text-embedding-3-small") || !strings.Contains(err.Error(), "hash512v1") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Ingest(context.Background(), testContent, h, m, nil); err == nil {
		t.Fatal("ingest into another embedder's store accepted")
	}
	ex := newExecutor(t, r)
	env, res := call(t, ex, "rag_search_faq", `{"query":"energy"}`)
	if env.Status != "error" || res.InternalInfo.Attempts != 1 {
		t.Fatalf("%s attempts %d", res.ForLLM(), res.InternalInfo.Attempts)
	}
}

func TestIngestSummaryAndProgress(t *testing.T) {
	h, _ := embed.NewHashing(embed.HashingOptions{})
	m, _ := vectorstore.NewMemory(h.Name(), h.Dim())
	var progress bytes.Buffer
	ctx := context.Background()
	sum, err := Ingest(ctx, "testdata/bad", h, m, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Documents != 1 || sum.Chunks != 1 || len(sum.Skipped) != 5 {
		t.Fatalf("summary %+v", sum)
	}
	out := progress.String()
	for _, s := range []string{"skip corpus: nofm.md", "[####################] 100% batch 1/1", "ingested 1 documents, 1 chunks, 5 files skipped"} {
		if !strings.Contains(out, s) {
			t.Fatalf("%q not in progress:\n%s", s, out)
		}
	}
	first, _ := Ingest(ctx, testContent, h, m, nil)
	n1, _ := m.Count(ctx, vectorstore.Filter{})
	if _, err := Ingest(ctx, testContent, h, m, nil); err != nil {
		t.Fatal(err)
	}
	n2, _ := m.Count(ctx, vectorstore.Filter{})
	if n1 != n2 || n1 != first.Chunks+1 {
		t.Fatalf("re-ingest changed count %d -> %d (chunks %d)", n1, n2, first.Chunks)
	}
	if _, err := Ingest(ctx, t.TempDir(), h, m, nil); err == nil {
		t.Fatal("empty content dir accepted")
	}
}

func TestSummaryLogsItsDurationAsADuration(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Value.Kind() == slog.KindDuration {
			return slog.String(a.Key, a.Value.Duration().String())
		}
		return a
	}}))
	log.Info("built", "summary", Summary{Documents: 2, Chunks: 5, Duration: 487 * time.Millisecond})
	var m struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if m.Summary["duration"] != "487ms" || m.Summary["documents"] != 2.0 || m.Summary["chunks"] != 5.0 {
		t.Errorf("summary logged as %s", buf.String())
	}
}
