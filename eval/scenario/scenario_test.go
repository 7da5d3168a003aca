package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/internal/yamlguard"
	"github.com/gameassist/gameassist/schemas"
)

func newParser(t *testing.T) *Parser {
	t.Helper()
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const good = `name: boss screen flow
locale: en
steps:
  - screen: {name: BossBattlePresenter, data: {BossConfigId: 5001, Phase: 1, Team: [1001, 1002]}}
  - say: who counters this boss?
    expect:
      tools: [gcs_find_counters_for_boss, {name: gcs_get_champion_details, arguments: {champion_name: Kaelith}, source: cache}]
      not_tools: [gcs_db_query]
      facts: ["Fire Knight", "/counter/i"]
      forbid: ["SYSTEM:"]
      max_rounds: 2
      max_prompt_tokens: 4000
---
name: second
steps:
  - say: hello
`

func TestParseGood(t *testing.T) {
	scs, err := newParser(t).Parse("suite.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) != 2 {
		t.Fatalf("got %d scenarios, want 2", len(scs))
	}
	s := scs[0]
	if s.Name != "boss screen flow" || s.Locale != "en" || s.File != "suite.yaml" || s.Line != 1 {
		t.Fatalf("scenario header = %+v", s)
	}
	if len(s.Steps) != 2 || s.Steps[0].Screen == nil || s.Steps[0].Screen.Name != "BossBattlePresenter" {
		t.Fatalf("steps = %+v", s.Steps)
	}
	var data map[string]any
	if err := json.Unmarshal(s.Steps[0].Screen.Data, &data); err != nil || data["BossConfigId"] != float64(5001) {
		t.Fatalf("screen data = %s (%v)", s.Steps[0].Screen.Data, err)
	}
	if s.Steps[1].Line != 5 {
		t.Errorf("say step line = %d, want 5", s.Steps[1].Line)
	}
	e := s.Steps[1].Expect
	want := []ToolRef{{Name: "gcs_find_counters_for_boss"}, {Name: "gcs_get_champion_details", Arguments: map[string]any{"champion_name": "Kaelith"}, Source: "cache"}}
	if !reflect.DeepEqual(e.Tools, want) {
		t.Errorf("tools = %+v, want %+v", e.Tools, want)
	}
	if *e.MaxRounds != 2 || *e.MaxPromptTokens != 4000 || len(e.NotTools) != 1 {
		t.Errorf("expect = %+v", e)
	}
	if !e.Facts[0].Match("the fire knight falls") || e.Facts[0].Match("Fire Kn") {
		t.Error("substring facts are case-insensitive substrings")
	}
	if !e.Facts[1].Match("COUNTERS") || e.Forbid[0].Match("system prompt") {
		t.Error("regex and substring matching")
	}
	if scs[1].Line != 14 || scs[1].Steps[0].Say != "hello" {
		t.Errorf("second document = %+v", scs[1])
	}
}

func TestPatternRegexFlags(t *testing.T) {
	tests := []struct {
		name, pat, text string
		want            bool
	}{
		{"case sensitive regex", "/Fire/", "fire", false},
		{"i flag", "/fire/i", "FIRE", true},
		{"anchored", "/^Yes/", "Oh Yes", false},
		{"s flag", "/a.b/s", "a\nb", true},
		{"not a regex: one slash", "/usr", "see /usr/bin", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Pattern
			if err := json.Unmarshal([]byte(`"`+strings.ReplaceAll(tt.pat, `\`, `\\`)+`"`), &p); err != nil {
				t.Fatal(err)
			}
			if got := p.Match(tt.text); got != tt.want {
				t.Errorf("%q.Match(%q) = %v, want %v", tt.pat, tt.text, got, tt.want)
			}
		})
	}
}

// TestParseBad: every refusal names the file, the line and the field.
func TestParseBad(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line      int
		field     string
		msgSubstr string
	}{
		{"unknown top field", "name: a\nsteps:\n  - say: hi\nstepz: []\n", 4, "stepz", "unknown field"},
		{"missing steps", "name: a\n", 1, "", "steps"},
		{"misspelled say", "name: a\nsteps:\n  - say: hi\n  - sya: hello\n", 4, "steps[1].sya", "unknown field"},
		{"both screen and say", "name: a\nsteps:\n  - say: hi\n    screen: {name: X}\n", 3, "steps[0]", "either"},
		{"expect without say", "name: a\nsteps:\n  - expect: {facts: [x]}\n", 3, "steps[0]", "'say' required"},
		{"wrong type max_rounds", "name: a\nsteps:\n  - say: hi\n    expect:\n      max_rounds: two\n", 5, "steps[0].expect.max_rounds", "integer"},
		{"negative max_rounds", "name: a\nsteps:\n  - say: hi\n    expect:\n      max_rounds: -1\n", 5, "steps[0].expect.max_rounds", "minimum"},
		{"unknown expectation", "name: a\nsteps:\n  - say: hi\n    expect:\n      fact: [x]\n", 5, "steps[0].expect.fact", "unknown field"},
		{"tool object unknown key", "name: a\nsteps:\n  - say: hi\n    expect:\n      tools:\n        - name: gcs_x\n          args: {}\n", 7, "steps[0].expect.tools[0].args", "unknown field"},
		{"bad tool source", "name: a\nsteps:\n  - say: hi\n    expect:\n      tools:\n        - {name: gcs_x, source: memory}\n", 6, "steps[0].expect.tools[0].source", "executed"},
		{"bad regex", "name: a\nsteps:\n  - say: hi\n    expect:\n      facts:\n        - ok\n        - /fo(o/i\n", 7, "steps[0].expect.facts[1]", "regex"},
		{"bad regex flag", "name: a\nsteps:\n  - say: hi\n    expect:\n      forbid: [/x/g]\n", 5, "steps[0].expect.forbid[0]", "flag"},
		{"screen data not an object", "name: a\nsteps:\n  - screen: {name: X, data: [1]}\n", 3, "steps[0].screen.data", "object"},
		{"empty say", "name: a\nsteps:\n  - say: \"\"\n", 3, "steps[0].say", "minLength"},
		{"second document bad", "name: a\nsteps:\n  - say: hi\n---\nname: b\nsteps: []\n", 6, "steps", "minItems"},
		{"duplicate name", "name: a\nsteps:\n  - say: hi\n---\nname: a\nsteps:\n  - say: yo\n", 5, "name", "already defined at line 1"},
		{"syntax error", "name: a\nsteps:\n  - say: hi: there\n", 3, "", "YAML: mapping values are not allowed"},
		{"duplicate key", "name: a\nsteps:\n  - say: hi\nname: b\n", 4, "", `YAML: mapping key "name" already defined at line 1`},
		{"comment-only document does not hide the next one", "name: a\nsteps: [{say: hi}]\n---\n# c\n---\nname: b\nsteps: []\n", 7, "steps", "minItems"},
		{"not a mapping", "- just\n- a list\n", 1, "", "object"},
		{"empty file", "", 1, "", "no scenario"},
		{"bad locale", "name: a\nlocale: english\nsteps:\n  - say: hi\n", 2, "locale", "pattern"},
		{"player and say", "name: a\nsteps:\n  - player: {progress: {chapter: 1}}\n    say: hi\n", 3, "steps[0]", "player state (player:)"},
		{"player not an object", "name: a\nsteps:\n  - player: [1001]\n", 3, "steps[0].player", "object"},
	}
	p := newParser(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Parse("bad.yaml", []byte(tt.src))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *scenario.Error", err)
			}
			if pe.File != "bad.yaml" || pe.Line != tt.line || pe.Field != tt.field || !strings.Contains(pe.Msg, tt.msgSubstr) {
				t.Errorf("got %q (line %d field %q), want line %d field %q message with %q", err, pe.Line, pe.Field, tt.line, tt.field, tt.msgSubstr)
			}
			if !strings.HasPrefix(err.Error(), "bad.yaml:") {
				t.Errorf("error %q does not start with the file", err)
			}
		})
	}
}

// YAML bombs are refused by the shared guard before anything is decoded.
func TestParseRefusesBombs(t *testing.T) {
	var laughs strings.Builder
	laughs.WriteString("name: a\nsteps:\n  - say: hi\nx:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 9; i++ {
		p := fmt.Sprintf("*a%d", i-1)
		fmt.Fprintf(&laughs, "  a%d: &a%d [%s]\n", i, i, strings.Repeat(p+", ", 9)+p)
	}
	tests := []struct {
		name, src, msg string
	}{
		{"alias bomb", laughs.String(), "aliases expand to over"},
		{"deep nesting", "name: a\nsteps:\n  - say: hi\nx: " + strings.Repeat("[", 30_000) + "\n", "exceeded max depth"},
		{"nesting over the bound", "name: a\nsteps:\n  - say: hi\nx: " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n", "nested over 64 levels"},
	}
	p := newParser(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Parse("bad.yaml", []byte(tt.src))
			if !errors.Is(err, yamlguard.ErrBomb) || !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "bad.yaml:") {
				t.Fatalf("err = %v, want the guard's refusal with %q", err, tt.msg)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(path, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newParser(t)
	if _, err := p.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ReadFile(filepath.Join(dir, "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: err = %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("name: a\ndescription: "+strings.Repeat("x", MaxFileBytes)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ReadFile(big); err == nil || !strings.Contains(err.Error(), "big.yaml: file is over") {
		t.Errorf("big file: err = %v", err)
	}
}

// TestSchemaInStepWithTypes keeps the JSON Schema and the Go types in step:
// every property the schema allows is a field the decoder fills, and every
// field is in the schema.
func TestSchemaInStepWithTypes(t *testing.T) {
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Defs       map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
			OneOf      []struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"oneOf"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schemas.EvalScenario(), &doc); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		schema map[string]json.RawMessage
		typ    reflect.Type
	}{
		{"scenario", doc.Properties, reflect.TypeFor[Scenario]()},
		{"step", doc.Defs["step"].Properties, reflect.TypeFor[Step]()},
		{"screen", doc.Defs["screen"].Properties, reflect.TypeFor[Screen]()},
		{"expect", doc.Defs["expect"].Properties, reflect.TypeFor[Expect]()},
		{"tool", doc.Defs["tool"].OneOf[1].Properties, reflect.TypeFor[ToolRef]()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var inSchema, inGo []string
			for k := range tt.schema {
				inSchema = append(inSchema, k)
			}
			for f := range tt.typ.Fields() {
				tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if tag != "" && tag != "-" {
					inGo = append(inGo, tag)
				}
			}
			slices.Sort(inSchema)
			slices.Sort(inGo)
			if !slices.Equal(inSchema, inGo) {
				t.Errorf("schema properties %v, Go fields %v", inSchema, inGo)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("name: a\nsteps:\n  - say: hi\n    expect: {facts: [/x(/]}\n"))
	f.Add([]byte("&a [*a]"))
	p, err := NewParser()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		scs, err := p.Parse("fuzz.yaml", src)
		if err == nil && len(scs) == 0 {
			t.Fatal("no error and no scenario")
		}
		var pe *Error
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("error %v is not a *scenario.Error", err)
		}
	})
}

// A scenario written as JSON (evalgen writes its files so) reads back the
// same, with a name-only tool reference as the bare name.
func TestToolRefMarshalRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		ref  ToolRef
		want string
	}{
		{ToolRef{Name: "gcs_find_champions"}, `"gcs_find_champions"`},
		{ToolRef{Name: "gcs_db_query", Source: "executed"}, `{"name":"gcs_db_query","source":"executed"}`},
		{ToolRef{Name: "x", Arguments: map[string]any{"id": 1.0}}, `{"name":"x","arguments":{"id":1}}`},
	} {
		b, err := json.Marshal(tc.ref)
		if err != nil || string(b) != tc.want {
			t.Fatalf("Marshal(%+v) = %s, %v; want %s", tc.ref, b, err, tc.want)
		}
		var back ToolRef
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, tc.ref) {
			t.Fatalf("round trip of %s = %+v, %v", b, back, err)
		}
	}
}

func TestParsePlayerStep(t *testing.T) {
	scs, err := newParser(t).Parse("p.yaml", []byte("name: a\nsteps:\n  - player: {progress: {chapter: 5}, roster: [{id: 1001}]}\n  - say: who should I bring?\n"))
	if err != nil {
		t.Fatal(err)
	}
	st := scs[0].Steps[0]
	if st.Say != "" || st.Screen != nil || !strings.Contains(string(st.Player), `"chapter":5`) {
		t.Fatalf("player step = %+v (%s)", st, st.Player)
	}
}
