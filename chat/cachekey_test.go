package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/llm/llmtest"
)

// TestPromptCacheKeyPerSession: every LLM request of a session carries
// the same prompt cache key, another session's differs, and the key does
// not reveal the session id.
func TestPromptCacheKeyPerSession(t *testing.T) {
	e := newEnv(t, envConfig{})
	a, _ := e.session(t)
	b, _ := e.session(t)
	e.fake.Enqueue(llmtest.ToolCalls(champCall("c1", "Kaelith")), llmtest.Text("Kaelith."), llmtest.Text("hello"))
	for _, tc := range []struct{ id, msg string }{{a, "tell me about kaelith"}, {b, "hi"}} {
		if _, err := e.svc.Turn(context.Background(), TurnRequest{SessionID: tc.id, Message: tc.msg}, nil); err != nil {
			t.Fatal(err)
		}
	}
	keys := e.fake.CacheKeys()
	if len(keys) != 3 {
		t.Fatalf("%d requests, want 3 (two for a, one for b): %q", len(keys), keys)
	}
	if keys[0] == "" || keys[0] != keys[1] || keys[2] == "" || keys[2] == keys[0] {
		t.Fatalf("keys %q: want a's two requests to share one key and b's to differ", keys)
	}
	for _, k := range keys {
		if strings.Contains(k, a) || strings.Contains(k, b) || len(k) > 64 {
			t.Fatalf("key %q reveals a session id or is too long", k)
		}
	}
}
