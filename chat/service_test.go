package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/internal/sessionfake"
	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// env is a Service over the in-memory session store, fake tools and,
// optionally, the fake LLM.
type env struct {
	box    *toolbox
	store  *sessionfake.Store
	fake   *llmtest.Server
	client *llm.Client
	svc    *Service
}

type envConfig struct {
	noLLM      bool
	opts       Options
	llmTimeout time.Duration
	screens    bool
	versions   DataVersioner
	noCache    bool
	observer   Observer
	// deps, when set, changes the service's collaborators (to inject a
	// failing one) before it is built.
	deps func(*Deps)

	// llm, when set, is the LLM instead of the fake server's client.
	llm Completer
}

func newEnv(t testing.TB, cfg envConfig) *env {
	t.Helper()
	e := &env{box: newToolboxOpts(t, cfg.noCache), store: sessionfake.New()}
	if !cfg.noLLM && cfg.llm == nil {
		e.fake = llmtest.New(t)
		timeout := cfg.llmTimeout
		if timeout == 0 {
			// No test but the timeout tests (which set their own) may
			// depend on how fast a loaded machine answers.
			timeout = time.Hour
		}
		var err error
		e.client, err = llm.New(llm.Options{
			BaseURL: e.fake.URL(), APIKey: "sk-test-key", Model: "test-model",
			Timeout: timeout, BaseBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	e.svc = e.newService(t, cfg)
	return e
}

// newService builds another Service over the same store, as a second
// instance or a restarted one would be.
func (e *env) newService(t testing.TB, cfg envConfig) *Service {
	t.Helper()
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	deps := Deps{
		Store: e.store, Executor: e.box.exec, Versions: cfg.versions, Observer: cfg.observer, Logger: log,
		Fallback: newOfflineFallback(t, e.box.exec, offline.Options{Names: e.box.names, Logger: log}),
	}
	if e.client != nil {
		deps.LLM = e.client
	}
	if cfg.llm != nil {
		deps.LLM = cfg.llm
	}
	if cfg.screens {
		deps.Screens = newEngine(t, e.box.reg)
	}
	if cfg.deps != nil {
		cfg.deps(&deps)
	}
	svc, err := NewService(deps, cfg.opts)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

type translator struct{}

func (translator) DisplayName(_ context.Context, id int64, _ string) (string, error) {
	if id == 1001 {
		return "Kaelith", nil
	}
	return "", fmt.Errorf("unknown id %d", id)
}

const testRules = `{
  "ChampionFeatureModelsPresenter": {
    "context_tool": {"tool": "db_get_ux_details", "parameters": {"query": "ChampionFeatureModelsPresenter"}},
    "data_tools": [
      {"tool": "gcs_get_character_details_by_id", "json_field": "ChampionConfigId", "parameter_name": "character_id"},
      {"tool": "gcs_get_boss_details", "json_field": "BossName", "parameter_name": "boss_name"}
    ],
    "prompt_injection": {
      "template": "The player is on the Champion Details screen viewing {ChampionConfigId_translated}.",
      "required_fields": ["ChampionConfigId"]
    }
  }
}`

func newEngine(t testing.TB, reg *tool.Registry) *screens.Engine {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rules.json")
	if err := os.WriteFile(path, []byte(testRules), 0o600); err != nil {
		t.Fatal(err)
	}
	eng, err := screens.NewEngine(path, reg, translator{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func (e *env) session(t testing.TB) (string, string) {
	t.Helper()
	id, token, err := e.svc.CreateSession(context.Background(), "player-1", "en")
	if err != nil {
		t.Fatal(err)
	}
	return id, token
}

func (e *env) turn(t testing.TB, id, msg string) Reply {
	t.Helper()
	r, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: msg}, nil)
	if err != nil {
		t.Fatalf("turn %q: %v", msg, err)
	}
	// The rolling summary is written in the background; tests wait for it
	// so the next turn's prompt is deterministic.
	e.svc.Wait()
	return r
}

func (e *env) history(t testing.TB, id string) []memory.Message {
	t.Helper()
	h, err := e.store.History(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func champCall(id, name string) llmtest.Call {
	return llmtest.Call{ID: id, Name: "gcs_get_champion_details", Arguments: `{"champion_name":"` + name + `"}`}
}

// lastIsUser reports whether a request starts a turn (its last message is the player's).
func lastIsUser(req openai.ChatCompletionRequest) bool {
	return len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == openai.ChatMessageRoleUser
}

func toolMessages(req openai.ChatCompletionRequest) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == openai.ChatMessageRoleTool {
			out = append(out, m.Content)
		}
	}
	return out
}

func TestCreateSessionAndAuthorize(t *testing.T) {
	e := newEnv(t, envConfig{noLLM: true})
	ctx := context.Background()
	id, token := e.session(t)
	other, otherToken := e.session(t)
	if id == other || token == otherToken {
		t.Fatal("sessions share an id or token")
	}
	if m, err := e.store.Session(ctx, id); err != nil || m.ID != id || m.PlayerID != "player-1" || m.Locale != "en" {
		t.Fatalf("meta = %+v (%v)", m, err)
	}
	unknown := "8c1f0a52-3b9e-4d1c-9a57-2f5d7e0b6c11"
	// In order: a session's first check reads the store, later ones use the
	// token hash read then, right or wrong token; a refused or unknown
	// session is read every time.
	tests := []struct {
		name  string
		id    string
		token string
		want  error
		trips bool
	}{
		{"another session's token, first check", id, otherToken, ErrForbidden, true},
		{"valid, first check since a refusal", id, token, nil, false},
		{"valid again", id, token, nil, false},
		{"wrong token", id, token + "x", ErrForbidden, false},
		{"another session's token", id, otherToken, ErrForbidden, false},
		{"other session, first check", other, otherToken, nil, true},
		{"empty token", id, "", ErrUnauthorized, false},
		{"malformed token", id, "a b", ErrUnauthorized, false},
		{"oversized token", id, strings.Repeat("a", 300), ErrUnauthorized, false},
		{"unknown session", unknown, token, memory.ErrNotFound, true},
		{"unknown session again", unknown, token, memory.ErrNotFound, true},
		{"not a uuid", "../../etc", token, memory.ErrNotFound, false},
		{"uuid without dashes", strings.ReplaceAll(id, "-", ""), token, memory.ErrNotFound, false},
	}
	for _, tc := range tests {
		before := e.store.Calls()
		err := e.svc.Authorize(ctx, tc.id, tc.token)
		if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
		if got := e.store.Calls() > before; got != tc.trips {
			t.Errorf("%s: store called = %v, want %v", tc.name, got, tc.trips)
		}
	}
}

// TestAuthorizeNewService: the token hashes a Service remembers are its
// own; another one (another instance, a restart) reads the store.
func TestAuthorizeNewService(t *testing.T) {
	e := newEnv(t, envConfig{noLLM: true})
	ctx := context.Background()
	id, token := e.session(t)
	if err := e.svc.Authorize(ctx, id, token); err != nil {
		t.Fatal(err)
	}
	e.svc = e.newService(t, envConfig{noLLM: true})
	before := e.store.Calls()
	if err := e.svc.Authorize(ctx, id, token+"x"); !errors.Is(err, ErrForbidden) {
		t.Fatalf("wrong token on a new service: %v", err)
	}
	if e.store.Calls() == before {
		t.Error("a new service trusted a token hash it never read")
	}
}

func TestCreateSessionLocale(t *testing.T) {
	e := newEnv(t, envConfig{noLLM: true})
	ctx := context.Background()
	tests := []struct {
		name, locale, want string
		err                bool
	}{
		{"default", "", "en", false},
		{"french", "fr", "fr", false},
		{"region", "de-AT", "de", false},
		{"upper", "FR", "fr", false},
		{"unsupported", "xx", "", true},
		{"garbage", "en;DROP", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, token, err := e.svc.CreateSession(ctx, "", tc.locale)
			if tc.err {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("err = %v, want ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := e.svc.Authorize(ctx, id, token); err != nil {
				t.Fatal(err)
			}
			m, err := e.store.Session(ctx, id)
			if err != nil || m.Locale != tc.want {
				t.Errorf("locale = %q (%v), want %q", m.Locale, err, tc.want)
			}
		})
	}
	if _, _, err := e.svc.CreateSession(ctx, strings.Repeat("p", MaxPlayerIDLen+1), ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("long player id: err = %v", err)
	}
}

func TestTurnDuplicates(t *testing.T) {
	e := newEnv(t, envConfig{})
	id, _ := e.session(t)
	e.fake.Enqueue(
		llmtest.ToolCalls(champCall("c1", "Kaelith"), champCall("c2", "Kaelith")),
		llmtest.ToolCalls(champCall("c3", "Kaelith")),
		llmtest.Text("Kaelith is a Legendary Magic attacker."),
	)
	r := e.turn(t, id, "tell me about kaelith")
	if got := sources(r.ToolCalls); got != "executed,duplicate,duplicate" {
		t.Errorf("sources = %s", got)
	}
	if n := e.box.get("gcs_get_champion_details").count(); n != 1 {
		t.Errorf("executions = %d, want 1", n)
	}
	reqs := e.fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d LLM requests", len(reqs))
	}
	tm := toolMessages(reqs[1])
	if len(tm) != 2 || !strings.Contains(tm[0], "Legendary") || !strings.Contains(tm[1], "Same call") || strings.Contains(tm[1], "Legendary") {
		t.Errorf("tool messages of round 1: %q", tm)
	}
	if tm := toolMessages(reqs[2]); len(tm) != 3 || !strings.Contains(tm[2], "Same call") {
		t.Errorf("tool messages of round 2: %q", tm)
	}
	if r.Reply != "Kaelith is a Legendary Magic attacker." || r.Exchange != 1 || r.Degraded {
		t.Errorf("reply = %+v", r)
	}
	if r.Usage.PromptTokens == 0 || r.Usage.CompletionTokens == 0 {
		t.Errorf("usage not summed: %+v", r.Usage)
	}
	var want llm.Usage
	for _, q := range reqs {
		want.PromptTokens += llmtest.PromptTokens(q)
	}
	if r.Usage.PromptTokens != want.PromptTokens {
		t.Errorf("prompt tokens = %d, want the sum %d", r.Usage.PromptTokens, want.PromptTokens)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"session_id"`, `"exchange":1`, `"reply"`, `"tool_calls":[{"name":"gcs_get_champion_details","arguments":{"champion_name":"Kaelith"},"source":"executed","status":"success"`, `"usage":{"prompt_tokens"`, `"completion_tokens"`, `"degraded":false`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("reply JSON lacks %s: %s", k, b)
		}
	}
}

// champEveryTurn makes the fake call gcs_get_champion_details(Kaelith) at
// the start of every turn and answer "ok" after the tool results.
func champEveryTurn(req openai.ChatCompletionRequest) llmtest.Reply {
	if lastIsUser(req) {
		return llmtest.ToolCalls(champCall("c1", "Kaelith"))
	}
	return llmtest.Text("ok")
}

func TestTurnCacheAcrossTurns(t *testing.T) {
	e := newEnv(t, envConfig{})
	id, _ := e.session(t)
	e.fake.SetResponder(champEveryTurn)
	champ := e.box.get("gcs_get_champion_details") // cache duration 3
	// Each result enters the prompt once, in the data block of the turn it
	// became available, and stays in the history as sent (append-only);
	// once expired, a later block lists it as no longer current.
	tests := []struct {
		exchange int
		source   tool.Source
		runs     int
		copies   int  // copies of the result in the turn's first prompt
		fresh    bool // the turn's own block shows it
		retired  bool // the turn's own block lists it as no longer current
	}{
		{exchange: 1, source: tool.SourceExecuted, runs: 1},
		{exchange: 2, source: tool.SourceCache, runs: 1, copies: 1, fresh: true},
		{exchange: 3, source: tool.SourceCache, runs: 1, copies: 1},
		{exchange: 4, source: tool.SourceCache, runs: 1, copies: 1},
		{exchange: 5, source: tool.SourceExecuted, runs: 2, copies: 1, retired: true}, // E+D+1: expired
		{exchange: 6, source: tool.SourceCache, runs: 2, copies: 2, fresh: true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint("exchange ", tc.exchange), func(t *testing.T) {
			n := e.fake.RequestCount()
			r := e.turn(t, id, "kaelith?")
			if r.Exchange != tc.exchange || len(r.ToolCalls) != 1 || r.ToolCalls[0].Source != tc.source {
				t.Fatalf("exchange %d tool_calls %s, want %d %s", r.Exchange, sources(r.ToolCalls), tc.exchange, tc.source)
			}
			if got := champ.count(); got != tc.runs {
				t.Errorf("executions = %d, want %d", got, tc.runs)
			}
			first := e.fake.Requests()[n]
			copies := 0
			for _, m := range first.Messages {
				copies += strings.Count(m.Content, `"rarity":"Legendary"`)
			}
			last := first.Messages[len(first.Messages)-1].Content
			fresh := strings.Contains(last, "Cached tool results") && strings.Contains(last, `"rarity":"Legendary"`)
			retired := strings.Contains(last, "No longer current") && strings.Contains(last, `- gcs_get_champion_details {"champion_name":"Kaelith"}`)
			if copies != tc.copies || fresh != tc.fresh || retired != tc.retired {
				t.Errorf("result copies %d, shown in this turn's block %v, listed as no longer current %v; want %d %v %v\n%s",
					copies, fresh, retired, tc.copies, tc.fresh, tc.retired, last)
			}
		})
	}
	entries, err := e.store.Cache(context.Background(), id)
	if err != nil || len(entries) != 1 || entries[0].Hits == 0 {
		t.Errorf("stored cache = %+v, %v", entries, err)
	}
}

func TestSessionsIsolated(t *testing.T) {
	e := newEnv(t, envConfig{})
	a, tokenA := e.session(t)
	b, _ := e.session(t)
	e.fake.SetResponder(champEveryTurn)
	e.turn(t, a, "from A")
	r := e.turn(t, b, "from B")
	if r.ToolCalls[0].Source != tool.SourceExecuted || r.Exchange != 1 {
		t.Errorf("session B served from A's cache: %s exchange %d", r.ToolCalls[0].Source, r.Exchange)
	}
	if n := e.box.get("gcs_get_champion_details").count(); n != 2 {
		t.Errorf("executions = %d, want 2", n)
	}
	for _, m := range e.history(t, b) {
		if strings.Contains(m.Content, "from A") {
			t.Errorf("B's history holds A's message")
		}
	}
	if err := e.svc.Authorize(context.Background(), b, tokenA); !errors.Is(err, ErrForbidden) {
		t.Errorf("A's token opens B: %v", err)
	}
}

func TestConcurrentTurnsOneSession(t *testing.T) {
	e := newEnv(t, envConfig{})
	id, _ := e.session(t)
	e.fake.SetResponder(champEveryTurn)
	const n = 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[int]bool{}
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			r, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: fmt.Sprint("message ", i)}, nil)
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			seen[r.Exchange] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for x := 1; x <= n; x++ {
		if !seen[x] {
			t.Errorf("exchange %d missing (seen %v)", x, seen)
		}
	}
	h := e.history(t, id)
	if len(h) != 2*n {
		t.Fatalf("history has %d messages, want %d", len(h), 2*n)
	}
	for i := 0; i < len(h); i += 2 {
		if h[i].Role != "user" || h[i+1].Role != "assistant" || h[i].Exchange != h[i+1].Exchange || h[i].Exchange != i/2+1 {
			t.Errorf("history %d: %s/%s exchanges %d/%d", i, h[i].Role, h[i+1].Role, h[i].Exchange, h[i+1].Exchange)
		}
	}
}

func TestRestartKeepsSession(t *testing.T) {
	e := newEnv(t, envConfig{})
	id, token := e.session(t)
	e.turn(t, id, "one")
	e.turn(t, id, "two")
	// A new Service over the same store.
	e.svc = e.newService(t, envConfig{})
	if err := e.svc.Authorize(context.Background(), id, token); err != nil {
		t.Fatalf("token after restart: %v", err)
	}
	r := e.turn(t, id, "three")
	if r.Exchange != 3 {
		t.Errorf("exchange after restart = %d, want 3", r.Exchange)
	}
	last := e.fake.Requests()[e.fake.RequestCount()-1]
	var hist []string
	for _, m := range last.Messages {
		if m.Role == openai.ChatMessageRoleUser {
			hist = append(hist, llmtest.PlayerWords(m.Content))
		}
	}
	if strings.Join(hist, ",") != "one,two,three" {
		t.Errorf("prompt after restart has user messages %v", hist)
	}
	if got := len(e.history(t, id)); got != 6 {
		t.Errorf("history = %d messages, want 6", got)
	}
}

func TestStreamingEvents(t *testing.T) {
	e := newEnv(t, envConfig{})
	id, _ := e.session(t)
	e.fake.Enqueue(
		llmtest.ToolCalls(champCall("c1", "Kaelith")),
		llmtest.Text("Kaelith is a strong Legendary champion."),
	)
	var events []Event
	r, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "kaelith?"}, func(ev Event) { events = append(events, ev) })
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var text strings.Builder
	for _, ev := range events {
		if len(kinds) == 0 || kinds[len(kinds)-1] != string(ev.Type) {
			kinds = append(kinds, string(ev.Type))
		}
		switch d := ev.Data.(type) {
		case DeltaEvent:
			text.WriteString(d.Text)
		case ToolCallEvent:
			if d.Name != "gcs_get_champion_details" || string(d.Arguments) != `{"champion_name":"Kaelith"}` {
				t.Errorf("tool_call event %+v", d)
			}
		case tool.Outcome:
			if d.Source != tool.SourceExecuted || d.Status != tool.StatusSuccess {
				t.Errorf("tool_result event %+v", d)
			}
		}
		if _, err := json.Marshal(ev.Data); err != nil {
			t.Errorf("event %s does not encode: %v", ev.Type, err)
		}
	}
	if got := strings.Join(kinds, ","); got != "tool_call,tool_result,delta" {
		t.Errorf("event order = %s", got)
	}
	if text.String() != r.Reply || r.Reply != "Kaelith is a strong Legendary champion." {
		t.Errorf("deltas %q, reply %q", text.String(), r.Reply)
	}
	for _, q := range e.fake.Requests() {
		if !q.Stream {
			t.Error("request not streamed")
		}
	}
}

func TestLLMFailureDegraded(t *testing.T) {
	tests := []struct {
		name    string
		reply   llmtest.Reply
		timeout time.Duration
		stream  bool
	}{
		{"server error", llmtest.Status(500, nil), 0, false},
		{"recorded 500", llmtest.Fixture("err_500.json"), 0, false},
		{"rate limited", llmtest.Status(429, nil), 0, false},
		{"server error streamed", llmtest.Status(500, nil), 0, true},
		{"cut stream", llmtest.Text("Kaelith is").Cut(), 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envConfig{llmTimeout: tc.timeout})
			id, _ := e.session(t)
			e.fake.SetResponder(func(openai.ChatCompletionRequest) llmtest.Reply { return tc.reply })
			var emit func(Event)
			var deltas strings.Builder
			if tc.stream {
				emit = func(ev Event) {
					if d, ok := ev.Data.(DeltaEvent); ok {
						deltas.WriteString(d.Text)
					}
				}
			}
			r, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "tell me about Kaelth"}, emit)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Degraded || !strings.Contains(r.Reply, "Kaelith") || !strings.Contains(r.Reply, "Legendary") {
				t.Errorf("reply = %+v", r)
			}
			if n := e.fake.RequestCount(); n < 2 && tc.name != "cut stream" {
				t.Errorf("LLM asked %d times; want retries", n)
			}
			if got := sources(r.ToolCalls); got != "executed" || r.ToolCalls[0].Name != "gcs_get_champion_details" {
				t.Errorf("offline tool calls = %s", got)
			}
			if tc.stream && !strings.Contains(deltas.String(), r.Reply) {
				t.Errorf("streamed %q, reply %q", deltas.String(), r.Reply)
			}
			h := e.history(t, id)
			if len(h) != 2 || h[1].Content != r.Reply {
				t.Errorf("history = %+v", h)
			}
		})
	}
}

func TestModelMistakesFedBack(t *testing.T) {
	e := newEnv(t, envConfig{})
	id, _ := e.session(t)
	e.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "a", Name: "gcs_get_champion_detail", Arguments: `{"champion_name":"Kaelith"}`},
			llmtest.Call{ID: "b", Name: "gcs_get_champion_details", Arguments: `{"champion_name": "Kae`}),
		llmtest.ToolCalls(champCall("c", "Kaelith")),
		llmtest.Text("Kaelith it is."),
	)
	r := e.turn(t, id, "kaelith")
	if r.Reply != "Kaelith it is." {
		t.Errorf("reply = %q", r.Reply)
	}
	if got := sources(r.ToolCalls); got != "executed,executed,executed" {
		t.Errorf("sources = %s", got)
	}
	if r.ToolCalls[0].Status != tool.StatusError || r.ToolCalls[1].Status != tool.StatusError || r.ToolCalls[2].Status != tool.StatusSuccess {
		t.Errorf("statuses = %s %s %s", r.ToolCalls[0].Status, r.ToolCalls[1].Status, r.ToolCalls[2].Status)
	}
	tm := toolMessages(e.fake.Requests()[1])
	if len(tm) != 2 || !strings.Contains(tm[0], "Unknown tool") || !strings.Contains(tm[0], "gcs_get_champion_details") ||
		!strings.Contains(tm[1], "not valid JSON") {
		t.Errorf("error envelopes fed back: %q", tm)
	}
	if _, err := json.Marshal(r); err != nil {
		t.Errorf("reply with malformed arguments does not encode: %v", err)
	}
}

func TestIterationCap(t *testing.T) {
	e := newEnv(t, envConfig{opts: Options{MaxToolIterations: 2}})
	id, _ := e.session(t)
	var round atomic.Int64
	e.fake.SetResponder(func(req openai.ChatCompletionRequest) llmtest.Reply {
		if len(req.Tools) == 0 {
			return llmtest.Text("final answer")
		}
		n := round.Add(1)
		return llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprint("c", n), Name: "db_get_lore_details", Arguments: fmt.Sprintf(`{"query":"q%d"}`, n)})
	})
	r := e.turn(t, id, "loop forever")
	reqs := e.fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if len(reqs[0].Tools) == 0 || len(reqs[1].Tools) == 0 || len(reqs[2].Tools) != 0 {
		t.Errorf("tools offered per request: %d %d %d", len(reqs[0].Tools), len(reqs[1].Tools), len(reqs[2].Tools))
	}
	if r.Reply != "final answer" || len(r.ToolCalls) != 2 {
		t.Errorf("reply %q with %d tool calls", r.Reply, len(r.ToolCalls))
	}
}

func TestSQLToolsOffered(t *testing.T) {
	tests := []struct {
		name  string
		offer bool
	}{{"hidden", false}, {"offered", true}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envConfig{opts: Options{OfferSQLTools: tc.offer, ToolSelection: toolselect.ModeAll}})
			id, _ := e.session(t)
			e.turn(t, id, "hi")
			found := false
			for _, tl := range e.fake.Requests()[0].Tools {
				if tl.Function.Name == "sql_query" {
					found = true
				}
			}
			if found != tc.offer {
				t.Errorf("sql tool offered = %v", found)
			}
		})
	}
}

// summaryOf is the summary message of r ("": none).
func summaryOf(r openai.ChatCompletionRequest) string {
	if len(r.Messages) > 1 && strings.HasPrefix(r.Messages[1].Content, "<summary>") {
		return r.Messages[1].Content
	}
	return ""
}

func TestHistoryWindow(t *testing.T) {
	const budget = 2500
	e := newEnv(t, envConfig{opts: Options{MaxContextTokens: budget}})
	id, _ := e.session(t)
	asked := regexp.MustCompile(`question \d+`)
	e.fake.SetResponder(func(r openai.ChatCompletionRequest) llmtest.Reply {
		if r.Messages[0].Content == summarizerPrompt {
			// The summarizer: name the questions folded in.
			var qs []string
			for _, q := range asked.FindAllString(r.Messages[1].Content, -1) {
				if !slices.Contains(qs, q) {
					qs = append(qs, q)
				}
			}
			return llmtest.Text("- asked " + strings.Join(qs, ", "))
		}
		return llmtest.Text(strings.Repeat("answer words ", 40))
	})
	var reqs []openai.ChatCompletionRequest
	for i := range 20 {
		n := e.fake.RequestCount()
		e.turn(t, id, fmt.Sprintf("question %d %s", i, strings.Repeat("padding ", 40)))
		reqs = append(reqs, e.fake.Requests()[n])
	}
	appendOnly := 0
	for i, r := range reqs {
		if n := promptTokens(t, e.svc, r); n > budget {
			t.Errorf("turn %d prompt %d tokens over the budget %d", i+1, n, budget)
		}
		if k := len(reqs[max(i-1, 0)].Messages) - 1; i > 0 && len(r.Messages) > k && sameMessages(reqs[i-1].Messages[:k], r.Messages[:k]) {
			appendOnly++
		}
	}
	// A fold takes in every exchange but the newest, which stays verbatim:
	// the prompt after it holds the system prompt, the summary, that
	// exchange and the new message.
	folds := 0
	for i := 1; i < len(reqs); i++ {
		if summaryOf(reqs[i]) != summaryOf(reqs[i-1]) {
			folds++
			if len(reqs[i].Messages) != 5 || !strings.HasPrefix(reqs[i].Messages[2].Content, playerOpen+fmt.Sprintf("question %d ", i-1)) {
				t.Errorf("turn %d after a fold: %d messages, the window starting %.40q", i+1, len(reqs[i].Messages), reqs[i].Messages[min(2, len(reqs[i].Messages)-1)].Content)
			}
		}
	}
	if folds == 0 {
		t.Error("no fold in 20 turns over the budget")
	}
	// The summary moves the window in steps, so most turns only append.
	if appendOnly < 12 {
		t.Errorf("%d of 19 prompts extend the previous one, want most", appendOnly)
	}
	last := reqs[len(reqs)-1]
	if !strings.HasPrefix(last.Messages[1].Content, "<summary>") || last.Messages[1].Role != openai.ChatMessageRoleUser {
		t.Fatalf("second message is not the summary in a user turn: %s %.80q", last.Messages[1].Role, last.Messages[1].Content)
	}
	if !strings.Contains(last.Messages[1].Content, "- asked question 0, question 1") {
		t.Errorf("the summary is not the LLM's running summary from the first exchange: %q", last.Messages[1].Content)
	}
	for _, m := range last.Messages[2:] {
		if strings.HasPrefix(m.Content, playerOpen+"question 0 ") {
			t.Error("oldest exchange still in the history window")
		}
	}
	// Whole exchanges: the first history message is the player's.
	if last.Messages[2].Role != openai.ChatMessageRoleUser || len(last.Messages) < 5 {
		t.Errorf("window starts with a %s message, %d messages", last.Messages[2].Role, len(last.Messages))
	}
	if len(e.history(t, id)) != 40 {
		t.Errorf("stored history trimmed by the prompt window")
	}
}

func TestTurnCancelledNotRecorded(t *testing.T) {
	e := newEnv(t, envConfig{})
	id, _ := e.session(t)
	e.fake.Enqueue(llmtest.Text("too late").Delay(10 * time.Second))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.svc.Turn(ctx, TurnRequest{SessionID: id, Message: "going away"}, func(Event) {})
		done <- err
	}()
	e.fake.WaitRequests(1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if h := e.history(t, id); len(h) != 0 {
		t.Errorf("cancelled turn recorded: %+v", h)
	}
	// The lock was released: the next turn runs.
	r := e.turn(t, id, "back again")
	if r.Reply != "ok" {
		t.Errorf("next turn reply %q", r.Reply)
	}
	if h := e.history(t, id); len(h) != 2 || h[0].Content != "back again" {
		t.Errorf("history = %+v", h)
	}
}

// TestTurnBusy holds a session's lock: a turn and a screen event give up
// after Options.LockWait (of the bubble's clock: no real time).
func TestTurnBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, envConfig{noLLM: true, opts: Options{LockWait: 20 * time.Millisecond}})
		id, _ := e.session(t)
		lock, err := e.store.Lock(context.Background(), id, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = lock.Release(context.Background()) }()
		if _, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "hi"}, nil); !errors.Is(err, memory.ErrBusy) {
			t.Errorf("err = %v, want ErrBusy", err)
		}
		if _, err := e.svc.ScreenEvent(context.Background(), id, screens.Screen{Name: "X"}); !errors.Is(err, memory.ErrBusy) {
			t.Errorf("screen event err = %v, want ErrBusy", err)
		}
	})
}

func TestOfflineTurn(t *testing.T) {
	e := newEnv(t, envConfig{noLLM: true})
	id, _ := e.session(t)
	tests := []struct {
		name, msg string
		want      []string
		tools     string
	}{
		{"champion typo", "tell me about Kaelth", []string{"Kaelith", "Legendary"}, "executed"},
		{"same again is cached", "Kaelith stats", []string{"Kaelith", "HP 15,000"}, "cache"},
		{"matchup", "is kaelith good against the fire knigt?", []string{"Yes", "Kaelith", "Fire Knight"}, "cache,executed"},
		{"nothing known", "hello", []string{"Tell me about Kaelith"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.turn(t, id, tc.msg)
			for _, w := range tc.want {
				if !strings.Contains(r.Reply, w) {
					t.Errorf("reply lacks %q:\n%s", w, r.Reply)
				}
			}
			if got := sources(r.ToolCalls); got != tc.tools || r.Degraded {
				t.Errorf("tool sources %q degraded %v, want %q", got, r.Degraded, tc.tools)
			}
		})
	}
}

func TestScreenEvent(t *testing.T) {
	e := newEnv(t, envConfig{screens: true})
	ctx := context.Background()
	id, _ := e.session(t)
	e.turn(t, id, "hi") // exchange 1
	sc := screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId":1001}`)}
	rep, err := e.svc.ScreenEvent(ctx, id, sc)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Matched || rep.PromptInjection == nil || !strings.Contains(*rep.PromptInjection, "viewing \"Kaelith\"") {
		t.Fatalf("reply = %+v", rep)
	}
	if got := sources(rep.Tools); got != "proactive,proactive,skipped" {
		t.Errorf("sources = %s", got)
	}
	if rep.Tools[2].Reason == "" || !strings.Contains(rep.Tools[2].Reason, "BossName") {
		t.Errorf("skipped reason = %q", rep.Tools[2].Reason)
	}
	b, _ := json.Marshal(rep)
	if !strings.Contains(string(b), `"prompt_injection":"The player is on the Champion Details screen viewing \"Kaelith\"."`) {
		t.Errorf("screen reply JSON: %s", b)
	}
	m, err := e.store.Session(ctx, id)
	if err != nil || m.Exchange != 1 || m.Screen == nil || m.Screen.Hash != sc.Hash() {
		t.Errorf("after screen event: exchange %d screen %+v (%v)", m.Exchange, m.Screen, err)
	}

	// The same screen again runs nothing.
	again, err := e.svc.ScreenEvent(ctx, id, screens.Screen{Name: sc.Name, Data: json.RawMessage(`{ "ChampionConfigId" : 1001 }`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Tools) != 0 || !again.Matched || again.PromptInjection == nil {
		t.Errorf("same screen again: %+v", again)
	}
	byID := e.box.get("gcs_get_character_details_by_id")
	if byID.count() != 1 {
		t.Errorf("executions = %d", byID.count())
	}

	// The next turn sees the injection and the proactive results, and the
	// model's identical call is served from the cache.
	e.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "x", Name: "gcs_get_character_details_by_id", Arguments: `{"character_id":1001}`}),
		llmtest.Text("You are looking at Kaelith."),
	)
	n := e.fake.RequestCount()
	r := e.turn(t, id, "who is this?")
	if r.Exchange != 2 || sources(r.ToolCalls) != "cache" || byID.count() != 1 {
		t.Errorf("turn after screen: exchange %d sources %s executions %d", r.Exchange, sources(r.ToolCalls), byID.count())
	}
	first := e.fake.Requests()[n]
	// The screen context and the cached results are a delimited data block
	// in the user turn, just before the player's message; no system-role
	// message holds them (the screen data is player-controlled).
	user := first.Messages[len(first.Messages)-1]
	if user.Role != openai.ChatMessageRoleUser || !strings.HasPrefix(user.Content, "<context>\n") ||
		!strings.HasSuffix(user.Content, "</context>\n\n"+playerText("who is this?")) {
		t.Errorf("last message is not the data block and the question: %s %q", user.Role, user.Content)
	}
	if !strings.Contains(user.Content, screenHeader) || !strings.Contains(user.Content, `viewing "Kaelith"`) ||
		!strings.Contains(user.Content, "gcs_get_character_details_by_id") || !strings.Contains(user.Content, "db_get_ux_details") {
		t.Errorf("user turn lacks screen context or cached results:\n%s", user.Content)
	}
	for _, m := range first.Messages {
		if m.Role == openai.ChatMessageRoleSystem && (strings.Contains(m.Content, "Kaelith") || strings.Contains(m.Content, screenHeader)) {
			t.Errorf("a system message holds screen data: %q", m.Content)
		}
	}
	// Every turn carries the injection until the screen changes: in the
	// history, in the block it was first sent with; the new turn's message
	// does not repeat it.
	n = e.fake.RequestCount()
	e.turn(t, id, "and now?")
	next := e.fake.Requests()[n].Messages
	if got := next[len(next)-1].Content; got != playerText("and now?") {
		t.Errorf("the new message repeats data already given: %q", got)
	}
	holds := 0
	for _, m := range next {
		holds += strings.Count(m.Content, `viewing "Kaelith"`)
	}
	if holds != 1 {
		t.Errorf("injection in the next turn's prompt %d times, want once", holds)
	}
}

func TestTurnWithNewScreen(t *testing.T) {
	e := newEnv(t, envConfig{screens: true})
	id, _ := e.session(t)
	sc := &screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId":1001}`)}
	r, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "what is this?", Screen: sc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := sources(r.ToolCalls); got != "proactive,proactive,skipped" || r.Exchange != 1 {
		t.Errorf("sources %s exchange %d", got, r.Exchange)
	}
	if !strings.Contains(e.fake.Requests()[0].Messages[1].Content, `viewing "Kaelith"`) {
		t.Error("first turn lacks the injection")
	}
	// The same screen with the next message runs nothing new.
	r, err = e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "and?", Screen: sc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ToolCalls) != 0 || e.box.get("db_get_ux_details").count() != 1 {
		t.Errorf("same screen reran: %s", sources(r.ToolCalls))
	}
	// Bad screen data is refused before the exchange advances.
	bad := &screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`[1]`)}
	if _, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: id, Message: "x", Screen: bad}, nil); !errors.Is(err, screens.ErrBadScreen) {
		t.Errorf("bad screen err = %v", err)
	}
	m, _ := e.store.Session(context.Background(), id)
	if m.Exchange != 2 {
		t.Errorf("exchange = %d after a refused turn, want 2", m.Exchange)
	}
}

func TestNewServiceRefusesNil(t *testing.T) {
	if _, err := NewService(Deps{}, Options{}); err == nil {
		t.Error("NewService without deps succeeded")
	}
	e := newEnv(t, envConfig{noLLM: true})
	if _, err := NewService(Deps{Store: e.store, Executor: e.box.exec}, Options{}); err == nil {
		t.Error("NewService without a fallback succeeded")
	}
}

// recorder is an Observer that keeps what it is told.
type recorder struct {
	mu       sync.Mutex
	batches  [][]tool.Outcome
	usage    llm.Usage
	llmCalls int
	llmErrs  int
	turns    []Reply
}

func (r *recorder) ToolCalls(_ context.Context, _ string, outs []tool.Outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.batches = append(r.batches, outs)
}

func (r *recorder) LLMCall(_ context.Context, u llm.Usage, _ time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.llmCalls++
	r.usage.PromptTokens += u.PromptTokens
	r.usage.CompletionTokens += u.CompletionTokens
	if err != nil {
		r.llmErrs++
	}
}

func (r *recorder) Turn(_ context.Context, rep Reply, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.turns = append(r.turns, rep)
}

func TestObserver(t *testing.T) {
	rec := &recorder{}
	e := newEnv(t, envConfig{observer: rec})
	id, _ := e.session(t)
	e.fake.Enqueue(llmtest.ToolCalls(champCall("c1", "Kaelith")), llmtest.Text("done"), llmtest.Status(400, nil))
	r := e.turn(t, id, "kaelith")
	if len(rec.batches) != 1 || len(rec.batches[0]) != 1 || rec.batches[0][0].Name != "gcs_get_champion_details" {
		t.Errorf("tool batches = %+v", rec.batches)
	}
	if rec.llmCalls != 2 || rec.usage != r.Usage || rec.llmErrs != 0 {
		t.Errorf("llm calls %d usage %+v errs %d, reply usage %+v", rec.llmCalls, rec.usage, rec.llmErrs, r.Usage)
	}
	if len(rec.turns) != 1 || rec.turns[0].Reply != "done" {
		t.Errorf("turns = %+v", rec.turns)
	}
	// A failing call is reported with its error, and the turn still answers.
	r = e.turn(t, id, "tell me about Sylva")
	if rec.llmErrs != 1 || !r.Degraded || len(rec.turns) != 2 {
		t.Errorf("after failure: errs %d degraded %v turns %d", rec.llmErrs, r.Degraded, len(rec.turns))
	}
}
