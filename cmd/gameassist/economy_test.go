package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	openai "github.com/sashabaranov/go-openai"
	"golang.org/x/sys/unix"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/tokens"
)

// economyScript is testdata/economy_script.json: a 30-turn session with
// screen changes and the tool the scripted model calls in each turn.
type economyScript struct {
	Turns []struct {
		Message string `json:"message"`
		Screen  *struct {
			Name string          `json:"name"`
			Data json.RawMessage `json:"data"`
		} `json:"screen"`
		Call *struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"call"`
		Expect string `json:"expect"`
	} `json:"turns"`
}

func loadEconomyScript(tb testing.TB) economyScript {
	tb.Helper()
	return loadEconomyScriptFile(tb, "economy_script.json")
}

// economyScripts are the 30-turn scripts the targets hold on: the
// reference script (8 screen changes), a second one with other questions,
// screens and tools (6 screen changes), and the second one with a screen
// change in 12 of its turns.
var economyScripts = []string{"economy_script.json", "economy_script_b.json", "economy_script_screens.json"}

// loadEconomyScriptFile reads a 30-turn script from testdata.
func loadEconomyScriptFile(tb testing.TB, name string) economyScript {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	var s economyScript
	if err := json.Unmarshal(raw, &s); err != nil {
		tb.Fatal(err)
	}
	if len(s.Turns) != 30 {
		tb.Fatalf("script has %d turns, want 30", len(s.Turns))
	}
	return s
}

// variantName names a run of the script by its settings, for ECON_DUMP's
// folders: "defaults", or the settings as KEY=value, sorted, joined by
// commas.
func variantName(env map[string]string) string {
	if len(env) == 0 {
		return "defaults"
	}
	var kv []string
	for k, v := range env {
		kv = append(kv, k+"="+v)
	}
	slices.Sort(kv)
	return strings.Join(kv, ",")
}

// economyStats is what one run of the script measured over its LLM calls.
type economyStats struct {
	calls, turns               int
	firstBytes, firstMax       int // first request of each turn: sum and largest
	bytes, maxBytes            int // every request
	tokens, maxTokens          int
	schemaBytes                int
	prefixWire, prefixProvider float64 // sum of shares over requests after the session's first
	prefixN                    int
	screenAsked, screenPresent int
	// subjectAsked counts the turns that brought a new screen whose rule
	// has a data tool, subjectFull those whose first request carries that
	// tool's result for the screen (its main subject) in full.
	subjectAsked, subjectFull   int
	needed, offeredFirst, found int
	summaryCalls                int
	// Where each request stops being a prefix of the previous one: a
	// follow-up call of a turn, or a turn's first call that changed the
	// tool list, rewrote the summary (fold point) or changed the history
	// (the previous turn's first request is not a prefix of its messages).
	// A turn's first call ends the previous turn's tool calls and results,
	// which are not kept: that alone is no break here.
	followBreaks                      int
	toolBreaks, foldBreaks, msgBreaks int
}

func (s economyStats) mean(sum int) float64 { return float64(sum) / float64(max(s.calls, 1)) }

// isSummaryRequest tells the background summarizer's calls from a turn's.
func isSummaryRequest(r openai.ChatCompletionRequest) bool {
	return len(r.Messages) > 0 && strings.HasPrefix(r.Messages[0].Content, "You maintain the running summary")
}

// offers reports whether r offers the tool name: in its tool list, or
// described in a data block of its messages (TOOL_SELECTION=deferred).
func offers(r openai.ChatCompletionRequest, name string) bool {
	return offersNative(r, name) || llmtest.Describes(r, name)
}

func offersNative(r openai.ChatCompletionRequest, name string) bool {
	return slices.ContainsFunc(r.Tools, func(t openai.Tool) bool { return t.Function != nil && t.Function.Name == name })
}

// calls reports whether m calls the tool name, directly or through use_tool.
func calls(m openai.ChatCompletionMessage, name string) bool {
	return slices.ContainsFunc(m.ToolCalls, func(c openai.ToolCall) bool {
		if c.Function.Name == "use_tool" {
			var a struct{ Name string }
			return json.Unmarshal([]byte(c.Function.Arguments), &a) == nil && a.Name == name
		}
		return c.Function.Name == name
	})
}

// scriptedModel answers as a model that calls the turn's scripted tool
// (through find_tools when it is not offered) and then answers.
func scriptedModel(script economyScript) func(openai.ChatCompletionRequest) llmtest.Reply {
	return scriptedModelAnswering(script, shortAnswer)
}

// shortAnswer is the scripted model's final answer: 141 bytes.
const shortAnswer = "Here is the answer, taken from the game data: the key numbers first, then the reasons in two short sentences. Ask me if you want more detail."

// answerOf returns an answer of about n bytes (at least shortAnswer's).
func answerOf(n int) string {
	a := shortAnswer
	for len(a) < n {
		a += " The champion's stats and skills matter here, and so does the boss's element."
	}
	return a
}

// scriptedModelAnswering is scriptedModel with answer as its final answers.
func scriptedModelAnswering(script economyScript, answer string) func(openai.ChatCompletionRequest) llmtest.Reply {
	return func(r openai.ChatCompletionRequest) llmtest.Reply {
		if isSummaryRequest(r) {
			return llmtest.Text("- The player asked about champions, gear, bosses and screens; answers came from the tools.")
		}
		// The turn is the last user message of the request.
		var user string
		var after []openai.ChatCompletionMessage
		for i := len(r.Messages) - 1; i >= 0; i-- {
			if r.Messages[i].Role == openai.ChatMessageRoleUser {
				user, after = r.Messages[i].Content, r.Messages[i+1:]
				break
			}
		}
		for i, t := range script.Turns {
			if !strings.HasSuffix(llmtest.PlayerWords(user), t.Message) || t.Call == nil {
				continue
			}
			called := slices.ContainsFunc(after, func(m openai.ChatCompletionMessage) bool { return calls(m, t.Call.Name) })
			askedFind := slices.ContainsFunc(after, func(m openai.ChatCompletionMessage) bool { return calls(m, "find_tools") })
			foundIt := slices.ContainsFunc(after, func(m openai.ChatCompletionMessage) bool {
				return m.Role == openai.ChatMessageRoleTool && strings.Contains(m.Content, `"name":"`+t.Call.Name+`"`)
			})
			switch {
			case called:
			case offersNative(r, t.Call.Name):
				return llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprint("c", i), Name: t.Call.Name, Arguments: string(t.Call.Arguments)})
			case llmtest.Describes(r, t.Call.Name) || foundIt && offersNative(r, "use_tool"):
				return llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprint("c", i), Name: "use_tool",
					Arguments: fmt.Sprintf(`{"name":%q,"arguments":%s}`, t.Call.Name, t.Call.Arguments)})
			case !askedFind && offers(r, "find_tools"):
				return llmtest.ToolCalls(llmtest.Call{ID: fmt.Sprint("f", i), Name: "find_tools", Arguments: fmt.Sprintf(`{"need":%q}`, t.Message)})
			}
			break
		}
		return llmtest.Text(answer)
	}
}

// runEconomyScript plays the script in one session against an app built
// with env and measures every LLM request the turns made.
func runEconomyScript(tb testing.TB, script economyScript, env map[string]string) economyStats {
	tb.Helper()
	return runEconomyScriptAnswering(tb, script, env, shortAnswer)
}

// runEconomyScriptAnswering is runEconomyScript with answer as the
// model's final answers.
func runEconomyScriptAnswering(tb testing.TB, script economyScript, env map[string]string, answer string) economyStats {
	tb.Helper()
	fake := llmtest.New(tb)
	fake.SetResponder(scriptedModelAnswering(script, answer))
	f := newFixture(tb, appSetup{llm: fake, env: env})
	s := f.newSession(tb)
	tok, err := tokens.ForModel("gpt-4o-mini")
	if err != nil {
		tb.Fatal(err)
	}
	var st economyStats
	var prev []byte
	var prevProv []byte
	var prevFirst []openai.ChatCompletionMessage // the previous turn's first request
	subjects := screenSubjects(tb)
	var lastScreen string
	for _, t := range script.Turns {
		subject := ""
		if sc := t.Screen; sc != nil && sc.Name+string(sc.Data) != lastScreen {
			lastScreen = sc.Name + string(sc.Data)
			subject = subjects.line(tb, sc.Name, sc.Data)
		}
		body := chatBody(s, t.Message)
		if t.Screen != nil {
			body["screen"] = t.Screen
		}
		n := fake.RequestCount()
		resp, out := f.do(tb, request{method: http.MethodPost, path: "/v1/chat", token: s.Token, json: body})
		expect(tb, resp, out, http.StatusOK)
		// Background summaries of this turn finish before the next turn,
		// so every run sees the same prompts.
		f.app.chat.Wait()
		first := true
		for _, r := range fake.Requests()[n:] {
			if isSummaryRequest(r) {
				st.summaryCalls++
				continue
			}
			wire, err := json.Marshal(r)
			if err != nil {
				tb.Fatal(err)
			}
			schemas, _ := json.Marshal(r.Tools)
			msgs, _ := json.Marshal(r.Messages)
			prov := append(slices.Clone(schemas), msgs...)
			st.calls++
			st.bytes += len(wire)
			st.maxBytes = max(st.maxBytes, len(wire))
			st.schemaBytes += len(schemas)
			k := tok.Count(string(prov))
			st.tokens += k
			st.maxTokens = max(st.maxTokens, k)
			if prev != nil {
				switch cp := commonPrefix(prevProv, prov); {
				case cp >= len(prevProv)-1: // all but the closing bracket
				case !first:
					st.followBreaks++
				case cp < len(schemas):
					st.toolBreaks++
				case strings.HasPrefix(wherePrefixEnds(r, cp), "messages[1] ") && len(r.Messages) > 1 && strings.HasPrefix(r.Messages[1].Content, "<summary>"):
					st.foldBreaks++
				case len(r.Messages) < len(prevFirst) || !slices.EqualFunc(prevFirst, r.Messages[:len(prevFirst)], sameMessage):
					st.msgBreaks++
				default:
					// The previous turn's tool calls and results are not
					// kept; everything before them is.
				}
				st.prefixWire += float64(commonPrefix(prev, wire)) / float64(len(wire))
				st.prefixProvider += float64(commonPrefix(prevProv, prov)) / float64(len(prov))
				if os.Getenv("ECON_DEBUG") != "" {
					cp := commonPrefix(prevProv, prov)
					where := wherePrefixEnds(r, cp)
					if cp >= len(prevProv)-1 {
						where = "none: the previous request is a prefix"
					}
					tb.Logf("req %d (turn %d): %d B, schemas %d B, prefix %d (%.0f%%), first difference in %s at %.60q", st.calls, st.turns+btoi(first), len(prov), len(schemas), cp,
						100*float64(cp)/float64(len(prov)), where, string(prov[cp:min(len(prov), cp+60)]))
				}
				st.prefixN++
			}
			if dir := os.Getenv("ECON_DUMP"); dir != "" {
				pretty, _ := json.MarshalIndent(r, "", " ")
				dir = filepath.Join(dir, variantName(env))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					tb.Fatal(err)
				}
				if err := os.WriteFile(fmt.Sprintf("%s/req-%02d.json", dir, st.calls), pretty, 0o644); err != nil {
					tb.Fatal(err)
				}
			}
			prev, prevProv = wire, prov
			if !first {
				continue
			}
			first = false
			prevFirst = r.Messages
			st.turns++
			st.firstBytes += len(wire)
			st.firstMax = max(st.firstMax, len(wire))
			if subject != "" {
				st.subjectAsked++
				if slices.ContainsFunc(r.Messages, func(m openai.ChatCompletionMessage) bool { return strings.Contains(m.Content, subject) }) {
					st.subjectFull++
				}
			}
			if t.Expect != "" {
				st.screenAsked++
				if strings.Contains(string(msgs), t.Expect) {
					st.screenPresent++
				}
			}
			if t.Call != nil {
				st.needed++
				if offers(r, t.Call.Name) {
					st.offeredFirst++
				} else if offers(r, "find_tools") {
					st.found++
				}
			}
		}
	}
	return st
}

// subjectRules maps a screen of the sample game's rules
// (screens/default_rules.json) to its first data tool: the screen's main
// subject.
type subjectRules map[string]struct {
	DataTools []struct {
		Tool      string `json:"tool"`
		JSONField string `json:"json_field"`
		Parameter string `json:"parameter_name"`
	} `json:"data_tools"`
}

func screenSubjects(tb testing.TB) subjectRules {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "screens", "default_rules.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var rs subjectRules
	if err := json.Unmarshal(raw, &rs); err != nil {
		tb.Fatal(err)
	}
	return rs
}

// line is how a data block begins the main subject's result in full
// for the screen name with data (a result left out for the budget reads
// "…: available — call to read" instead), "" when its rule has no data
// tool or the screen lacks the field.
func (rs subjectRules) line(tb testing.TB, name string, data json.RawMessage) string {
	tb.Helper()
	r, ok := rs[name]
	if !ok || len(r.DataTools) == 0 {
		return ""
	}
	dt := r.DataTools[0]
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		tb.Fatal(err)
	}
	for _, part := range strings.Split(dt.JSONField, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = obj[part]
	}
	if v == nil {
		return ""
	}
	args, err := json.Marshal(map[string]any{dt.Parameter: v})
	if err != nil {
		tb.Fatal(err)
	}
	return "- " + dt.Tool + " " + string(args) + " → {"
}

// wherePrefixEnds names the part of r's provider-order bytes (tool
// schemas, then messages) where byte offset at falls.
func wherePrefixEnds(r openai.ChatCompletionRequest, at int) string {
	off := 1 // the schemas' opening bracket
	for i, t := range r.Tools {
		b, _ := json.Marshal(t)
		if at < off+len(b)+1 {
			return fmt.Sprintf("tools[%d] %s", i, t.Function.Name)
		}
		off += len(b) + 1
	}
	off++ // the messages' opening bracket
	for i, m := range r.Messages {
		b, _ := json.Marshal(m)
		if at < off+len(b)+1 {
			return fmt.Sprintf("messages[%d] %s", i, m.Role)
		}
		off += len(b) + 1
	}
	return "the end"
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sameMessage(a, b openai.ChatCompletionMessage) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func (s economyStats) log(tb testing.TB, name string) {
	tb.Helper()
	first := float64(s.firstBytes) / float64(max(s.turns, 1))
	tb.Logf("%s: %d calls over %d turns; first request mean %.1f KB (%.0f B) max %.1f KB; every request mean %.1f KB max %.1f KB, "+
		"tokens mean %.0f max %d; tool schemas %.0f %%; prefix share wire %.1f %% provider %.1f %%; screen data %d/%d, main subject in full %d/%d; "+
		"needed tool offered first %d/%d (%d via find_tools); summary calls %d; a turn's first call stops being a prefix of the previous call "+
		"in the tool list %d times, at a fold point %d, in the history %d; follow-up calls %d",
		name, s.calls, s.turns, first/1024, first, float64(s.firstMax)/1024,
		s.mean(s.bytes)/1024, float64(s.maxBytes)/1024, s.mean(s.tokens), s.maxTokens,
		100*float64(s.schemaBytes)/float64(max(s.bytes, 1)), 100*s.prefixWire/float64(max(s.prefixN, 1)),
		100*s.prefixProvider/float64(max(s.prefixN, 1)), s.screenPresent, s.screenAsked, s.subjectFull, s.subjectAsked,
		s.offeredFirst, s.needed, s.found, s.summaryCalls, s.toolBreaks, s.foldBreaks, s.msgBreaks, s.followBreaks)
}

// TestContextEconomyTargets plays the 30-turn script with the defaults and
// holds the targets: one tool list for the whole session (byte-identical
// on every call), requests that begin with the bytes of the previous one
// but at summary fold points (the history is append-only: a turn's first
// request holds the previous turn's first request whole, and a follow-up
// call extends the call before it), a prefix-stable share of at least
// 85 % as providers render requests (tools, then messages), a mean first
// request of at most 12 KB, the screen's proactive data in the first
// request when the player asks about the screen, and the needed tool
// offered or described on the first call.
// It runs on each of economyScripts.
func TestContextEconomyTargets(t *testing.T) {
	t.Parallel() // its own apps (and LLM fakes); asserts nothing shared
	for _, name := range economyScripts {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkEconomyTargets(t, loadEconomyScriptFile(t, name))
		})
	}
}

func checkEconomyTargets(t *testing.T, script economyScript) {
	st := runEconomyScript(t, script, nil)
	st.log(t, "defaults")
	checkDefaultTargets(t, st)
	// TOOL_SELECTION=deferred is the default's other name.
	def := runEconomyScript(t, script, map[string]string{"TOOL_SELECTION": "deferred"})
	if def != st {
		t.Errorf("TOOL_SELECTION=deferred differs from the default:\n%+v\n%+v", def, st)
	}
	// With a selected subset per call the tool list changes with the
	// questions; a rewritten summary waits for a turn whose list changes
	// anyway, so the history never breaks the prefix.
	sub := runEconomyScript(t, script, map[string]string{"TOOL_SELECTION": "subset"})
	sub.log(t, "TOOL_SELECTION=subset")
	if share := sub.prefixProvider / float64(sub.prefixN); share < 0.55 || sub.msgBreaks != 0 || sub.followBreaks != 0 || sub.foldBreaks != 0 {
		t.Errorf("subset: prefix-stable share %.2f, want >= 0.55; %d history, %d follow-up and %d fold-point breaks",
			share, sub.msgBreaks, sub.followBreaks, sub.foldBreaks)
	}
	if mean := float64(sub.firstBytes) / float64(sub.turns); mean > 16*1024 || sub.offeredFirst*100 < sub.needed*98 || sub.screenPresent != sub.screenAsked {
		t.Errorf("subset: mean first request %.0f bytes (want <= 16 KB), needed tool offered first %d/%d, screen data %d/%d",
			mean, sub.offeredFirst, sub.needed, sub.screenPresent, sub.screenAsked)
	}
	// With every tool offered the rest of the request is append-only but
	// at fold points.
	all := runEconomyScript(t, script, map[string]string{"TOOL_SELECTION": "all"})
	all.log(t, "TOOL_SELECTION=all")
	if share := all.prefixProvider / float64(all.prefixN); share < 0.85 || all.msgBreaks != 0 || all.followBreaks != 0 {
		t.Errorf("with every tool offered: prefix-stable share %.2f, want >= 0.85; %d history and %d follow-up breaks",
			share, all.msgBreaks, all.followBreaks)
	}
}

// checkDefaultTargets holds the targets of a run with the defaults (see
// TestContextEconomyTargets).
func checkDefaultTargets(t *testing.T, st economyStats) {
	t.Helper()
	if st.toolBreaks != 0 || st.msgBreaks != 0 || st.followBreaks != 0 {
		t.Errorf("requests not a prefix of the next: %d times in the tool list, %d in the history, %d follow-up calls",
			st.toolBreaks, st.msgBreaks, st.followBreaks)
	}
	if share := st.prefixProvider / float64(st.prefixN); share < 0.85 {
		t.Errorf("prefix-stable share %.3f, want >= 0.85 (%d fold points)", share, st.foldBreaks)
	}
	if mean := float64(st.firstBytes) / float64(st.turns); mean > 12*1024 {
		t.Errorf("mean first request %.0f bytes, want <= 12 KB", mean)
	}
	if st.screenPresent != st.screenAsked || st.screenAsked == 0 {
		t.Errorf("screen data in the first request %d/%d", st.screenPresent, st.screenAsked)
	}
	if st.subjectFull != st.subjectAsked || st.subjectAsked == 0 {
		t.Errorf("a new screen's main subject in full in the first request %d/%d", st.subjectFull, st.subjectAsked)
	}
	if st.offeredFirst*100 < st.needed*98 {
		t.Errorf("needed tool offered on the first call %d/%d, want >= 98 %%", st.offeredFirst, st.needed)
	}
}

// economyOrders is how many orders of each script TestContextEconomyOrders
// plays: reversed, then shuffled with seeds 1, 2, ...
const economyOrders = 3

// TestContextEconomyOrders plays each of economyScripts in other orders
// (see reordered) with the defaults and holds the same targets: the
// figures must not depend on the order the committed scripts happen to
// ask in (a screen's questions right after it, folds where they fall).
// BenchmarkContextEconomyOrders reports more orders.
func TestContextEconomyOrders(t *testing.T) {
	t.Parallel() // its own apps (and LLM fakes); asserts nothing shared
	for _, name := range economyScripts {
		script := loadEconomyScriptFile(t, name)
		for order := range economyOrders {
			t.Run(fmt.Sprintf("%s/order=%d", strings.TrimSuffix(name, ".json"), order), func(t *testing.T) {
				t.Parallel()
				st := runEconomyScript(t, reordered(script, order), nil)
				st.log(t, "defaults")
				checkDefaultTargets(t, st)
			})
		}
	}
}

// reordered returns script with its turns after the first in another
// order: reversed for order 0, else shuffled by a PCG seeded with order.
// A turn keeps its screen and its call; a turn without a screen follows
// whichever screen came before it, as a player's questions may come away
// from the screen they are about.
func reordered(script economyScript, order int) economyScript {
	turns := slices.Clone(script.Turns)
	rest := turns[1:]
	if order == 0 {
		slices.Reverse(rest)
	} else {
		r := rand.New(rand.NewPCG(uint64(order), 0))
		r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	}
	return economyScript{Turns: turns}
}

// BenchmarkContextEconomy plays the 30-turn script with each technique on
// and off and reports request sizes, tokens, schema share and prefix share.
func BenchmarkContextEconomy(b *testing.B) {
	script := loadEconomyScript(b)
	configs := []struct {
		name string
		env  map[string]string
	}{
		{"all_on", nil},
		{"subset", map[string]string{"TOOL_SELECTION": "subset"}},
		{"selection_off", map[string]string{"TOOL_SELECTION": "all"}},
		{"budget_off", map[string]string{"MAX_CONTEXT_TOKENS": "1000000"}},
		{"selection_and_budget_off", map[string]string{"TOOL_SELECTION": "all", "MAX_CONTEXT_TOKENS": "1000000"}},
	}
	for _, c := range configs {
		b.Run(c.name, func(b *testing.B) {
			var st economyStats
			for range b.N {
				st = runEconomyScript(b, script, c.env)
			}
			st.log(b, c.name)
			reportEconomy(b, st)
		})
	}
}

// BenchmarkContextEconomyScripts plays each of economyScripts with the
// defaults.
func BenchmarkContextEconomyScripts(b *testing.B) {
	for _, name := range economyScripts {
		b.Run(strings.TrimSuffix(name, ".json"), func(b *testing.B) {
			script := loadEconomyScriptFile(b, name)
			var st economyStats
			for range b.N {
				st = runEconomyScript(b, script, nil)
			}
			st.log(b, name)
			reportEconomy(b, st)
			b.ReportMetric(float64(st.foldBreaks), "fold_breaks")
		})
	}
}

// BenchmarkContextEconomyOrders plays each of economyScripts in 24
// orders (see reordered) with the defaults and reports the mean and
// largest of the orders' mean first request, and the mean and smallest
// of their prefix shares.
func BenchmarkContextEconomyOrders(b *testing.B) {
	const orders = 24
	for _, name := range economyScripts {
		b.Run(strings.TrimSuffix(name, ".json"), func(b *testing.B) {
			script := loadEconomyScriptFile(b, name)
			for range b.N {
				var bytes, maxBytes, share, minShare float64
				folds := 0
				for order := range orders {
					st := runEconomyScript(b, reordered(script, order), nil)
					mean := float64(st.firstBytes) / float64(st.turns)
					p := 100 * st.prefixProvider / float64(st.prefixN)
					bytes, share, folds = bytes+mean, share+p, folds+st.foldBreaks
					maxBytes = max(maxBytes, mean)
					if order == 0 || p < minShare {
						minShare = p
					}
				}
				b.ReportMetric(bytes/orders, "first_req_B")
				b.ReportMetric(maxBytes, "first_req_worst_B")
				b.ReportMetric(share/orders, "prefix_provider_%")
				b.ReportMetric(minShare, "prefix_provider_worst_%")
				b.ReportMetric(float64(folds)/orders, "fold_breaks")
			}
		})
	}
}

// BenchmarkContextEconomyAnswerLength plays the scripts with longer final
// answers (about 400 and 800 bytes, as a model's may be): an answer is new
// text in the next request, so it weighs on the prefix share and brings
// folds sooner.
func BenchmarkContextEconomyAnswerLength(b *testing.B) {
	for _, n := range []int{400, 800} {
		for _, name := range economyScripts {
			b.Run(fmt.Sprintf("answer=%d/%s", n, strings.TrimSuffix(name, ".json")), func(b *testing.B) {
				script := loadEconomyScriptFile(b, name)
				var st economyStats
				for range b.N {
					st = runEconomyScriptAnswering(b, script, nil, answerOf(n))
				}
				reportEconomy(b, st)
				b.ReportMetric(float64(st.foldBreaks), "fold_breaks")
			})
		}
	}
}

// reportEconomy reports a script run's request sizes, tokens, schema
// share and prefix share.
func reportEconomy(b *testing.B, st economyStats) {
	b.ReportMetric(float64(st.firstBytes)/float64(st.turns), "first_req_B")
	b.ReportMetric(float64(st.firstMax), "first_req_max_B")
	b.ReportMetric(st.mean(st.bytes), "req_B")
	b.ReportMetric(float64(st.maxBytes), "req_max_B")
	b.ReportMetric(st.mean(st.tokens), "req_tokens")
	b.ReportMetric(float64(st.maxTokens), "req_max_tokens")
	b.ReportMetric(100*float64(st.schemaBytes)/float64(st.bytes), "schema_%")
	b.ReportMetric(100*st.prefixWire/float64(st.prefixN), "prefix_wire_%")
	b.ReportMetric(100*st.prefixProvider/float64(st.prefixN), "prefix_provider_%")
	b.ReportMetric(float64(st.calls)/float64(st.turns), "calls/turn")
}

// BenchmarkHTTPTurnLongSession measures a one-tool turn through the HTTP
// API on a long session (30 turns before the timed ones, which go on in the
// same session) against two bare go-openai calls to the same fake: the
// exact two requests the turn sent (same bytes) and two tiny requests (one
// short user message, no tools). Context economy on and off; economy on
// also without metrics and logs (bare), and with the timed turns sent by a
// load generator in a process of its own (apart), whose HTTP client is
// then not counted. It reports each ratio twice: in wall time (p50 of
// each) and in the process's CPU time per turn (the whole timed loop's,
// over the bare calls' summed per pair), which also counts what a turn
// starts in the background and leaves out the time spent waiting on
// redis-server. redis_cpu_turn_us is redis-server's own CPU per turn over
// the timed loop; summaries/turn the summarizer's LLM calls per turn (the
// timed turns follow each other with no pause, as a load generator's do,
// so a fold may still be running when the next turn ends).
func BenchmarkHTTPTurnLongSession(b *testing.B) {
	for _, c := range []struct {
		name string
		bare bool
		env  map[string]string
		cold bool
		// apart: the timed turns come from a load generator in a process
		// of its own (see loadgen_test.go), so the CPU figures leave out
		// the generator's HTTP client.
		apart bool
	}{
		{"economy_on", false, nil, false, false},
		{"economy_on_apart", false, nil, false, true},
		{"economy_on_bare", true, nil, false, false},
		{"economy_on_cold", false, nil, true, false},
		{"economy_off", false, map[string]string{"TOOL_SELECTION": "all", "MAX_CONTEXT_TOKENS": "1000000"}, false, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			ba := newBenchAppEnv(b, c.bare, c.env)
			s := ba.sessions(b, 1)[0]
			// Warm: names come round again, so the process has seen each
			// result before (its rendering and token counts are
			// remembered). Cold: every measured turn asks about a name
			// the process has not seen, as a studio's players mostly do.
			first, next := 0, 30
			if c.cold {
				next = 0
				first = len(ba.names) - 30
				if b.N > first {
					b.Fatalf("cold: %d turns, the sample game has names for %d", b.N, first)
				}
			}
			for i := range 30 {
				ba.turn(b, s, first+i)
			}
			reqs0 := ba.fake.RequestCount()
			turns := make([]time.Duration, 0, b.N)
			ba.toolMS = ba.toolMS[:0]
			var gen *loadGenProc
			if c.apart {
				var err error
				if gen, err = startLoadGen(loadGenJob{URL: ba.ts.URL, Session: s.id, Token: s.token, Names: ba.names}); err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { _ = gen.close() }) // a benchmark that fails leaves no child
			}
			rcpu0 := redisCPU(b, ba.app.rdb)
			cpu0 := procCPU(b)
			b.ResetTimer()
			if gen != nil {
				res, err := gen.run(next, b.N)
				if err != nil {
					b.Fatal(err)
				}
				turns, ba.toolMS = res.Turns, res.ToolMS
			} else {
				for i := range b.N {
					t0 := time.Now()
					ba.turn(b, s, next+i)
					turns = append(turns, time.Since(t0))
				}
			}
			b.StopTimer()
			cpuTurn := float64(procCPU(b)-cpu0) / float64(b.N) / 1e6
			redisTurn := float64(redisCPU(b, ba.app.rdb)-rcpu0) / float64(b.N) / 1e3
			if gen != nil {
				if err := gen.close(); err != nil {
					b.Fatalf("load generator: %v", err)
				}
			}
			ba.app.chat.Wait() // the last turns' summaries are counted
			var sent []openai.ChatCompletionRequest
			bytesSent, summaries := 0, 0
			for _, r := range ba.fake.Requests()[reqs0:] {
				if isSummaryRequest(r) {
					summaries++
				} else {
					sent = append(sent, r)
					raw, _ := json.Marshal(r)
					bytesSent += len(raw)
				}
			}
			cfg := openai.DefaultConfig("sk-test")
			cfg.BaseURL = ba.fake.URL()
			bare := openai.NewClientWithConfig(cfg)
			tiny := openai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}}
			same := make([]time.Duration, 0, len(sent)/2)
			small := make([]time.Duration, 0, len(sent)/2)
			var cpuSame, cpuTiny time.Duration
			for i := 0; i+1 < len(sent); i += 2 {
				c0 := procCPU(b)
				t0 := time.Now()
				for _, r := range sent[i : i+2] {
					if _, err := bare.CreateChatCompletion(context.Background(), r); err != nil {
						b.Fatal(err)
					}
				}
				same = append(same, time.Since(t0))
				c1 := procCPU(b)
				cpuSame += c1 - c0
				t0 = time.Now()
				for range 2 {
					if _, err := bare.CreateChatCompletion(context.Background(), tiny); err != nil {
						b.Fatal(err)
					}
				}
				small = append(small, time.Since(t0))
				cpuTiny += procCPU(b) - c1
			}
			pairs := float64(len(sent) / 2)
			b.ReportMetric(cpuTurn, "cpu_turn_ms")
			b.ReportMetric(redisTurn, "redis_cpu_turn_us")
			b.ReportMetric(float64(summaries)/float64(b.N), "summaries/turn")
			b.ReportMetric(cpuTurn/(float64(cpuSame)/pairs/1e6), "cpu_ratio_same")
			b.ReportMetric(cpuTurn/(float64(cpuTiny)/pairs/1e6), "cpu_ratio_tiny")
			b.ReportMetric(pct(turns, 0.50), "turn_p50_ms")
			b.ReportMetric(pct(same, 0.50), "bare2_same_p50_ms")
			b.ReportMetric(pct(small, 0.50), "bare2_tiny_p50_ms")
			b.ReportMetric(pct(turns, 0.50)/pct(same, 0.50), "ratio_same_p50")
			b.ReportMetric(pct(turns, 0.50)/pct(small, 0.50), "ratio_tiny_p50")
			b.ReportMetric(float64(bytesSent)/float64(max(len(sent), 1)), "req_B")
			slices.Sort(ba.toolMS)
			b.ReportMetric(ba.toolMS[len(ba.toolMS)/2]*1000, "tool_p50_us")
		})
	}
}

// redisCPU is the CPU time redis-server has used so far (its user and
// system time, from INFO cpu): what the turns cost the Redis they share.
func redisCPU(b *testing.B, rdb redis.UniversalClient) time.Duration {
	info, err := rdb.InfoMap(context.Background(), "cpu").Result()
	if err != nil {
		b.Fatalf("redis INFO cpu: %v", err)
	}
	var total time.Duration
	for _, field := range []string{"used_cpu_user", "used_cpu_sys"} {
		secs, err := strconv.ParseFloat(info["CPU"][field], 64)
		if err != nil {
			b.Fatalf("redis INFO cpu: %s: %v", field, err)
		}
		total += time.Duration(secs * float64(time.Second))
	}
	return total
}

// procCPU is the CPU time all of this process's threads have used so far
// (the server, its Redis client, the in-process fake and, unless a load
// generator apart sends the turns, the bench's own client; not
// redis-server's nor a child process's).
func procCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		b.Fatalf("process CPU time: %v", err)
	}
	return time.Duration(ts.Nano())
}
