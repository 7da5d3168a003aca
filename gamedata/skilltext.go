package gamedata

import (
	"regexp"
	"strings"
)

// A skill's description is written in English from a small set of
// sentences (skillDescription); SkillText says each of them in the
// game's other locales, with the effects' localized labels.

// skillSentence is one English sentence pattern and its French and German
// forms ($1, $2… are the pattern's groups; effect labels are already
// localized when they are filled in).
type skillSentence struct {
	re     *regexp.Regexp
	fr, de string
}

// E is an effect label in brackets; N a whole number.
const (
	sentE = `\[([^\]]+)\]`
	sentN = `(\d+)`
)

//nolint:misspell // French and German words, not misspelt English
var skillSentences = func() []skillSentence {
	raw := []struct{ en, fr, de string }{
		{`Attacks one enemy`, `Attaque un ennemi`, `Greift einen Gegner an`},
		{`Attacks all enemies`, `Attaque tous les ennemis`, `Greift alle Gegner an`},
		{`Attacks one enemy ⟨N⟩ times`, `Attaque un ennemi $1 fois`, `Greift einen Gegner $1-mal an`},
		{`Attacks all enemies ⟨N⟩ times`, `Attaque tous les ennemis $1 fois`, `Greift alle Gegner $1-mal an`},
		{`Attacks ⟨N⟩ enemy ⟨N⟩ times`, `Attaque $1 ennemi $2 fois`, `Greift $1 Gegner $2-mal an`},
		{`Attacks ⟨N⟩ random enemies`, `Attaque $1 ennemis au hasard`, `Greift $1 zufällige Gegner an`},
		{`Has a ⟨N⟩% chance of placing a ⟨N⟩% ⟨E⟩ debuff for ⟨N⟩ turns`, `A $1 % de chances d'infliger [$3] à $2 % pendant $4 tours`, `Hat eine Chance von $1 %, [$3] mit $2 % für $4 Runden zu verhängen`},
		{`Has a ⟨N⟩% chance of placing an? ⟨E⟩ debuff for ⟨N⟩ turns`, `A $1 % de chances d'infliger [$2] pendant $3 tours`, `Hat eine Chance von $1 %, [$2] für $3 Runden zu verhängen`},
		{`Each hit has a ⟨N⟩% chance of placing a ⟨N⟩% ⟨E⟩ debuff for ⟨N⟩ turns`, `Chaque coup a $1 % de chances d'infliger [$3] à $2 % pendant $4 tours`, `Jeder Treffer hat eine Chance von $1 %, [$3] mit $2 % für $4 Runden zu verhängen`},
		{`Has a ⟨N⟩% chance of placing a ⟨N⟩% ⟨E⟩ debuff and a ⟨N⟩% ⟨E⟩ debuff for ⟨N⟩ turns`, `A $1 % de chances d'infliger [$3] à $2 % et [$5] à $4 % pendant $6 tours`, `Hat eine Chance von $1 %, [$3] mit $2 % und [$5] mit $4 % für $6 Runden zu verhängen`},
		{`Places an? ⟨E⟩ debuff on the targets for ⟨N⟩ turns`, `Inflige [$1] aux cibles pendant $2 tours`, `Verhängt [$1] für $2 Runden über die Ziele`},
		{`Places two ⟨N⟩% ⟨E⟩ debuffs for ⟨N⟩ turns`, `Inflige deux [$2] à $1 % pendant $3 tours`, `Verhängt zweimal [$2] mit $1 % für $3 Runden`},
		{`Places an? ⟨E⟩ debuff for ⟨N⟩ turns`, `Inflige [$1] pendant $2 tours`, `Verhängt [$1] für $2 Runden`},
		{`Decreases the target's Turn Meter by ⟨N⟩%`, `Réduit la jauge de tour de la cible de $1 %`, `Senkt die Zugleiste des Ziels um $1 %`},
		{`Heals all allies by ⟨N⟩% of this champion's MAX HP`, `Soigne tous les alliés de $1 % des PV max de ce champion`, `Heilt alle Verbündeten um $1 % der max. LP dieses Champions`},
		{`Places an? ⟨E⟩ on all allies equal to ⟨N⟩% of this champion's MAX HP for ⟨N⟩ turns`, `Place [$1] sur tous les alliés égal à $2 % des PV max de ce champion pendant $3 tours`, `Gibt allen Verbündeten [$1] in Höhe von $2 % der max. LP dieses Champions für $3 Runden`},
		{`Revives a dead ally with ⟨N⟩% HP`, `Ressuscite un allié mort avec $1 % de PV`, `Belebt einen toten Verbündeten mit $1 % LP wieder`},
		{`Removes all debuffs from all allies`, `Retire tous les effets négatifs de tous les alliés`, `Entfernt alle negativen Effekte von allen Verbündeten`},
		{`Places an? ⟨E⟩ buff on all allies for ⟨N⟩ turns`, `Accorde [$1] à tous les alliés pendant $2 tours`, `Gibt allen Verbündeten [$1] für $2 Runden`},
		{`Places a ⟨N⟩% ⟨E⟩ buff on all allies for ⟨N⟩ turns`, `Accorde [$2] à $1 % à tous les alliés pendant $3 tours`, `Gibt allen Verbündeten [$2] mit $1 % für $3 Runden`},
		{`Fills the Turn Meter of all allies by ⟨N⟩%`, `Remplit la jauge de tour de tous les alliés de $1 %`, `Füllt die Zugleiste aller Verbündeten um $1 %`},
		{`Grants an? ⟨E⟩ if this attack kills a target or lands a critical hit`, `Accorde [$1] si cette attaque tue une cible ou porte un coup critique`, `Gewährt [$1], wenn dieser Angriff ein Ziel tötet oder kritisch trifft`},
		{`Deals bonus damage if the target is under a debuff`, `Inflige des dégâts supplémentaires si la cible subit un effet négatif`, `Verursacht zusätzlichen Schaden, wenn das Ziel einen negativen Effekt trägt`},
		{`Damage increases by ⟨N⟩% for each debuff on the target`, `Les dégâts augmentent de $1 % par effet négatif sur la cible`, `Der Schaden steigt um $1 % je negativem Effekt auf dem Ziel`},
	}
	out := make([]skillSentence, 0, len(raw))
	for _, r := range raw {
		p := regexp.QuoteMeta(r.en)
		p = strings.ReplaceAll(p, "an\\?", "an?")
		p = strings.ReplaceAll(p, "⟨E⟩", sentE)
		p = strings.ReplaceAll(p, "⟨N⟩", sentN)
		p = strings.ReplaceAll(p, `turns`, `turns?`)
		out = append(out, skillSentence{re: regexp.MustCompile(`^` + p + `\.?$`), fr: r.fr, de: r.de})
	}
	return out
}()

// effectKeyByLabel maps the English labels a description brackets to the
// effect keys.
var effectKeyByLabel = func() map[string]string {
	m := map[string]string{"HP Burn": "burn", "Increase SPD": "speed_up"}
	for k := range effectNames["fr"] {
		if e, ok := EffectByKey(k); ok {
			m[e.Label] = k
		}
	}
	return m
}()

// SkillText returns a skill description written in English in locale,
// sentence by sentence with the effects' localized labels; ok is false
// when a sentence has no form in that locale (the caller then leaves the
// text out rather than mixing languages). English returns desc as is.
func SkillText(desc, locale string) (string, bool) {
	if locale != "fr" && locale != "de" {
		return desc, locale == "en" || locale == ""
	}
	desc = strings.TrimSpace(desc)
	if desc == "" {
		return "", true
	}
	var out []string
	for _, s := range splitSentences(desc) {
		done := false
		for _, ss := range skillSentences {
			m := ss.re.FindStringSubmatchIndex(s)
			if m == nil {
				continue
			}
			tmpl := ss.fr
			if locale == "de" {
				tmpl = ss.de
			}
			// Effect labels inside brackets say the effect in locale.
			var groups []string
			for i := 2; i < len(m); i += 2 {
				groups = append(groups, s[m[i]:m[i+1]])
			}
			for i, g := range groups {
				if k, ok := effectKeyByLabel[g]; ok {
					groups[i] = EffectLabel(k, locale)
				} else if !isNumber(g) {
					return "", false
				}
			}
			t := tmpl
			for i := len(groups); i >= 1; i-- {
				t = strings.ReplaceAll(t, "$"+itoa(i), groups[i-1])
			}
			out = append(out, t+".")
			done = true
			break
		}
		if !done {
			return "", false
		}
	}
	return oneTurn.Replace(strings.Join(out, " ")), true
}

// oneTurn puts "1 turn" back in the singular.
var oneTurn = strings.NewReplacer("pendant 1 tours", "pendant 1 tour", "für 1 Runden", "für 1 Runde")

// splitSentences splits text after each full stop followed by a space.
func splitSentences(s string) []string {
	var out []string
	for s != "" {
		i := strings.Index(s, ". ")
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = strings.TrimSpace(s[i+2:])
	}
	return out
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
