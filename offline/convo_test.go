package offline_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/screens"
)

func screenOf(tb testing.TB, name string, data map[string]any) *screens.Screen {
	tb.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		tb.Fatal(err)
	}
	return &screens.Screen{Name: name, Data: raw}
}

func calledArgs(a offline.Answer, name string) []string {
	var out []string
	for _, o := range a.Outcomes {
		if o.Name == name {
			out = append(out, string(o.Arguments))
		}
	}
	return out
}

// TestFollowUps: pronouns, ordinals, "both", "which one" and "and …?"
// resolve to the subjects of the exchange before, in en, fr and de.
func TestFollowUps(t *testing.T) {
	w := newSampleWorld(t)
	type step struct {
		say, intent, tool, args, lead string
	}
	tests := []struct {
		name, locale string
		steps        []step
	}{
		{"pronoun keeps the subject", "en", []step{
			{say: "tell me about Eira", tool: "gcs_get_champion_details", args: `{"champion_name":"Eira"}`},
			{say: "and what about her skills?", intent: "skills", tool: "gcs_get_champion_skills", args: `{"champion_name":"Eira"}`},
			{say: "is she good against the Spider Queen?", intent: "matchup", lead: "**Eira**"},
			{say: "and against the Frost Wyrm?", intent: "matchup", lead: "**Frost Wyrm**"},
		}},
		{"which one and ordinals", "en", []step{
			{say: "compare Kaelith and Jodeis", intent: "compare"},
			{say: "which one is tankier?", intent: "compare", lead: "**Jodeis** is tankier"},
			{say: "the first one's skills", intent: "skills", args: `{"champion_name":"Kaelith"}`, tool: "gcs_get_champion_skills"},
			{say: "are both good against the Fire Knight?", intent: "matchup", lead: "**Kaelith**"},
		}},
		{"subject changes, question stays", "en", []step{
			{say: "where can I farm Aegis?", intent: "farm"},
			{say: "what about Bloodfang?", intent: "farm", tool: "gcs_get_gear_set_details", args: `{"gear_set_name":"Bloodfang"}`},
		}},
		{"french", "fr", []step{
			{say: "parle-moi d'Eira", intent: "details"},
			{say: "et ses compétences ?", intent: "skills", tool: "gcs_get_champion_skills", args: `{"champion_name":"Eira"}`},
			{say: "est-elle bonne contre le Chevalier de Feu ?", intent: "matchup", lead: "**Eira**"},
		}},
		{"german", "de", []step{
			{say: "vergleiche Kaelith und Jodeis", intent: "compare"},
			{say: "welcher ist schneller?", intent: "compare", lead: "**Kaelith** ist schneller"},
			{say: "und die Fähigkeiten des zweiten?", intent: "skills", tool: "gcs_get_champion_skills", args: `{"champion_name":"Jodeis"}`},
		}},
		{"no antecedent asks which one", "en", []step{
			{say: "what are her skills?", intent: "clarify", lead: "Who or what do you mean?"},
		}},
		{"several antecedents ask which one", "en", []step{
			{say: "compare Kaelith and Jodeis", intent: "compare"},
			{say: "what are his skills?", intent: "clarify", lead: "Which one do you mean: **Kaelith** or **Jodeis**?"},
			{say: "the second", intent: "skills", tool: "gcs_get_champion_skills", args: `{"champion_name":"Jodeis"}`},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conv := &conversation{}
			for _, st := range tc.steps {
				a := w.askIn(t, conv, tc.locale, nil, st.say)
				if st.intent != "" && string(a.Plan.Intent) != st.intent {
					t.Errorf("%q: intent %s, want %s\n%s", st.say, a.Plan.Intent, st.intent, a.Text)
				}
				if st.tool != "" && !containsStr(calledArgs(a, st.tool), st.args) {
					t.Errorf("%q: %s called with %v, want %s", st.say, st.tool, calledArgs(a, st.tool), st.args)
				}
				if st.lead != "" && !strings.Contains(strings.SplitN(a.Text, "\n", 2)[0], st.lead) {
					t.Errorf("%q: lead lacks %q:\n%s", st.say, st.lead, a.Text)
				}
			}
		})
	}
}

func containsStr(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestFollowUpScreenVersusConversation: the newer of the screen and the
// conversation holds the antecedent; a screen change that leaves several
// candidates says so.
func TestFollowUpScreenVersusConversation(t *testing.T) {
	w := newSampleWorld(t)
	kaelith := screenOf(t, "ChampionFeatureModelsPresenter", map[string]any{"ChampionConfigId": 1001, "Level": 50, "Stars": 6})

	// The screen is newer: "his" is the champion on it.
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "tell me about Eira")
	conv.screenAt = conv.tick()
	a := w.askIn(t, conv, "en", kaelith, "what are his skills?")
	if got := calledArgs(a, "gcs_get_champion_skills"); !containsStr(got, `{"champion_name":"Kaelith"}`) {
		t.Errorf("screen newer: skills of %v, want Kaelith", got)
	}

	// The conversation is newer: "her" is the champion just talked about.
	conv = &conversation{}
	conv.screenAt = conv.tick()
	w.askIn(t, conv, "en", kaelith, "tell me about Eira")
	a = w.askIn(t, conv, "en", kaelith, "what are her skills?")
	if got := calledArgs(a, "gcs_get_champion_skills"); !containsStr(got, `{"champion_name":"Eira"}`) {
		t.Errorf("conversation newer: skills of %v, want Eira", got)
	}

	// A new screen with a team of four after talking about Eira: "she" is
	// ambiguous, and the answer says the screen changed.
	conv = &conversation{}
	w.askIn(t, conv, "en", nil, "tell me about Eira")
	battle := screenOf(t, "BossBattlePresenter", map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1001, 1002, 1003, 1004}})
	conv.screenAt = conv.tick()
	a = w.askIn(t, conv, "en", battle, "what are her skills?")
	if a.Plan.Intent != offline.IntentClarify || !strings.Contains(a.Text, "changed screens") || len(a.Outcomes) != 0 {
		t.Errorf("ambiguous after a screen change: %s %q, %d calls", a.Plan.Intent, a.Text, len(a.Outcomes))
	}
}

// TestThisKindIsTheScreens: "this champion" after a question about the
// set on the gear screen is the screen's champion, not the set the
// conversation was about; a bare "and the gear?" still follows the
// conversation.
func TestThisKindIsTheScreens(t *testing.T) {
	w := newSampleWorld(t)
	gear := screenOf(t, "GearInventoryPresenter", map[string]any{"GearSetConfigId": 8005, "Champion": map[string]any{"ConfigId": 1003}})
	for _, tc := range []struct{ locale, first, then string }{
		{"en", "where do I farm this set?", "and what gear for this champion?"},
		{"fr", "que fait cet ensemble ?", "et quel équipement pour ce champion ?"},
		{"de", "was bringt dieses Set?", "und welche Ausrüstung für diesen Champion?"},
	} {
		conv := &conversation{}
		conv.screenAt = conv.tick()
		w.askIn(t, conv, tc.locale, gear, tc.first)
		a := w.askIn(t, conv, tc.locale, gear, tc.then)
		if got := calledArgs(a, "gcs_recommend_gear"); !containsStr(got, `{"champion_name":"Sediek"}`) {
			t.Errorf("%s %q: gear advice for %v, want Sediek (intent %s)", tc.locale, tc.then, got, a.Plan.Intent)
		}
	}
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "tell me about Eira")
	a := w.askIn(t, conv, "en", nil, "and the gear?")
	if got := calledArgs(a, "gcs_recommend_gear"); !containsStr(got, `{"champion_name":"Eira"}`) {
		t.Errorf("a bare follow-up: gear advice for %v, want Eira", got)
	}
}

// TestVerdicts: judgement questions get a verdict first, from the boss's
// counter ranking.
func TestVerdicts(t *testing.T) {
	w := newSampleWorld(t)
	tests := []struct {
		locale, say, lead string
	}{
		{"en", "Kaelith or Tekaek, who is better against the Fire Knight?", "**Kaelith** is the better pick against **Fire Knight**"},
		{"en", "is Kaelith good against the Fire Knight?", "Yes, **Kaelith** is a good pick"},
		{"en", "which is faster, Kaelith or Jodeis?", "**Kaelith** is faster"},
		{"en", "Kaelith or Jodeis, which is better?", "The game rates champions against a boss"},
		{"fr", "Kaelith ou Tekaek, lequel est meilleur contre le Chevalier de Feu ?", "**Kaelith** est le meilleur choix"},
		{"de", "Kaelith oder Tekaek, wer ist besser gegen den Feuerritter?", "**Kaelith** ist gegen **Feuerritter** die bessere Wahl"},
	}
	for _, tc := range tests {
		a := w.ask(t, tc.locale, nil, tc.say)
		if !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%q: want a lead starting %q, got:\n%s", tc.say, tc.lead, a.Text)
		}
	}
}

// TestTeamVerdict: on a boss screen, "is my team good enough" judges each
// member by the boss's counter ranking and names the best swap.
func TestTeamVerdict(t *testing.T) {
	w := newSampleWorld(t)
	battle := screenOf(t, "BossBattlePresenter", map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1001, 1002, 1003, 1004}})
	for _, tc := range []struct{ locale, say, lead, swap string }{
		{"en", "is my team good enough for this fight?", "Partly: against **Fire Knight**", "Best swap:"},
		{"fr", "mon équipe est-elle suffisante pour ce combat ?", "En partie : contre **Chevalier de Feu**", "Meilleur échange :"},
		{"de", "reicht mein Team für diesen Kampf?", "Teilweise: gegen **Feuerritter**", "Bester Tausch:"},
	} {
		a := w.ask(t, tc.locale, battle, tc.say)
		if !strings.HasPrefix(a.Text, tc.lead) || !strings.Contains(a.Text, tc.swap) || strings.Count(a.Text, "\n- ") < 5 {
			t.Errorf("%q: want %q first, four members and %q:\n%s", tc.say, tc.lead, tc.swap, a.Text)
		}
	}
}

// TestSetAndOfferVerdicts: "is this set good for this champion" answers
// from the sets the game recommends for the champion's role; "is this
// offer worth it" quotes the price against what the champion is
// recommended for, and says the data has no price list.
func TestSetAndOfferVerdicts(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct {
		locale, screen string
		data           map[string]any
		say, lead      string
	}{
		{"en", "GearInventoryPresenter", map[string]any{"Champion": map[string]any{"ConfigId": 1001}, "GearSetConfigId": 8001},
			"is this set good for this champion?", "No, **Swiftwind** is not among the sets the game recommends for **Kaelith**"},
		{"de", "GearInventoryPresenter", map[string]any{"Champion": map[string]any{"ConfigId": 1001}, "GearSetConfigId": 8002},
			"Ist dieses Set gut für diesen Champion?", "Ja, **Kriegsherr** passt zu **Kaelith**"},
		{"en", "MarketPresenter", map[string]any{"Offer": map[string]any{"ChampionConfigId": 1001, "Price": 1500}},
			"is this offer worth buying?", "Worth it if those fights are yours: for 1,500 you get **Kaelith**"},
		{"fr", "MarketPresenter", map[string]any{"Offer": map[string]any{"ChampionConfigId": 1002, "Price": "300"}},
			"cette offre vaut-elle le coup ?", "Intéressant si ces combats sont les vôtres : pour 300 vous obtenez **Vonoelle**"},
	} {
		a := w.ask(t, tc.locale, screenOf(t, tc.screen, tc.data), tc.say)
		if !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%q: want a lead starting %q:\n%s", tc.say, tc.lead, a.Text)
		}
	}
}
