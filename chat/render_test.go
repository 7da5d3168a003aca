package chat

import (
	"context"
	"encoding/json"
	"hash/maphash"
	"slices"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm/llmtest"
	"github.com/gameassist/gameassist/tool"
)

// TestResultTextTables: a tool result reaches the model as compact JSON
// without its cache duration nor a "success" status, and every list of objects as a table whose
// columns are written once, nested lists too; other lists, and a table
// that would be longer, stay as they are. Key order and the values are
// kept.
func TestResultTextTables(t *testing.T) {
	res := tool.Success("2 champions.", json.RawMessage(`{"total":2,"champions":[
		{"id":1001,"name":"Kaelith","tags":["aoe"],"skills":[{"slot":1,"name":"Cut"},{"slot":2,"name":"Wake <x>"},{"slot":3,"name":"Fall"}]},
		{"id":1002,"name":"Vonoelle","tags":[],"skills":[]}],
		"tags":["a","b"],"one":[{"id":1}],"sparse":[{"a":1},{"b":2}]}`))
	res.LLMCacheDuration = 3
	res.LLMInstruction = "Quote exactly."
	got := resultText(res, "", nil)
	want := `{"message":"2 champions.","data":{"total":2,"champions":{"columns":["id","name","tags","skills"],"rows":[` +
		`[1001,"Kaelith",["aoe"],{"columns":["slot","name"],"rows":[[1,"Cut"],[2,"Wake <x>"],[3,"Fall"]]}],[1002,"Vonoelle",[],[]]]},` +
		`"tags":["a","b"],"one":[{"id":1}],"sparse":[{"a":1},{"b":2}]},"llm_instruction":"Quote exactly."}`
	if got != want {
		t.Errorf("resultText:\n got %s\nwant %s", got, want)
	}
	if strings.Contains(got, "llm_cache_duration") {
		t.Error("the cache duration reached the model")
	}
	fail := tool.Failure("Unknown champion.", "no such name", "Check the spelling.")
	if got := resultText(fail, "", nil); !strings.Contains(got, `"guidance":"Check the spelling."`) || !strings.Contains(got, `"status":"error"`) {
		t.Errorf("an error result lost its fields: %s", got)
	}
}

// TestResultTextNames: display names are given once, in the session's
// locale: a "names" map keeps only that locale's name, and only when it
// differs from the "name" beside it, and goes when nothing is left;
// without a locale it keeps every name that differs. A "names" that is
// not a map of names, or has no "name" beside it, stays.
func TestResultTextNames(t *testing.T) {
	res := tool.Success("ok", json.RawMessage(`{"id":1001,"name":"Kaelith","names":{"de":"Kaelith","en":"Kaelith","fr":"Kaelith"},
		"boss":{"name":"Fire Knight","names":{"de":"Feuerritter","en":"Fire Knight","fr":"Chevalier de feu"}},
		"bosses":[{"id":1,"name":"A","names":{"en":"A"}},{"id":2,"name":"B","names":{"en":"B","fr":"Bé"}}],
		"aliases":{"name":"X","names":["X","Ex"]},"orphan":{"names":{"en":"Y"}}}`))
	const rest = `"aliases":{"name":"X","names":["X","Ex"]},"orphan":{"names":{"en":"Y"}}}}`
	for _, tc := range []struct{ locale, want string }{
		{"", `{"message":"ok","data":{"id":1001,"name":"Kaelith",` +
			`"boss":{"name":"Fire Knight","names":{"de":"Feuerritter","fr":"Chevalier de feu"}},` +
			`"bosses":[{"id":1,"name":"A"},{"id":2,"name":"B","names":{"fr":"Bé"}}],` + rest},
		{"fr", `{"message":"ok","data":{"id":1001,"name":"Kaelith",` +
			`"boss":{"name":"Fire Knight","names":{"fr":"Chevalier de feu"}},` +
			`"bosses":[{"id":1,"name":"A"},{"id":2,"name":"B","names":{"fr":"Bé"}}],` + rest},
		{"en", `{"message":"ok","data":{"id":1001,"name":"Kaelith",` +
			`"boss":{"name":"Fire Knight"},` +
			`"bosses":[{"id":1,"name":"A"},{"id":2,"name":"B"}],` + rest},
	} {
		if got := resultText(res, tc.locale, nil); got != tc.want {
			t.Errorf("locale %q:\n got %s\nwant %s", tc.locale, got, tc.want)
		}
	}
}

// TestSchemaText: the offered schema drops what tells the model nothing
// (additionalProperties false, minLength 1, maxLength) and keeps the rest,
// in order; a property named like a keyword stays.
func TestSchemaText(t *testing.T) {
	raw := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":100,"description":"Name."},
		"code":{"type":"string","minLength":3},"maxLength":{"type":"integer"}},"required":["name"],"additionalProperties":false}`)
	want := `{"type":"object","properties":{"name":{"type":"string","description":"Name."},"code":{"type":"string","minLength":3},"maxLength":{"type":"integer"}},"required":["name"]}`
	if got := schemaText(raw); got != want {
		t.Errorf("schemaText:\n got %s\nwant %s", got, want)
	}
	var m schemaMemo
	if got := m.specs([]tool.Spec{{Name: "x", Parameters: raw}}); string(got[0].Parameters) != want || !json.Valid(got[0].Parameters) {
		t.Errorf("specs: %s", got[0].Parameters)
	}
}

// TestSchemaMemo: a schema is rendered once, offered or described; later
// turns get the same rendering without decoding it again (one allocation:
// the turn's own spec list), and a changed schema gets its own.
func TestSchemaMemo(t *testing.T) {
	var m schemaMemo
	a := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","minLength":1,"description":"Name."}},"required":["name"],"additionalProperties":false}`)
	b := json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":20}}}`)
	specs := []tool.Spec{{Name: "a", Parameters: a}, {Name: "b", Parameters: b}, {Name: "c"}}
	first := m.specs(specs)
	for i, sp := range first {
		if want := string(specs[i].Parameters); len(want) > 0 && string(sp.Parameters) != schemaText(specs[i].Parameters) {
			t.Errorf("%s: %s, want %s", sp.Name, sp.Parameters, schemaText(specs[i].Parameters))
		}
	}
	if first[2].Parameters != nil {
		t.Errorf("no schema became %s", first[2].Parameters)
	}
	if n := testing.AllocsPerRun(50, func() { m.specs(specs) }); n != 1 {
		t.Errorf("offering remembered schemas: %v allocations, want 1", n)
	}
	if got := m.args(a); got != describedArgs(a) {
		t.Errorf("args: %q, want %q", got, describedArgs(a))
	}
	if n := testing.AllocsPerRun(50, func() { m.args(a) }); n != 0 {
		t.Errorf("describing a remembered schema: %v allocations, want 0", n)
	}
	changed := json.RawMessage(strings.Replace(string(a), "Name.", "Full name.", 1))
	if got := m.specs([]tool.Spec{{Name: "a", Parameters: changed}}); string(got[0].Parameters) != schemaText(changed) {
		t.Errorf("changed schema: %s", got[0].Parameters)
	}
}

// TestDescribedArgs: a described tool's arguments are one line each, with
// type, required, bounds, enum, default, pattern, items and nested
// objects, and the object's rules; a schema with a keyword it cannot write
// is given as JSON.
func TestDescribedArgs(t *testing.T) {
	raw := json.RawMessage(`{"type":"object","properties":{
		"boss_name":{"type":"string","minLength":1,"maxLength":100,"description":"Boss name."},
		"boss_id":{"type":"integer","minimum":1,"maximum":999999},
		"rarity":{"type":"string","enum":["Epic","Legendary"]},
		"top_k":{"type":"integer","minimum":1,"maximum":20,"default":5,"description":"How many."},
		"names":{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":5},
		"id":{"type":"string","pattern":"^[a-z]+$"},
		"filters":{"type":"object","properties":{"locale":{"type":"string","minLength":2}},"required":["locale"],"additionalProperties":false}},
		"required":["names"],"anyOf":[{"required":["boss_name"]},{"required":["boss_id"]}],"additionalProperties":false}`)
	want := "  - boss_name (string): Boss name.\n" +
		"  - boss_id (integer, 1-999999)\n" +
		"  - rarity (string, one of \"Epic\", \"Legendary\")\n" +
		"  - top_k (integer, 1-20, default 5): How many.\n" +
		"  - names (array of string, required, 2-5 items)\n" +
		"  - id (string, pattern ^[a-z]+$)\n" +
		"  - filters (object)\n" +
		"    - locale (string, required, at least 2 characters)\n" +
		"  (give boss_name or boss_id)\n"
	if got := describedArgs(raw); got != want {
		t.Errorf("describedArgs:\n got %q\nwant %q", got, want)
	}
	one := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"minProperties":1,"maxProperties":1}`)
	if got := describedArgs(one); !strings.HasSuffix(got, "  (give exactly 1 of these)\n") {
		t.Errorf("min/maxProperties: %q", got)
	}
	odd := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","format":"date"}}}`)
	if got := describedArgs(odd); got != "  arguments: "+schemaText(odd)+"\n" {
		t.Errorf("an unknown keyword is not given as JSON: %q", got)
	}
	for _, none := range []string{``, `{"type":"object","properties":{}}`} {
		if got := describedArgs(json.RawMessage(none)); got != "  (no arguments)\n" {
			t.Errorf("no arguments %q: %q", none, got)
		}
	}
}

// TestToolMessagesAndBlocksUseTables: the tool message of a call and the
// data block that shows its cached result on the next turn both carry the
// result as resultText renders it.
func TestToolMessagesAndBlocksUseTables(t *testing.T) {
	e := newEnv(t, envConfig{})
	e.box.get("gcs_get_champion_details").fn = func(context.Context, map[string]any) (tool.Result, error) {
		return tool.Success("ok", json.RawMessage(`{"counters":[{"id":1,"name":"Rakaix"},{"id":2,"name":"Vorenyn"},{"id":3,"name":"Kaelith"}]}`)), nil
	}
	id, _ := e.session(t)
	e.fake.Enqueue(
		llmtest.ToolCalls(champCall("a", "Kaelith")),
		llmtest.Text("Three."),
		llmtest.Text("Still three."),
	)
	n := e.fake.RequestCount()
	e.turn(t, id, "who is Kaelith?")
	e.turn(t, id, "and again?")
	reqs := e.fake.Requests()[n:]
	const table = `"counters":{"columns":["id","name"],"rows":[[1,"Rakaix"],[2,"Vorenyn"],[3,"Kaelith"]]}`
	msgs := reqs[1].Messages
	if m := msgs[len(msgs)-1]; m.Role != openai.ChatMessageRoleTool || !strings.Contains(m.Content, table) || strings.Contains(m.Content, "llm_cache_duration") {
		t.Errorf("tool message %s %s", m.Role, m.Content)
	}
	if last := lastUser(reqs[2]); !strings.Contains(last, cacheHeader) || !strings.Contains(last, table) {
		t.Errorf("the next turn's block does not show the result as a table:\n%s", last)
	}
}

// TestSpecsKey: the tool list's fingerprint, taken every turn, changes
// with any tool's name, version, description or schema (moving bytes from
// one field to the next included), and takes no allocation.
func TestSpecsKey(t *testing.T) {
	seed := maphash.MakeSeed()
	base := []tool.Spec{
		{Name: "a", Version: 1, Description: "Finds.", Parameters: json.RawMessage(`{"type":"object"}`)},
		{Name: "b", Description: "Gets.", Parameters: json.RawMessage(`{}`)},
	}
	k := specsKey(seed, base)
	if specsKey(seed, slices.Clone(base)) != k {
		t.Fatal("same tools, another key")
	}
	for i, change := range []func(s []tool.Spec){
		func(s []tool.Spec) { s[0].Name = "c" },
		func(s []tool.Spec) { s[0].Version = 2 },
		func(s []tool.Spec) { s[1].Description = "Gets it." },
		func(s []tool.Spec) { s[1].Parameters = json.RawMessage(`{"type":"object"}`) },
		func(s []tool.Spec) {
			s[0].Description, s[0].Parameters = "Finds.{", json.RawMessage(`"type":"object"}`)
		},
	} {
		s := slices.Clone(base)
		change(s)
		if specsKey(seed, s) == k {
			t.Errorf("change %d: same key", i)
		}
	}
	if specsKey(seed, base[:1]) == k {
		t.Error("a tool fewer: same key")
	}
	if n := testing.AllocsPerRun(50, func() { specsKey(seed, base) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
