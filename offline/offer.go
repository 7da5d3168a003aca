package offline

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/gcsdb"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

// Verdicts on a gear set for a champion and on a shop offer.

// The verdict intents of this file.
const (
	IntentSetVerdict   Intent = "set_verdict"   // is this set good for this champion
	IntentOfferVerdict Intent = "offer_verdict" // is this offer worth it
)

// wordsOffer name a shop offer.
//
//nolint:misspell // French and German words, not misspelt English
var wordsOffer = phrases(`offer|deal|bundle|buy|buying|purchase|pack|
	offre|acheter|achat|pack|
	angebot|kaufen|kauf|paket`)

// screenPrice reads the price the screen shows (a "price" field at any
// depth, a number or numeric string): digits only, as it is player data.
func screenPrice(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return "", false
	}
	return findPrice(v, 0)
}

func findPrice(v any, depth int) (string, bool) {
	if depth > 8 {
		return "", false
	}
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if strings.EqualFold(k, "price") || strings.EqualFold(k, "cost") {
				var s string
				switch n := val.(type) {
				case json.Number:
					s = n.String()
				case string:
					s = n
				}
				if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && f >= 0 && f < 1e12 {
					return strconv.FormatFloat(f, 'f', -1, 64), true
				}
			}
		}
		for _, val := range x {
			if p, ok := findPrice(val, depth+1); ok {
				return p, true
			}
		}
	case []any:
		for _, val := range x {
			if p, ok := findPrice(val, depth+1); ok {
				return p, true
			}
		}
	}
	return "", false
}

// setVerdict answers "is this set good for this champion": whether the
// set is among the sets the game recommends for the champion's role.
func (rd renderer) setVerdict() reply {
	o, ok := rd.one(toolGear)
	if !ok {
		return reply{}
	}
	if !o.Result.OK() {
		return rd.failed(o)
	}
	adv, _ := dataAs[toolsgcs.GearAdvice](o.Result)
	sets := ofKind(rd.p.Entities, KindGearSet)
	champs := ofKind(rd.p.Entities, KindChampion)
	if len(sets) == 0 || len(champs) == 0 {
		return rd.gear(o)
	}
	set, champ := sets[0], champs[0]
	name := func(g gcsdb.GearRecommendation) string { return rd.display(g.ID, g.Name, nil) }
	pos := 0
	var others []string
	for i, g := range adv.Recommendations {
		if idString(g.ID) == set.ID || strings.EqualFold(g.Name, set.Name) {
			pos = i + 1
		} else if len(others) < 3 {
			others = append(others, bold(name(g)))
		}
	}
	role := rd.l.word(adv.Role)
	var rp reply
	switch {
	case len(adv.Recommendations) == 0:
		rp.lead = rd.l.s("set_unknown", set.Display(rd.l.loc), champ.Display(rd.l.loc))
	case pos > 0:
		rp.lead = rd.l.s("set_yes", set.Display(rd.l.loc), champ.Display(rd.l.loc), pos, len(adv.Recommendations), role)
	default:
		rp.lead = rd.l.s("set_no", set.Display(rd.l.loc), champ.Display(rd.l.loc), role, rd.l.and(others))
	}
	for i, g := range adv.Recommendations {
		if i == 4 {
			break
		}
		line := bold(name(g))
		if g.StatBonus != "" {
			line += " (" + g.StatBonus + ")"
		}
		rp.facts = append(rp.facts, line)
	}
	return rp
}

// offerVerdict answers "is this offer worth it": the price, against what
// the offered champion is good for in the game's data (the bosses it is
// recommended against). The data has no price list, so a champion the
// game recommends against no boss is no buy, and one it does is worth it
// only if those fights are the player's.
func (rd renderer) offerVerdict() reply {
	o, ok := rd.champion()
	if !ok {
		return reply{}
	}
	if !o.Result.OK() {
		return rd.failed(o)
	}
	c, ok := dataAs[gcsdb.Champion](o.Result)
	if !ok {
		return rd.details(o)
	}
	name := rd.display(c.ID, c.Name, nil)
	bosses := rd.bossesFor(c)
	price := rd.l.num(rd.p.Price)
	var rp reply
	if len(bosses) > 0 {
		rp.lead = rd.l.s("offer_yes", price, name, rd.l.and(bosses))
	} else {
		rp.lead = rd.l.s("offer_no", price, name)
	}
	rp.facts = append(rp.facts, bold(name)+" ("+rd.attrs(c.Rarity, c.Affinity, c.Role)+")")
	return rp
}
