package toolsfile_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/rollout"
	"github.com/gameassist/gameassist/tool"
)

// versionedChains defines card_brief twice: version 1 reads the card only;
// version 2 also the decks that play it, under another description. The
// file starts 70 % of sessions on version 1.
const versionedChains = `chains:
  - name: card_brief
    description: A card, first version.
    aliases: [brief_old]
    version: 1
    parameters:
      type: object
      properties: {name: {type: string, minLength: 1}}
      required: [name]
      additionalProperties: false
    steps:
      - {id: card, tool: cards_card, arguments: {name: $params.name}}
  - name: card_brief
    description: A card with its decks, second version.
    aliases: [brief_old, brief_new]
    version: 2
    parameters:
      type: object
      properties: {name: {type: string, minLength: 1}}
      required: [name]
      additionalProperties: false
    steps:
      - {id: card, tool: cards_card, arguments: {name: $params.name}}
      - id: decks
        tool: cards_decks
        arguments: {card_ids: ["$card.data.id"]}
rollouts:
  card_brief: {"1": 70, "2": 30}
`

// stepIDs lists the ids of the steps a chain's result reports.
func (c chainResult) stepIDs() string {
	ids := make([]string, len(c.Steps))
	for i, s := range c.Steps {
		ids[i] = s.ID
	}
	return strings.Join(ids, ",")
}

func TestChainVersions(t *testing.T) {
	b := newChainBox(t, chainTools+versionedChains)
	if got := strings.Join(b.set.Names(), ","); got != "cards_card,cards_decks,cards_cheaper,card_brief" {
		t.Fatalf("names %s", got)
	}
	if len(b.set.Chains) != 2 || b.set.Chains[0].Spec().Version != 1 || b.set.Chains[1].Spec().Version != 2 {
		t.Fatalf("chains %d", len(b.set.Chains))
	}
	if r := b.set.Rollouts["card_brief"]; len(r) != 2 || r[1] != 70 || r[2] != 30 {
		t.Fatalf("rollouts %v", b.set.Rollouts)
	}
	if vs := b.reg.Versions("brief_old"); len(vs) != 2 || vs[0] != 1 || vs[1] != 2 {
		t.Fatalf("versions by the shared alias %v", vs)
	}
	if got := b.reg.Versioned(); len(got) != 1 || got[0] != "card_brief" {
		t.Fatalf("versioned %v", got)
	}
	// Each version has its own description and cache duration: the
	// smallest of its own steps' (cards_card 4; with cards_decks 2).
	for v, want := range map[int]struct {
		desc     string
		cacheFor int
	}{1: {"A card, first version.", 4}, 2: {"A card with its decks, second version.", 2}} {
		sp, ok := b.reg.SpecVersion("card_brief", v)
		if !ok || sp.Description != want.desc || sp.CacheDuration != want.cacheFor || sp.Version != v {
			t.Fatalf("version %d: %+v", v, sp)
		}
	}
	if !b.reg.IsComposite("brief_new") {
		t.Fatal("a versioned chain is not composite")
	}
	for v, want := range map[int]int{0: 2, 1: 1, 2: 2} {
		if steps, ok := b.reg.StepInfosVersion("brief_old", v); !ok || len(steps) != want {
			t.Fatalf("version %d lists steps %+v", v, steps)
		}
	}

	tests := []struct {
		name      string
		call      tool.Call
		wantVer   int
		wantSteps string
		wantFor   int
	}{
		{name: "version 1 by the shared alias", call: tool.Call{Name: "brief_old", Version: 1}, wantVer: 1, wantSteps: "card", wantFor: 4},
		{name: "version 2 by name", call: tool.Call{Name: "card_brief", Version: 2}, wantVer: 2, wantSteps: "card,decks", wantFor: 2},
		{name: "no version runs the highest", call: tool.Call{Name: "brief_new"}, wantVer: 2, wantSteps: "card,decks", wantFor: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.call.Arguments = json.RawMessage(`{"name":"ember imp"}`)
			r := b.exec.Execute(context.Background(), tc.call)
			if !r.OK() || r.InternalInfo.Version != tc.wantVer || r.InternalInfo.FunctionName != "card_brief" || r.LLMCacheDuration != tc.wantFor {
				t.Fatalf("result %+v", r)
			}
			got := decodeChain(t, r)
			if got.stepIDs() != tc.wantSteps || string(got.Data["card"]) != `{"id":1,"name":"Ember Imp","cost":1}` {
				t.Fatalf("steps %s, data %v", got.stepIDs(), got.Data)
			}
		})
	}
	r := b.exec.Execute(context.Background(), tool.Call{Name: "card_brief", Version: 3, Arguments: json.RawMessage(`{"name":"x"}`)})
	if r.OK() || !strings.Contains(r.Message, "no version 3") || !strings.Contains(r.Guidance, "[1 2]") {
		t.Fatalf("unknown version: %+v", r)
	}

	// A chain without version: stays unversioned (version 0), as before
	// chains had versions.
	plain := newChainBox(t, chainTools+cardChain)
	if vs := plain.reg.Versions("card_briefing"); len(vs) != 1 || vs[0] != 0 {
		t.Fatalf("unversioned chain has versions %v", vs)
	}
}

// TestChainVersionsRolledOut runs the versioned chain for many sessions
// as a chat turn does: each session's version comes from the rollout
// assigner over a real Redis (single node and cluster) and the call runs
// that version through the executor. The file's 70/30 splits the sessions
// within a tolerance; an admin's 0/100 moves them all to version 2; clearing
// it brings back the file's split, with the sessions on version 2 kept.
func TestChainVersionsRolledOut(t *testing.T) {
	b := newChainBox(t, chainTools+versionedChains)
	redistest.EachFresh(t, func(t *testing.T, rs redistest.Backend) {
		ctx := context.Background()
		a, err := rollout.New(rs.UniversalClient(t), b.reg, rollout.Options{Prefix: rs.Prefix(t)})
		if err != nil {
			t.Fatal(err)
		}
		file := map[string]rollout.Weights{}
		for name, r := range b.set.Rollouts {
			file[name] = rollout.Weights(r)
		}
		a.SetFileWeights(file)

		vs := b.reg.Versions("card_brief")
		// turn runs the chain for session, which holds version kept (0:
		// none yet), and returns the version that ran.
		turn := func(session string, kept int) int {
			t.Helper()
			v := a.Version(ctx, session, "card_brief", vs, kept)
			r := b.exec.ExecuteWith(ctx, tool.Call{Name: "brief_old", Version: v, Arguments: json.RawMessage(`{"name":"ember imp"}`)}, nil)
			if !r.OK() || r.InternalInfo.Version != v {
				t.Fatalf("session %s on version %d: %+v", session, v, r)
			}
			want := map[int]string{1: "card", 2: "card,decks"}[v]
			if got := decodeChain(t, r).stepIDs(); got != want {
				t.Fatalf("session %s on version %d ran steps %s", session, v, got)
			}
			return v
		}

		const n = 600
		held := map[string]int{}
		on2 := 0
		for i := range n {
			id := fmt.Sprintf("session-%d", i)
			held[id] = turn(id, 0)
			if held[id] == 2 {
				on2++
			}
		}
		if share := 100 * float64(on2) / n; share < 30-6 || share > 30+6 {
			t.Fatalf("the file's 70/30 puts %.1f%% of sessions on version 2", share)
		}
		// Sticky: the same sessions again, holding their versions.
		for id, v := range held {
			if got := turn(id, v); got != v {
				t.Fatalf("session %s moved from %d to %d", id, v, got)
			}
		}

		// The admin route's weights, by alias: everyone on version 2.
		if _, err := a.Set(ctx, "brief_new", rollout.Weights{1: 0, 2: 100}); err != nil {
			t.Fatal(err)
		}
		for id, v := range held {
			if got := turn(id, v); got != 2 {
				t.Fatalf("under 0/100 session %s runs %d", id, got)
			}
			held[id] = 2
		}
		// Cleared: the file's 70/30 again; the sessions now on version 2
		// keep it (its weight is above 0), new ones split.
		if _, err := a.Clear(ctx, "card_brief"); err != nil {
			t.Fatal(err)
		}
		for id := range held {
			if got := turn(id, 2); got != 2 {
				t.Fatalf("after the clear session %s moved to %d", id, got)
			}
		}
		if got := turn("a-new-session", 0); got != rollout.Pick("a-new-session", "card_brief", rollout.Weights{1: 70, 2: 30}, vs) {
			t.Fatalf("a new session runs %d, not the file's pick", got)
		}
	})
}

func TestChainVersionsRefused(t *testing.T) {
	db := openDB(t)
	builtins := tool.NewRegistry()
	if err := builtins.Register(fakeStep("step_echo", 1, echo)); err != nil {
		t.Fatal(err)
	}
	// chain writes one definition of a chain; version "" leaves version: out.
	chain := func(name, version string, aliases string) string {
		s := "  - name: " + name + "\n    description: d\n"
		if version != "" {
			s += "    version: " + version + "\n"
		}
		if aliases != "" {
			s += "    aliases: [" + aliases + "]\n"
		}
		return s + "    steps:\n      - {id: a, tool: step_echo}\n"
	}
	// chainTools has 34 lines; chains: is line 35, the first chain 36.
	tests := []struct {
		name string
		file string
		want []string
	}{
		{name: "version 0", file: chainTools + "chains:\n" + chain("duo", "0", ""),
			want: []string{"tools.yaml:36", "chain duo", "version 0 must be 1 or more"}},
		{name: "negative version", file: chainTools + "chains:\n" + chain("duo", "-2", ""),
			want: []string{"tools.yaml:36", "chain duo", "version -2 must be 1 or more"}},
		{name: "version not a number", file: chainTools + "chains:\n" + chain("duo", "two", ""),
			want: []string{"tools.yaml:36", "chain duo", "version"}},
		{name: "the same version twice", file: chainTools + "chains:\n" + chain("duo", "2", "") + chain("duo", "2", ""),
			want: []string{"tools.yaml:41", "chain duo", "version 2 of chain duo is already defined at line 36"}},
		{name: "twice without versions", file: chainTools + "chains:\n" + chain("duo", "", "") + chain("duo", "", ""),
			want: []string{"tools.yaml:40", "chain duo", "also defined at line 36 (give each version of a chain its own version:)"}},
		{name: "one version without version:", file: chainTools + "chains:\n" + chain("duo", "1", "") + chain("duo", "", ""),
			want: []string{"tools.yaml:41", "chain duo", "also defined at line 36"}},
		{name: "a version named like a file tool", file: chainTools + "chains:\n" + chain("cards_card", "2", ""),
			want: []string{"tools.yaml:36", "chain cards_card", `name "cards_card" is already used by tool cards_card (line 2)`}},
		{name: "alias of another chain", file: chainTools + "chains:\n" + chain("duo", "1", "old_duo") + chain("trio", "1", "old_duo"),
			want: []string{"tools.yaml:42", "chain trio", `name "old_duo" is already used by chain duo (line 36)`}},
		{name: "rollout of an unversioned chain", file: chainTools + "chains:\n" + chain("duo", "", "") + "rollouts:\n  duo: {\"1\": 100}\n",
			want: []string{"tools.yaml:41", "tool duo", "the chain is not versioned"}},
		{name: "rollout of a chain with one version", file: chainTools + "chains:\n" + chain("duo", "3", "") + "rollouts:\n  duo: {\"3\": 100}\n",
			want: []string{"tools.yaml:42", "tool duo", "only version 3"}},
		{name: "rollout naming a version the chain lacks", file: chainTools + "chains:\n" + chain("duo", "1", "") + chain("duo", "2", "") +
			"rollouts:\n  duo: {\"1\": 50, \"4\": 50}\n",
			want: []string{"tools.yaml:47", "tool duo", "version 4 is not defined (the tool has versions [1 2])"}},
		{name: "rollout weights not summing to 100", file: chainTools + "chains:\n" + chain("duo", "1", "") + chain("duo", "2", "") +
			"rollouts:\n  duo: {\"1\": 50, \"2\": 40}\n",
			want: []string{"tools.yaml:47", "tool duo", "sum to 90, not 100"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := buildAndLink(db, builtins, tc.file)
			wantInvalid(t, err, tc.want...)
		})
	}

	// Two versions sharing aliases, each version only once: accepted.
	if err := buildAndLink(db, builtins, chainTools+"chains:\n"+chain("duo", "1", "old_duo")+chain("duo", "2", "old_duo, new_duo")+
		"rollouts:\n  duo: {\"1\": 50, \"2\": 50}\n"); err != nil {
		t.Fatalf("two versions refused: %v", err)
	}
}
