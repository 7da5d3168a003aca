package cassette

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/llm/llmtest"
)

const apiKey = "sk-test-secret-key-123456"

// client is the project's real LLM client over t.
func client(t *testing.T, baseURL string, tr http.RoundTripper) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Options{BaseURL: baseURL, APIKey: apiKey, Model: "gpt-4o-mini", MaxAttempts: 1, HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ask(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleSystem, Content: "You help players."}, {Role: llm.RoleUser, Content: text}}}
}

func TestRecordThenReplay(t *testing.T) {
	fake := llmtest.New(t)
	fake.SetAPIKey(apiKey)
	fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "c1", Name: "cache_get_bosses_list", Arguments: `{}`}).WithUsage(40, 7),
		llmtest.Text("The Fire Knight is weak to water.").WithUsage(50, 9),
	)
	dir := filepath.Join(t.TempDir(), "cassettes")
	rec, err := New(Record, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := client(t, fake.URL(), rec)
	ctx := context.Background()
	first, err := c.Complete(ctx, ask("bosses?"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Complete(ctx, ask("fire knight weakness?"))
	if err != nil {
		t.Fatal(err)
	}
	if n, _, _ := rec.Stats(); n != 2 {
		t.Fatalf("recorded %d, want 2", n)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 2 {
		t.Fatalf("files = %v, want 2", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), apiKey) || strings.Contains(strings.ToLower(string(b)), "authorization") {
			t.Errorf("%s holds a credential:\n%s", f, b)
		}
	}

	// Replay with the upstream gone, under another base URL.
	fake.Close()
	rep, err := New(Replay, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c2 := client(t, "http://cassette.invalid/v1", rep)
	probe := &Probe{}
	pctx := WithProbe(ctx, probe)
	got, err := c2.Complete(pctx, ask("bosses?"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != first.ToolCalls[0].Name || got.Usage != first.Usage {
		t.Errorf("replayed %+v, recorded %+v", got, first)
	}
	got, err = c2.Complete(pctx, ask("fire knight weakness?"))
	if err != nil || got.Content != second.Content {
		t.Fatalf("replayed %+v (%v), recorded %+v", got, err, second)
	}
	if probe.Calls() != 2 || probe.Misses() != 0 {
		t.Errorf("probe calls %d misses %d, want 2 and 0", probe.Calls(), probe.Misses())
	}

	// A changed prompt is a miss: an error for the client, counted on the probe.
	missProbe := &Probe{}
	_, err = c2.Complete(WithProbe(ctx, missProbe), ask("fire knight weakness ?"))
	var le *llm.Error
	if !errors.As(err, &le) || !strings.Contains(err.Error(), MissReason) {
		t.Fatalf("miss: err = %v, want an llm error naming %q", err, MissReason)
	}
	if missProbe.Misses() != 1 || probe.Misses() != 0 {
		t.Errorf("misses: this probe %d, other probe %d", missProbe.Misses(), probe.Misses())
	}
	if _, hits, misses := rep.Stats(); hits != 2 || misses != 1 {
		t.Errorf("stats hits %d misses %d", hits, misses)
	}
}

func TestRecordKeepsOnlySuccess(t *testing.T) {
	fake := llmtest.New(t)
	fake.Enqueue(llmtest.Status(http.StatusTooManyRequests, nil))
	dir := t.TempDir()
	rec, err := New(Record, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client(t, fake.URL(), rec).Complete(context.Background(), ask("hi")); err == nil {
		t.Fatal("want the 429 to reach the client")
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) != 0 {
		t.Errorf("an error answer was recorded: %v", files)
	}
}

func TestPassCounts(t *testing.T) {
	fake := llmtest.New(t)
	fake.Enqueue(llmtest.Status(http.StatusServiceUnavailable, nil), llmtest.Text("ok"))
	pass, err := New(Pass, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := llm.New(llm.Options{BaseURL: fake.URL(), APIKey: apiKey, Model: "gpt-4o-mini", MaxAttempts: 2, BaseBackoff: time.Millisecond, HTTPClient: &http.Client{Transport: pass}})
	if err != nil {
		t.Fatal(err)
	}
	p := &Probe{}
	if _, err := c.Complete(WithProbe(context.Background(), p), ask("hi")); err != nil {
		t.Fatal(err)
	}
	if p.Calls() != 1 || fake.RequestCount() != 2 {
		t.Errorf("calls = %d over %d requests, want 1 answered of 2 (the 503 was retried)", p.Calls(), fake.RequestCount())
	}
}

func TestNewRefuses(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		mode Mode
		dir  string
	}{
		{"replay of a missing dir", Replay, filepath.Join(t.TempDir(), "nope")},
		{"replay of a file", Replay, file},
		{"record without dir", Record, ""},
		{"unknown mode", Mode(9), t.TempDir()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.mode, tt.dir, nil); err == nil {
				t.Error("want an error")
			}
		})
	}
}

func TestEndpoint(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/v1/chat/completions", "chat/completions"},
		{"/openai/v1/chat/completions/", "chat/completions"},
		{"/v1/embeddings", "embeddings"},
		{"/v1/models", "models"},
	}
	for _, tt := range tests {
		if got := Endpoint(tt.path); got != tt.want {
			t.Errorf("Endpoint(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestKeyIgnoresPromptCacheKey: a request recorded without a prompt cache
// key is found again with any key, and nothing else of the body is ignored.
func TestKeyIgnoresPromptCacheKey(t *testing.T) {
	plain := []byte(`{"model":"m","messages":[]}`)
	keyed := []byte(`{"prompt_cache_key":"ga-1\"x","model":"m","messages":[]}`)
	other := []byte(`{"prompt_cache_key":"ga-2","model":"n","messages":[]}`)
	if Key("POST", "chat/completions", plain) != Key("POST", "chat/completions", keyed) {
		t.Error("the cache key changed the cassette key")
	}
	if Key("POST", "chat/completions", plain) == Key("POST", "chat/completions", other) {
		t.Error("a different model found the same cassette")
	}
	if got := string(withoutCacheKey([]byte(`{"prompt_cache_key":"k"}`))); got != `{}` {
		t.Errorf("withoutCacheKey of a body with nothing else = %s", got)
	}
}
