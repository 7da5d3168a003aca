package screens

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParseGood(t *testing.T) {
	reg := newTestRegistry(t)
	tests := []struct {
		name  string
		rules string
		want  []string
	}{
		{
			name: "design example",
			rules: `{"ChampionFeatureModelsPresenter": {
			   "context_tool": {"tool": "db_get_ux_details", "parameters": {"query": "ChampionFeatureModelsPresenter"}},
			   "data_tools": [{"tool": "gcs_get_character_details_by_id", "json_field": "ChampionConfigId", "parameter_name": "character_id"}],
			   "prompt_injection": {"template": "You are on Champion Details screen viewing '{ChampionConfigId_translated}'",
			                        "required_fields": ["ChampionConfigId"]}}}`,
			want: []string{"ChampionFeatureModelsPresenter"},
		},
		{
			name:  "alias tool name, fixed parameters merged with the mapped one",
			rules: `{"A": {"data_tools": [{"tool": "gcs_get_character_by_id", "json_field": "Id", "parameter_name": "character_id"}, {"tool": "gcs_find_counters_for_boss", "json_field": "Boss.Id", "parameter_name": "boss_id", "parameters": {"limit": 3}}]}}`,
			want:  []string{"A"},
		},
		{
			name:  "string parameter, array index path, literal braces",
			rules: `{"B": {"data_tools": [{"tool": "gcs_get_champion_details", "json_field": "Names.0", "parameter_name": "champion_name"}], "prompt_injection": {"template": "{{not a field}} {Names.0} {Names.0_translated} {Zone}", "required_fields": ["Zone"]}}}`,
			want:  []string{"B"},
		},
		{
			name:  "injection only, several screens",
			rules: `{"Z": {"prompt_injection": {"template": "On Z at {Level}.", "required_fields": ["Level"]}}, "Y": {"context_tool": {"tool": "db_get_ux_details", "parameters": {"query": "Y"}}}}`,
			want:  []string{"Y", "Z"},
		},
		{
			name: "enum, const, exclusive minimum, untyped, union types",
			rules: `{"K": {"data_tools": [
			  {"tool": "test_param_kinds", "json_field": "A", "parameter_name": "mode"},
			  {"tool": "test_param_kinds", "json_field": "A", "parameter_name": "tier"},
			  {"tool": "test_param_kinds", "json_field": "A", "parameter_name": "level"},
			  {"tool": "test_param_kinds", "json_field": "A", "parameter_name": "ratio"},
			  {"tool": "test_param_kinds", "json_field": "A", "parameter_name": "anything"},
			  {"tool": "test_param_kinds", "json_field": "A", "parameter_name": "flag"},
			  {"tool": "test_param_kinds", "json_field": "A", "parameter_name": "label"},
			  {"tool": "test_param_kinds", "json_field": "A", "parameter_name": "either"}]}}`,
			want: []string{"K"},
		},
		{
			name:  "empty file object",
			rules: `{}`,
			want:  []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Parse([]byte(tt.rules), reg)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := rs.Names(); !slices.Equal(got, tt.want) {
				t.Errorf("Names() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseBad(t *testing.T) {
	reg := newTestRegistry(t)
	many := func(n int) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"S%d": {"prompt_injection": {"template": "x {A}", "required_fields": ["A"]}}`, i)
		}
		b.WriteString("}")
		return b.String()
	}
	ctx := `"context_tool": {"tool": "db_get_ux_details", "parameters": {"query": "X"}}`
	tests := []struct {
		name  string
		rules string
		want  []string // substrings of the error, in order of appearance not required
	}{
		{
			name:  "misspelled tool with suggestion",
			rules: `{"BossBattlePresenter": {"data_tools": [{"tool": "gcs_get_bos_details", "json_field": "BossConfigId", "parameter_name": "boss_id"}]}}`,
			want:  []string{"rule BossBattlePresenter: data_tools[0]: tool gcs_get_bos_details does not exist (did you mean gcs_get_boss_details?)"},
		},
		{
			name:  "unknown tool far from any name",
			rules: `{"X": {"context_tool": {"tool": "launch_missiles", "parameters": {}}}}`,
			want:  []string{"rule X: context_tool: tool launch_missiles does not exist"},
		},
		{
			name:  "unknown key",
			rules: `{"X": {"data_tool": []}}`,
			want:  []string{`rule X: json: unknown field "data_tool"`},
		},
		{
			name:  "unknown nested key",
			rules: `{"X": {"prompt_injection": {"template": "a", "required": ["A"]}}}`,
			want:  []string{`rule X: json: unknown field "required"`},
		},
		{
			name:  "wrong value type",
			rules: `{"X": {"data_tools": {}}, "Y": {"context_tool": {"tool": "nope"}}}`,
			want:  []string{"rule X: data_tools must be an array, not object", "rule Y: context_tool: tool nope does not exist"},
		},
		{
			name:  "rule of the wrong type",
			rules: `{"X": [], "Y": {"prompt_injection": {"template": 5}}}`,
			want:  []string{"rule X: rule must be an object, not array", "rule Y: prompt_injection.template must be a string, not number"},
		},
		{
			name:  "context parameters do not fit",
			rules: `{"X": {"context_tool": {"tool": "db_get_ux_details", "parameters": {"q": "X"}}}}`,
			want:  []string{"rule X: context_tool: parameters do not fit the schema of db_get_ux_details"},
		},
		{
			name:  "context parameters missing",
			rules: `{"X": {"context_tool": {"tool": "db_get_ux_details"}}}`,
			want:  []string{"rule X: context_tool: parameters do not fit the schema of db_get_ux_details", "query"},
		},
		{
			name:  "parameters not an object",
			rules: `{"X": {"context_tool": {"tool": "db_get_ux_details", "parameters": ["X"]}}}`,
			want:  []string{"rule X: context_tool: parameters must be a JSON object"},
		},
		{
			name:  "mapped parameter not in schema",
			rules: `{"X": {"data_tools": [{"tool": "gcs_get_character_details_by_id", "json_field": "Id", "parameter_name": "champion_id"}]}}`,
			want:  []string{"rule X: data_tools[0]: tool gcs_get_character_details_by_id has no parameter champion_id (parameters: character_id)"},
		},
		{
			name:  "fixed and mapped parameters break maxProperties",
			rules: `{"X": {"data_tools": [{"tool": "gcs_get_boss_details", "json_field": "Id", "parameter_name": "boss_id", "parameters": {"boss_name": "Gorrath"}}]}}`,
			want:  []string{"rule X: data_tools[0]: a call of gcs_get_boss_details with boss_id from json_field does not fit its schema"},
		},
		{
			name:  "fixed parameter of the wrong type",
			rules: `{"X": {"data_tools": [{"tool": "gcs_find_counters_for_boss", "json_field": "Id", "parameter_name": "boss_id", "parameters": {"limit": "three"}}]}}`,
			want:  []string{"rule X: data_tools[0]: a call of gcs_find_counters_for_boss with boss_id from json_field does not fit its schema", "limit"},
		},
		{
			name:  "string parameter with a pattern no representative matches",
			rules: `{"X": {"data_tools": [{"tool": "test_param_kinds", "json_field": "A", "parameter_name": "pattern"}]}}`,
			want:  []string{"rule X: data_tools[0]: a call of test_param_kinds with pattern from json_field does not fit its schema"},
		},
		{
			name:  "parameter both fixed and mapped",
			rules: `{"X": {"data_tools": [{"tool": "gcs_get_boss_details", "json_field": "Id", "parameter_name": "boss_id", "parameters": {"boss_id": 5001}}]}}`,
			want:  []string{"rule X: data_tools[0]: parameter boss_id is both mapped from json_field and fixed in parameters"},
		},
		{
			name:  "empty parameter name and empty path",
			rules: `{"X": {"data_tools": [{"tool": "gcs_get_boss_details", "json_field": "", "parameter_name": ""}]}}`,
			want:  []string{"rule X: data_tools[0]: json_field: path is empty", "rule X: data_tools[0]: parameter_name is empty"},
		},
		{
			name:  "bad path segment",
			rules: `{"X": {"data_tools": [{"tool": "gcs_get_boss_details", "json_field": "Boss..Id", "parameter_name": "boss_id"}]}}`,
			want:  []string{`rule X: data_tools[0]: json_field: path "Boss..Id" has an empty segment`},
		},
		{
			name:  "path with braces",
			rules: `{"X": {"data_tools": [{"tool": "gcs_get_boss_details", "json_field": "{Id}", "parameter_name": "boss_id"}]}}`,
			want:  []string{`rule X: data_tools[0]: json_field: path "{Id}" may only hold`},
		},
		{
			name:  "undeclared placeholder",
			rules: `{"X": {` + ctx + `, "prompt_injection": {"template": "At {Level} with {Stars}", "required_fields": ["Level"]}}}`,
			want:  []string{"rule X: prompt_injection: placeholder {Stars} refers to no declared field"},
		},
		{
			name:  "undeclared translated placeholder",
			rules: `{"X": {"prompt_injection": {"template": "At {Boss_translated}", "required_fields": ["Level"]}}}`,
			want:  []string{"rule X: prompt_injection: placeholder {Boss_translated} refers to no declared field"},
		},
		{
			name:  "empty required field",
			rules: `{"X": {"prompt_injection": {"template": "At {Level}", "required_fields": ["", "Level"]}}}`,
			want:  []string{"rule X: prompt_injection: required_fields[0]: path is empty"},
		},
		{
			name:  "empty template",
			rules: `{"X": {"prompt_injection": {"template": "  ", "required_fields": ["Level"]}}}`,
			want:  []string{"rule X: prompt_injection: template is empty"},
		},
		{
			name:  "template too long",
			rules: `{"X": {"prompt_injection": {"template": "` + strings.Repeat("a", MaxTemplateLen+1) + `", "required_fields": ["Level"]}}}`,
			want:  []string{"rule X: prompt_injection: template is 2001 bytes, over the limit of 2000"},
		},
		{
			name:  "template with a bidi override",
			rules: `{"X": {"prompt_injection": {"template": "a\u202e{Level}", "required_fields": ["Level"]}}}`,
			want:  []string{"rule X: prompt_injection: template contains the control or invisible character U+202E"},
		},
		{
			name:  "unclosed brace",
			rules: `{"X": {"prompt_injection": {"template": "At {Level", "required_fields": ["Level"]}}}`,
			want:  []string{"rule X: prompt_injection: template has an unclosed '{'"},
		},
		{
			name:  "unmatched closing brace",
			rules: `{"X": {"prompt_injection": {"template": "At Level}", "required_fields": ["Level"]}}}`,
			want:  []string{"rule X: prompt_injection: template has an unmatched '}'"},
		},
		{
			name:  "too many data tools",
			rules: `{"X": {"data_tools": [` + strings.TrimSuffix(strings.Repeat(`{"tool": "gcs_get_boss_details", "json_field": "Id", "parameter_name": "boss_id"},`, MaxDataTools+1), ",") + `]}}`,
			want:  []string{"rule X: data_tools: 17 tools, over the limit of 16"},
		},
		{
			name:  "empty rule",
			rules: `{"X": {}}`,
			want:  []string{"rule X: rule has no context_tool, data_tools or prompt_injection"},
		},
		{
			name:  "bad screen name",
			rules: `{"Bad Name": {` + ctx + `}}`,
			want:  []string{`rule "Bad Name": screen name must be`},
		},
		{
			name:  "duplicate screen",
			rules: `{"X": {` + ctx + `}, "X": {` + ctx + `}}`,
			want:  []string{"rule X: screen appears more than once"},
		},
		{
			name:  "not an object",
			rules: `[{"X": {}}]`,
			want:  []string{"the file must be a JSON object of screen name to rule"},
		},
		{
			name:  "syntax error",
			rules: `{"X": {` + ctx + `,}}`,
			want:  []string{"rule X: invalid character '}'"},
		},
		{
			name:  "trailing data",
			rules: `{"X": {` + ctx + `}} {}`,
			want:  []string{"unexpected data after the rules object"},
		},
		{
			name:  "too many rules",
			rules: many(MaxRules + 1),
			want:  []string{"more than 500 rules"},
		},
		{
			name:  "file too large",
			rules: `{"X": {` + ctx + `}}` + strings.Repeat(" ", MaxRulesFileSize),
			want:  []string{"over the 1048576-byte limit"},
		},
		{
			name:  "several problems in several rules",
			rules: `{"A": {"data_tools": [{"tool": "gcs_get_bos_details", "json_field": "Id", "parameter_name": "boss_id"}]}, "B": {"prompt_injection": {"template": "{Nope}", "required_fields": ["Yes"]}}}`,
			want:  []string{"rule A: data_tools[0]: tool gcs_get_bos_details does not exist", "rule B: prompt_injection: placeholder {Nope}"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Parse([]byte(tt.rules), reg)
			if err == nil {
				t.Fatalf("Parse accepted the rules: %v", rs.Names())
			}
			if !errors.Is(err, ErrInvalidRules) {
				t.Errorf("error %v does not wrap ErrInvalidRules", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\ndoes not contain %q", err, w)
				}
			}
		})
	}
}

func TestParseNilValidator(t *testing.T) {
	if _, err := Parse([]byte(`{}`), nil); err == nil {
		t.Fatal("Parse accepted a nil validator")
	}
}

// TestDefaultRules checks the embedded rules against the real schemas, and
// that they cover every screen of the sample game with the intended tools.
func TestDefaultRules(t *testing.T) {
	rs, err := Parse(DefaultRules(), newTestRegistry(t))
	if err != nil {
		t.Fatalf("default rules: %v", err)
	}
	screens := []string{
		"MainMenuPresenter", "ChampionFeatureModelsPresenter", "ChampionCollectionPresenter",
		"BossBattlePresenter", "TeamSetupPresenter", "DungeonSelectPresenter", "GearInventoryPresenter",
		"FactionOverviewPresenter", "MarketPresenter", "MasteryTreePresenter", "CampaignMapPresenter",
	}
	if got, want := rs.Names(), slices.Sorted(slices.Values(screens)); !slices.Equal(got, want) {
		t.Fatalf("default rules cover %v, want %v", got, want)
	}
	allowed := map[string]bool{
		"db_get_ux_details": true, "gcs_get_character_details_by_id": true, "gcs_get_boss_details": true,
		"gcs_get_dungeon_details": true, "gcs_get_gear_set_details": true, "gcs_get_faction_details": true,
		"gcs_find_counters_for_boss": true,
	}
	for _, name := range screens {
		r := rs.rules[name]
		if r.context == nil || r.context.Name != "db_get_ux_details" || string(r.context.Arguments) != fmt.Sprintf(`{"query":%q}`, name) {
			t.Errorf("%s: context tool %+v, want db_get_ux_details for the screen", name, r.context)
		}
		for _, d := range r.data {
			if !allowed[d.tool] {
				t.Errorf("%s: data tool %s is not one the default rules may use", name, d.tool)
			}
		}
		if r.tmpl == nil || len(r.required) == 0 {
			t.Errorf("%s: no prompt injection with required fields", name)
		}
	}
}

// TestParseNamesLineAndColumn: a JSON error in a rules file names the line
// and column it is at, so an operator goes straight to it.
func TestParseNamesLineAndColumn(t *testing.T) {
	reg := newTestRegistry(t)
	tests := []struct {
		name, rules, want string
	}{
		{"missing comma", "{\n  \"A\": {\"data_tools\": []}\n  \"B\": {}\n}\n", "(line 3, column 3)"},
		{"trailing comma", "{\n  \"A\": {\n    \"data_tools\": [],\n  }\n}\n", "(line 4, column 3)"},
		{"cut short", "{\n  \"A\": {\"data_tools\": [\n", "(line 3, column 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.rules), reg)
			if !errors.Is(err, ErrInvalidRules) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one with %q", err, tt.want)
			}
		})
	}
}
