package toolsfile_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/gameassist/gameassist/tool"
	toolsfile "github.com/gameassist/gameassist/tools_file"
)

// chainTools are file tools over the card database for the chains below.
const chainTools = `tools:
  - name: cards_card
    description: One card by name, with its id.
    cache_duration: 4
    llm_instruction: Quote the cost.
    parameters:
      type: object
      properties: {name: {type: string, minLength: 1}}
      required: [name]
      additionalProperties: false
    statement: SELECT id, name, cost FROM cards WHERE name = :name COLLATE NOCASE
    result: row
  - name: cards_decks
    description: Decks holding any of the given card ids.
    cache_duration: 2
    parameters:
      type: object
      properties: {card_ids: {type: array, items: {type: integer}, minItems: 1}}
      required: [card_ids]
      additionalProperties: false
    statement: >-
      SELECT DISTINCT d.name AS deck FROM decks d JOIN deck_cards dc ON dc.deck_id = d.id
      WHERE dc.card_id IN (SELECT value FROM json_each(:card_ids)) ORDER BY d.name
  - name: cards_cheaper
    description: Cards of a rarity, optionally up to a cost.
    cache_duration: 3
    parameters:
      type: object
      properties:
        rarity: {type: string, enum: [common, rare, epic, legendary]}
        max_cost: {type: integer, minimum: 0}
      required: [rarity]
      additionalProperties: false
    statement: SELECT name FROM cards WHERE rarity = :rarity AND (:max_cost IS NULL OR cost <= :max_cost) ORDER BY name
`

const cardChain = `chains:
  - name: card_briefing
    description: A card with the decks that play it and cheaper cards of its rarity.
    category: gcs
    llm_instruction: Sum up the card for the player.
    aliases: [brief_card]
    display_name: {en: Card briefing, fr: Fiche de carte}
    parameters:
      type: object
      properties:
        name: {type: string, minLength: 1}
        rarity: {type: string}
        max_cost: {type: integer}
      required: [name, rarity]
      additionalProperties: false
    steps:
      - id: decks
        tool: cards_decks
        arguments: {card_ids: ["$card.data.id"]}
      - {id: card, tool: cards_card, arguments: {name: $params.name}}
      - id: cheaper
        tool: cards_cheaper
        arguments: {rarity: $params.rarity, max_cost: $params.max_cost}
        optional: true
`

// chainBox is a registry with fake built-ins, a tools file's tools and
// chains linked in, and an executor over it.
type chainBox struct {
	set  *toolsfile.Set
	reg  *tool.Registry
	exec *tool.Executor
}

func newChainBox(t testing.TB, file string, builtins ...tool.Tool) *chainBox {
	t.Helper()
	ctx := context.Background()
	reg := tool.NewRegistry()
	if err := reg.Register(builtins...); err != nil {
		t.Fatal(err)
	}
	set, err := toolsfile.Build(ctx, "tools.yaml", []byte(file), openDB(t), reg)
	if err != nil {
		t.Fatal(err)
	}
	withTools, err := reg.WithGroup(toolsfile.Group, set.List()...)
	if err != nil {
		t.Fatal(err)
	}
	if err := set.Link(withTools, nil); err != nil {
		t.Fatal(err)
	}
	if err := reg.ReplaceGroup(toolsfile.Group, set.List()...); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return &chainBox{set: set, reg: reg, exec: ex}
}

func (b *chainBox) call(ctx context.Context, name, args string) tool.Result {
	return b.exec.Execute(ctx, tool.Call{Name: name, Arguments: json.RawMessage(args)})
}

// chainResult is a chain's data decoded.
type chainResult struct {
	Steps []toolsfile.StepReport `json:"steps"`
	Data  map[string]json.RawMessage
}

func decodeChain(t *testing.T, r tool.Result) chainResult {
	t.Helper()
	raw, ok := r.Data.(json.RawMessage)
	if !ok {
		t.Fatalf("data %T", r.Data)
	}
	var out chainResult
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	if err := json.Unmarshal(raw, &out.Data); err != nil {
		t.Fatal(err)
	}
	delete(out.Data, "steps")
	return out
}

func (c chainResult) step(t *testing.T, id string) toolsfile.StepReport {
	t.Helper()
	for _, s := range c.Steps {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no step %s in %+v", id, c.Steps)
	return toolsfile.StepReport{}
}

func TestChainRunsStepsWithTheirData(t *testing.T) {
	b := newChainBox(t, chainTools+cardChain)
	if got := strings.Join(b.set.Names(), ","); got != "cards_card,cards_decks,cards_cheaper,card_briefing" {
		t.Fatalf("names %s", got)
	}
	spec, ok := b.reg.Spec("brief_card")
	if !ok || spec.Name != "card_briefing" || spec.Category != tool.CategoryGCS || spec.Instruction != "Sum up the card for the player." ||
		spec.DisplayNames["fr"] != "Fiche de carte" {
		t.Fatalf("spec %+v", spec)
	}
	// The smallest of its steps' cache durations (4, 2, 3).
	if spec.CacheDuration != 2 {
		t.Fatalf("cache duration %d, want 2", spec.CacheDuration)
	}
	if !b.reg.IsComposite("card_briefing") || b.reg.IsComposite("cards_card") {
		t.Fatal("composite not recognised")
	}

	r := b.call(context.Background(), "brief_card", `{"name":"ember imp","rarity":"common","max_cost":5}`)
	if !r.OK() {
		t.Fatalf("chain failed: %+v", r)
	}
	if r.LLMCacheDuration != 2 || r.LLMInstruction != "Sum up the card for the player." {
		t.Fatalf("duration %d instruction %q", r.LLMCacheDuration, r.LLMInstruction)
	}
	if r.Message != "Ran the 3 steps of card_briefing: 3 succeeded." {
		t.Fatalf("message %q", r.Message)
	}
	raw, _ := r.Data.(json.RawMessage)
	// steps first, then the data in chain order.
	want := `{"steps":[` +
		`{"id":"decks","tool":"cards_decks","status":"success","source":"executed"},` +
		`{"id":"card","tool":"cards_card","status":"success","source":"executed","llm_instruction":"Quote the cost."},` +
		`{"id":"cheaper","tool":"cards_cheaper","status":"success","source":"executed"}],` +
		`"decks":[{"deck":"Burn"}],"card":{"id":1,"name":"Ember Imp","cost":1},"cheaper":[{"name":"Ember Imp"},{"name":"Stone Golem"}]}`
	if string(raw) != want {
		t.Fatalf("data\n%s\nwant\n%s", raw, want)
	}

	// An absent optional parameter leaves the argument out: every common
	// card, not none.
	r = b.call(context.Background(), "card_briefing", `{"name":"Tide Caller","rarity":"common"}`)
	got := decodeChain(t, r)
	if string(got.Data["cheaper"]) != `[{"name":"Ember Imp"},{"name":"Stone Golem"}]` || string(got.Data["decks"]) != `[{"deck":"Control"}]` {
		t.Fatalf("data %s / %s", got.Data["cheaper"], got.Data["decks"])
	}

	// The chain's own arguments are checked against its schema.
	if r := b.call(context.Background(), "card_briefing", `{"name":"x"}`); r.OK() || !strings.Contains(r.ErrorDetails, "rarity") {
		t.Fatalf("missing argument accepted: %+v", r)
	}
}

func TestChainRequiredStepFails(t *testing.T) {
	b := newChainBox(t, chainTools+cardChain)
	// No such card: the card step succeeds with null data, so decks has no
	// value for its required card_ids and cannot run.
	r := b.call(context.Background(), "card_briefing", `{"name":"Nobody","rarity":"common"}`)
	if r.OK() {
		t.Fatalf("chain succeeded: %+v", r)
	}
	if !strings.Contains(r.Message, "step decks") || !strings.Contains(r.Message, "$card.data.id") || r.LLMCacheDuration != 0 {
		t.Fatalf("failure %+v", r)
	}
	got := decodeChain(t, r)
	if s := got.step(t, "decks"); s.Status != tool.StatusSkipped {
		t.Fatalf("decks %+v", s)
	}
	if s := got.step(t, "card"); s.Status != tool.StatusSuccess {
		t.Fatalf("card %+v", s)
	}
}

// stepArgs is the argument object of the fake step tools.
type stepArgs struct {
	Key string `json:"key"`
}

const stepSchema = `{"type":"object","properties":{"key":{"type":"string"}},"additionalProperties":false}`

// fakeStep is a built-in tool whose answer a test writes.
func fakeStep(name string, cacheFor int, run func(ctx context.Context, a stepArgs) (tool.Result, error)) tool.Tool {
	return &tool.Def[stepArgs]{
		Name: name, Description: "test step " + name, Category: tool.CategoryGCS,
		CacheFor: cacheFor, Schema: json.RawMessage(stepSchema), Run: run,
	}
}

func echo(ctx context.Context, a stepArgs) (tool.Result, error) {
	return tool.Success("ok", map[string]any{"key": a.Key, "next": a.Key + "+"}), nil
}

func TestChainOptionalSteps(t *testing.T) {
	broken := fakeStep("step_broken", 5, func(context.Context, stepArgs) (tool.Result, error) {
		return tool.Failure("Nothing found.", "no row", "Ask for another key."), nil
	})
	file := `chains:
  - name: optional_chain
    description: Optional steps.
    parameters: {type: object, properties: {key: {type: string}, extra: {type: string}}, required: [key]}
    steps:
      - {id: first, tool: step_echo, arguments: {key: $params.key}}
      - {id: broken, tool: step_broken, arguments: {key: "$first.data.next"}, optional: true}
      - {id: after_broken, tool: step_echo, arguments: {key: "$broken.data.key"}, optional: true}
      - {id: after_skip, tool: step_echo, arguments: {key: "$after_broken.data.key"}, optional: true}
      - {id: absent, tool: step_req, arguments: {key: $params.extra}, optional: true}
`
	req := &tool.Def[stepArgs]{
		Name: "step_req", Description: "needs key", Category: tool.CategoryGCS, CacheFor: 5,
		Schema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"],"additionalProperties":false}`), Run: echo,
	}
	b := newChainBox(t, file, fakeStep("step_echo", 5, echo), broken, req)

	r := b.call(context.Background(), "optional_chain", `{"key":"a"}`)
	if !r.OK() {
		t.Fatalf("chain failed: %+v", r)
	}
	got := decodeChain(t, r)
	checks := []struct {
		id      string
		status  tool.Status
		message string
	}{
		{"first", tool.StatusSuccess, ""},
		{"broken", tool.StatusError, "Nothing found."},
		{"after_broken", tool.StatusSkipped, "its input comes from step broken, which failed"},
		{"after_skip", tool.StatusSkipped, "its input comes from step after_broken, which was skipped"},
		{"absent", tool.StatusSkipped, "no value for key ($params.extra)"},
	}
	for _, c := range checks {
		s := got.step(t, c.id)
		if s.Status != c.status || s.Message != c.message {
			t.Errorf("step %s: %+v, want %s %q", c.id, s, c.status, c.message)
		}
	}
	if string(got.Data["first"]) != `{"key":"a","next":"a+"}` || got.Data["broken"] != nil {
		t.Fatalf("data %v", got.Data)
	}
	// A failed optional step keeps the partial result out of the cache.
	if r.LLMCacheDuration != 0 {
		t.Fatalf("cache duration %d after a failed step, want 0", r.LLMCacheDuration)
	}
	if r.Message != "Ran the 5 steps of optional_chain: 1 succeeded, 1 failed (optional), 3 skipped." {
		t.Fatalf("message %q", r.Message)
	}
}

func TestChainCacheDurationIsTheSmallest(t *testing.T) {
	file := `chains:
  - name: durations
    description: Two steps, cached 5 and 2 exchanges.
    parameters: {type: object, properties: {key: {type: string}, extra: {type: string}}}
    steps:
      - {id: long, tool: step_long, arguments: {key: $params.key}}
      - {id: short, tool: step_short, arguments: {key: $params.key}}
      - {id: absent, tool: step_req, arguments: {key: $params.extra}, optional: true}
`
	short := fakeStep("step_short", 2, echo)
	req := &tool.Def[stepArgs]{
		Name: "step_req", Description: "needs key", Category: tool.CategoryGCS, CacheFor: 1,
		Schema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"],"additionalProperties":false}`), Run: echo,
	}
	b := newChainBox(t, file, fakeStep("step_long", 5, echo), short, req)
	if spec, _ := b.reg.Spec("durations"); spec.CacheDuration != 1 {
		t.Fatalf("spec cache duration %d, want 1 (the smallest step tool's)", spec.CacheDuration)
	}
	// The skipped step (no value given) does not count: its tool did not
	// run, so the result holds the smallest of the steps that ran... but
	// never more than the spec's.
	r := b.call(context.Background(), "durations", `{"key":"k"}`)
	if !r.OK() || r.LLMCacheDuration != 1 {
		t.Fatalf("result %+v", r)
	}

	// A step's own result may ask for less than its tool's default.
	shorter := fakeStep("step_short", 2, func(ctx context.Context, a stepArgs) (tool.Result, error) {
		r := tool.Success("ok", a.Key)
		r.LLMCacheDuration = 0
		return r, nil
	})
	b = newChainBox(t, file, fakeStep("step_long", 5, echo), shorter, req)
	if r := b.call(context.Background(), "durations", `{"key":"k"}`); !r.OK() || r.LLMCacheDuration != 0 {
		t.Fatalf("result %+v", r)
	}
}

// TestChainStepsRunConcurrently: steps a and b do not depend on each
// other, and each waits until the other has started; c waits for both.
// Run one after the other, a would wait for b forever (until the
// executor's timeout, which the bubble's clock reaches at once) and the
// chain would fail.
func TestChainStepsRunConcurrently(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var order []string
		arrived := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
		barrier := func(me, other string) tool.Tool {
			return fakeStep("step_"+me, 1, func(ctx context.Context, a stepArgs) (tool.Result, error) {
				mu.Lock()
				order = append(order, me)
				mu.Unlock()
				close(arrived[me])
				select {
				case <-arrived[other]:
				case <-ctx.Done():
					return tool.Result{}, ctx.Err()
				}
				return tool.Success("ok", map[string]string{"v": me}), nil
			})
		}
		last := fakeStep("step_c", 1, func(ctx context.Context, a stepArgs) (tool.Result, error) {
			mu.Lock()
			order = append(order, "c:"+a.Key)
			mu.Unlock()
			return tool.Success("ok", a.Key), nil
		})
		file := `chains:
  - name: fan_in
    description: Two independent steps, then one reading both.
    steps:
      - {id: c, tool: step_c, arguments: {key: "$a.data.v"}}
      - {id: a, tool: step_a}
      - {id: b, tool: step_b}
      - {id: d, tool: step_c, arguments: {key: "$b.data.v"}}
`
		b := newChainBox(t, file, barrier("a", "b"), barrier("b", "a"), last)
		r := b.call(t.Context(), "fan_in", `{}`)
		if !r.OK() {
			t.Fatalf("chain failed (steps a and b did not run at the same time?): %+v", r)
		}
		mu.Lock()
		defer mu.Unlock()
		// a and b start first (either order); c and d only after their input.
		if len(order) != 4 {
			t.Fatalf("order %v", order)
		}
		if first := order[0] + "," + order[1]; first != "a,b" && first != "b,a" {
			t.Fatalf("order %v", order)
		}
		rest := strings.Join(order[2:], ",")
		if rest != "c:a,c:b" && rest != "c:b,c:a" {
			t.Fatalf("order %v", order)
		}
	})
}

// TestChainConcurrencyBounded: eight independent blocking steps; once every
// goroutine is blocked, exactly MaxParallelSteps of them are running.
func TestChainConcurrencyBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var mu sync.Mutex
		inflight := 0
		blocking := fakeStep("step_block", 0, func(ctx context.Context, a stepArgs) (tool.Result, error) {
			mu.Lock()
			inflight++
			mu.Unlock()
			defer func() {
				mu.Lock()
				inflight--
				mu.Unlock()
			}()
			select {
			case <-release:
			case <-ctx.Done():
				return tool.Result{}, ctx.Err()
			}
			return tool.Success("ok", a.Key), nil
		})
		var steps strings.Builder
		for i := range 8 {
			fmt.Fprintf(&steps, "      - {id: s%d, tool: step_block, arguments: {key: k%d}}\n", i, i)
		}
		b := newChainBox(t, "chains:\n  - name: wide\n    description: Eight steps.\n    steps:\n"+steps.String(), blocking)
		done := make(chan tool.Result)
		go func() { done <- b.call(t.Context(), "wide", `{}`) }()
		synctest.Wait()
		mu.Lock()
		n := inflight
		mu.Unlock()
		close(release)
		r := <-done
		if n != toolsfile.MaxParallelSteps {
			t.Fatalf("%d steps running at once, want %d", n, toolsfile.MaxParallelSteps)
		}
		if !r.OK() {
			t.Fatalf("chain failed: %+v", r)
		}
	})
}

// TestChainFailureStopsTheRest: a required step fails while an independent
// step is still running: the chain fails with the step's guidance, the
// running step is cancelled and the step waiting on it never starts.
func TestChainFailureStopsTheRest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		started := make(chan struct{})
		cancelled := make(chan struct{})
		slow := fakeStep("step_slow", 0, func(ctx context.Context, a stepArgs) (tool.Result, error) {
			close(started)
			<-ctx.Done()
			close(cancelled)
			return tool.Result{}, ctx.Err()
		})
		fail := fakeStep("step_fail", 0, func(ctx context.Context, a stepArgs) (tool.Result, error) {
			<-started
			return tool.Failure("Boss not found.", "no boss named x", "Call cache_get_bosses_list for the exact names."), nil
		})
		ran := false
		after := fakeStep("step_after", 0, func(ctx context.Context, a stepArgs) (tool.Result, error) {
			ran = true
			return tool.Success("ok", nil), nil
		})
		file := `chains:
  - name: failing
    description: A failing required step.
    steps:
      - {id: slow, tool: step_slow}
      - {id: boss, tool: step_fail}
      - {id: later, tool: step_after, arguments: {key: "$slow.data.x"}, optional: true}
`
		b := newChainBox(t, file, slow, fail, after)
		r := b.call(t.Context(), "failing", `{}`)
		if r.OK() {
			t.Fatalf("chain succeeded: %+v", r)
		}
		if r.Guidance != "Call cache_get_bosses_list for the exact names." {
			t.Fatalf("guidance %q", r.Guidance)
		}
		if r.Message != "failing failed at step boss (step_fail): Boss not found." || r.ErrorDetails != "step boss: no boss named x" {
			t.Fatalf("failure %q / %q", r.Message, r.ErrorDetails)
		}
		// The executor stops waiting for a cancelled call at once; let the
		// step's own goroutine see the cancel.
		synctest.Wait()
		select {
		case <-cancelled:
		default:
			t.Fatal("the running step was not cancelled")
		}
		if ran {
			t.Fatal("a step after the failure ran")
		}
		got := decodeChain(t, r)
		if s := got.step(t, "later"); s.Status != tool.StatusSkipped {
			t.Fatalf("later %+v", s)
		}
	})
}

// TestChainCancelled: cancelling the caller's context stops the chain.
func TestChainCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		started := make(chan struct{})
		block := fakeStep("step_block", 0, func(ctx context.Context, a stepArgs) (tool.Result, error) {
			close(started)
			<-ctx.Done()
			return tool.Result{}, ctx.Err()
		})
		ran := false
		after := fakeStep("step_after", 0, func(ctx context.Context, a stepArgs) (tool.Result, error) {
			ran = true
			return tool.Success("ok", nil), nil
		})
		file := `chains:
  - name: cancelled
    description: A step that blocks.
    steps:
      - {id: block, tool: step_block}
      - {id: after, tool: step_after, arguments: {key: "$block.data.x"}}
`
		b := newChainBox(t, file, block, after)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan tool.Result)
		go func() { done <- b.call(ctx, "cancelled", `{}`) }()
		<-started
		cancel()
		r := <-done
		if r.OK() || r.ErrorDetails != "cancelled" {
			t.Fatalf("result %+v", r)
		}
		if ran {
			t.Fatal("a step ran after the cancel")
		}
	})
}

// TestChainStepsThroughTheCallersSteps: ExecuteWith hands the chain the
// caller's Steps (a chat session's scope), which may serve a step from its
// cache.
func TestChainStepsThroughTheCallersSteps(t *testing.T) {
	b := newChainBox(t, chainTools+cardChain)
	var mu sync.Mutex
	seen := map[string]string{}
	steps := func(ctx context.Context, calls []tool.Call) []tool.Outcome {
		out := make([]tool.Outcome, len(calls))
		for i, c := range calls {
			mu.Lock()
			seen[c.Name] = string(c.Arguments)
			mu.Unlock()
			if c.Name == "cards_card" {
				r := tool.Success("cached", json.RawMessage(`{"id":3,"name":"Stone Golem","cost":5}`))
				r.LLMCacheDuration = 4
				out[i] = tool.Outcome{Name: c.Name, Source: tool.SourceCache, Status: r.Status, Result: r}
				continue
			}
			r := b.exec.Execute(ctx, c)
			out[i] = tool.Outcome{Name: c.Name, Source: tool.SourceExecuted, Status: r.Status, Result: r}
		}
		return out
	}
	r := b.exec.ExecuteWith(context.Background(), tool.Call{Name: "card_briefing", Arguments: json.RawMessage(`{"name":"stone golem","rarity":"epic"}`)}, steps)
	if !r.OK() {
		t.Fatalf("chain failed: %+v", r)
	}
	got := decodeChain(t, r)
	if s := got.step(t, "card"); s.Source != tool.SourceCache {
		t.Fatalf("card %+v", s)
	}
	if string(got.Data["decks"]) != `[{"deck":"Control"}]` {
		t.Fatalf("decks %s (from the cached card id 3)", got.Data["decks"])
	}
	if len(seen) != 3 || seen["cards_card"] != `{"name":"stone golem"}` || seen["cards_decks"] != `{"card_ids":[3]}` || seen["cards_cheaper"] != `{"rarity":"epic"}` {
		t.Fatalf("calls %v", seen)
	}
}

// TestChainCallDirect: a chain called without an executor answers an
// error envelope, not a panic.
func TestChainCallDirect(t *testing.T) {
	b := newChainBox(t, chainTools+cardChain)
	r, err := b.set.Chains[0].Call(context.Background(), json.RawMessage(`{}`))
	if err != nil || r.OK() {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestChainsRefused(t *testing.T) {
	db := openDB(t)
	builtins := tool.NewRegistry()
	if err := builtins.Register(fakeStep("step_echo", 1, echo),
		&tool.Def[stepArgs]{
			Name: "step_req", Description: "needs key", Category: tool.CategoryGCS,
			Schema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string","maxLength":3}},"required":["key"],"additionalProperties":false}`), Run: echo,
		}); err != nil {
		t.Fatal(err)
	}
	chain := func(steps string) string {
		return chainTools + "chains:\n  - name: bad_chain\n    description: d\n    parameters: {type: object, properties: {key: {type: string}}}\n    steps:\n" + steps
	}
	// chainTools has 34 lines; chains: is line 35, the chain 36, its steps from 40.
	tests := []struct {
		name string
		file string
		want []string
	}{
		{
			name: "cycle", file: chain("      - {id: a, tool: step_echo, arguments: {key: \"$b.data.k\"}}\n      - {id: b, tool: step_echo, arguments: {key: \"$a.data.k\"}}\n      - {id: c, tool: step_echo, arguments: {key: $params.key}}\n"),
			want: []string{"tools.yaml:36", "chain bad_chain", "steps a -> b -> a form a cycle"},
		},
		{
			name: "self reference", file: chain("      - {id: a, tool: step_echo, arguments: {key: \"$a.data.k\"}}\n      - {id: c, tool: step_echo, arguments: {key: $params.key}}\n"),
			want: []string{"tools.yaml:40", "step a", "reads the step's own data"},
		},
		{
			name: "unknown tool", file: chain("      - {id: a, tool: step_ecko, arguments: {key: $params.key}}\n"),
			want: []string{"tools.yaml:40", "chain bad_chain: step a", "tool step_ecko is not a known tool", "step_echo"},
		},
		{
			name: "duplicate step id", file: chain("      - {id: a, tool: step_echo, arguments: {key: $params.key}}\n      - {id: a, tool: step_echo}\n"),
			want: []string{"tools.yaml:41", "step a", "already used by step #1"},
		},
		{
			name: "undeclared parameter", file: chain("      - {id: a, tool: step_echo, arguments: {key: $params.nope}}\n      - {id: c, tool: step_echo, arguments: {key: $params.key}}\n"),
			want: []string{"tools.yaml:40", "step a", "arguments.key: $params.nope reads parameter \"nope\"", "declared: key"},
		},
		{
			name: "unknown step", file: chain("      - {id: a, tool: step_echo, arguments: {key: \"$zz.data.k\"}}\n      - {id: c, tool: step_echo, arguments: {key: $params.key}}\n"),
			want: []string{"tools.yaml:40", "step a", "$zz.data.k names no step of this chain (steps: a, c)"},
		},
		{
			name: "literal does not fit the schema", file: chain("      - {id: a, tool: step_req, arguments: {key: toolong}}\n      - {id: c, tool: step_echo, arguments: {key: $params.key}}\n"),
			want: []string{"tools.yaml:40", "step a", "arguments do not fit step_req", "field 'key'"},
		},
		{
			name: "literal beside a reference does not fit", file: chain("      - {id: a, tool: cards_cheaper, arguments: {rarity: mythic, max_cost: $params.key}}\n"),
			want: []string{"tools.yaml:40", "step a", "arguments do not fit cards_cheaper", "field 'rarity'"},
		},
		{
			name: "required argument missing", file: chain("      - {id: a, tool: step_req}\n      - {id: c, tool: step_echo, arguments: {key: $params.key}}\n"),
			want: []string{"tools.yaml:40", "step a", "key"},
		},
		{
			name: "required argument missing beside a reference", file: chain("      - {id: a, tool: cards_cheaper, arguments: {max_cost: $params.key}}\n"),
			want: []string{"tools.yaml:40", "step a", `cards_cheaper requires "rarity"`},
		},
		{
			name: "unknown argument", file: chain("      - {id: a, tool: step_echo, arguments: {key: $params.key, nope: \"$params.key\"}}\n"),
			want: []string{"tools.yaml:40", "step a", `step_echo has no parameter "nope"`},
		},
		{
			name: "not a reference", file: chain("      - {id: a, tool: step_echo, arguments: {key: $params.key}}\n      - {id: c, tool: step_echo, arguments: {key: \"$a.key\"}}\n"),
			want: []string{"tools.yaml:41", "step c", "is not a reference", "$$"},
		},
		{
			name: "reserved step id", file: chain("      - {id: params, tool: step_echo, arguments: {key: $params.key}}\n"),
			want: []string{"tools.yaml:40", "reserved"},
		},
		{
			name: "required step reads an optional one", file: chain("      - {id: a, tool: step_echo, arguments: {key: $params.key}, optional: true}\n      - {id: b, tool: step_echo, arguments: {key: \"$a.data.k\"}}\n"),
			want: []string{"tools.yaml:41", "step b", "optional step a, so it must be optional: true too"},
		},
		{
			name: "declared parameter unused", file: chain("      - {id: a, tool: step_echo}\n"),
			want: []string{"tools.yaml:36", "chain bad_chain", `parameter "key" is declared but no step reads $params.key`},
		},
		{
			name: "no steps", file: chainTools + "chains:\n  - name: bad_chain\n    description: d\n",
			want: []string{"tools.yaml:36", "steps: is missing or empty"},
		},
		{
			name: "unknown step field", file: chain("      - {id: a, tool: step_echo, arguments: {key: $params.key}, after: [b]}\n"),
			want: []string{"tools.yaml:40", "chain bad_chain: step #1", "after"},
		},
		{
			name: "name clash with a file tool", file: chainTools + "chains:\n  - name: cards_card\n    description: d\n    steps:\n      - {id: a, tool: step_echo}\n",
			want: []string{"tools.yaml:36", "chain cards_card", `name "cards_card" is already used by tool cards_card (line 2)`},
		},
		{
			name: "name clash with a built-in", file: chainTools + "chains:\n  - name: step_echo\n    description: d\n    steps:\n      - {id: a, tool: step_req, arguments: {key: a}}\n",
			want: []string{"tools.yaml:36", "chain step_echo", "taken by a built-in tool"},
		},
		{
			name: "chain calling a chain", file: chainTools + "chains:\n  - name: inner\n    description: d\n    steps:\n      - {id: a, tool: step_echo}\n  - name: outer\n    description: d\n    steps:\n      - {id: b, tool: inner}\n",
			want: []string{"tools.yaml:43", "chain outer: step b", "tool inner is a chain"},
		},
		{
			name: "literal that one version refuses",
			file: strings.Replace(chainTools, "  - name: cards_cheaper\n", "  - name: cards_cheaper\n    description: Rare cards.\n    version: 2\n"+
				"    parameters: {type: object, properties: {rarity: {type: string, enum: [rare]}}, required: [rarity], additionalProperties: false}\n"+
				"    statement: SELECT name FROM cards WHERE rarity = :rarity\n  - name: cards_cheaper\n", 1) +
				"chains:\n  - name: bad_chain\n    description: d\n    steps:\n      - {id: a, tool: cards_cheaper, arguments: {rarity: common}}\n",
			want: []string{"chain bad_chain: step a", "version 2 of cards_cheaper", "field 'rarity'"},
		},
		{
			name: "bad display name", file: chainTools + "chains:\n  - name: bad_chain\n    description: d\n    display_name: [1]\n    steps:\n      - {id: a, tool: step_echo}\n",
			want: []string{"tools.yaml:36", "chain bad_chain", "display_name"},
		},
		{
			name: "bad parameters schema", file: chainTools + "chains:\n  - name: bad_chain\n    description: d\n    parameters: {type: array}\n    steps:\n      - {id: a, tool: step_echo}\n",
			want: []string{"tools.yaml:36", "parameters", `type must be "object"`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := buildAndLink(db, builtins, tc.file)
			wantInvalid(t, err, tc.want...)
		})
	}
}

// buildAndLink loads file as the server does: the file's tools, then its
// chains linked against the built-ins and those tools.
func buildAndLink(db *sql.DB, builtins *tool.Registry, file string) error {
	set, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(file), db, builtins)
	if err != nil {
		return err
	}
	withTools, err := builtins.WithGroup(toolsfile.Group, set.List()...)
	if err != nil {
		return err
	}
	return set.Link(withTools, nil)
}

// TestChainDataNotCutAsAWhole: each step's data is fitted to the
// executor's limit by its own call; the chain's whole data may be larger
// and stays one object with every step.
func TestChainDataNotCutAsAWhole(t *testing.T) {
	big := fakeStep("step_big", 0, func(ctx context.Context, a stepArgs) (tool.Result, error) {
		return tool.Success("ok", strings.Repeat(a.Key, 150)), nil
	})
	file := `chains:
  - name: big_chain
    description: Three steps of 150 characters each.
    steps:
      - {id: a, tool: step_big, arguments: {key: a}}
      - {id: b, tool: step_big, arguments: {key: b}}
      - {id: c, tool: step_big, arguments: {key: c}}
`
	b := newChainBox(t, file, big)
	ex, err := tool.NewExecutor(b.reg, tool.ExecutorOptions{MaxResultChars: 200})
	if err != nil {
		t.Fatal(err)
	}
	r := ex.Execute(context.Background(), tool.Call{Name: "big_chain", Arguments: json.RawMessage(`{}`)})
	if !r.OK() || r.InternalInfo.Truncated {
		t.Fatalf("result %+v", r)
	}
	got := decodeChain(t, r)
	for _, id := range []string{"a", "b", "c"} {
		if len(got.Data[id]) != 152 {
			t.Fatalf("step %s data %s", id, got.Data[id])
		}
	}
}

// FuzzChains builds and links tools files with chains over the card
// database and runs every chain that loads: no input panics, every loaded
// chain has steps, and a call answers an envelope.
func FuzzChains(f *testing.F) {
	f.Add(chainTools + cardChain)
	f.Add(chainTools + benchChains)
	f.Add("chains:\n  - name: abc\n    description: d\n    steps:\n      - {id: a, tool: cards_card, arguments: {name: \"$$x\"}}\n")
	f.Add("chains:\n  - name: abc\n    description: d\n    steps:\n      - {id: a, tool: cards_card, arguments: {name: \"$b.data\"}}\n      - {id: b, tool: cards_card, arguments: {name: \"$a.data.0.x\"}}\n")
	f.Add("chains: {}\n")
	f.Add("chains:\n  - steps: [{id: a, arguments: {x: [[[[[[[[[[1]]]]]]]]]]}}]\n")
	db := openDB(f)
	builtins := tool.NewRegistry()
	f.Fuzz(func(t *testing.T, file string) {
		ctx := context.Background()
		set, err := toolsfile.Build(ctx, "fuzz.yaml", []byte(file), db, builtins)
		if err != nil {
			return
		}
		withTools, err := builtins.WithGroup(toolsfile.Group, set.List()...)
		if err != nil {
			return
		}
		if err := set.Link(withTools, nil); err != nil {
			if !errors.Is(err, tool.ErrInvalidTools) {
				t.Fatalf("link error does not wrap ErrInvalidTools: %v", err)
			}
			return
		}
		reg, err := builtins.WithGroup(toolsfile.Group, set.List()...)
		if err != nil {
			return
		}
		ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range set.Chains {
			if len(c.Def().Steps) == 0 {
				t.Fatalf("chain %s loaded without steps", c.Def().Name)
			}
			if r := ex.Execute(ctx, tool.Call{Name: c.Def().Name, Arguments: json.RawMessage(`{"name":"Ember Imp"}`)}); r.Status == "" {
				t.Fatalf("chain %s: no status", c.Def().Name)
			}
		}
	})
}

// wantInvalid fails t unless err is a refused tools file (it wraps
// tool.ErrInvalidTools) whose message holds each of want.
func wantInvalid(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("accepted")
	}
	if !errors.Is(err, tool.ErrInvalidTools) {
		t.Fatalf("error does not wrap ErrInvalidTools: %v", err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
}

// TestChainMayNotCallWhatTheLLMMayNot: with the SQL tools withheld from
// the LLM, a chain whose step calls one (here with the chain's own
// argument as the query) is refused at link, naming the file, line, chain
// and step; with them offered it links.
func TestChainMayNotCallWhatTheLLMMayNot(t *testing.T) {
	query := &tool.Def[struct {
		Query string `json:"query"`
	}]{
		Name: "gcs_db_query", Description: "read-only SQL", Category: tool.CategorySQL,
		Schema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"],"additionalProperties":false}`),
		Run: func(context.Context, struct {
			Query string `json:"query"`
		}) (tool.Result, error) {
			return tool.Success("ok", "rows"), nil
		},
	}
	builtins := tool.NewRegistry()
	if err := builtins.Register(query, fakeStep("step_echo", 0, echo)); err != nil {
		t.Fatal(err)
	}
	file := `chains:
  - name: fine_chain
    description: Only offered tools.
    steps:
      - {id: a, tool: step_echo, arguments: {key: x}}
  - name: sql_chain
    description: Arbitrary SQL through a chain.
    parameters: {type: object, properties: {q: {type: string}}, required: [q]}
    steps:
      - {id: first, tool: step_echo, arguments: {key: x}}
      - {id: run, tool: gcs_db_query, arguments: {query: $params.q}}
`
	link := func(offered func(tool.Spec) bool) (*toolsfile.Set, error) {
		set, err := toolsfile.Build(context.Background(), "tools.yaml", []byte(file), openDB(t), builtins)
		if err != nil {
			t.Fatal(err)
		}
		withTools, err := builtins.WithGroup(toolsfile.Group, set.List()...)
		if err != nil {
			t.Fatal(err)
		}
		return set, set.Link(withTools, offered)
	}
	sqlOff := func(s tool.Spec) bool { return s.Category != tool.CategorySQL }
	_, err := link(sqlOff)
	wantInvalid(t, err, "tools.yaml:11", "chain sql_chain: step run", "gcs_db_query is withheld from the LLM", "SQL_TOOLS_FOR_LLM")
	if strings.Contains(err.Error(), "fine_chain") {
		t.Errorf("the chain of offered tools is blamed too: %v", err)
	}
	set, err := link(func(tool.Spec) bool { return true })
	if err != nil || len(set.Chains) != 2 {
		t.Fatalf("with SQL tools offered: %v", err)
	}
}
