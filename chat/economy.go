package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// SearchConversationName is the tool that fetches older exchanges of the
// session verbatim.
const SearchConversationName = "search_conversation"

// recentExchanges is how many past exchanges' tools count as recent.
const recentExchanges = 2

// searchConversationSpec is the schema of search_conversation.
func searchConversationSpec() tool.Spec {
	return tool.Spec{
		Name:         SearchConversationName,
		Description:  "Fetch earlier exchanges of this conversation verbatim, best match first, when the player refers to something said before.",
		Category:     tool.CategoryRAG,
		Parameters:   json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","minLength":1,"maxLength":300,"description":"What was said, in a few words, e.g. 'the team for the Fire Knight'."},"limit":{"type":"integer","minimum":1,"maximum":5,"description":"How many exchanges (default 3)."}},"required":["query"],"additionalProperties":false}`),
		DisplayNames: tool.DisplayNames{"en": "Earlier messages", "fr": "Messages précédents", "de": "Frühere Nachrichten"},
	}
}

// useToolSpec is the schema of use_tool (TOOL_SELECTION=deferred).
func useToolSpec() tool.Spec {
	return tool.Spec{
		Name:         toolselect.UseToolName,
		Description:  "Call a tool of the catalog, a <context> block or find_tools by its name, with its arguments.",
		Category:     tool.CategoryRAG,
		Parameters:   json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":100,"description":"The tool's name."},"arguments":{"type":"object","description":"The tool's arguments."}},"required":["name","arguments"],"additionalProperties":false}`),
		DisplayNames: tool.DisplayNames{"en": "Tool", "fr": "Outil", "de": "Werkzeug"},
	}
}

// useToolArgs are use_tool's arguments.
type useToolArgs struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// unwrapUseTool reads a use_tool call's arguments: the tool to call and
// its arguments (an object). A malformed call is refused (tool.Refusal:
// the failure to answer it with).
func unwrapUseTool(args json.RawMessage) (tool.Call, error) {
	var a useToolArgs
	if err := tool.DecodeArgs(toolselect.UseToolName, args, &a); err != nil {
		return tool.Call{}, err
	}
	a.Name = strings.TrimSpace(a.Name)
	inner := bytes.TrimSpace(a.Arguments)
	switch {
	case a.Name == "" || len(a.Name) > 100 || a.Name == toolselect.UseToolName:
		return tool.Call{}, tool.Refuse("Invalid arguments for "+toolselect.UseToolName+".", "name must name a tool other than "+toolselect.UseToolName,
			`Call use_tool with {"name": "<a tool described in the conversation>", "arguments": {...}}.`)
	case len(inner) == 0 || string(inner) == "null":
		inner = []byte("{}")
	case inner[0] != '{':
		return tool.Call{}, tool.Refuse("Invalid arguments for "+toolselect.UseToolName+".", "arguments must be a JSON object",
			`Call use_tool with {"name": "`+a.Name+`", "arguments": {...}}, the arguments as the tool's schema describes them.`)
	}
	return tool.Call{Name: a.Name, Arguments: inner}, nil
}

// ScreenTooler lists the tools a screen's rules name; *screens.Engine
// satisfies it. A Planner that also implements it has those tools offered
// while the player is on the screen.
type ScreenTooler interface {
	Tools(screen string) []string
}

// turnTools is the tool side of one turn's LLM loop: which schemas each call
// offers, the turn's own tools (find_tools, search_conversation) and the
// token budget left for tool results.
type turnTools struct {
	s       *Service
	sel     *toolselect.Selector // the registry's tools when the turn began
	session string
	query   toolselect.Query
	history []memory.Message // the session's stored history
	older   bool             // exchanges exist outside the prompt's window
	window  int              // first exchange in the window
	left    int              // budget tokens left for tool results, less owed
	// owed are texts of the loop whose tokens are not charged yet (see
	// fit), and owedBytes their length.
	owed      []string
	owedBytes int
}

// newTurnTools prepares the selection of a turn from its message, screen and
// history (see turnQuery), and the budget left after the first prompt.
func (s *Service) newTurnTools(sel *toolselect.Selector, q toolselect.Query, turn memory.Turn, p prompt) *turnTools {
	return &turnTools{
		s: s, sel: sel, session: turn.Meta.ID, history: turn.History, older: p.older, window: p.window,
		left: s.opts.MaxContextTokens - p.used, query: q,
	}
}

// turnQuery is what a turn's tool selection is made from: the player's
// message, the screen's rule tools and the tools of recent exchanges.
func (s *Service) turnQuery(turn memory.Turn, message string) toolselect.Query {
	return toolselect.Query{
		Message: message,
		Screen:  s.screenToolsOf(turn.Meta),
		Recent:  recentTools(turn.History, recentExchanges),
	}
}

// describedTools are the tools a turn's data block may describe: none
// unless TOOL_SELECTION=deferred (see toolselect.Selector.Described). The
// block describes those its history window has not.
func describedTools(sel *toolselect.Selector, q toolselect.Query) []tool.Spec {
	if !sel.Deferred() {
		return nil
	}
	return sel.Described(q)
}

// screenToolsOf lists the rule tools of the session's current screen.
func (s *Service) screenToolsOf(meta memory.Meta) []string {
	if meta.Screen == nil || s.screenTools == nil {
		return nil
	}
	return s.screenTools.Tools(meta.Screen.Name)
}

// recentTools lists the tools of the last n exchanges' answers, newest first.
func recentTools(history []memory.Message, n int) []string {
	var out []string
	seen := 0
	last := -1
	for i := len(history) - 1; i >= 0 && seen <= n; i-- {
		m := history[i]
		if m.Exchange != last {
			seen++
			last = m.Exchange
			if seen > n {
				break
			}
		}
		for _, name := range m.Tools {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// offer returns the schemas for the next LLM call: every offered tool in
// TOOL_SELECTION=all, else the selection plus find_tools (and
// search_conversation when older exchanges exist), within
// MAX_TOOLS_PER_CALL.
func (t *turnTools) offer() []tool.Spec {
	if t.sel.Deferred() {
		return t.s.deferred.specs(t.sel)
	}
	if t.sel.All() {
		out := t.sel.Select(t.query, 0)
		if t.older {
			out = append(out, searchConversationSpec())
		}
		return out
	}
	local := []tool.Spec{toolselect.FindToolsSpec()}
	if t.older {
		local = append(local, searchConversationSpec())
	}
	return t.sel.Sticky(lastOffered(t.history), t.query, local)
}

// deferredOffer remembers the tool list of TOOL_SELECTION=deferred, which
// depends on the selector only: built once per selector, not on every
// call of every turn.
type deferredOffer struct {
	mu   sync.Mutex
	sel  *toolselect.Selector
	list []tool.Spec
}

// specs returns the list for sel: the same on every call of a session,
// the core sorted by name, then find_tools, use_tool and
// search_conversation. Callers share it and must not modify it; its
// capacity is its length, so an append copies.
func (d *deferredOffer) specs(sel *toolselect.Selector) []tool.Spec {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sel != sel {
		core := sel.Core()
		slices.SortFunc(core, func(a, b tool.Spec) int { return strings.Compare(a.Name, b.Name) })
		d.sel, d.list = sel, slices.Clip(append(core, sel.FindToolsSpec(), useToolSpec(), searchConversationSpec()))
	}
	return d.list
}

// lastOffered returns the tools the newest answer in history offered.
func lastOffered(history []memory.Message) []string {
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == llm.RoleAssistant {
			return history[i].Offered
		}
	}
	return nil
}

// specNames lists the names of specs.
func specNames(specs []tool.Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// unknownToolGuidance suggests the three tools the LLM may call whose names
// are closest to name; tools hidden from the LLM are never named.
func (s *Service) unknownToolGuidance(name string) string {
	var near []string
	for _, n := range s.reg.Closest(name, len(s.reg.Specs(nil))) {
		if sp, ok := s.reg.Spec(n); ok && llmMay(s.opts, sp) {
			near = append(near, n)
			if len(near) == 3 {
				break
			}
		}
	}
	if len(near) == 0 {
		return "Call one of the offered tools, or find_tools to get more."
	}
	return "Use one of: " + strings.Join(near, ", ") + "."
}

// run answers a batch of the model's calls: the turn's own tools here, the
// rest through the scope, outcomes in call order.
func (t *turnTools) run(ctx context.Context, scope *Scope, batch []tool.Call) []tool.Outcome {
	outs := make([]tool.Outcome, len(batch))
	var rest []tool.Call
	var at []int
	var local []tool.Outcome
	for i, c := range batch {
		start := time.Now()
		var res tool.Result
		switch c.Name {
		case toolselect.FindToolsName:
			var names []string
			res, names = t.sel.AnswerFind(normalizeArgs(c.Arguments))
			for _, n := range names {
				if !slices.Contains(t.query.Found, n) {
					t.query.Found = append(t.query.Found, n)
				}
			}
		case SearchConversationName:
			res = t.searchConversation(normalizeArgs(c.Arguments))
		case toolselect.UseToolName:
			// Reached only by a call unwrapUseTool refused (see
			// turnTools.unwrap); the others arrive as the tool they name.
			_, err := unwrapUseTool(normalizeArgs(c.Arguments))
			r, refused := tool.Refused(err)
			if !refused {
				r = tool.Failure("Invalid arguments for "+toolselect.UseToolName+".", "not a tool call", "Call the tool by its name.")
			}
			res = r
		default:
			if sp, ok := t.s.reg.Spec(c.Name); !ok || !llmMay(t.s.opts, sp) {
				// Unknown, or not offered to the LLM (a SQL tool without
				// SQL_TOOLS_FOR_LLM): answered as an unknown tool, whatever
				// the model was told to call; the suggestions name only
				// tools the LLM may call.
				res = tool.Failure(fmt.Sprintf("Unknown tool %q.", tool.Clip(c.Name, 80)), "not a tool of this assistant",
					t.s.unknownToolGuidance(c.Name))
				break
			}
			rest = append(rest, c)
			at = append(at, i)
			continue
		}
		outs[i] = tool.Outcome{
			Name: c.Name, Arguments: argsJSON(normalizeArgs(c.Arguments)), Source: tool.SourceExecuted,
			Status: res.Status, DurationMS: ms(time.Since(start)), Result: res,
		}
		local = append(local, outs[i])
	}
	if len(local) > 0 {
		t.s.obs.ToolCalls(ctx, t.session, local)
	}
	if len(rest) > 0 {
		for j, o := range scope.Run(ctx, rest) {
			outs[at[j]] = o
		}
	}
	return outs
}

// fit cuts a tool result to the budget left and charges it; counting
// stops when ctx ends (the loop's deadline). A token is at least one byte
// (see tokens.Counter.Count), so a result that fits at one token per byte
// fits: it is given in full and owed, counted only when the budget is
// needed again, by a later result that does not fit so. Most turns never
// need it (one round of tools, then the answer), and a new result's count
// would be the costliest part of the turn after the model calls.
func (t *turnTools) fit(ctx context.Context, content string) string {
	if len(content)+msgOverhead <= t.left-t.owedBytes {
		t.owe(content)
		t.left -= msgOverhead
		return content
	}
	t.settle(ctx)
	out, n := t.s.fitToolResult(ctx, content, t.left)
	t.left -= n + msgOverhead
	return out
}

// note charges a note added to a tool result and returns it.
func (t *turnTools) note(text string) string {
	t.owe(text)
	return text
}

// charge charges a message added to the loop (the model's tool calls).
func (t *turnTools) charge(m llm.Message) {
	t.left -= msgOverhead
	t.owe(m.Content)
	for _, c := range m.ToolCalls {
		t.left -= msgOverhead
		t.owe(c.Name)
		t.owe(c.Arguments)
	}
}

// owe charges text's tokens when the budget is next needed (see fit).
func (t *turnTools) owe(text string) {
	if text != "" {
		t.owed = append(t.owed, text)
		t.owedBytes += len(text)
	}
}

// settle charges the owed tokens.
func (t *turnTools) settle(ctx context.Context) {
	for _, text := range t.owed {
		t.left -= t.s.countTokensCtx(ctx, text)
	}
	t.owed, t.owedBytes = t.owed[:0], 0
}

// searchArgs are search_conversation's arguments.
type searchArgs struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// exchangeText is one past exchange, verbatim.
type exchangeText struct {
	Exchange int    `json:"exchange"`
	Player   string `json:"player"`
	Answer   string `json:"answer"`
}

// readSearchArgs decodes and checks search_conversation's arguments,
// refusing (tool.Refusal) what the model must correct.
func readSearchArgs(args json.RawMessage) (searchArgs, error) {
	var a searchArgs
	if err := tool.DecodeArgs(SearchConversationName, args, &a); err != nil {
		return a, err
	}
	a.Query = strings.TrimSpace(a.Query)
	if a.Query == "" || len([]rune(a.Query)) > 300 || a.Limit < 0 || a.Limit > 5 {
		return a, tool.Refuse("Invalid arguments for "+SearchConversationName+".",
			"query must be 1-300 characters and limit 1-5",
			`Call search_conversation with {"query": "<what was said>"}.`)
	}
	return a, nil
}

// searchConversation returns the older exchanges (before the prompt's
// window) that best match the query, verbatim, best first.
func (t *turnTools) searchConversation(args json.RawMessage) tool.Result {
	a, err := readSearchArgs(args)
	if r, refused := tool.Refused(err); refused {
		return r
	}
	if a.Limit == 0 {
		a.Limit = 3
	}
	var exs []exchangeText
	for _, m := range t.history {
		if t.window > 0 && m.Exchange >= t.window {
			break
		}
		if len(exs) == 0 || exs[len(exs)-1].Exchange != m.Exchange {
			exs = append(exs, exchangeText{Exchange: m.Exchange})
		}
		e := &exs[len(exs)-1]
		if m.Role == llm.RoleUser {
			e.Player = m.Content
		} else {
			e.Answer = m.Content
		}
	}
	q := t.s.emb.Vector(a.Query)
	type scored struct {
		i int
		s float32
	}
	var sc []scored
	for i, e := range exs {
		v := t.s.emb.Vector(e.Player + "\n" + e.Answer)
		var d float32
		for k := range q {
			d += q[k] * v[k]
		}
		if d > 0 {
			sc = append(sc, scored{i, d})
		}
	}
	sort.SliceStable(sc, func(x, y int) bool { return sc[x].s > sc[y].s })
	found := make([]exchangeText, 0, a.Limit)
	for _, x := range sc[:min(a.Limit, len(sc))] {
		found = append(found, exs[x.i])
	}
	if len(found) == 0 {
		return tool.Success("No earlier exchange matches "+strconv.Quote(a.Query)+".", map[string]any{"exchanges": found})
	}
	return tool.Success("Earlier exchanges, verbatim, best match first.", map[string]any{"exchanges": found})
}
