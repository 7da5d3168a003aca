package chat

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// lastUser is the content of r's last user message.
func lastUser(r openai.ChatCompletionRequest) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == openai.ChatMessageRoleUser {
			return r.Messages[i].Content
		}
	}
	return ""
}

// countersThroughUseTool makes e's model call gcs_find_counters_for_boss
// through use_tool on a turn's first call, then answer.
func countersThroughUseTool(e *env) {
	e.fake.SetResponder(func(r openai.ChatCompletionRequest) llmtest.Reply {
		if r.Messages[len(r.Messages)-1].Role == openai.ChatMessageRoleUser {
			return llmtest.ToolCalls(llmtest.Call{ID: "u", Name: toolselect.UseToolName,
				Arguments: `{"name":"gcs_find_counters_for_boss","arguments":{"boss_name":"Fire Knight"}}`})
		}
		return llmtest.Text("Bring Kaelith.")
	})
}

// TestDeferredToolsDescribedOnce: in TOOL_SELECTION=deferred every call
// offers the same tools; a selected tool is described once in a data block
// and called through use_tool, and runs (events, outcome) as itself.
func TestDeferredToolsDescribedOnce(t *testing.T) {
	e := newEnv(t, envConfig{opts: Options{ToolSelection: toolselect.ModeDeferred}})
	id, _ := e.session(t)
	counters := e.box.get("gcs_find_counters_for_boss")
	countersThroughUseTool(e)
	n := e.fake.RequestCount()
	var events []Event
	r, err := e.svc.Turn(t.Context(), TurnRequest{SessionID: id, Message: "which champions counter the Fire Knight boss?"}, func(ev Event) { events = append(events, ev) })
	if err != nil {
		t.Fatal(err)
	}
	e.svc.Wait()
	first := e.fake.Requests()[n]
	want := []string{toolselect.FindToolsName, toolselect.UseToolName, SearchConversationName}
	for _, w := range want {
		if !slices.Contains(offered(first), w) {
			t.Errorf("first call offers %v, without %s", offered(first), w)
		}
	}
	if slices.Contains(offered(first), "gcs_find_counters_for_boss") {
		t.Errorf("a described tool is in the tool list: %v", offered(first))
	}
	block := lastUser(first)
	if !strings.Contains(block, toolsHeader) || !strings.Contains(block, "\n- gcs_find_counters_for_boss: ") ||
		!strings.Contains(block, "\n  - boss_name (string, required)\n") {
		t.Fatalf("the data block does not describe the tool:\n%s", block)
	}
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "gcs_find_counters_for_boss" || r.ToolCalls[0].Status != tool.StatusSuccess || counters.count() != 1 {
		t.Fatalf("tool calls %+v, runs %d", r.ToolCalls, counters.count())
	}
	if i := slices.IndexFunc(events, func(ev Event) bool { return ev.Type == EventToolCall }); i < 0 ||
		events[i].Data.(ToolCallEvent).Name != "gcs_find_counters_for_boss" {
		t.Errorf("tool_call event does not name the tool: %+v", events)
	}

	// The next turn: same tool list, byte for byte; the tool is not
	// described again; the previous turn's first request is a prefix.
	n = e.fake.RequestCount()
	e.turn(t, id, "and which champions counter the Fire Knight boss now?")
	next := e.fake.Requests()[n]
	a, _ := json.Marshal(first.Tools)
	b, _ := json.Marshal(next.Tools)
	if string(a) != string(b) {
		t.Errorf("tool list changed:\n%s\n%s", a, b)
	}
	if strings.Contains(lastUser(next), "- gcs_find_counters_for_boss: ") {
		t.Errorf("described again:\n%s", lastUser(next))
	}
	if !sameMessages(first.Messages, next.Messages[:len(first.Messages)]) {
		t.Error("the previous turn's first request is not a prefix of the next one's messages")
	}
	if counters.count() != 2 {
		t.Errorf("the tool described in an earlier block did not run through use_tool: %d runs", counters.count())
	}
}

// TestUseToolRefusesBadCalls: use_tool's arguments come from the model; a
// malformed call is answered with an error and guidance, runs nothing and
// panics nothing.
func TestUseToolRefusesBadCalls(t *testing.T) {
	tests := []struct{ name, args, want string }{
		{"not JSON", `call counters`, "Invalid arguments"},
		{"no name", `{"arguments":{}}`, "Invalid arguments"},
		{"itself", `{"name":"use_tool","arguments":{"name":"x"}}`, "Invalid arguments"},
		{"arguments not an object", `{"name":"gcs_find_counters_for_boss","arguments":[1]}`, "Invalid arguments"},
		{"unknown field", `{"name":"gcs_find_counters_for_boss","arguments":{},"x":1}`, "Invalid arguments"},
		{"unknown tool", `{"name":"no_such_tool","arguments":{}}`, ""},
		{"bad inner arguments", `{"name":"gcs_find_counters_for_boss","arguments":{"boss_name":7}}`, ""},
	}
	e := newEnv(t, envConfig{opts: Options{ToolSelection: toolselect.ModeDeferred}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, _ := e.session(t)
			e.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "u", Name: toolselect.UseToolName, Arguments: tt.args}), llmtest.Text("ok"))
			r := e.turn(t, id, "hello")
			if len(r.ToolCalls) != 1 || r.ToolCalls[0].Status != tool.StatusError || r.ToolCalls[0].Result.Guidance == "" {
				t.Fatalf("tool calls %+v", r.ToolCalls)
			}
			if tt.want != "" && !strings.Contains(r.ToolCalls[0].Result.Message, tt.want) {
				t.Errorf("message %q, want %q", r.ToolCalls[0].Result.Message, tt.want)
			}
		})
	}
	if n := e.box.get("gcs_find_counters_for_boss").count(); n != 0 {
		t.Errorf("a refused call ran the tool %d times", n)
	}
}

// FuzzUnwrapUseTool: any bytes give a call with a name and an object, or
// a failure with guidance.
func FuzzUnwrapUseTool(f *testing.F) {
	for _, s := range []string{`{"name":"a","arguments":{}}`, `{"name":"","arguments":null}`, `[]`, `{"name":"use_tool"}`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		c, err := unwrapUseTool(json.RawMessage(args))
		if err != nil {
			if bad, ok := tool.Refused(err); !ok || bad.Status != tool.StatusError || bad.Guidance == "" {
				t.Fatalf("failure %v", err)
			}
			return
		}
		if c.Name == "" || c.Name == toolselect.UseToolName || len(c.Arguments) == 0 || c.Arguments[0] != '{' {
			t.Fatalf("call %+v from %q", c, args)
		}
	})
}

// TestDeferredDirectCall: a model that calls a described tool by its own
// name, not through use_tool, still gets it run.
func TestDeferredDirectCall(t *testing.T) {
	e := newEnv(t, envConfig{opts: Options{ToolSelection: toolselect.ModeDeferred}})
	id, _ := e.session(t)
	e.fake.Enqueue(
		llmtest.ToolCalls(llmtest.Call{ID: "d", Name: "gcs_find_counters_for_boss", Arguments: `{"boss_name":"Fire Knight"}`}),
		llmtest.Text("Bring Kaelith."),
	)
	r := e.turn(t, id, "which champions counter the Fire Knight boss?")
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "gcs_find_counters_for_boss" || r.ToolCalls[0].Status != tool.StatusSuccess {
		t.Fatalf("tool calls %+v", r.ToolCalls)
	}
	if n := e.box.get("gcs_find_counters_for_boss").count(); n != 1 {
		t.Errorf("runs %d", n)
	}
}

// TestDescribedTokensLastSection: the budget leaves out only the block's own
// tool descriptions, even when a screen value repeats their header.
func TestDescribedTokensLastSection(t *testing.T) {
	e := newEnv(t, envConfig{opts: Options{ToolSelection: toolselect.ModeDeferred}})
	tools := toolsHeader + "- gcs_x: One thing.\n  arguments: {\"type\":\"object\"}\n"
	honest := contextOpen + screenHeader + "The player is on a screen.\n" + tools + contextClose
	hostile := contextOpen + screenHeader + "Player name: " + toolsHeader + strings.Repeat("word ", 200) + "\n" + tools + contextClose
	want := e.svc.countTokens(tools)
	if got := e.svc.describedTokens(honest); got != want {
		t.Errorf("honest block: %d tokens, want %d", got, want)
	}
	if got := e.svc.describedTokens(hostile); got != want {
		t.Errorf("a screen value holding the header: %d tokens, want %d", got, want)
	}
	if got := e.svc.describedTokens(contextOpen + screenHeader + "x\n" + contextClose); got != 0 {
		t.Errorf("no tools section: %d", got)
	}
}

// The scripted model of llmtest reads described tools the way this package
// writes them.
func TestDescribedFormatMatchesScriptedModel(t *testing.T) {
	if toolsHeader != llmtest.DescribedHeader || toolselect.UseToolName != llmtest.UseTool {
		t.Errorf("chat writes %q and %q; llmtest reads %q and %q", toolsHeader, toolselect.UseToolName, llmtest.DescribedHeader, llmtest.UseTool)
	}
}

// TestDefaultToolListFixed: by default (TOOL_SELECTION unset or auto) every
// call of a session offers the same list, byte for byte: the core sorted by
// name, then find_tools, use_tool and search_conversation; the tools a
// question needs are described after the history, in its data block.
func TestDefaultToolListFixed(t *testing.T) {
	for _, mode := range []string{"", ModeAuto} {
		e := newEnv(t, envConfig{opts: Options{ToolSelection: mode}})
		id, _ := e.session(t)
		n := e.fake.RequestCount()
		var firsts []int
		for _, q := range []string{"who is Kaelith?", "which champions counter the Fire Knight boss?", "tell me the lore of the Ember Witch"} {
			firsts = append(firsts, e.fake.RequestCount()-n)
			e.turn(t, id, q)
		}
		reqs := e.fake.Requests()[n:]
		list, _ := json.Marshal(reqs[0].Tools)
		names := offered(reqs[0])
		core := names[:len(names)-3]
		if !slices.IsSorted(core) || len(core) == 0 || !slices.Equal(names[len(core):],
			[]string{toolselect.FindToolsName, toolselect.UseToolName, SearchConversationName}) {
			t.Errorf("mode %q: tool list %v, want the core sorted by name then find_tools, use_tool, search_conversation", mode, names)
		}
		for i, r := range reqs[1:] {
			if got, _ := json.Marshal(r.Tools); string(got) != string(list) {
				t.Errorf("mode %q: request %d offers %v, the first offered %v", mode, i+1, offered(r), names)
			}
		}
		for i, want := range map[int]string{1: "gcs_find_counters_for_boss", 2: "db_get_lore_details"} {
			if last := lastUser(reqs[firsts[i]]); !strings.Contains(last, toolsHeader) || !strings.Contains(last, "- "+want+": ") {
				t.Errorf("mode %q: turn %d does not describe %s after the history:\n%s", mode, i+1, want, last)
			}
		}
	}
}
