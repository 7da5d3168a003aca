package toolsfile_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/tool"
)

// A chain step reads the session's player state with $player.<path>; a
// path the state lacks leaves the step without its value, as a missing
// argument does, and the chain is marked as depending on the player.
func TestChainReadsPlayerState(t *testing.T) {
	file := `chains:
  - name: player_chain
    description: Reads the player.
    parameters: {type: object, properties: {}}
    steps:
      - {id: chapter, tool: step_req, arguments: {key: "$player.progress.name"}}
      - {id: optional_one, tool: step_req, arguments: {key: "$player.nothing.here"}, optional: true}
`
	req := &tool.Def[stepArgs]{
		Name: "step_req", Description: "needs key", Category: tool.CategoryGCS, CacheFor: 5,
		Schema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"],"additionalProperties":false}`), Run: echo,
	}
	b := newChainBox(t, file, req)
	spec, ok := b.reg.Spec("player_chain")
	if !ok || !spec.PlayerScoped() {
		t.Fatalf("a chain reading $player is not player-scoped: %+v", spec)
	}
	st, err := player.Parse("alice", "v1", time.Unix(1_800_000_000, 0), []byte(`{"progress":{"name":"act two"}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := b.call(tool.WithPlayer(context.Background(), st), "player_chain", `{}`)
	if !r.OK() {
		t.Fatalf("chain failed: %+v", r)
	}
	got := decodeChain(t, r)
	if string(got.Data["chapter"]) != `{"key":"act two","next":"act two+"}` {
		t.Fatalf("chapter step data %s", got.Data["chapter"])
	}
	if s := got.step(t, "optional_one"); s.Status != tool.StatusSkipped || s.Message != "no value for key ($player.nothing.here)" {
		t.Fatalf("missing player path: %+v", s)
	}
	// Without a player state the required step has no value: the chain fails and says why.
	r = b.call(context.Background(), "player_chain", `{}`)
	if r.OK() {
		t.Fatalf("chain without player state succeeded: %+v", r)
	}
	if s := decodeChain(t, r).step(t, "chapter"); s.Status != tool.StatusSkipped || s.Message != "no value for key ($player.progress.name)" {
		t.Fatalf("no player state: %+v", s)
	}
}

func TestChainPlayerRefsRefused(t *testing.T) {
	for _, steps := range []string{
		"      - {id: a, tool: step_echo, arguments: {key: \"$player\"}}\n",
		"      - {id: a, tool: step_echo, arguments: {key: \"$player..x\"}}\n",
		"      - {id: player, tool: step_echo, arguments: {key: \"$player.x\"}}\n",
	} {
		file := "chains:\n  - name: bad_chain\n    description: d\n    parameters: {type: object, properties: {}}\n    steps:\n" + steps
		err := buildAndLink(openDB(t), registryWith(t, fakeStep("step_echo", 1, echo)), file)
		if err == nil {
			t.Errorf("steps %q were accepted", steps)
		}
	}
}

func registryWith(t *testing.T, tools ...tool.Tool) *tool.Registry {
	t.Helper()
	reg := tool.NewRegistry()
	if err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	return reg
}

// A file tool binds a boolean flag to the player state: its statement
// reads the owned ids as JSON for json_each, and NULL when the flag is
// off or the session has no state.
func TestFileToolPlayerBinding(t *testing.T) {
	file := `tools:
  - name: cards_owned
    description: Cards, only the player's own when owned_only is set.
    parameters:
      type: object
      properties: {owned_only: {type: boolean}}
      additionalProperties: false
    player: {owned_only: collection.card_id}
    statement: >-
      SELECT name FROM cards WHERE :owned_only IS NULL OR id IN (SELECT value FROM json_each(:owned_only)) ORDER BY id
`
	b := newChainBox(t, file)
	spec, _ := b.reg.Spec("cards_owned")
	if !spec.PlayerScoped() {
		t.Fatalf("spec %+v is not player-scoped", spec)
	}
	all := b.call(context.Background(), "cards_owned", `{"owned_only": true}`)
	st, err := player.Parse("alice", "v1", time.Unix(1_800_000_000, 0), []byte(`{"collection":[{"card_id":2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	mine := b.call(tool.WithPlayer(context.Background(), st), "cards_owned", `{"owned_only": true}`)
	if !all.OK() || !mine.OK() {
		t.Fatalf("all %s / mine %s", all.ForLLM(), mine.ForLLM())
	}
	var a, m []map[string]any
	_ = json.Unmarshal(all.Data.(json.RawMessage), &a)
	_ = json.Unmarshal(mine.Data.(json.RawMessage), &m)
	if len(a) < 2 || len(m) != 1 {
		t.Fatalf("all %v, mine %v", a, m)
	}

	bad := strings.Replace(file, "player: {owned_only: collection.card_id}", "player: {owned_ids: collection.card_id}", 1)
	if err := buildAndLink(openDB(t), tool.NewRegistry(), bad); err == nil || !strings.Contains(err.Error(), "owned_ids") {
		t.Fatalf("a binding to no parameter: %v", err)
	}
}
