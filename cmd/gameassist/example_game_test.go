package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	_ "github.com/mattn/go-sqlite3"

	"github.com/gameassist/gameassist/internal/openapitest"
	"github.com/gameassist/gameassist/llm/llmtest"
)

// exampleDir is the second game of the repository: a studio's own card
// game, run from files only.
var exampleDir = filepath.Join("..", "..", "examples", "cards")

// buildExampleDB builds the example game's database from its committed SQL
// dump, as `sqlite3 cards.db < cards.sql` does.
func buildExampleDB(tb testing.TB) string {
	tb.Helper()
	return buildGameDB(tb, filepath.Join(exampleDir, "cards.sql"))
}

// buildGameDB loads a game's SQL dump into a new SQLite file.
func buildGameDB(tb testing.TB, sqlFile string) string {
	tb.Helper()
	dump, err := os.ReadFile(sqlFile)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "game.db")
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=rwc")
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := db.Exec(string(dump)); err != nil {
		tb.Fatalf("load %s: %v", sqlFile, err)
	}
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// served is a server started as `gameassist serve` with configuration only.
type served struct {
	base string
	http *http.Client
	v    *openapitest.Validator
}

func (s *served) do(tb testing.TB, r request) (*http.Response, []byte) {
	tb.Helper()
	resp, body, err := sendTo(context.Background(), tb, s.http, s.v, s.base, r)
	if err != nil {
		tb.Fatalf("%s %s: %v", r.method, r.path, err)
	}
	return resp, body
}

// listenWatcher passes the server's log through and reports the address of
// its "listening" line once.
type listenWatcher struct {
	w    *io.PipeWriter
	addr chan string
}

func newListenWatcher(tb testing.TB) *listenWatcher {
	r, w := io.Pipe()
	lw := &listenWatcher{w: w, addr: make(chan string, 1)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		found := false
		for sc.Scan() {
			var line struct {
				Msg   string `json:"msg"`
				Level string `json:"level"`
				Addr  string `json:"addr"`
			}
			if json.Unmarshal(sc.Bytes(), &line) != nil {
				continue
			}
			if !found && line.Msg == "listening" {
				found = true
				lw.addr <- line.Addr
			}
		}
		if !found {
			close(lw.addr)
		}
		_, _ = io.Copy(io.Discard, r)
	}()
	return lw
}

// serveExample runs `gameassist serve` in process with env and returns the
// running server; the server stops when the test ends.
func serveExample(t *testing.T, env map[string]string) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	lw := newListenWatcher(t)
	done := make(chan struct{})
	var runErr error
	go func() {
		defer close(done)
		runErr = run(ctx, []string{"serve"}, func(k string) string { return env[k] }, strings.NewReader(""), io.Discard, lw.w)
		_ = lw.w.Close()
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		if runErr != nil && !errors.Is(runErr, context.Canceled) {
			t.Errorf("serve: %v", runErr)
		}
	})
	addr, ok := <-lw.addr
	if !ok {
		<-done
		t.Fatalf("serve stopped before listening: %v", runErr)
	}
	return &served{base: "http://" + addr, http: &http.Client{Timeout: clientTimeout}, v: openapitest.Load(t)}
}

// exampleEnv is the configuration of the example game: nothing else.
func exampleEnv(t *testing.T, fake *llmtest.Server) (map[string]string, string) {
	toolsFile := filepath.Join(t.TempDir(), "tools.yaml")
	b, err := os.ReadFile(filepath.Join(exampleDir, "tools.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(toolsFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"ADDR":                    "127.0.0.1:0",
		"REDIS_URL":               redisSrv.URL(),
		"GCS_DB_PATH":             buildExampleDB(t),
		"CONTENT_DIR":             filepath.Join(exampleDir, "docs"),
		"SCREEN_RULES":            filepath.Join(exampleDir, "rules.json"),
		"TOOLS_FILE":              toolsFile,
		"ADMIN_TOKEN":             testAdminToken,
		"CHAT_RATE_PER_MINUTE":    "100000",
		"SESSION_RATE_PER_MINUTE": "100000",
		"LOG_LEVEL":               "info",
	}
	if fake != nil {
		env["OPENAI_BASE_URL"] = fake.URL()
		env["OPENAI_API_KEY"] = "sk-test"
	}
	return env, toolsFile
}

type toolInfo struct {
	Name          string          `json:"name"`
	Category      string          `json:"category"`
	Aliases       []string        `json:"aliases"`
	CacheDuration int             `json:"cache_duration"`
	Parameters    json.RawMessage `json:"parameters"`
}

type envelope struct {
	Status  string          `json:"status"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	Details string          `json:"error_details"`
}

func (s *served) execute(t *testing.T, name, args string) envelope {
	t.Helper()
	resp, body := s.do(t, request{method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken,
		json: map[string]any{"tool_calls": []map[string]any{{"name": name, "arguments": json.RawMessage(args)}}}})
	expect(t, resp, body, http.StatusOK)
	out := decode[struct {
		Results []envelope `json:"results"`
	}](t, body)
	if len(out.Results) != 1 {
		t.Fatalf("results %s", body)
	}
	return out.Results[0]
}

func (s *served) tools(t *testing.T) map[string]toolInfo {
	t.Helper()
	resp, body := s.do(t, request{method: http.MethodGet, path: "/admin/tools", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	list := decode[struct {
		Tools []toolInfo `json:"tools"`
	}](t, body)
	out := map[string]toolInfo{}
	for _, ti := range list.Tools {
		out[ti.Name] = ti
	}
	return out
}

func (s *served) session(t *testing.T, locale string) session {
	t.Helper()
	resp, body := s.do(t, request{method: http.MethodPost, path: "/v1/sessions", json: map[string]string{"locale": locale}})
	expect(t, resp, body, http.StatusCreated)
	return decode[session](t, body)
}

func (s *served) chat(t *testing.T, ss session, msg string, screen map[string]any) chatReply {
	t.Helper()
	body := map[string]any{"session_id": ss.ID, "message": msg}
	if screen != nil {
		body["screen"] = screen
	}
	resp, b := s.do(t, request{method: http.MethodPost, path: "/v1/chat", token: ss.Token, json: body})
	expect(t, resp, b, http.StatusOK)
	return decode[chatReply](t, b)
}

type cacheEntry struct {
	Tool                 string          `json:"tool"`
	Parameters           json.RawMessage `json:"parameters"`
	CachedAtExchange     int             `json:"cached_at_exchange"`
	ExpiresAfterExchange int             `json:"expires_after_exchange"`
	RemainingExchanges   int             `json:"remaining_exchanges"`
}

func (s *served) cache(t *testing.T, id string) []cacheEntry {
	t.Helper()
	resp, body := s.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + id + "/cache", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	return decode[struct {
		Entries []cacheEntry `json:"entries"`
	}](t, body).Entries
}

func findCall(calls []outcome, name string) (outcome, bool) {
	i := slices.IndexFunc(calls, func(o outcome) bool { return o.Name == name })
	if i < 0 {
		return outcome{}, false
	}
	return calls[i], true
}

// TestExampleGame runs the example card game as a studio would: its own
// database built from the SQL dump, its documents, rules file and tools
// file, started with `gameassist serve` and configuration only.
func TestExampleGame(t *testing.T) {
	fake := llmtest.New(t)
	env, toolsFile := exampleEnv(t, fake)
	s := serveExample(t, env)

	t.Run("file tools listed, sample tools off", func(t *testing.T) {
		tools := s.tools(t)
		card, ok := tools["cards_get_card"]
		if !ok {
			t.Fatalf("cards_get_card not listed: %v", slices.Collect(func(yield func(string) bool) {
				for n := range tools {
					if !yield(n) {
						return
					}
				}
			}))
		}
		if card.Category != "gcs" || card.CacheDuration != 3 || !slices.Equal(card.Aliases, []string{"get_card"}) ||
			!strings.Contains(string(card.Parameters), `"name"`) {
			t.Fatalf("cards_get_card listed as %+v", card)
		}
		if tools["cards_get_keyword"].Category != "custom" {
			t.Fatalf("cards_get_keyword category %q", tools["cards_get_keyword"].Category)
		}
		for _, sample := range []string{"gcs_get_champion_details", "cache_list_champions"} {
			if _, ok := tools[sample]; ok {
				t.Errorf("sample game tool %s offered over a studio's database", sample)
			}
		}
		if _, ok := tools["gcs_db_query"]; !ok {
			t.Error("the read-only SQL tools fit any database but are missing")
		}
	})

	t.Run("file tools called", func(t *testing.T) {
		r := s.execute(t, "get_card", `{"name":"ember imp"}`)
		var card struct {
			Name     string `json:"name"`
			Mana     int    `json:"mana"`
			Keywords string `json:"keywords"`
			CardSet  string `json:"card_set"`
		}
		if r.Status != "success" || json.Unmarshal(r.Data, &card) != nil || card.Name != "Ember Imp" || card.Mana != 1 ||
			card.Keywords != "Haste" || card.CardSet != "Core Set" {
			t.Fatalf("get_card: %+v", r)
		}
		r = s.execute(t, "cards_search", `{"element":"ember","max_mana":3}`)
		var rows []struct {
			Name string `json:"name"`
			Mana int    `json:"mana"`
		}
		if r.Status != "success" || json.Unmarshal(r.Data, &rows) != nil || len(rows) != 4 || rows[0].Name != "Ember Imp" || r.Message != "4 rows." {
			t.Fatalf("cards_search: %+v", r)
		}
		if r = s.execute(t, "cards_count", `{"element":"void"}`); r.Status != "success" || string(r.Data) != "3" {
			t.Fatalf("cards_count: %+v", r)
		}
		if r = s.execute(t, "cards_search", `{"element":"fire"}`); r.Status != "error" || !strings.Contains(r.Details, "element") {
			t.Fatalf("an argument outside the schema: %+v", r)
		}
		// cards_search has two versions: version 2 adds a rarity filter and
		// answers power; a call may name the version.
		for _, tc := range []struct {
			version   int
			args      string
			wantOK    bool
			wantPower bool
		}{
			{version: 1, args: `{"element":"ember","max_mana":3}`, wantOK: true},
			{version: 2, args: `{"element":"ember","max_mana":3}`, wantOK: true, wantPower: true},
			{version: 1, args: `{"rarity":"rare"}`},
			{version: 2, args: `{"rarity":"rare"}`, wantOK: true, wantPower: true},
		} {
			resp, body := s.do(t, request{method: http.MethodPost, path: "/admin/tools/execute", token: testAdminToken,
				json: map[string]any{"tool_calls": []map[string]any{{"name": "cards_search", "version": tc.version, "arguments": json.RawMessage(tc.args)}}}})
			expect(t, resp, body, http.StatusOK)
			if ok := strings.Contains(string(body), `"status":"success"`); ok != tc.wantOK ||
				(ok && strings.Contains(string(body), `"version":`+strconv.Itoa(tc.version)) != true) ||
				strings.Contains(string(body), `power`) != tc.wantPower {
				t.Fatalf("cards_search v%d %s: %s", tc.version, tc.args, body)
			}
		}
	})

	t.Run("RAG over its documents", func(t *testing.T) {
		r := s.execute(t, "db_get_ux_details", `{"query":"DeckBuilderScreen"}`)
		if r.Status != "success" || !strings.Contains(string(r.Data), "30 cards") {
			t.Fatalf("db_get_ux_details: %+v", r)
		}
		r = s.execute(t, "rag_search_faq", `{"query":"which starter deck should I pick"}`)
		if r.Status != "success" || !strings.Contains(string(r.Data), "Ember Rush") {
			t.Fatalf("rag_search_faq: %+v", r)
		}
	})

	t.Run("screen rule with a file tool and translated names", func(t *testing.T) {
		ss := s.session(t, "fr")
		fake.Enqueue(llmtest.Text("Le Drake cendré vole."))
		reply := s.chat(t, ss, "que fait cette carte ?", map[string]any{"name": "CardInspectScreen", "data": map[string]any{"CardId": 104}})
		call, ok := findCall(reply.ToolCalls, "cards_get_card_by_id")
		if !ok || call.Source != "proactive" || call.Status != "success" || string(call.Arguments) != `{"card_id":104}` {
			t.Fatalf("screen rule did not run cards_get_card_by_id: %+v", reply.ToolCalls)
		}
		if call.DisplayName != "Carte" {
			t.Errorf("cards_get_card_by_id shown to a French player as %q, want its display_name Carte", call.DisplayName)
		}
		reqs := fake.Requests()
		last := reqs[len(reqs)-1]
		var prompt strings.Builder
		for _, m := range last.Messages {
			prompt.WriteString(m.Content)
		}
		if !strings.Contains(prompt.String(), "Drake cendré") {
			t.Fatalf("the prompt lacks the French display name from display_names")
		}
		if !strings.Contains(prompt.String(), "Ashen Drake") || !strings.Contains(prompt.String(), "Flying") {
			t.Fatal("the proactive file tool's result did not reach the LLM")
		}
	})

	t.Run("chat turn: a file tool result cached for its duration", func(t *testing.T) {
		ss := s.session(t, "en")
		ask := func(want string) chatReply {
			fake.Enqueue(
				llmtest.ToolCalls(llmtest.Call{ID: "call_1", Name: "cards_get_card", Arguments: `{"name":"Stone Golem"}`}),
				llmtest.Text("Stone Golem costs 5 mana and has Guard."),
			)
			r := s.chat(t, ss, "what does Stone Golem cost?", nil)
			call, ok := findCall(r.ToolCalls, "cards_get_card")
			if !ok || call.Source != want || call.Status != "success" {
				t.Fatalf("exchange %d: cards_get_card %+v, want source %s", r.Exchange, r.ToolCalls, want)
			}
			if call.DisplayName != "Card" {
				t.Errorf("cards_get_card shown as %q, want its display_name Card", call.DisplayName)
			}
			return r
		}
		first := ask("executed")
		entries := s.cache(t, ss.ID)
		i := slices.IndexFunc(entries, func(e cacheEntry) bool { return e.Tool == "cards_get_card" })
		if i < 0 {
			t.Fatalf("no cache entry for cards_get_card: %+v", entries)
		}
		if e := entries[i]; e.CachedAtExchange != first.Exchange || e.ExpiresAfterExchange != first.Exchange+3 || string(e.Parameters) != `{"name":"Stone Golem"}` {
			t.Fatalf("cache entry %+v, want cached at %d for 3 exchanges", e, first.Exchange)
		}
		for range 3 {
			ask("cache")
		}
		// Its duration is over: the next turn runs the tool again.
		ask("executed")
	})

	t.Run("reload keeps the old set on error", func(t *testing.T) {
		good, err := os.ReadFile(toolsFile)
		if err != nil {
			t.Fatal(err)
		}
		write := func(b string) {
			if err := os.WriteFile(toolsFile, []byte(b), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		reload := func(want int) []byte {
			resp, body := s.do(t, request{method: http.MethodPost, path: "/admin/tools/reload", token: testAdminToken})
			expect(t, resp, body, want)
			return body
		}
		write(string(good) + "  - name: cards_broken\n    description: d\n    statement: SELECT * FROM missing_table\n")
		body := reload(http.StatusUnprocessableEntity)
		if !strings.Contains(string(body), "tool cards_broken") || !strings.Contains(string(body), "tools.yaml:") {
			t.Fatalf("422 does not name the tool and file: %s", body)
		}
		// The screen rules use cards_get_card_by_id: a file without it is refused.
		write(strings.Replace(string(good), "name: cards_get_card_by_id", "name: cards_by_id_renamed", 1))
		body = reload(http.StatusUnprocessableEntity)
		if !strings.Contains(string(body), "screen rules") || !strings.Contains(string(body), "cards_get_card_by_id") {
			t.Fatalf("422 does not explain the broken screen rule: %s", body)
		}
		if r := s.execute(t, "cards_get_card_by_id", `{"card_id":101}`); r.Status != "success" {
			t.Fatalf("old set lost after refused reloads: %+v", r)
		}

		write(string(good) + "  - name: cards_mythics\n    description: Every mythic card.\n    cache_duration: 1\n    statement: SELECT title FROM cards WHERE rarity = 'mythic' ORDER BY title\n")
		body = reload(http.StatusOK)
		got := decode[struct {
			Tools []string `json:"tools"`
			Count int      `json:"count"`
		}](t, body)
		if got.Count != 8 || got.Tools[7] != "cards_mythics" {
			t.Fatalf("reload answered %s", body)
		}
		if r := s.execute(t, "cards_mythics", `{}`); r.Status != "success" || !strings.Contains(string(r.Data), "Rift Colossus") {
			t.Fatalf("new tool after reload: %+v", r)
		}
		if _, ok := s.tools(t)["cards_mythics"]; !ok {
			t.Fatal("new tool not listed after reload")
		}
		resp, metrics := s.do(t, request{method: http.MethodGet, path: "/metrics"})
		expect(t, resp, metrics, http.StatusOK)
		if !strings.Contains(string(metrics), `tool="cards_get_card"`) {
			t.Fatal("file tool calls are not in the metrics")
		}
	})
}

// TestExampleGameOffline: with no LLM, the studio's game is answered from
// its file tools whose descriptions fit the question and from its
// documents, and the help names only what its tools can do.
func TestExampleGameOffline(t *testing.T) {
	env, _ := exampleEnv(t, nil)
	s := serveExample(t, env)
	ss := s.session(t, "en")
	tests := []struct {
		name, message string
		screen        map[string]any
		wantTool      string
		want          []string
		forbid        []string
	}{
		{name: "a card by name", message: "What does Stone Golem cost?", wantTool: "cards_get_card", want: []string{"The mana of **Stone Golem** is 5."}, forbid: []string{"card id:"}},
		{name: "a keyword", message: "what does the keyword Lifesteal do?", wantTool: "cards_get_keyword", want: []string{"heals your champion"}},
		{name: "cards by element and cost", message: "show me ember cards under 3 mana", wantTool: "cards_search", want: []string{"Ember Imp", "Cinder Archer"}, forbid: []string{"Ashen Drake"}},
		{name: "documents when no tool fits", message: "which starter deck should I pick?", wantTool: "rag_semantic_search", want: []string{"Ember Rush"}},
		{name: "the screen", message: "how do I use this screen?", screen: map[string]any{"name": "DeckBuilderScreen", "data": map[string]any{"Deck": map[string]any{"DeckId": 201, "CardCount": 30}}},
			wantTool: "db_get_ux_details", want: []string{"30 cards"}},
		{name: "help names no sample champion", message: "hmm", want: []string{"Look up one Runebound card"}, forbid: []string{"Kaelith", "Fire Knight", "champion, boss or faction"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.chat(t, ss, tc.message, tc.screen)
			if tc.wantTool != "" {
				if _, ok := findCall(r.ToolCalls, tc.wantTool); !ok {
					t.Fatalf("%s not called: %+v", tc.wantTool, r.ToolCalls)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(r.Reply, w) {
					t.Fatalf("reply lacks %q:\n%s", w, r.Reply)
				}
			}
			for _, f := range tc.forbid {
				if strings.Contains(r.Reply, f) {
					t.Fatalf("reply holds %q:\n%s", f, r.Reply)
				}
			}
		})
	}
}

// TestToolsReloadWithoutFile: with no TOOLS_FILE there is nothing to
// reload, and the answer says so.
func TestToolsReloadWithoutFile(t *testing.T) {
	f := newFixture(t, appSetup{})
	resp, body := f.do(t, request{method: http.MethodPost, path: "/admin/tools/reload", token: testAdminToken})
	if code := expectError(t, resp, body, http.StatusConflict); code != "no_tools_file" {
		t.Fatalf("code %s", code)
	}
	resp, body = f.do(t, request{method: http.MethodPost, path: "/admin/tools/reload", invalid: true})
	expectError(t, resp, body, http.StatusUnauthorized)
}

// TestExampleGameEvalSet answers the example game's evaluation set
// (eval/offline-cards) with no LLM through the chat API, one session per
// scenario, and requires at least 80% of the questions right: the expected
// tools called and every fact in the reply, no forbidden text.
func TestExampleGameEvalSet(t *testing.T) {
	env, _ := exampleEnv(t, nil)
	runStudioEval(t, env, "../../eval/offline-cards/cards.yaml", "example game")
}

// TestStudioGameEvalSet answers eval/offline-willowmere over a second studio
// game (offline/testdata/willowmere: other tables, column names, tools and
// documents than the example's) with no LLM through the chat API.
func TestStudioGameEvalSet(t *testing.T) {
	dir := filepath.Join("..", "..", "offline", "testdata", "willowmere")
	env := map[string]string{
		"ADDR":                    "127.0.0.1:0",
		"REDIS_URL":               redisSrv.URL(),
		"GCS_DB_PATH":             buildGameDB(t, filepath.Join(dir, "willowmere.sql")),
		"CONTENT_DIR":             filepath.Join(dir, "docs"),
		"SCREEN_RULES":            filepath.Join(dir, "rules.json"),
		"TOOLS_FILE":              filepath.Join(dir, "tools.yaml"),
		"ADMIN_TOKEN":             testAdminToken,
		"CHAT_RATE_PER_MINUTE":    "100000",
		"SESSION_RATE_PER_MINUTE": "100000",
		"LOG_LEVEL":               "info",
	}
	runStudioEval(t, env, "../../eval/offline-willowmere/willowmere.yaml", "willowmere")
}

// runStudioEval serves env with no LLM and answers every scenario of
// setFile, one session each; at least 10 questions and 80% right.
func runStudioEval(t *testing.T, env map[string]string, setFile, label string) {
	t.Helper()
	s := serveExample(t, env)
	type step struct {
		Screen map[string]any `yaml:"screen"`
		Say    string         `yaml:"say"`
		Expect *struct {
			Tools  []string `yaml:"tools"`
			Facts  []string `yaml:"facts"`
			Forbid []string `yaml:"forbid"`
		} `yaml:"expect"`
	}
	type scenario struct {
		Name   string `yaml:"name"`
		Locale string `yaml:"locale"`
		Steps  []step `yaml:"steps"`
	}
	raw, err := os.ReadFile(setFile)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw), yaml.Strict())
	passed, total := 0, 0
	for {
		var sc scenario
		if err := dec.Decode(&sc); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			t.Fatal(err)
		}
		ss := s.session(t, sc.Locale)
		var screen map[string]any
		for _, st := range sc.Steps {
			if st.Screen != nil {
				screen = st.Screen
				continue
			}
			if st.Say == "" || st.Expect == nil {
				t.Fatalf("%s: a step with neither screen nor say+expect", sc.Name)
			}
			total++
			r := s.chat(t, ss, st.Say, screen)
			var reasons []string
			for _, tn := range st.Expect.Tools {
				if _, ok := findCall(r.ToolCalls, tn); !ok {
					reasons = append(reasons, tn+" not called")
				}
			}
			for _, f := range st.Expect.Facts {
				if !strings.Contains(r.Reply, f) {
					reasons = append(reasons, "missing "+f)
				}
			}
			for _, f := range st.Expect.Forbid {
				if strings.Contains(r.Reply, f) {
					reasons = append(reasons, "forbidden "+f)
				}
			}
			if len(reasons) == 0 {
				passed++
			} else {
				t.Logf("%s %q: %s\n%s", sc.Name, st.Say, strings.Join(reasons, "; "), r.Reply)
			}
		}
	}
	rate := float64(passed) / float64(max(total, 1))
	t.Logf("%s eval: %d/%d right (%.1f%%)", label, passed, total, 100*rate)
	if total < 10 || rate < 0.8 {
		t.Errorf("%s eval: %d/%d right, want at least 10 questions and 80%%", label, passed, total)
	}
}
