package offline_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/screens"
)

// TestFollowUpItAndANamedChampion: "is it good for Kaelith?" after a gear
// set is about that set and Kaelith; "it" with nothing but champions to
// refer to, and "her" with a named champion, stay as they were.
func TestFollowUpItAndANamedChampion(t *testing.T) {
	w := newSampleWorld(t)
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "what does the Warlord set do?")
	a := w.askIn(t, conv, "en", nil, "is it good for Kaelith?")
	if a.Plan.Intent != offline.IntentSetVerdict || !strings.HasPrefix(a.Text, "Yes, **Warlord** suits **Kaelith**") {
		t.Errorf("set then \"is it good for Kaelith?\": intent %s:\n%s", a.Plan.Intent, a.Text)
	}
	conv = &conversation{}
	w.askIn(t, conv, "en", nil, "what does the Warlord set do?")
	a = w.askIn(t, conv, "en", nil, "Kaelith and her skills?")
	if got := calledArgs(a, "gcs_get_champion_skills"); !containsStr(got, `{"champion_name":"Kaelith"}`) {
		t.Errorf("\"Kaelith and her skills?\": %v (intent %s)", got, a.Plan.Intent)
	}
	conv = &conversation{}
	w.askIn(t, conv, "en", nil, "tell me about Rakaix")
	a = w.askIn(t, conv, "en", nil, "is it good for Kaelith?")
	if strings.Contains(a.Text, "Rakaix") {
		t.Errorf("\"it\" after a champion took the champion:\n%s", a.Text)
	}
}

// TestFollowUpAnotherSuperlative: "and the tankiest?" after "who is the
// fastest champion?" is a search of its own, sorted by HP; after a
// comparison it is no search, and "and the best gear?" keeps its subject.
func TestFollowUpAnotherSuperlative(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct{ locale, first, then string }{
		{"en", "who is the fastest champion?", "and the tankiest?"},
		{"fr", "quel est le champion le plus rapide ?", "et le plus de pv ?"},
		{"de", "wer ist der schnellste Champion?", "und die meisten Lebenspunkte?"},
	} {
		conv := &conversation{}
		w.askIn(t, conv, tc.locale, nil, tc.first)
		a := w.askIn(t, conv, tc.locale, nil, tc.then)
		if got := calledArgs(a, "gcs_find_champions"); len(got) != 1 || !strings.Contains(got[0], `"sort_by":"hp"`) {
			t.Errorf("%s %q then %q: searches %v (intent %s):\n%s", tc.locale, tc.first, tc.then, got, a.Plan.Intent, a.Text)
		}
	}
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "compare Kaelith, Rakaix and Vorenyn")
	if a := w.askIn(t, conv, "en", nil, "and the fastest?"); len(calledArgs(a, "gcs_find_champions")) > 0 {
		t.Errorf("after a comparison, \"and the fastest?\" searched every champion:\n%s", a.Text)
	}
	conv = &conversation{}
	w.askIn(t, conv, "en", nil, "tell me about Kaelith")
	if a := w.askIn(t, conv, "en", nil, "and the best gear?"); !containsStr(calledArgs(a, "gcs_recommend_gear"), `{"champion_name":"Kaelith"}`) {
		t.Errorf("\"and the best gear?\" lost its champion: %v", calledArgs(a, "gcs_recommend_gear"))
	}
}

// TestVerdictOnTheScreensChampion: "is this champion any good?" on a
// champion's screen, whose rule read the champion by config id, judges
// that champion (en, fr, de), as when the message names it.
func TestVerdictOnTheScreensChampion(t *testing.T) {
	w := newSampleWorld(t)
	champ := screenOf(t, "ChampionFeatureModelsPresenter", map[string]any{"ChampionConfigId": 1003, "Level": 50, "Stars": 5})
	for _, tc := range []struct{ locale, say, lead string }{
		{"en", "is this champion any good?", "**Sediek** is a good pick against **Frost Wyrm**"},
		{"en", "is Sediek good?", "**Sediek** is a good pick against **Frost Wyrm**"},
		{"fr", "ce champion est-il bon ?", "**Sediek** est un bon choix contre **Wyrm de Givre**"},
		{"de", "ist dieser Champion gut?", "**Sediek** ist eine gute Wahl gegen **Frostwurm**"},
	} {
		conv := &conversation{}
		conv.screenAt = conv.tick()
		a := w.askIn(t, conv, tc.locale, champ, tc.say)
		if a.Plan.Intent != offline.IntentVerdict || !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%s %q: intent %s:\n%s", tc.locale, tc.say, a.Plan.Intent, a.Text)
		}
	}
}

// TestWeaknessQuestions: "what is this boss weak to?" answers with the
// boss's weaknesses (its details, from the screen's call), "immune to"
// with its immunities, in en, fr and de, also as a follow-up; asking
// which champions hit them is still a counters question.
func TestWeaknessQuestions(t *testing.T) {
	w := newSampleWorld(t)
	wyrm := screenOf(t, "BossBattlePresenter", map[string]any{"BossConfigId": 5002, "Phase": 1, "Team": []int{1084, 1001, 1002, 1046}})
	for _, tc := range []struct {
		locale, first, say, lead string
	}{
		{"en", "", "what is this boss weak to?", "**Frost Wyrm** is weak to Block Debuffs, HP Burn, Cleanse and Decrease ATK."},
		{"en", "", "what are its weaknesses?", "**Frost Wyrm** is weak to"},
		{"en", "how do I beat this boss?", "what is it weak to?", "**Frost Wyrm** is weak to"},
		{"en", "", "what is it immune to?", "**Frost Wyrm** is immune to Decrease SPD and Freeze."},
		{"fr", "", "quelles sont ses faiblesses ?", "**Wyrm de Givre** est faible contre :"},
		{"de", "", "was sind seine Schwächen?", "**Frostwurm** ist schwach gegen:"},
	} {
		conv := &conversation{}
		conv.screenAt = conv.tick()
		if tc.first != "" {
			w.askIn(t, conv, tc.locale, wyrm, tc.first)
		}
		a := w.askIn(t, conv, tc.locale, wyrm, tc.say)
		if a.Plan.Intent != offline.IntentWeakness || !strings.HasPrefix(a.Text, tc.lead) || len(calledArgs(a, "gcs_get_boss_details")) != 1 {
			t.Errorf("%s %q: intent %s, calls %v:\n%s", tc.locale, tc.say, a.Plan.Intent, a.Plan.Calls, a.Text)
		}
	}
	if a := w.ask(t, "en", nil, "what is the Fire Knight immune to?"); !strings.HasPrefix(a.Text, "**Fire Knight** is immune to Freeze, Stun and Turn Meter Reduction.") {
		t.Errorf("immune to, by name:\n%s", a.Text)
	}
	for _, say := range []string{"which champions hit its weaknesses?", "who counters this boss?"} {
		if a := w.ask(t, "en", wyrm, say); a.Plan.Intent != offline.IntentCounters {
			t.Errorf("%q: intent %s, want counters", say, a.Plan.Intent)
		}
	}
}

// TestLoreOfATopicThatIsNoEntity: "the story of the Ashen Crown" names no
// champion, boss or place, yet the lore tells it: it is searched for in
// the lore (which keeps what is past the player's chapter), not answered
// with "there is nothing named".
func TestLoreOfATopicThatIsNoEntity(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct {
		chapter int
		want    bool // the chapter 7 reveal is told
	}{{5, false}, {8, true}} {
		st, err := player.Parse("p-lore", "v1", time.Unix(1_800_000_000, 0),
			[]byte(fmt.Sprintf(`{"progress": {"chapter": %d}, "roster": [{"id": 1001, "level": 40, "stars": 4}]}`, tc.chapter)))
		if err != nil {
			t.Fatal(err)
		}
		a := w.askIn(t, &conversation{player: st}, "en", nil, "what is the lore story of the Hollow Crown and the Ashen Crown?")
		if a.Plan.Intent != offline.IntentLore || len(calledArgs(a, "db_get_lore_details")) != 1 || strings.Contains(a.Text, "nothing named") {
			t.Fatalf("chapter %d: intent %s:\n%s", tc.chapter, a.Plan.Intent, a.Text)
		}
		if got := strings.Contains(a.Text, "ancestor"); got != tc.want {
			t.Errorf("chapter %d: the chapter 7 reveal told %v, want %v:\n%s", tc.chapter, got, tc.want, a.Text)
		}
	}
	// A misspelt champion is still one: the answer suggests the name.
	if a := w.ask(t, "en", nil, "tell me about Kaelithh"); a.Plan.Intent == offline.IntentLore {
		t.Errorf("a misspelt name became a lore search:\n%s", a.Text)
	}
}

// TestFollowUpKindAndComparative: "where do I farm it?" after gear advice
// is about the screen's set; "who hits harder?" and "and faster?" after a
// comparison choose among its champions (en, fr, de); "the best champions
// of this faction" ranks the screen's faction's champions.
func TestFollowUpKindAndComparative(t *testing.T) {
	w := newSampleWorld(t)
	gear := screenOf(t, "GearInventoryPresenter", map[string]any{"GearSetConfigId": 8002, "Champion": map[string]any{"ConfigId": 1001}})
	conv := &conversation{}
	conv.screenAt = conv.tick()
	w.askIn(t, conv, "en", gear, "what else should she wear?")
	if a := w.askIn(t, conv, "en", gear, "where do I farm it?"); a.Plan.Intent != offline.IntentFarm || !strings.HasPrefix(a.Text, "You can farm **Warlord**") {
		t.Errorf("farm after gear advice: intent %s:\n%s", a.Plan.Intent, a.Text)
	}

	dungeon := screenOf(t, "DungeonSelectPresenter", map[string]any{"DungeonConfigId": 7001, "Stage": 3})
	conv = &conversation{}
	conv.screenAt = conv.tick()
	w.askIn(t, conv, "en", dungeon, "what drops here?")
	if got := calledArgs(w.askIn(t, conv, "en", dungeon, "who counters it?"), "gcs_find_counters_for_boss"); len(got) != 1 || !strings.Contains(got[0], "Fire Knight") {
		t.Errorf("\"who counters it?\" on the dungeon's screen: %v, want the Fire Knight's counters", got)
	}

	for _, tc := range []struct{ locale, first, then, lead string }{
		{"en", "what's the difference between Kaelith and Rakaix?", "who hits harder?", "**Kaelith** is the harder hitter"},
		{"en", "which is tankier, Kaelith or Rakaix?", "and faster?", "**Kaelith** is faster"},
		{"fr", "compare Kaelith et Rakaix", "et plus rapide ?", "**Kaelith**"},
		{"de", "vergleiche Kaelith und Rakaix", "und schneller?", "**Kaelith**"},
	} {
		conv := &conversation{}
		w.askIn(t, conv, tc.locale, nil, tc.first)
		a := w.askIn(t, conv, tc.locale, nil, tc.then)
		if a.Plan.Intent != offline.IntentCompare || !strings.HasPrefix(a.Text, tc.lead) || len(comparedNames(t, a)) != 2 {
			t.Errorf("%s %q then %q: intent %s:\n%s", tc.locale, tc.first, tc.then, a.Plan.Intent, a.Text)
		}
	}
	if a := w.ask(t, "en", nil, "who is the fastest champion?"); a.Plan.Intent != offline.IntentFind {
		t.Errorf("a superlative alone: intent %s", a.Plan.Intent)
	}

	faction := screenOf(t, "FactionOverviewPresenter", map[string]any{"FactionConfigId": 101})
	for _, tc := range []struct {
		sc      *screens.Screen
		say, in string
	}{
		{faction, "who are the best champions of this faction?", `"faction":"Emberguard Legion"`},
		{nil, "who is the best champion of the Sylvan Wardens?", `"faction":"Sylvan Wardens"`},
	} {
		a := w.ask(t, "en", tc.sc, tc.say)
		if got := calledArgs(a, "gcs_find_champions"); len(got) != 1 || !strings.Contains(got[0], tc.in) {
			t.Errorf("%q: searches %v (intent %s):\n%s", tc.say, got, a.Plan.Intent, a.Text)
		}
	}
}

// TestFollowUpTheChosenOne: after "which one is tankier?" a singular
// reference means the champion chosen, and "the tankier one" does too;
// without such an answer, or for another stat, nothing is chosen.
func TestFollowUpTheChosenOne(t *testing.T) {
	w := newSampleWorld(t)
	conv := &conversation{}
	w.askIn(t, conv, "en", nil, "compare Kaelith, Rakaix and Vorenyn")
	if a := w.askIn(t, conv, "en", nil, "and her skills?"); a.Plan.Intent != offline.IntentClarify {
		t.Errorf("\"and her skills?\" after a comparison with no winner: intent %s, want a question back:\n%s", a.Plan.Intent, a.Text)
	}
	conv = &conversation{}
	w.askIn(t, conv, "en", nil, "compare Kaelith, Rakaix and Vorenyn")
	w.askIn(t, conv, "en", nil, "which one is tankier?")
	if a := w.askIn(t, conv, "en", nil, "what gear should she use?"); !containsStr(calledArgs(a, "gcs_recommend_gear"), `{"champion_name":"Rakaix"}`) {
		t.Errorf("\"what gear should she use?\" after the tankier one: %v (intent %s)", calledArgs(a, "gcs_recommend_gear"), a.Plan.Intent)
	}
	if a := w.askIn(t, conv, "en", nil, "what gear should the faster one use?"); containsStr(calledArgs(a, "gcs_recommend_gear"), `{"champion_name":"Rakaix"}`) {
		t.Errorf("\"the faster one\" took the tankier one:\n%s", a.Text)
	}
	conv = &conversation{}
	w.askIn(t, conv, "en", nil, "compare Kaelith, Rakaix and Vorenyn")
	w.askIn(t, conv, "en", nil, "which one is tankier?")
	if a := w.askIn(t, conv, "en", nil, "the last one's skills?"); !containsStr(calledArgs(a, "gcs_get_champion_skills"), `{"champion_name":"Vorenyn"}`) {
		t.Errorf("\"the last one\" after the tankier one: %v", calledArgs(a, "gcs_get_champion_skills"))
	}
}

// TestFollowUpInverseComparative: "slower", "squishier" and their fr/de
// forms choose among compared champions from below; after an answer that
// chose one of two, "the slower one" and "the other one" mean the one it
// did not choose, and with no choice "the other one" is the second.
func TestFollowUpInverseComparative(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct{ locale, first, then, lead string }{
		{"en", "compare Kaelith and Vonoelle", "which one is slower?", "**Vonoelle** is slower: SPD Kaelith 107, Vonoelle 103"},
		{"en", "compare Kaelith and Vonoelle", "which one is squishier?", "**Kaelith** is squishier: HP Kaelith 15,525, Vonoelle 21,510"},
		{"en", "compare Kaelith and Vonoelle", "which one is faster?", "**Kaelith** is faster"},
		{"fr", "compare Kaelith et Vonoelle", "lequel est plus lent ?", "**Vonoelle** est plus lent"},
		{"de", "vergleiche Kaelith und Vonoelle", "wer ist langsamer?", "**Vonoelle** ist langsamer"},
	} {
		conv := &conversation{}
		w.askIn(t, conv, tc.locale, nil, tc.first)
		a := w.askIn(t, conv, tc.locale, nil, tc.then)
		if a.Plan.Intent != offline.IntentCompare || !strings.HasPrefix(a.Text, tc.lead) {
			t.Errorf("%s %q then %q: intent %s, want a lead %q:\n%s", tc.locale, tc.first, tc.then, a.Plan.Intent, tc.lead, a.Text)
		}
	}

	for _, tc := range []struct{ locale, first, then, tool, want string }{
		// The faster of the two was chosen: the slower is the other.
		{"en", "who is faster, Kaelith or Vonoelle?", "what gear should the slower one use?", "gcs_recommend_gear", "Vonoelle"},
		{"en", "who is faster, Kaelith or Vonoelle?", "what gear should the faster one use?", "gcs_recommend_gear", "Kaelith"},
		{"en", "which one is tankier, Kaelith or Vonoelle?", "the squishier one's skills?", "gcs_get_champion_skills", "Kaelith"},
		// "the other one" after a choice is the one not chosen, whatever
		// the order the pair was named in.
		{"en", "which one has more HP, Vonoelle or Kaelith?", "the other one's skills?", "gcs_get_champion_skills", "Kaelith"},
		{"en", "who is faster, Kaelith or Vonoelle?", "the other one's skills?", "gcs_get_champion_skills", "Vonoelle"},
		// No choice: the second.
		{"en", "compare Kaelith and Vonoelle", "the other one's skills?", "gcs_get_champion_skills", "Vonoelle"},
		// French "l'autre", German "der andere".
		{"fr", "qui est le plus rapide, Kaelith ou Vonoelle ?", "les compétences de l'autre ?", "gcs_get_champion_skills", "Vonoelle"},
		{"de", "wer ist schneller, Vonoelle oder Kaelith?", "und die Fähigkeiten des anderen?", "gcs_get_champion_skills", "Vonoelle"},
	} {
		conv := &conversation{}
		w.askIn(t, conv, tc.locale, nil, tc.first)
		a := w.askIn(t, conv, tc.locale, nil, tc.then)
		if got := calledArgs(a, tc.tool); !containsStr(got, `{"champion_name":"`+tc.want+`"}`) {
			t.Errorf("%q then %q: %s called with %v (intent %s), want %s:\n%s", tc.first, tc.then, tc.tool, got, a.Plan.Intent, tc.want, a.Text)
		}
	}
}
