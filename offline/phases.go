package offline

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/gcsdb"
	"github.com/gameassist/gameassist/tool"
)

// The words of a question about a boss's phases or mechanics (en, fr, de).
//
//nolint:misspell // French and German words, not misspelt English
var (
	wordsPhase    = phrases(`phase|phases|phasen`)
	wordsMechanic = phrases(`mechanic|mechanics|mecanique|mecaniques|mechanik|mechaniken|watch out for|look out for`)
	// wordsThisPhase mean the phase the player's screen shows.
	wordsThisPhase = phrases(`this phase|current phase|the phase i am in|cette phase|la phase actuelle|phase actuelle|
		diese phase|dieser phase|aktuelle phase|aktuellen phase|der aktuellen phase`)
	// phaseOrdinals are the ordinal words before "phase" (-1: the last).
	phaseOrdinals = map[string]int{
		"first": 1, "second": 2, "third": 3, "fourth": 4, "final": -1, "last": -1, "finale": -1,
		"premiere": 1, "deuxieme": 2, "seconde": 2, "troisieme": 3, "quatrieme": 4, "derniere": -1,
		"erste": 1, "ersten": 1, "zweite": 2, "zweiten": 2, "dritte": 3, "dritten": 3, "vierte": 4, "vierten": 4, "letzte": -1, "letzten": -1,
	}
	// phaseNumbers are the number words after "phase".
	phaseNumbers = map[string]int{
		"one": 1, "two": 2, "three": 3, "four": 4, "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4,
		"eins": 1, "zwei": 2, "drei": 3, "vier": 4,
	}
)

// asksPhases reports a question about a boss's phases or mechanics.
func asksPhases(text string) bool {
	return has(text, wordsPhase) || has(text, wordsMechanic)
}

// phaseAsked returns the phase a question (normalized, " "-padded) names:
// "phase 2", "the second phase", "la phase deux", "this phase" (the
// screen's, screenPhase; 0 when the screen shows none); -1 for the last
// one, 0 for none.
func phaseAsked(text string, screenPhase int) int {
	if has(text, wordsThisPhase) {
		return screenPhase
	}
	toks := strings.Fields(text)
	for i, t := range toks {
		if t != "phase" && t != "phases" && t != "phasen" {
			continue
		}
		if i+1 < len(toks) {
			if n, err := strconv.Atoi(toks[i+1]); err == nil && n > 0 && n < 100 {
				return n
			}
			if n, ok := phaseNumbers[toks[i+1]]; ok {
				return n
			}
			if n, ok := phaseOrdinals[toks[i+1]]; ok {
				// "la phase deuxième", "la phase finale"
				return n
			}
		}
		if i > 0 {
			if n, ok := phaseOrdinals[toks[i-1]]; ok {
				return n
			}
		}
	}
	return 0
}

// screenPhase returns the phase a screen's data names: a top-level
// "Phase" (any case) holding a whole number from 1 to 99; 0 otherwise.
func screenPhase(raw json.RawMessage) int {
	if len(raw) == 0 {
		return 0
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v map[string]any
	if dec.Decode(&v) != nil {
		return 0
	}
	for k, val := range v {
		if !strings.EqualFold(k, "phase") {
			continue
		}
		var s string
		switch x := val.(type) {
		case json.Number:
			s = x.String()
		case string:
			s = strings.TrimSpace(x)
		}
		if n, err := strconv.Atoi(s); err == nil && n > 0 && n < 100 {
			return n
		}
	}
	return 0
}

// phases answers a question about a boss's phases or mechanics from its
// details: the phase asked (Plan.Phase), else every phase, then the
// mechanics. The data's descriptions are English: other locales get the
// phases' names and thresholds.
func (rd renderer) phases(os []tool.Outcome) reply {
	return rd.withBoss(os, rd.phasesOf)
}

func (rd renderer) phasesOf(_ tool.Outcome, b gcsdb.Boss) reply {
	l := rd.l
	name := rd.display(b.ID, b.Name, b.Names)
	en := l.loc == "en"
	line := func(ph gcsdb.Phase) string {
		s := l.s("phase_line", ph.Number, ph.Name, l.num(strconv.Itoa(ph.HPThreshold)))
		if en && ph.Description != "" {
			s += ": " + ph.Description
		}
		return s
	}
	var rp reply
	n := rd.p.Phase
	if n < 0 && len(b.Phases) > 0 {
		n = b.Phases[len(b.Phases)-1].Number
	}
	asked := -1
	for i, ph := range b.Phases {
		if ph.Number == n {
			asked = i
		}
	}
	switch {
	case len(b.Phases) == 0:
		rp.lead = l.s("phases_none", name)
	case asked >= 0:
		ph := b.Phases[asked]
		rp.lead = l.s("phase_one", ph.Number, name, ph.Name, l.num(strconv.Itoa(ph.HPThreshold)))
		if en && ph.Description != "" {
			rp.lead += " " + ph.Description
		}
	case has(rd.p.text, wordsMechanic) && !has(rd.p.text, wordsPhase) && en && len(b.Mechanics) > 0:
		rp.lead = l.s("mechanics_lead", name)
		rp.facts = append(rp.facts, b.Mechanics...)
		for _, ph := range b.Phases {
			rp.facts = append(rp.facts, line(ph))
		}
		return rp
	default:
		rp.lead = l.s("phases_lead", name, len(b.Phases))
		if n > 0 {
			rp.lead = l.s("phase_missing", name, len(b.Phases), n)
		}
		for _, ph := range b.Phases {
			rp.facts = append(rp.facts, line(ph))
		}
	}
	if en && asked >= 0 {
		rp.facts = append(rp.facts, b.Mechanics...)
	}
	if ws := effectWordsOf(b.Immunities, l.loc); len(ws) > 0 {
		rp.facts = append(rp.facts, l.t(mImmunities, strings.Join(ws, ", ")))
	}
	return rp
}
