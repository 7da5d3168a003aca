package toolsfile_test

import (
	"context"
	"encoding/json"
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
