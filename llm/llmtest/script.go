package llmtest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/tool"
)

// Script makes the fake behave like a tool-calling model, deterministically:
// it reads the player's message, calls the tools its first matching Rule
// names (one round after another, each after the previous round's results),
// then answers in text built from the tool results of the turn, the way a
// model quotes what it looked up. It calls only tools the request offers,
// never repeats the system prompt and never follows instructions found in
// data. Install it with Server.SetResponder(script.Responder()).
//
// Use it to exercise the whole LLM path (tool loop, session cache,
// duplicate suppression, rounds, token usage) and to record eval cassettes.
type Script struct {
	// Rules are tried in order; the first whose Match finds the player's
	// message decides the turn.
	Rules []Rule
	// Fallback is the answer when no rule matches (default: a polite
	// refusal to leave the game's subject).
	Fallback string
	// PlayerMessage extracts the player's words from the last user
	// message (default: its last paragraph, since the prompt may put
	// volatile context before the message in the same turn).
	PlayerMessage func(content string) string
}

// Rule is one behaviour of a scripted model.
type Rule struct {
	// Match is a regular expression (case-insensitive) over the player's
	// message; its groups can be used in arguments as $1..$9.
	Match string
	// Rounds are the parallel tool calls of each round, in order; the
	// arguments are JSON text where $N is replaced by group N (JSON-escaped).
	// A round of tools none of which is offered is skipped.
	Rounds [][]Call
	// Context, when set, is a regular expression (case-insensitive) that
	// must also find the rest of the prompt (system messages, then the
	// context sent with the player's messages, newest first): the way a
	// model reads the screen the player is on. Its groups are $c1..$c9 in
	// arguments.
	Context string
	// Intro starts the answer (default "Here is what I found.").
	Intro string
}

// DefaultFallback is a Script's answer to a message no rule matches.
const DefaultFallback = "I can only help with questions about the game: champions, bosses, dungeons, gear and factions."

// maxQuoted bounds how much of each tool result an answer quotes.
const maxQuoted = 360

type compiledRule struct {
	re, ctx *regexp.Regexp
	Rule
}

// Responder compiles the rules and returns the function to give
// Server.SetResponder; a rule that does not compile is an error.
func (s Script) Responder() (func(openai.ChatCompletionRequest) Reply, error) {
	rules := make([]compiledRule, 0, len(s.Rules))
	for i, r := range s.Rules {
		re, err := regexp.Compile("(?i)" + r.Match)
		if err != nil {
			return nil, fmt.Errorf("llmtest: script rule %d: %w", i, err)
		}
		cr := compiledRule{re: re, Rule: r}
		if r.Context != "" {
			if cr.ctx, err = regexp.Compile("(?i)" + r.Context); err != nil {
				return nil, fmt.Errorf("llmtest: script rule %d context: %w", i, err)
			}
		}
		rules = append(rules, cr)
	}
	fallback := s.Fallback
	if fallback == "" {
		fallback = DefaultFallback
	}
	player := s.PlayerMessage
	if player == nil {
		player = lastParagraph
	}
	return func(req openai.ChatCompletionRequest) Reply {
		last := -1
		for i, m := range req.Messages {
			if m.Role == openai.ChatMessageRoleUser {
				last = i
			}
		}
		if last < 0 {
			return Text(fallback)
		}
		msg := player(req.Messages[last].Content)
		var rest strings.Builder
		for _, m := range req.Messages[:last+1] {
			if m.Role == openai.ChatMessageRoleSystem {
				rest.WriteString(m.Content + "\n")
			}
		}
		// The context each player message was sent with, newest first: a
		// prompt may give a context once and keep it in the history.
		for i := last; i >= 0; i-- {
			if m := req.Messages[i]; m.Role == openai.ChatMessageRoleUser {
				c := strings.TrimSpace(m.Content)
				rest.WriteString(strings.TrimSuffix(c, player(c)) + "\n")
			}
		}
		round := 0
		var results []string
		for _, m := range req.Messages[last+1:] {
			switch {
			case m.Role == openai.ChatMessageRoleAssistant && len(m.ToolCalls) > 0:
				round++
			case m.Role == openai.ChatMessageRoleTool:
				results = append(results, m.Content)
			}
		}
		for _, r := range rules {
			groups := r.re.FindStringSubmatch(msg)
			if groups == nil {
				continue
			}
			var ctxGroups []string
			if r.ctx != nil {
				if ctxGroups = r.ctx.FindStringSubmatch(rest.String()); ctxGroups == nil {
					continue
				}
			}
			for ; round < len(r.Rounds); round++ {
				if calls := offered(req, r.Rounds[round], groups, ctxGroups, round); len(calls) > 0 {
					return ToolCalls(calls...)
				}
			}
			return Text(answer(r.Intro, localeOf(req), results))
		}
		return Text(fallback)
	}, nil
}

// offered fills in the arguments of a round's calls and keeps those the
// request offers: as tools, or described in a user message's data block
// to be called through use_tool (TOOL_SELECTION=deferred), which is how
// such a call is made.
func offered(req openai.ChatCompletionRequest, calls []Call, groups, ctxGroups []string, round int) []Call {
	var out []Call
	for i, c := range calls {
		native, described := offersTool(req, c.Name), false
		if !native {
			described = Describes(req, c.Name)
			if !described {
				continue
			}
		}
		args := expand(expand(c.Arguments, "$c", ctxGroups), "$", groups)
		if args == "" {
			args = "{}"
		}
		id := c.ID
		if id == "" {
			id = "call_s" + strconv.Itoa(round) + "_" + strconv.Itoa(i)
		}
		if described {
			out = append(out, Call{ID: id, Name: UseTool, Arguments: `{"name":"` + c.Name + `","arguments":` + args + `}`})
			continue
		}
		out = append(out, Call{ID: id, Name: c.Name, Arguments: args})
	}
	return out
}

// UseTool is the tool that calls a tool described in the conversation;
// DescribedHeader starts the data block section that describes them, one
// "- name: description" line each.
const (
	UseTool         = "use_tool"
	DescribedHeader = "## Tools to call through use_tool\n"
)

func offersTool(req openai.ChatCompletionRequest, name string) bool {
	return slices.ContainsFunc(req.Tools, func(t openai.Tool) bool { return t.Function != nil && t.Function.Name == name })
}

// Describes reports whether req lists the tool name in the system
// prompt's catalog or describes it in a user message's data block, to be
// called through use_tool, and use_tool is offered.
func Describes(req openai.ChatCompletionRequest, name string) bool {
	if !offersTool(req, UseTool) {
		return false
	}
	return slices.ContainsFunc(req.Messages, func(m openai.ChatCompletionMessage) bool {
		i := strings.LastIndex(m.Content, DescribedHeader)
		switch {
		case i < 0:
			return false
		case m.Role == openai.ChatMessageRoleSystem: // the catalog: "- name(arguments): ..."
			return strings.Contains(m.Content[i:], "\n- "+name+"(")
		default:
			return m.Role == openai.ChatMessageRoleUser && strings.Contains(m.Content[i:], "\n- "+name+": ")
		}
	})
}

// expand replaces prefix+N (N from 9 down to 1) with group N, JSON-escaped.
func expand(s, prefix string, groups []string) string {
	for g := len(groups) - 1; g >= 1; g-- {
		esc, _ := json.Marshal(strings.TrimSpace(groups[g]))
		s = strings.ReplaceAll(s, prefix+strconv.Itoa(g), string(esc[1:len(esc)-1]))
	}
	return s
}

// PlayerWords is the player's words in the content of a user turn as the
// chat service sends it (see lastParagraph), for fakes that answer by the
// player's message.
func PlayerWords(content string) string { return lastParagraph(content) }

// lastParagraph is the player's words in a user turn: the text between
// the turn's last <player> and </player> when it has
// them, else its last paragraph.
func lastParagraph(content string) string {
	content = strings.TrimSpace(content)
	if i := strings.LastIndex(content, "<player>"); i >= 0 {
		rest := content[i+len("<player>"):]
		if j := strings.LastIndex(rest, "</player>"); j >= 0 {
			return strings.TrimSpace(rest[:j])
		}
	}
	if i := strings.LastIndex(content, "\n\n"); i >= 0 {
		return strings.TrimSpace(content[i+2:])
	}
	return content
}

// localeOf reads the answer language the system prompt asks for.
func localeOf(req openai.ChatCompletionRequest) string {
	for _, m := range req.Messages {
		if m.Role != openai.ChatMessageRoleSystem {
			continue
		}
		low := strings.ToLower(m.Content)
		switch {
		case strings.Contains(low, "answer in french"):
			return "fr"
		case strings.Contains(low, "answer in german"):
			return "de"
		}
	}
	return "en"
}

var intros = map[string]string{
	"en": "Here is what I found.",
	"fr": "Voici ce que j'ai trouvé.",
	"de": "Folgendes habe ich gefunden.",
}

// answer quotes the salient text of each tool result: its message and the
// string values of its data, depth first, keys in order.
func answer(intro, locale string, results []string) string {
	if intro == "" {
		intro = intros[locale]
	}
	var b strings.Builder
	b.WriteString(intro)
	for _, r := range results {
		var env struct {
			Status  string          `json:"status"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if json.Unmarshal([]byte(r), &env) != nil {
			continue
		}
		var parts []string
		if env.Message != "" {
			parts = append(parts, env.Message)
		}
		var data any
		if json.Unmarshal(env.Data, &data) == nil {
			parts = append(parts, stringLeaves(data, nil)...)
		}
		quoted := tool.Clip(strings.Join(dedupe(parts), "; "), maxQuoted)
		if quoted != "" {
			b.WriteString("\n- " + quoted)
		}
	}
	return b.String()
}

// strings_ collects the string leaves of v, object keys sorted.
func stringLeaves(v any, out []string) []string {
	switch x := v.(type) {
	case string:
		if s := strings.TrimSpace(x); s != "" {
			out = append(out, s)
		}
	case []any:
		for _, e := range x {
			out = stringLeaves(e, out)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int {
			switch {
			case a == b:
				return 0
			case a == "name":
				return -1
			case b == "name":
				return 1
			}
			return strings.Compare(a, b)
		})
		for _, k := range keys {
			out = stringLeaves(x[k], out)
		}
	}
	return out
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
