package chat

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// briefing is a composite tool (a chain, as a tools file builds one) whose
// steps are fixed calls; it reports each step's source as its data.
type briefing struct{ steps []tool.Call }

func (b *briefing) Spec() tool.Spec {
	return tool.Spec{
		Name: "boss_briefing", Category: tool.CategoryCustom, CacheDuration: 0,
		Parameters: objSchema(`"boss_name":{"type":"string"}`),
	}
}

func (b *briefing) Call(context.Context, json.RawMessage) (tool.Result, error) {
	return tool.Failure("no executor", "no executor", ""), nil
}

func (b *briefing) Compose(ctx context.Context, _ json.RawMessage, steps tool.Steps) (tool.Result, error) {
	outs := steps(ctx, b.steps)
	srcs := make([]string, len(outs))
	for i, o := range outs {
		srcs[i] = string(o.Source)
	}
	return tool.Success("ok", srcs), nil
}

func stepSources(t *testing.T, o tool.Outcome) []string {
	t.Helper()
	raw, _ := o.Result.Data.(json.RawMessage)
	var srcs []string
	if err := json.Unmarshal(raw, &srcs); err != nil {
		t.Fatalf("%s: %v (%+v)", raw, err, o.Result)
	}
	return srcs
}

// TestCompositeStepsThroughTheScope: a chain's steps run through the
// session's scope: cached by their own durations, served from the cache
// (and counted as hits) in a later turn, answered once within a turn, and
// reported to the observer like any call.
func TestCompositeStepsThroughTheScope(t *testing.T) {
	ctx := context.Background()
	box := newToolbox(t)
	champ := call("gcs_get_champion_details", `{"champion_name":"Kaelith"}`)
	counters := call("gcs_find_counters_for_boss", `{"boss_name":"Fire Knight"}`)
	if err := box.reg.Register(&briefing{steps: []tool.Call{champ, counters}}); err != nil {
		t.Fatal(err)
	}
	obs := &recorder{}
	r, err := NewRunner(box.exec, nil, obs, nil)
	if err != nil {
		t.Fatal(err)
	}
	chain := call("boss_briefing", `{"boss_name":"Fire Knight"}`)

	first := r.Scope(ctx, "s1", 1, nil, false)
	outs := first.Run(ctx, []tool.Call{chain})
	if outs[0].Source != tool.SourceExecuted || !outs[0].Result.OK() {
		t.Fatalf("chain %+v", outs[0])
	}
	if got := stepSources(t, outs[0]); !slices.Equal(got, []string{"executed", "executed"}) {
		t.Fatalf("step sources %v", got)
	}
	// The step with a cache duration is cached; the chain (0) is not.
	puts := first.Puts()
	if len(puts) != 1 || puts[0].Tool != "gcs_get_champion_details" || puts[0].Duration != 3 {
		t.Fatalf("puts %+v", puts)
	}
	// Later in the same turn, the same call is a duplicate of the step.
	if again := first.Run(ctx, []tool.Call{champ}); again[0].Source != tool.SourceDuplicate {
		t.Fatalf("same call after the chain: %s", again[0].Source)
	}
	// The observer saw the steps and the chain.
	obs.mu.Lock()
	var seen []string
	for _, b := range obs.batches {
		for _, o := range b {
			seen = append(seen, o.Name+":"+string(o.Source))
		}
	}
	obs.mu.Unlock()
	if !slices.Contains(seen, "gcs_get_champion_details:executed") || !slices.Contains(seen, "boss_briefing:executed") {
		t.Fatalf("observer saw %v", seen)
	}

	// Next turn: the cached step is served from the session cache.
	second := r.Scope(ctx, "s1", 2, []memory.CacheEntry{puts[0]}, false)
	outs = second.Run(ctx, []tool.Call{chain})
	if got := stepSources(t, outs[0]); !slices.Equal(got, []string{"cache", "executed"}) {
		t.Fatalf("step sources %v", got)
	}
	if hits := second.Hits(); len(hits) != 1 || hits[0] != puts[0].Key {
		t.Fatalf("hits %v, want the step's key %s", hits, puts[0].Key)
	}
	if n := box.get("gcs_get_champion_details").count(); n != 1 {
		t.Fatalf("champion details ran %d times, want 1", n)
	}
}

// TestCompositeWithoutStepsExecutor: an executor that cannot hand steps to
// a composite (a test double) still runs it, through its own Execute.
func TestCompositeWithoutStepsExecutor(t *testing.T) {
	ctx := context.Background()
	box := newToolbox(t)
	if err := box.reg.Register(&briefing{steps: []tool.Call{call("gcs_get_champion_details", `{"champion_name":"Kaelith"}`)}}); err != nil {
		t.Fatal(err)
	}
	r, err := NewRunner(plainExec{box.exec}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	outs := r.Scope(ctx, "s1", 1, nil, false).Run(ctx, []tool.Call{call("boss_briefing", `{}`)})
	if got := stepSources(t, outs[0]); !slices.Equal(got, []string{"executed"}) {
		t.Fatalf("step sources %v", got)
	}
}

// plainExec hides ExecuteWith.
type plainExec struct{ e *tool.Executor }

func (p plainExec) Execute(ctx context.Context, c tool.Call) tool.Result { return p.e.Execute(ctx, c) }
func (p plainExec) Registry() *tool.Registry                             { return p.e.Registry() }
