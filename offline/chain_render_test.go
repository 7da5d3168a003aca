package offline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

// TestRenderChainResult: a chain's result (a tools file's composite tool)
// is written step by step, the steps that did not succeed left out.
func TestRenderChainResult(t *testing.T) {
	data := json.RawMessage(`{"steps":[` +
		`{"id":"boss","tool":"gcs_get_boss_details","status":"success","source":"executed"},` +
		`{"id":"counters","tool":"gcs_find_counters_for_boss","status":"success","source":"cache"},` +
		`{"id":"team_1","tool":"gcs_get_character_details_by_id","status":"error","message":"No champion has id 1999."},` +
		`{"id":"team_2","tool":"gcs_get_character_details_by_id","status":"skipped","message":"no value for character_id ($params.team.1)"}],` +
		`"boss":{"name":"Fire Knight","hp":26900,"phases":[{"n":1}]},` +
		`"counters":[{"name":"Kaelith","reason":"decreases DEF"},{"name":"Sylva","reason":"heals"}]}`)
	var b strings.Builder
	out := tool.Outcome{Name: "boss_briefing", Status: tool.StatusSuccess, Result: tool.Result{Status: tool.StatusSuccess, Data: data}}
	renderTools(&b, Plan{Intent: IntentTools}, []tool.Outcome{out})
	got := b.String()
	want := "**boss**\n**Fire Knight**\n- hp: 26900\n**counters**\n- name: Kaelith; reason: decreases DEF\n- name: Sylva; reason: heals\n"
	if got != want {
		t.Fatalf("rendered\n%q\nwant\n%q", got, want)
	}
}
