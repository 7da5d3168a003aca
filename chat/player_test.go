package chat

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/tool"
)

// ownedTool echoes the ids the executor bound to its owned_only flag.
func ownedTool() *countingTool {
	return &countingTool{
		spec: tool.Spec{
			Name: "test_owned_counters", Category: tool.CategoryGCS, CacheDuration: 3,
			Parameters: objSchema(`"owned_only":{"type":"boolean"}`),
			Player:     []tool.PlayerParam{{Flag: "owned_only", Path: "roster.id"}},
		},
		fn: func(ctx context.Context, _ map[string]any) (tool.Result, error) {
			vals, known, set := tool.Bound(ctx, "owned_only")
			return tool.Success("ok", map[string]any{"owned": vals, "known": known, "set": set}), nil
		},
	}
}

func userText(req openai.ChatCompletionRequest) string {
	return req.Messages[len(req.Messages)-1].Content
}

// A session reads its own player's state and no other: the player block
// goes into the user turn (never the system message), stays out of later
// turns while unchanged (the earlier block is repeated byte for byte in
// the history), player-bound tools get the owned ids server-side, and a
// new state is never answered from a cache entry of the old one.
func TestTurnUsesThePlayersState(t *testing.T) {
	e := newEnv(t, envConfig{})
	owned := ownedTool()
	if err := e.box.reg.Register(owned); err != nil {
		t.Fatal(err)
	}
	e.svc = e.newService(t, envConfig{})
	e.svc.names = translator{}
	ctx := context.Background()
	alice, _, err := e.svc.CreateSession(ctx, "alice", "en")
	if err != nil {
		t.Fatal(err)
	}
	bob, _, err := e.svc.CreateSession(ctx, "bob", "en")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1_800_000_000, 0)
	state := `{"progress":{"chapter":5,"level":27},"roster":[{"id":1001,"level":60,"stars":6},{"id":1002,"level":40,"stars":4}]}`
	if _, _, err := e.store.PutPlayerState(ctx, "alice", []byte(state), at, time.Hour); err != nil {
		t.Fatal(err)
	}
	ownedCall := llmtest.Call{ID: "o1", Name: "test_owned_counters", Arguments: `{"owned_only":true}`}

	e.fake.Enqueue(llmtest.ToolCalls(ownedCall), llmtest.Text("Bring Kaelith."))
	r := e.turn(t, alice, "who should I bring?")
	reqs := e.fake.Requests()
	first := reqs[0]
	if sys := first.Messages[0]; sys.Role != openai.ChatMessageRoleSystem || strings.Contains(sys.Content, "roster") {
		t.Fatalf("system message carries the player: %q", sys.Content)
	}
	block := userText(first)
	for _, want := range []string{playerHeader, "progress: chapter 5, level 27", "roster: 2 champions owned", "Kaelith (level 60, 6★)"} {
		if !strings.Contains(block, want) {
			t.Errorf("alice's first user turn lacks %q:\n%s", want, block)
		}
	}
	if len(r.ToolCalls) != 1 || !strings.Contains(string(mustJSON(t, r.ToolCalls[0].Result.Data)), `"owned":["1001","1002"]`) &&
		!strings.Contains(string(mustJSON(t, r.ToolCalls[0].Result.Data)), `"owned":[1001,1002]`) {
		t.Fatalf("bound ids: %+v", r.ToolCalls)
	}

	// Unchanged state: the next turn adds no player block, and its history
	// holds the first block byte for byte.
	e.fake.Enqueue(llmtest.ToolCalls(ownedCall), llmtest.Text("Still Kaelith."))
	r = e.turn(t, alice, "and now?")
	reqs = e.fake.Requests()
	second := reqs[2]
	if strings.Contains(userText(second), playerHeader) {
		t.Errorf("an unchanged player block was sent again: %q", userText(second))
	}
	if !strings.Contains(second.Messages[1].Content, block[:strings.Index(block, "who should I bring?")]) {
		t.Errorf("the history does not repeat the first data block byte for byte")
	}
	if r.ToolCalls[0].Source != tool.SourceCache {
		t.Errorf("same state, same call: source %s, want cache", r.ToolCalls[0].Source)
	}

	// Bob's session sees none of alice's state.
	e.fake.Enqueue(llmtest.ToolCalls(ownedCall), llmtest.Text("No idea."))
	r = e.turn(t, bob, "who should I bring?")
	reqs = e.fake.Requests()
	if txt := userText(reqs[4]); strings.Contains(txt, playerHeader) || strings.Contains(txt, "Kaelith") {
		t.Errorf("bob's turn shows a player block: %q", txt)
	}
	if got := string(mustJSON(t, r.ToolCalls[0].Result.Data)); !strings.Contains(got, `"known":false`) || strings.Contains(got, "1001") {
		t.Errorf("bob's bound tool got %s", got)
	}

	// A newer state: the block is sent again and the cached result of the
	// old roster is not served.
	if _, _, err := e.store.PutPlayerState(ctx, "alice", []byte(`{"progress":{"chapter":6},"roster":[{"id":1001,"level":61}]}`), at.Add(time.Minute), time.Hour); err != nil {
		t.Fatal(err)
	}
	e.fake.Enqueue(llmtest.ToolCalls(ownedCall), llmtest.Text("Kaelith again."))
	r = e.turn(t, alice, "and with my new roster?")
	reqs = e.fake.Requests()
	if txt := userText(reqs[6]); !strings.Contains(txt, "progress: chapter 6") || !strings.Contains(txt, "roster: 1 champions owned") {
		t.Errorf("the new state's block is missing: %q", txt)
	}
	if r.ToolCalls[0].Source != tool.SourceExecuted || owned.count() != 3 {
		t.Errorf("new roster: source %s, executions %d; want executed, 3", r.ToolCalls[0].Source, owned.count())
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
