package gamedata

import (
	"strings"
	"testing"
)

// TestEffectLabels: every effect has a name for players in every locale
// the game speaks, never its key; an unknown key reads without underscores.
func TestEffectLabels(t *testing.T) {
	for _, e := range Effects() {
		for _, loc := range []string{"en", "fr", "de"} {
			got := EffectLabel(e.Key, loc)
			if got == "" || strings.Contains(got, "_") || (loc != "en" && effectNames[loc][e.Key] == "") {
				t.Errorf("%s in %s: %q", e.Key, loc, got)
			}
		}
	}
	if got := EffectLabel("mind_control", "fr"); got != "mind control" {
		t.Errorf("unknown key: %q", got)
	}
	if got := EffectLabel("stun", "xx"); got != "Stun" {
		t.Errorf("unknown locale: %q", got)
	}
}
