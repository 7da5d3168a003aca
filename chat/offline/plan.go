package offline

import (
	"context"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// Intent is what the player asked for.
type Intent string

// The intents the responder recognises.
const (
	IntentHelp       Intent = "help"        // nothing recognised: say what the assistant can do
	IntentDetails    Intent = "details"     // champion, boss or faction details
	IntentCompare    Intent = "compare"     // two or more champions side by side
	IntentCounters   Intent = "counters"    // who beats a boss
	IntentMatchup    Intent = "matchup"     // is this champion good against this boss
	IntentLore       Intent = "lore"        // story of an entity
	IntentScreenHelp Intent = "screen_help" // how the current screen works
	IntentGear       Intent = "gear"        // which gear a champion should wear
	IntentKnowledge  Intent = "knowledge"   // a game question naming no entity: search the docs
)

// Tool names the responder calls.
const (
	toolChampion = "gcs_get_champion_details"
	toolBoss     = "gcs_get_boss_details"
	toolFaction  = "gcs_get_faction_details"
	toolCompare  = "gcs_compare_characters"
	toolCounters = "gcs_find_counters_for_boss"
	toolLore     = "db_get_lore_details"
	toolUX       = "db_get_ux_details"
	toolGear     = "gcs_recommend_gear"
	toolSearch   = "rag_semantic_search"
)

// maxDetails bounds how many entities one answer details.
const maxDetails = 3

// maxTokens bounds the words of a message searched for names.
const maxTokens = 400

// Plan is the responder's reading of a message: the intent, the entities
// and the tool calls that answer it.
type Plan struct {
	Intent   Intent
	Entities []Entity
	Calls    []tool.Call
	// Screen is the screen name used for screen help.
	Screen string
}

// Plan reads message (said on screen, "" if unknown) and chooses the tool
// calls that answer it. Tools missing from the registry are left out.
func (r *Responder) Plan(ctx context.Context, message, screen string) Plan {
	toks := tokens(message)
	if len(toks) > maxTokens {
		toks = toks[:maxTokens]
	}
	ents := r.ensureIndex(ctx).find(toks)
	text := " " + strings.Join(toks, " ") + " "
	var champs, bosses, factions []Entity
	for _, e := range ents {
		switch e.Kind {
		case KindChampion:
			champs = append(champs, e)
		case KindBoss:
			bosses = append(bosses, e)
		case KindFaction:
			factions = append(factions, e)
		}
	}
	p := Plan{Entities: ents, Screen: screen}
	add := func(name string, args any) {
		if r.names[name] {
			p.Calls = append(p.Calls, tool.Call{Name: name, Arguments: argsOf(args)})
		}
	}
	details := func(es ...Entity) {
		for i, e := range es {
			if i == maxDetails {
				break
			}
			switch e.Kind {
			case KindChampion:
				add(toolChampion, map[string]string{"champion_name": e.Name})
			case KindBoss:
				add(toolBoss, map[string]string{"boss_name": e.Name})
			case KindFaction:
				add(toolFaction, map[string]string{"faction_name": e.Name})
			}
		}
	}
	switch {
	case isLore(text):
		p.Intent = IntentLore
		q := strings.TrimSpace(message)
		if len(ents) > 0 {
			q = ents[0].Name
		}
		add(toolLore, map[string]string{"query": clipRunes(q, 200)})
	case len(ents) == 0 && isScreenHelp(text):
		p.Intent = IntentScreenHelp
		q := screen
		if q == "" {
			q = clipRunes(strings.TrimSpace(message), 200)
		}
		add(toolUX, map[string]string{"query": q})
	case len(champs) >= 2 && (isCompare(text) || len(bosses) == 0):
		p.Intent = IntentCompare
		if r.names[toolCompare] {
			names := make([]string, 0, len(champs))
			for _, c := range champs {
				names = append(names, c.Name)
			}
			add(toolCompare, map[string][]string{"names": names})
		} else {
			details(champs...)
		}
	case len(champs) >= 1 && len(bosses) == 0 && isGear(text) && r.names[toolGear]:
		p.Intent = IntentGear
		add(toolGear, map[string]string{"champion_name": champs[0].Name})
	case len(champs) >= 1 && len(bosses) >= 1:
		p.Intent = IntentMatchup
		add(toolChampion, map[string]string{"champion_name": champs[0].Name})
		add(toolCounters, map[string]string{"boss_name": bosses[0].Name})
	case len(bosses) >= 1 && isCounters(text):
		p.Intent = IntentCounters
		add(toolCounters, map[string]string{"boss_name": bosses[0].Name})
	case len(ents) > 0:
		p.Intent = IntentDetails
		details(ents...)
	case isScreenHelp(text) && screen != "":
		p.Intent = IntentScreenHelp
		add(toolUX, map[string]string{"query": screen})
	case len(ents) == 0 && len(toks) >= 3 && r.names[toolSearch]:
		// A game question about no particular entity ("how does affinity
		// work?"): the FAQ, mechanics and guides may answer it.
		p.Intent = IntentKnowledge
		add(toolSearch, map[string]any{"query": clipRunes(strings.TrimSpace(message), 300), "top_k": 3})
	default:
		p.Intent = IntentHelp
	}
	if p.Intent == IntentDetails && len(bosses) == 0 && len(champs) == 0 && len(factions) == 0 {
		p.Intent = IntentHelp
	}
	return p
}

func isLore(text string) bool {
	return contains(text, "lore", "story", "backstory", "history", "legend", "origin", "origins", "background")
}

func isScreenHelp(text string) bool {
	return contains(text, "this screen", "this page", "this menu", "this window", "this tab", "how do i use", "how does this work",
		"how to use", "what can i do here", "what am i looking at", "what is this", "what s this", "whats this", "help", "where am i")
}

func isGear(text string) bool {
	return contains(text, "gear", "set", "sets", "artifact", "artifacts", "equip", "equipment", "build", "wear")
}

func isCompare(text string) bool {
	return contains(text, "vs", "v", "versus", "compare", "comparison", "better", "or", "difference", "stronger")
}

func isCounters(text string) bool {
	return contains(text, "counter", "counters", "countering", "beat", "beats", "against", "kill", "defeat", "best", "good", "team",
		"weak", "weakness", "strategy", "use for", "who should", "how do i beat")
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
