package gamedata

import (
	"regexp"
	"strings"
	"testing"
)

// englishWords are words of the English sentences that no French or
// German form keeps.
var englishWords = regexp.MustCompile(`\b(the|of|enemy|enemies|allies|ally|turns?|chance of|placing|places|attacks|debuffs?|buff|heals|grants)\b`)

// TestSkillTextEveryGeneratedSkill: every skill of the sample game reads in
// French and German with no English word and no effect key.
func TestSkillTextEveryGeneratedSkill(t *testing.T) {
	d := Generate(DefaultSeed)
	n := 0
	snake := regexp.MustCompile(`[a-z]+_[a-z]+`)
	for _, c := range d.Champions {
		for _, s := range c.Skills {
			for _, loc := range []string{"fr", "de"} {
				got, ok := SkillText(s.Description, loc)
				if !ok {
					t.Errorf("%s %s (%s): no %s form for %q", c.Name, s.Name, loc, loc, s.Description)
					continue
				}
				// Bracketed labels are the game's own words in locale.
				plain := regexp.MustCompile(`\[[^\]]*\]`).ReplaceAllString(got, "")
				if w := englishWords.FindString(strings.ToLower(plain)); w != "" || snake.MatchString(got) {
					t.Errorf("%s %s: %s form %q keeps %q", c.Name, s.Name, loc, got, w)
				}
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no skills")
	}
	got, _ := SkillText("Has a 75% chance of placing a 60% [Decrease DEF] debuff for 2 turns.", "fr")
	if want := "A 75 % de chances d'infliger [Baisse de DÉF] à 60 % pendant 2 tours."; got != want {
		t.Errorf("fr: %q, want %q", got, want)
	}
	if _, ok := SkillText("Summons a dragon.", "de"); ok {
		t.Error("a sentence with no German form was translated")
	}
}
