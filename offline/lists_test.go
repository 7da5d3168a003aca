package offline_test

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
)

// TestListAKind: "list all bosses", "what dungeons are there?" and their
// fr/de forms call the kind's list tool and name every item; a question
// about a kind that asks more ("weak to poison", "best for attack
// champions", "the hardest") lists no kind in full.
func TestListAKind(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct{ locale, say, tool, lead, last string }{
		{"en", "list all bosses", "cache_get_bosses_list", "The game has 16 bosses:", "Void Seraph"},
		{"en", "what factions are there?", "cache_get_factions_list", "The game has 14 factions:", "Verdant Circle"},
		{"en", "what dungeons are there?", "cache_get_dungeons_list", "The game has 19 dungeons:", "Whispering Woods"},
		{"en", "show me all gear sets", "cache_get_gear_sets_list", "The game has 17 gear sets:", "Warlord"},
		{"fr", "quels sont les boss ?", "cache_get_bosses_list", "Le jeu compte 16 boss :", "Séraphin du Néant"},
		{"de", "welche Verliese gibt es?", "cache_get_dungeons_list", "Das Spiel hat 19 Verliese:", "Flüsterwald"},
		{"en", "how many bosses are there?", "cache_get_bosses_list", "The game has 16 bosses:", "Void Seraph"},
		// Champions are counted, by rarity and by affinity.
		{"en", "how many champions are there?", "cache_get_champions_list", "The game has 160 champions:", "23 Legendary"},
		{"de", "wie viele Champions gibt es?", "cache_get_champions_list", "Das Spiel hat 160 Champions:", "47 Geist"},
	} {
		a := w.ask(t, tc.locale, nil, tc.say)
		if a.Plan.Intent != offline.IntentList || len(calledArgs(a, tc.tool)) != 1 ||
			!strings.HasPrefix(a.Text, tc.lead) || !strings.Contains(a.Text, tc.last) || strings.Contains(a.Text, "…") {
			t.Errorf("%s %q: intent %s, calls %v:\n%s", tc.locale, tc.say, a.Plan.Intent, calledArgs(a, tc.tool), a.Text)
		}
	}
	for _, say := range []string{"which bosses are weak to poison?", "which gear sets are best for attack champions?", "which boss is the hardest?", "what does Fire Knight's Castle drop?",
		"list all Legendary champions", "list the champions of the Emberguard Legion"} {
		if a := w.ask(t, "en", nil, say); strings.HasPrefix(a.Text, "The game has") {
			t.Errorf("%q read as a list of the kind:\n%s", say, a.Text)
		}
	}
}

// TestHardestAndEasiestBoss: "which boss is the hardest?" (and the easiest,
// fr, de) names the bosses of the highest (lowest) difficulty in the
// game's order of difficulties, from the boss list.
func TestHardestAndEasiestBoss(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct {
		locale, say, lead string
		want              []string
		not               string
	}{
		{"en", "which boss is the hardest?", "The hardest bosses are the Nightmare ones", []string{"Abyssal Leviathan", "Dread Lich", "Iron Colossus", "Void Seraph"}, "Spider Queen"},
		{"en", "who is the toughest boss?", "The hardest bosses are the Nightmare ones", []string{"Dread Lich"}, "Spider Queen"},
		{"en", "what is the easiest boss?", "The easiest bosses are the Normal ones", []string{"Crimson Minotaur", "Spider Queen", "Stone Golem", "Thornheart Treant"}, "Dread Lich"},
		{"de", "welcher Boss ist am schwersten?", "Die schwersten Bosse haben die Schwierigkeit Albtraum", []string{"Schreckenslich"}, "Spinnenkönigin"},
		{"fr", "quel est le boss le plus facile ?", "Les boss les plus faciles sont ceux de difficulté normal", []string{"Reine Araignée"}, "Liche"},
	} {
		a := w.ask(t, tc.locale, nil, tc.say)
		ok := a.Plan.Intent == offline.IntentList && len(calledArgs(a, "cache_get_bosses_list")) == 1 &&
			strings.HasPrefix(a.Text, tc.lead) && !strings.Contains(a.Text, tc.not)
		for _, n := range tc.want {
			ok = ok && strings.Contains(a.Text, n)
		}
		if !ok {
			t.Errorf("%s %q: intent %s:\n%s", tc.locale, tc.say, a.Plan.Intent, a.Text)
		}
	}
}
