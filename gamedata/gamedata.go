// Package gamedata defines the sample game's content (champions, factions,
// bosses, dungeons, gear sets, masteries) as it is stored in data/game.json,
// generated deterministically, loaded into the GCS database and turned into
// RAG documents.
package gamedata

// Locales returns the display-name locales every entity carries; English,
// the first, is the fallback.
func Locales() []string { return []string{"en", "fr", "de"} }

// Names maps a locale ("en", "fr", "de") to a display name.
type Names map[string]string

// Stats are a champion's base stats.
type Stats struct {
	HP    int `json:"hp"`
	ATK   int `json:"atk"`
	DEF   int `json:"def"`
	SPD   int `json:"spd"`
	CRate int `json:"c_rate"` // percent
	CDmg  int `json:"c_dmg"`  // percent
	RES   int `json:"res"`
	ACC   int `json:"acc"`
}

// Skill is one champion skill.
type Skill struct {
	Slot        int      `json:"slot"` // 1..4
	Name        string   `json:"name"`
	Cooldown    int      `json:"cooldown"` // turns; 0 = default attack
	Description string   `json:"description"`
	Effects     []string `json:"effects,omitempty"` // e.g. "decrease_def", "stun", "heal"
}

// Champion is a playable character.
type Champion struct {
	ID            int      `json:"id"` // config id, 1001..1999
	Key           string   `json:"key"`
	Name          string   `json:"name"`
	Names         Names    `json:"names"`
	FactionID     int      `json:"faction_id"`
	Rarity        string   `json:"rarity"`   // Common, Uncommon, Rare, Epic, Legendary
	Affinity      string   `json:"affinity"` // Magic, Force, Spirit, Void
	Role          string   `json:"role"`     // Attack, Defense, HP, Support
	Stats         Stats    `json:"stats"`
	Skills        []Skill  `json:"skills"`
	Lore          string   `json:"lore"`
	StrongAgainst []int    `json:"strong_against"` // boss ids
	Tags          []string `json:"tags,omitempty"`
}

// Faction groups champions.
type Faction struct {
	ID          int    `json:"id"` // 101..199
	Key         string `json:"key"`
	Name        string `json:"name"`
	Names       Names  `json:"names"`
	Alignment   string `json:"alignment"`
	Homeland    string `json:"homeland"`
	Description string `json:"description"`
}

// BossPhase is one phase of a boss fight.
type BossPhase struct {
	Number      int    `json:"number"`
	Name        string `json:"name"`
	HPThreshold int    `json:"hp_threshold"` // percent of HP at which the phase starts
	Description string `json:"description"`
}

// Boss is a boss fight.
type Boss struct {
	ID                  int         `json:"id"` // 5001..5999
	Key                 string      `json:"key"`
	Name                string      `json:"name"`
	Names               Names       `json:"names"`
	Affinity            string      `json:"affinity"`
	DungeonID           int         `json:"dungeon_id"`
	Difficulty          string      `json:"difficulty"`
	HP                  int         `json:"hp"`
	Phases              []BossPhase `json:"phases"`
	Mechanics           []string    `json:"mechanics"`
	Weaknesses          []string    `json:"weaknesses"` // effects that work well, e.g. "decrease_def"
	Immunities          []string    `json:"immunities"`
	RecommendedCounters []int       `json:"recommended_counters"` // champion ids
	Description         string      `json:"description"`
}

// Dungeon is a dungeon or an area of the campaign.
type Dungeon struct {
	ID          int    `json:"id"` // 7001..7999
	Key         string `json:"key"`
	Name        string `json:"name"`
	Names       Names  `json:"names"`
	Kind        string `json:"kind"` // dungeon, campaign, raid
	Stages      int    `json:"stages"`
	EnergyCost  int    `json:"energy_cost"`
	BossID      int    `json:"boss_id,omitempty"`
	Drops       []int  `json:"drops"` // gear set ids
	Description string `json:"description"`
}

// GearSet is a set of equipment pieces with a set bonus.
type GearSet struct {
	ID          int    `json:"id"` // 8001..8999
	Key         string `json:"key"`
	Name        string `json:"name"`
	Names       Names  `json:"names"`
	Pieces      int    `json:"pieces"`
	Bonus       string `json:"bonus"`
	StatBonus   string `json:"stat_bonus"` // e.g. "ATK +15%"
	BestFor     string `json:"best_for"`   // role
	Description string `json:"description"`
}

// Mastery is a node of a mastery tree.
type Mastery struct {
	ID          int    `json:"id"` // 9001..9999
	Key         string `json:"key"`
	Name        string `json:"name"`
	Names       Names  `json:"names"`
	Tree        string `json:"tree"` // Offense, Defense, Support
	Tier        int    `json:"tier"`
	Description string `json:"description"`
}

// Game is the whole sample game, as in data/game.json. Ids are unique across
// all entity kinds, so any id can be translated to a display name.
type Game struct {
	Version   string     `json:"version"`
	Seed      int64      `json:"seed"`
	Factions  []Faction  `json:"factions"`
	Champions []Champion `json:"champions"`
	Bosses    []Boss     `json:"bosses"`
	Dungeons  []Dungeon  `json:"dungeons"`
	GearSets  []GearSet  `json:"gear_sets"`
	Masteries []Mastery  `json:"masteries"`
}
