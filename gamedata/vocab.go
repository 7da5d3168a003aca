package gamedata

import "strings"

// DefaultSeed is the seed of the committed sample game (data/game.json);
// regenerating with it must reproduce the committed files byte for byte.
const DefaultSeed int64 = 20261121

// Id ranges of each entity kind; ids are unique across kinds so any id can
// be translated to a display name without knowing its kind.
const (
	FactionIDMin  = 101
	FactionIDMax  = 199
	ChampionIDMin = 1001
	ChampionIDMax = 1999
	BossIDMin     = 5001
	BossIDMax     = 5999
	DungeonIDMin  = 7001
	DungeonIDMax  = 7999
	GearSetIDMin  = 8001
	GearSetIDMax  = 8999
	MasteryIDMin  = 9001
	MasteryIDMax  = 9999
)

// Rarities lists champion rarities from the lowest to the highest, so a
// rarity's index orders them.
func Rarities() []string { return []string{"Common", "Uncommon", "Rare", "Epic", "Legendary"} }

// Affinities lists the four affinities; the first three form the advantage
// cycle Magic > Force > Spirit > Magic, Void is neutral.
func Affinities() []string { return []string{"Magic", "Force", "Spirit", "Void"} }

// Roles lists champion roles.
func Roles() []string { return []string{"Attack", "Defense", "HP", "Support"} }

// DungeonKinds lists the kinds of areas a dungeon entry can describe.
func DungeonKinds() []string { return []string{"dungeon", "campaign", "raid"} }

// MasteryTrees lists the three mastery trees.
func MasteryTrees() []string { return []string{"Offense", "Defense", "Support"} }

// Difficulties lists boss difficulties from the easiest to the hardest.
func Difficulties() []string { return []string{"Normal", "Hard", "Brutal", "Nightmare"} }

// Effect describes one skill effect key: its display label, a plain-words
// alias players use, and whether it is a debuff placed on enemies.
type Effect struct {
	Key    string
	Label  string
	Plain  string
	Debuff bool
}

// Effects lists every skill effect key the game knows, in a stable order.
func Effects() []Effect {
	return []Effect{
		{"decrease_def", "Decrease DEF", "defence down", true},
		{"decrease_atk", "Decrease ATK", "attack down", true},
		{"decrease_spd", "Decrease SPD", "speed down", true},
		{"weaken", "Weaken", "damage taken up", true},
		{"stun", "Stun", "stun", true},
		{"freeze", "Freeze", "freeze", true},
		{"provoke", "Provoke", "taunt", true},
		{"poison", "Poison", "damage over time poison", true},
		{"burn", "HP Burn", "burning damage over time", true},
		{"block_buffs", "Block Buffs", "buff block", true},
		{"turn_meter_reduce", "Turn Meter Reduction", "turn meter drain", true},
		{"heal", "Heal", "healing", false},
		{"shield", "Shield", "damage shield", false},
		{"revive", "Revive", "bring allies back to life", false},
		{"cleanse", "Cleanse", "remove debuffs", false},
		{"block_debuffs", "Block Debuffs", "debuff immunity", false},
		{"speed_up", "Increase SPD", "speed boost", false},
		{"increase_atk", "Increase ATK", "attack boost", false},
		{"increase_def", "Increase DEF", "defence boost", false},
		{"turn_meter_fill", "Turn Meter Boost", "turn meter fill", false},
		{"extra_turn", "Extra Turn", "extra turn", false},
		{"counterattack", "Counterattack", "counter attack", false},
	}
}

// EffectByKey returns the effect with key k.
func EffectByKey(k string) (Effect, bool) {
	for _, e := range Effects() {
		if e.Key == k {
			return e, true
		}
	}
	return Effect{}, false
}

// AffinityAdvantage says how attacker's affinity fares against defender's:
// 1 for an advantage (Magic>Force>Spirit>Magic), -1 for a disadvantage, 0
// when neutral (same affinity, or Void on either side).
func AffinityAdvantage(attacker, defender string) int {
	beats := map[string]string{"Magic": "Force", "Force": "Spirit", "Spirit": "Magic"}
	if beats[attacker] == defender {
		return 1
	}
	if beats[defender] == attacker {
		return -1
	}
	return 0
}

// RarityRank returns the index of rarity r in Rarities, or -1.
func RarityRank(r string) int {
	for i, x := range Rarities() {
		if x == r {
			return i
		}
	}
	return -1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// effectNames are the effects' labels for players in the game's other
// locales (English is Effect.Label).
//
//nolint:misspell // French and German words, not misspelt English
var effectNames = map[string]map[string]string{
	"fr": {
		"decrease_def": "Baisse de DÉF", "decrease_atk": "Baisse d'ATQ", "decrease_spd": "Baisse de VIT",
		"weaken": "Affaiblissement", "stun": "Étourdissement", "freeze": "Gel", "provoke": "Provocation",
		"poison": "Poison", "burn": "Brûlure", "block_buffs": "Blocage des buffs",
		"turn_meter_reduce": "Réduction de la jauge de tour", "heal": "Soin", "shield": "Bouclier",
		"revive": "Résurrection", "cleanse": "Purification", "block_debuffs": "Blocage des debuffs",
		"speed_up": "Hausse de VIT", "increase_atk": "Hausse d'ATQ", "increase_def": "Hausse de DÉF",
		"turn_meter_fill": "Remplissage de la jauge de tour", "extra_turn": "Tour supplémentaire",
		"counterattack": "Contre-attaque",
	},
	"de": {
		"decrease_def": "VERT senken", "decrease_atk": "ANG senken", "decrease_spd": "GES senken",
		"weaken": "Schwächung", "stun": "Betäubung", "freeze": "Einfrieren", "provoke": "Provokation",
		"poison": "Gift", "burn": "Verbrennung", "block_buffs": "Buffs blockieren",
		"turn_meter_reduce": "Zugleiste senken", "heal": "Heilung", "shield": "Schild",
		"revive": "Wiederbeleben", "cleanse": "Reinigung", "block_debuffs": "Debuffs blockieren",
		"speed_up": "GES erhöhen", "increase_atk": "ANG erhöhen", "increase_def": "VERT erhöhen",
		"turn_meter_fill": "Zugleiste füllen", "extra_turn": "Extrazug", "counterattack": "Gegenangriff",
	},
}

// EffectLabel is effect key k's name for players in locale: the locale's
// label, else the English one, else k with spaces for underscores. Every
// effect key that reaches a player or an LLM goes through it.
func EffectLabel(k, locale string) string {
	if n := effectNames[locale][k]; n != "" {
		return n
	}
	if e, ok := EffectByKey(k); ok {
		return e.Label
	}
	return strings.ReplaceAll(k, "_", " ")
}

// wordNames are the players' names of the game's fixed words (affinities,
// roles, rarities) in the locales other than English, which uses the words
// themselves.
var wordNames = map[string]map[string]string{
	"fr": {
		"Magic": "Magie", "Force": "Force", "Spirit": "Esprit", "Void": "Néant",
		"Attack": "Attaque", "Defense": "Défense", "HP": "PV", "Support": "Soutien",
		"Common": "Commun", "Uncommon": "Peu commun", "Rare": "Rare", "Epic": "Épique", "Legendary": "Légendaire",
	},
	"de": {
		"Magic": "Magie", "Force": "Kraft", "Spirit": "Geist", "Void": "Leere",
		"Attack": "Angriff", "Defense": "Verteidigung", "HP": "LP", "Support": "Unterstützung",
		"Common": "Gewöhnlich", "Uncommon": "Ungewöhnlich", "Rare": "Selten", "Epic": "Episch", "Legendary": "Legendär",
	},
}

// WordLabel is the name for players in locale of one of the game's fixed
// words (an affinity, a role or a rarity, as the data writes it); ok is
// false for any other word, and the word itself is returned.
func WordLabel(w, locale string) (string, bool) {
	if n, ok := wordNames[locale][w]; ok {
		return n, true
	}
	return w, false
}
