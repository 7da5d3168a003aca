package offline_test

import (
	"strings"
	"testing"
)

// TestThisBossOnADungeonScreen: on a dungeon screen, "this boss" is the
// dungeon's boss (from the dungeon's row the screen rules fetched).
func TestThisBossOnADungeonScreen(t *testing.T) {
	w := newSampleWorld(t)
	castle := screenOf(t, "DungeonSelectPresenter", map[string]any{"DungeonConfigId": 7001, "Stage": 3})
	for _, tc := range []struct{ locale, say, want string }{
		{"en", "how do I beat this boss?", "Fire Knight"},
		{"en", "who counters this boss?", "Fire Knight"},
		{"fr", "comment battre ce boss ?", "Chevalier de Feu"},
		{"de", "wer kontert diesen Boss?", "Feuerritter"},
	} {
		a := w.ask(t, tc.locale, castle, tc.say)
		if len(calledArgs(a, "gcs_find_counters_for_boss")) == 0 || !strings.Contains(a.Text, tc.want) {
			t.Errorf("%q: %s, calls %v:\n%s", tc.say, a.Plan.Intent, a.Plan.Calls, a.Text)
		}
	}
}

// TestLastPatchIsNamed: "the last patch" is the newest patch notes
// document, named with its version and date.
func TestLastPatchIsNamed(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct{ locale, say, lead string }{
		{"en", "what changed in the last patch?", "The latest patch is **1.5.0: The Bone Throne**, released 2026-02-17"},
		{"fr", "qu'est-ce qui a changé dans le dernier patch ?", "Le dernier patch est **1.5.0"},
		{"de", "was ist neu im letzten Patch?", "Der neueste Patch ist **1.5.0"},
	} {
		a := w.ask(t, tc.locale, nil, tc.say)
		if !strings.HasPrefix(a.Text, tc.lead) || strings.Contains(a.Text, "1.4.0") {
			t.Errorf("%q:\n%s", tc.say, a.Text)
		}
	}
}

// TestRoleAndStatWordsReadApart: "attack champion" is a role, "attack
// stat" a stat.
func TestRoleAndStatWordsReadApart(t *testing.T) {
	w := newSampleWorld(t)
	for _, tc := range []struct{ say, args string }{
		{"which force attack champion is the fastest?", `{"affinity":"Force","limit":5,"role":"Attack","sort_by":"spd"}`},
		{"which attack champion has the highest attack stat?", `{"limit":5,"role":"Attack","sort_by":"atk"}`},
		{"who has the highest attack stat?", `{"limit":5,"sort_by":"atk"}`},
	} {
		a := w.ask(t, "en", nil, tc.say)
		if got := calledArgs(a, "gcs_find_champions"); !containsStr(got, tc.args) {
			t.Errorf("%q: gcs_find_champions %v, want %s", tc.say, got, tc.args)
		}
	}
}

// TestNoIdentifiersInReplies: effect keys reach players as names in the
// session's locale, and French and German counters answers carry no
// English reasons.
func TestNoIdentifiersInReplies(t *testing.T) {
	w := newSampleWorld(t)
	ids := []string{"decrease_def", "turn_meter_reduce", "block_debuffs", "decrease_spd", "_"}
	for _, tc := range []struct{ locale, say string }{
		{"en", "who counters the Fire Knight?"},
		{"en", "tell me about the Fire Knight"},
		{"fr", "qui contre le Chevalier de Feu ?"},
		{"fr", "parle-moi du Chevalier de Feu"},
		{"de", "wer kontert den Feuerritter?"},
		{"de", "welche Champions können betäuben?"},
	} {
		a := w.ask(t, tc.locale, nil, tc.say)
		for _, id := range ids {
			if strings.Contains(a.Text, id) {
				t.Errorf("%q: reply holds %q:\n%s", tc.say, id, a.Text)
			}
		}
		if tc.locale != "en" {
			for _, en := range []string{"strong against", "skills apply", "has the advantage", "boss weakness"} {
				if strings.Contains(a.Text, en) {
					t.Errorf("%q: English %q in a %s reply:\n%s", tc.say, en, tc.locale, a.Text)
				}
			}
		}
	}
}
