package offline_test

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
)

// TestFactionMembers: a request for a faction's champions as a list calls
// gcs_list_champions_by_faction and names every one; a rarity narrows it;
// the best of a faction stays a search, its details stay details.
func TestFactionMembers(t *testing.T) {
	w := newSampleWorld(t)
	faction := screenOf(t, "FactionOverviewPresenter", map[string]any{"FactionConfigId": 101})
	for _, tc := range []struct {
		locale, msg string
		onScreen    bool
		args, lead  string
	}{
		{"en", "list the champions of the faction Emberguard Legion", false, `{"faction_name":"Emberguard Legion"}`, "**Emberguard Legion** has 12 champions: **Jodeis**, "},
		{"en", "who are the members of the Sylvan Wardens?", false, `{"faction_name":"Sylvan Wardens"}`, "**Sylvan Wardens** has 12 champions:"},
		{"en", "list the legendary champions of the Emberguard Legion", false, `{"faction_name":"Emberguard Legion","rarity":"Legendary"}`, "**Emberguard Legion** has 2 Legendary champions: **Jodeis** and **Kaelith**."},
		{"en", "list its champions", true, `{"faction_name":"Emberguard Legion"}`, "**Emberguard Legion** has 12 champions:"},
		{"fr", "liste les champions de la faction Emberguard Legion", false, `{"faction_name":"Emberguard Legion"}`, "**Légion de la Garde-Braise** compte 12 champions :"},
		{"de", "welche Champions gehören zur Emberguard Legion?", false, `{"faction_name":"Emberguard Legion"}`, "**Glutwacht-Legion** hat 12 Champions:"},
	} {
		sc := faction
		if !tc.onScreen {
			sc = nil
		}
		a := w.ask(t, tc.locale, sc, tc.msg)
		if got := calledArgs(a, "gcs_list_champions_by_faction"); a.Plan.Intent != offline.IntentMembers || !containsStr(got, tc.args) || !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%s %q: intent %s, calls %v:\n%s\nwant %s and a text starting %q", tc.locale, tc.msg, a.Plan.Intent, got, a.Text, tc.args, tc.lead)
		}
	}
	for _, msg := range []string{"who are the best champions of this faction?", "tell me about this faction", "who is in my team?"} {
		if a := w.ask(t, "en", faction, msg); a.Plan.Intent == offline.IntentMembers {
			t.Errorf("%q read as a list of members:\n%s", msg, a.Text)
		}
	}
}
