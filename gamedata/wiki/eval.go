package wiki

import (
	"fmt"
	"strings"

	"github.com/gameassist/gameassist/gamedata"
)

// EvalQuery is one retrieval evaluation case: a player question and the
// doc_ids that answer it. Paraphrase marks questions that avoid the
// entity's name, so only the document's other distinctive words match.
type EvalQuery struct {
	Query      string   `json:"query"`
	Expected   []string `json:"expected"`
	Paraphrase bool     `json:"paraphrase"`
}

func bossParaphrases() map[string]string {
	return map[string]string{
		"fire-knight":       "which boss burns your team in its second phase and is weak to defence down?",
		"frost-wyrm":        "ice armour that melts when hit by burning damage, blizzard breath that freezes two champions",
		"spider-queen":      "boss that summons spiderlings which explode into poison",
		"stone-golem":       "granite skin boss that petrifies the front line with a stomp",
		"storm-drake":       "chain lightning that jumps between champions unless they have a shield",
		"hollow-king":       "skeletal courtiers steal buffs and a curse kills champions below 20% HP",
		"plague-mother":     "witch-matron that feeds on disease and heals for every debuff on my team",
		"iron-colossus":     "steam pressure counterattacks area skills, overdrive pistons and meltdown",
		"abyssal-leviathan": "arena floods each turn and one champion is dragged underwater",
		"ember-witch":       "copies every buff my team places and lights candles of invulnerability",
		"shadow-twins":      "two assassins share a heartbeat and must be killed in the same round",
		"thornheart-treant": "bramble hide reflects direct damage, regrows hp and roots champions",
		"sand-tyrant":       "sandstorm lowers accuracy and quicksand sinks my slowest champion",
		"crimson-minotaur":  "red-horned beast charges the champion with the highest attack and enrages in blood frenzy",
		"void-seraph":       "fallen angel drains 25% turn meter every turn and erases debuffed champions",
		"dread-lich":        "phylactery keeps the boss above 50% hp and soul harvest heals it when champions die",
	}
}

func dungeonParaphrases() map[string]string {
	return map[string]string{
		"fire-knights-castle":       "fortress of black stone and flowing lava with burning ramparts",
		"glacier-spire":             "frozen tower of blue ice where blizzards sweep the ledges",
		"silkweb-caverns":           "damp tunnels strung with webs as thick as ropes",
		"quarry-of-echoes":          "abandoned pit where every footstep echoes and living rock gathers",
		"thunderhead-aerie":         "nest of crackling clouds where lightning strikes the slowest first",
		"crypt-of-the-hollow-crown": "royal tomb with halls lined with empty thrones",
		"rotting-marsh":             "swamp of green mist and sinking paths",
		"cinder-library":            "burnt library with smouldering books and forbidden spells between the shelves",
		"twilight-maze":             "hedge maze where it is always dusk",
		"whispering-woods":          "first campaign forest where the trees warn travellers",
		"sunken-coast":              "drowned villages and tide pools good for farming early gear",
		"brass-road":                "last campaign area with clockwork bridges",
		"foundry-of-the-colossus":   "raid inside a gigantic foundry whose furnaces never went out",
		"drowned-cathedral":         "raid in a church swallowed by the sea where the organ still plays under the waves",
		"oblivion-spire":            "black spire raid that unmakes light itself",
	}
}

func factionParaphrases() map[string]string {
	return map[string]string{
		"emberguard-legion":  "soldier-priests who keep eternal forge-fires burning and march in shield walls",
		"sylvan-wardens":     "archers and druids who heal their wounded with sap-light",
		"hollow-covenant":    "secret order that trades pieces of memory for power",
		"tideborn-clans":     "sea raiders and storm-singers with tide-chants",
		"iron-dominion":      "empire of engineers with clockwork armour who fight by the numbers",
		"skyreach-order":     "monks and griffon riders who value speed above strength",
		"ashen-nomads":       "caravan warriors riding armoured lizards with desert venom",
		"verdant-circle":     "healers and shapeshifters who punish those who poison the land",
		"duskblood-houses":   "noble vampire houses that feast on the strength of their foes",
		"frostpeak-clans":    "mountain clans riding mammoths and chanting to winter spirits",
		"gilded-syndicate":   "merchant princes duellists and assassins where every contract has a price",
		"stormcaller-tribes": "horse tribes who call lightning and never retreat twice",
		"bonewright-cult":    "necromancers who build servants from bones of the fallen",
		"radiant-choir":      "paladins and battle-singers whose hymns shield allies",
	}
}

// EvalSet builds the retrieval evaluation set for the wiki rendered from g:
// direct questions naming an entity and paraphrases that do not. Every
// expected doc_id exists in docs.
func EvalSet(g gamedata.Game, docs []Document) ([]EvalQuery, error) {
	ix := newIndex(g)
	have := map[string]bool{}
	for _, d := range docs {
		have[d.DocID] = true
	}
	var out []EvalQuery
	add := func(q string, para bool, ids ...string) {
		out = append(out, EvalQuery{Query: q, Expected: ids, Paraphrase: para})
	}
	// Champions: every eighth one, direct and by its skills.
	directForms := []string{"%s abilities", "%s lore", "best gear for %s", "%s base stats", "what does %s do"}
	for i := 0; i < len(g.Champions); i += 8 {
		c := g.Champions[i]
		id := "champion-" + c.Key
		add(fmt.Sprintf(directForms[(i/8)%len(directForms)], c.Name), false, id)
		var skills []string
		for _, s := range c.Skills[1:] {
			if !strings.Contains(s.Name, c.Name) {
				skills = append(skills, s.Name)
			}
		}
		if len(skills) >= 2 {
			add(fmt.Sprintf("which champion has the skills %s and %s?", skills[0], skills[1]), true, id)
		}
	}
	for _, b := range g.Bosses {
		id := "boss-" + b.Key
		add(b.Name+" phases and mechanics", false, id)
		if p, ok := bossParaphrases()[b.Key]; ok {
			add(p, true, id)
		}
	}
	for _, d := range g.Dungeons {
		id := "dungeon-" + d.Key
		if d.ID%2 == 1 {
			add(d.Name+" rewards and stages", false, id)
		}
		if p, ok := dungeonParaphrases()[d.Key]; ok {
			add(p, true, id)
		}
	}
	for i, f := range g.Factions {
		id := "faction-" + f.Key
		if i%2 == 0 {
			add(f.Name+" lore", false, id)
		}
		if p, ok := factionParaphrases()[f.Key]; ok {
			add(p, true, id)
		}
	}
	for _, p := range uxPages() {
		id := "ux-" + strings.ToLower(p.screen)
		add(p.screen, false, id)
		add(p.paraphrase, true, id)
	}
	for i, e := range faqEntries(ix) {
		id := "faq-" + e.slug
		if i%2 == 0 {
			add(e.question, false, id)
		}
		if e.paraphrase != "" {
			add(e.paraphrase, true, id)
		}
	}
	for i, t := range mechanicsTopics(ix) {
		id := "mechanics-" + t.slug
		if i%2 == 0 {
			add(t.title+" explained", false, id)
		}
		add(t.paraphrase, true, id)
	}
	for _, p := range patches(ix) {
		id := "patch-notes-" + strings.ReplaceAll(p.version, ".", "-")
		add("patch notes "+p.version, false, id)
		add(p.paraphrase, true, id)
	}
	for _, q := range out {
		for _, id := range q.Expected {
			if !have[id] {
				return nil, fmt.Errorf("wiki: eval query %q expects unknown document %s", q.Query, id)
			}
		}
	}
	return out, nil
}
