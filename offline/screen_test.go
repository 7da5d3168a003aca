package offline_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/tool"
)

// TestScreenEntitiesComeFromTheScreen: a result still cached from an
// earlier question (Vorenyn) is not "this champion"; the champion the
// screen shows (Kaelith) is, and its proactive result is reused verbatim.
func TestScreenEntitiesComeFromTheScreen(t *testing.T) {
	w := newSampleWorld(t)
	ctx := context.Background()
	earlier := tool.Call{Name: "gcs_get_champion_details", Arguments: json.RawMessage(`{"champion_name":"Vorenyn"}`)}
	shown := tool.Call{Name: "gcs_get_character_details_by_id", Arguments: json.RawMessage(`{"character_id":1001}`)}
	req := offline.Request{
		Message: "tell me about this champion", Locale: "en",
		Screen: "ChampionFeatureModelsPresenter", ScreenData: json.RawMessage(`{"ChampionConfigId": 1001, "Level": 60, "Stars": 6}`),
		Context: []offline.Prior{
			{Name: earlier.Name, Arguments: earlier.Arguments, Result: w.exec.Execute(ctx, earlier)},
			{Name: shown.Name, Arguments: shown.Arguments, Result: w.exec.Execute(ctx, shown)},
		},
	}
	var calls []tool.Call
	run := func(ctx context.Context, cs []tool.Call) []tool.Outcome {
		calls = append(calls, cs...)
		outs := make([]tool.Outcome, len(cs))
		for i, c := range cs {
			res := w.exec.Execute(ctx, c)
			outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Status: res.Status, Result: res}
		}
		return outs
	}
	a := w.resp.Answer(ctx, req, run)
	if len(calls) != 1 || calls[0].Name != shown.Name || string(calls[0].Arguments) != string(shown.Arguments) {
		t.Errorf("calls = %v, want the screen's %s %s verbatim", calls, shown.Name, shown.Arguments)
	}
	if !strings.HasPrefix(a.Text, "**Kaelith**") || strings.Contains(a.Text, "Vorenyn") {
		t.Errorf("answer is not about the screen's champion:\n%s", a.Text)
	}
	if !a.Plan.FromScreen {
		t.Error("plan does not say its entity came from the screen")
	}
}

// TestThisSetIsTheScreensGearSet: on the gear screen, which shows a set
// and the champion who wears it, "this set" is the set and "this
// champion" the champion, in each locale.
func TestThisSetIsTheScreensGearSet(t *testing.T) {
	w := newSampleWorld(t)
	gear := screenOf(t, "GearInventoryPresenter", map[string]any{"GearSetConfigId": 8004, "Champion": map[string]any{"ConfigId": 1002}})
	for _, tc := range []struct{ locale, message, tool, arg, fact string }{
		{"en", "what does this set do?", "gcs_get_gear_set_details", "8004", "HP +15%"},
		{"en", "tell me about this gear set", "gcs_get_gear_set_details", "8004", "HP +15%"},
		{"fr", "que fait cet ensemble ?", "gcs_get_gear_set_details", "8004", "Vitalité"},
		{"de", "was bringt dieses Set?", "gcs_get_gear_set_details", "8004", "Lebenskraft"},
		{"en", "what gear should this champion use?", "gcs_recommend_gear", "Vonoelle", "Vonoelle"},
	} {
		a := w.ask(t, tc.locale, gear, tc.message)
		if got := calledArgs(a, tc.tool); len(got) == 0 || !strings.Contains(got[0], tc.arg) {
			t.Errorf("%q: %s called with %v, want about %s (intent %s)", tc.message, tc.tool, got, tc.arg, a.Plan.Intent)
		}
		if !strings.Contains(a.Text, tc.fact) {
			t.Errorf("%q: answer lacks %q:\n%s", tc.message, tc.fact, a.Text)
		}
	}
}
