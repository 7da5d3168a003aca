package feedback

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/gameassist/gameassist/memory"
)

// Limits of the scenario format.
const (
	maxDescriptionRunes = 2000
	maxSayRunes         = 4000
)

// Scenario writes the eval scenario (YAML, the `gameassist eval` format)
// that replays r's exchange: the screen and the earlier messages of its
// window as steps, then the rated question expecting the tools it called.
// facts and forbid are left for the studio, with a comment saying so; the
// rated reply and the player's comment are shown as comments.
func Scenario(r Record) ([]byte, error) {
	doc := mapping()
	add(doc, "name", str(ScenarioName(r)))
	desc := fmt.Sprintf("Replays exchange %d of session %s, rated %s by the player", r.Exchange, r.SessionID, r.Rating)
	if r.Model != "" {
		desc += "; answered by " + r.Model
	}
	if r.Comment != "" {
		desc += ". Player's comment (player text): " + r.Comment
	}
	add(doc, "description", str(clipRunes(desc, maxDescriptionRunes)))
	if r.Locale != "" {
		add(doc, "locale", str(r.Locale))
	}
	steps := &yaml.Node{Kind: yaml.SequenceNode}
	// pending are comments for the next step (what the assistant answered
	// before it).
	var pending []string
	appendStep := func(n *yaml.Node) {
		if len(pending) > 0 {
			n.Content[0].HeadComment = comment(strings.Join(pending, "\n"))
			pending = nil
		}
		steps.Content = append(steps.Content, n)
	}
	var current *memory.ExchangeScreen
	screenStep := func(sc *memory.ExchangeScreen) error {
		if sc == nil || sameScreen(current, sc) {
			return nil
		}
		current = sc
		n := mapping()
		s := mapping()
		add(s, "name", str(sc.Name))
		if d := bytes.TrimSpace(sc.Data); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
			var data yaml.Node
			if err := yaml.Unmarshal(d, &data); err != nil || len(data.Content) == 0 {
				return fmt.Errorf("feedback: scenario %s: screen data: %v", r.ID, err)
			}
			add(s, "data", data.Content[0])
		}
		add(n, "screen", s)
		appendStep(n)
		return nil
	}
	for _, m := range r.Window {
		switch m.Role {
		case "user":
			if err := screenStep(m.Screen); err != nil {
				return nil, err
			}
			if strings.TrimSpace(m.Content) == "" {
				continue
			}
			n := mapping()
			add(n, "say", str(clipRunes(m.Content, maxSayRunes)))
			appendStep(n)
		case "assistant":
			pending = append(pending, "answered then: "+clipRunes(m.Content, 300))
		}
	}
	if err := screenStep(r.Screen); err != nil {
		return nil, err
	}
	rated := mapping()
	var head strings.Builder
	fmt.Fprintf(&head, "The rated exchange (%d), rated %s. Its reply was:\n%s", r.Exchange, r.Rating, r.Reply)
	if r.Comment != "" {
		head.WriteString("\nThe player's comment: " + r.Comment)
	}
	pending = append(pending, head.String())
	add(rated, "say", str(clipRunes(r.Message, maxSayRunes)))
	expect := mapping()
	tools := &yaml.Node{Kind: yaml.SequenceNode}
	for _, name := range expectedTools(r.Tools) {
		tools.Content = append(tools.Content, str(name))
	}
	todo := comment("facts and forbid are left for the studio to write: what a right answer must say\n" +
		"(facts: [\"...\", \"/regex/i\"]) and what it must not say (forbid: [...]).")
	if len(tools.Content) > 0 {
		add(expect, "tools", tools)
		expect.Content[0].HeadComment = "# the tools the rated answer called"
		add(rated, "expect", expect)
		rated.Content[2].HeadComment = todo
	} else {
		pending = append(pending, "The rated answer called no tool.")
		rated.FootComment = todo
	}
	appendStep(rated)
	add(doc, "steps", steps)
	root := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{doc}}
	root.HeadComment = comment(fmt.Sprintf("Made from player feedback %s (%s) on %s: gameassist eval runs it as is.", r.ID, r.Rating, r.At.Format("2006-01-02 15:04 MST")))
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("feedback: scenario %s: %w", r.ID, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("feedback: scenario %s: %w", r.ID, err)
	}
	return b.Bytes(), nil
}

// ScenarioName is the name of r's scenario: unique per record.
func ScenarioName(r Record) string { return "feedback " + r.ID + " " + r.Rating }

// expectedTools are the distinct tools r's answer called successfully, in
// call order (skipped and failed calls are not expected of a replay).
func expectedTools(tools []memory.ExchangeTool) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tools {
		if t.Source == "skipped" || t.Status != "success" || seen[t.Name] || !toolName(t.Name) {
			continue
		}
		seen[t.Name] = true
		out = append(out, t.Name)
	}
	return out
}

// toolName reports whether name fits the scenario format's tool names.
func toolName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '_' || c == '-')
		if !ok {
			return false
		}
	}
	return true
}

func sameScreen(a, b *memory.ExchangeScreen) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Name != b.Name {
		return false
	}
	var x, y any
	_ = json.Unmarshal(a.Data, &x)
	_ = json.Unmarshal(b.Data, &y)
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, str(key), v)
}

// comment turns text (player text included) into YAML comment lines:
// every line break a YAML reader knows becomes one, control characters
// become spaces, and every line starts with "# ", so nothing in it can
// end the comment.
func comment(text string) string {
	text = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n").Replace(text)
	text = strings.Map(func(r rune) rune {
		if r == '\n' {
			return r
		}
		if unicode.IsControl(r) || r == '\uFEFF' {
			return ' '
		}
		return r
	}, text)
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("# "+l, " ")
	}
	return strings.Join(lines, "\n")
}

func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
