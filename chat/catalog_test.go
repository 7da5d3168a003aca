package chat

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/internal/sampletools"
	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/tool"
	"github.com/gameassist/gameassist/toolselect"
)

// catalogOfRequest is the catalog r's system message ends with ("": none).
func catalogOfRequest(r openai.ChatCompletionRequest) string {
	sys := r.Messages[0].Content
	if i := strings.Index(sys, catalogHeader); i >= 0 {
		return sys[i:]
	}
	return ""
}

// TestCatalogInSystemPrompt: with a catalog, the system prompt ends with
// every tool called through use_tool, one line each, sorted by name, core
// tools and the turn's own left out; no data block describes a tool; the
// system message is byte-identical on the next turn; and a catalog tool
// called through use_tool runs as itself.
func TestCatalogInSystemPrompt(t *testing.T) {
	e := newEnv(t, envConfig{opts: Options{ToolSelection: toolselect.ModeDeferred, ToolCatalogBytes: 8192}})
	id, _ := e.session(t)
	counters := e.box.get("gcs_find_counters_for_boss")
	countersThroughUseTool(e)
	n := e.fake.RequestCount()
	r := e.turn(t, id, "which champions counter the Fire Knight boss?")
	first := e.fake.Requests()[n]
	cat := catalogOfRequest(first)
	var listed []string
	for _, line := range strings.Split(strings.TrimSuffix(cat, "\n"), "\n")[2:] {
		name, _, ok := strings.Cut(strings.TrimPrefix(line, "- "), "(")
		if !ok || !strings.HasPrefix(line, "- ") {
			t.Fatalf("catalog line %q is not \"- name(arguments): ...\"", line)
		}
		listed = append(listed, name)
	}
	var want []string
	for _, sp := range e.box.reg.Specs(func(sp tool.Spec) bool { return sp.Category != tool.CategorySQL }) {
		if !slices.Contains(toolselect.DefaultCore(), sp.Name) {
			want = append(want, sp.Name)
		}
	}
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("catalog lists %v, want %v", listed, want)
	}
	if !strings.Contains(cat, "\n- gcs_find_counters_for_boss(boss_name): ") || !strings.Contains(cat, "\n- gcs_get_character_details_by_id(character_id: int): ") {
		t.Errorf("catalog lines without their signatures:\n%s", cat)
	}
	if strings.Contains(lastUser(first), toolsHeader) {
		t.Errorf("a data block describes tools the catalog lists:\n%s", lastUser(first))
	}
	if !llmtest.Describes(first, "gcs_find_counters_for_boss") {
		t.Error("llmtest.Describes does not read the catalog")
	}
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "gcs_find_counters_for_boss" || counters.count() != 1 {
		t.Fatalf("tool calls %+v, runs %d", r.ToolCalls, counters.count())
	}
	n = e.fake.RequestCount()
	e.turn(t, id, "and which champions counter the Fire Knight boss now?")
	next := e.fake.Requests()[n]
	if next.Messages[0].Content != first.Messages[0].Content {
		t.Errorf("the system message changed between turns")
	}
}

// TestCatalogCap: tools the catalog has no room for are described in a
// data block when a turn selects them, as without a catalog; those it
// lists never are.
func TestCatalogCap(t *testing.T) {
	// Room for the header and the first tool by name only.
	specs := []tool.Spec{
		{Name: "a_tool", Description: "First.", Parameters: json.RawMessage(`{"type":"object"}`)},
		{Name: "gcs_find_counters_for_boss", Description: "Counters of a boss.", Parameters: json.RawMessage(`{"type":"object"}`)},
	}
	c := catalogOf(specs, len(catalogHeader)+len(catalogLine(specs[0], map[string]string{})))
	if !c.listed["a_tool"] || c.listed["gcs_find_counters_for_boss"] || !strings.HasSuffix(c.text, "- a_tool(): First.\n") {
		t.Fatalf("catalog %q lists %v", c.text, c.listed)
	}
	if c := catalogOf(specs, len(catalogHeader)); c.text != "" || len(c.listed) != 0 {
		t.Errorf("a catalog with room for no tool is %q, want none", c.text)
	}

	e := newEnv(t, envConfig{opts: Options{ToolSelection: toolselect.ModeDeferred, ToolCatalogBytes: len(catalogHeader) + 60}})
	id, _ := e.session(t)
	n := e.fake.RequestCount()
	e.turn(t, id, "which champions counter the Fire Knight boss?")
	first := e.fake.Requests()[n]
	cat := catalogOfRequest(first)
	if cat == "" || len(cat) > len(catalogHeader)+60 {
		t.Fatalf("catalog of %d bytes over its cap:\n%s", len(cat), cat)
	}
	if strings.Contains(cat, "gcs_find_counters_for_boss(") {
		t.Fatalf("the cap left room for the counters tool:\n%s", cat)
	}
	if block := lastUser(first); !strings.Contains(block, toolsHeader) || !strings.Contains(block, "\n- gcs_find_counters_for_boss: ") {
		t.Errorf("a selected tool the catalog leaves out is not described:\n%s", block)
	}
	for _, line := range strings.Split(cat, "\n")[2:] {
		name, _, _ := strings.Cut(strings.TrimPrefix(line, "- "), "(")
		if name != "" && strings.Contains(lastUser(first), "\n- "+name+": ") {
			t.Errorf("%s is both listed and described", name)
		}
	}
}

// TestSignature: a catalog line's arguments: optional ones marked, enum
// values and types other than string in short, once per argument name, and
// schemas it cannot read pointed to find_tools.
func TestSignature(t *testing.T) {
	enums := map[string]string{}
	tests := []struct{ name, schema, want string }{
		{"required and optional", `{"type":"object","properties":{"champion_name":{"type":"string"},"owned_only":{"type":"boolean"},"limit":{"type":"integer","minimum":1}},"required":["champion_name"]}`,
			"champion_name, owned_only?: bool, limit?: int"},
		{"enum", `{"type":"object","properties":{"rarity":{"type":"string","enum":["Rare","Epic"]},"names":{"type":"array","items":{"type":"string"}}}}`,
			"rarity?: Rare|Epic, names?: array"},
		{"same enum and type again", `{"type":"object","properties":{"rarity":{"type":"string","enum":["Rare","Epic"]},"limit":{"type":"integer"}},"required":["rarity"]}`, "rarity, limit?"},
		{"other enum, same name", `{"type":"object","properties":{"rarity":{"enum":["Common"]}}}`, "rarity?: Common"},
		{"no properties", `{"type":"object"}`, ""},
		{"no schema", ``, ""},
		{"not an object", `[1,2]`, "see find_tools"},
		{"not JSON", `{"type":`, "see find_tools"},
		{"properties not an object", `{"type":"object","properties":[]}`, "see find_tools"},
	}
	for _, tc := range tests {
		if got := signature([]byte(tc.schema), enums); got != tc.want {
			t.Errorf("%s: signature %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestFirstSentence: a description's first sentence ends at a full stop
// before a capital letter or the end, not inside parentheses nor at an
// abbreviation.
func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Explain a game mechanic (e.g. speed, turn meter).":  "Explain a game mechanic (e.g. speed, turn meter).",
		"One gear set. Filter by name.":                      "One gear set.",
		"Champions (e.g. Kaelith. Or Eira) that stun. More.": "Champions (e.g. Kaelith. Or Eira) that stun.",
		"No full stop": "No full stop",
		"Is it? Yes.":  "Is it?",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCatalogOfTheSampleGame: within TOOL_CATALOG_MAX_BYTES's default the
// sample game's catalog lists every tool but the core, so every tool is
// callable from a session's first LLM call, whatever the question.
func TestCatalogOfTheSampleGame(t *testing.T) {
	exec, _, _ := sampletools.Build(t, "../content")
	specs := exec.Registry().Specs(func(sp tool.Spec) bool { return sp.Category != tool.CategorySQL })
	sel, err := toolselect.New(specs, toolselect.Options{Mode: toolselect.ModeDeferred})
	if err != nil {
		t.Fatal(err)
	}
	const defaultBytes = 6144 // TOOL_CATALOG_MAX_BYTES
	c := catalogOf(sel.Listed(), defaultBytes)
	for _, sp := range specs {
		if listed := c.listed[describedID(sp)]; listed == slices.Contains(toolselect.DefaultCore(), sp.Name) {
			t.Errorf("%s: listed %v", sp.Name, listed)
		}
	}
	t.Logf("sample game catalog: %d tools, %d bytes", len(c.listed), len(c.text))
}
