package wiki

import (
	"fmt"
	"strings"
)

type mechanicsTopic struct {
	slug       string
	title      string
	sections   [][2]string // heading, text
	paraphrase string
}

func mechanicsTopics(ix *index) []mechanicsTopic {
	g, m := ix.gearName, ix.masteryName
	return []mechanicsTopic{
		{"turn-meter", "Turn Meter", [][2]string{
			{"How It Works", "Each champion's turn meter fills every tick by an amount proportional to its SPD. The first champion to reach 100% acts, then its meter resets to zero. A champion with 200 SPD acts twice as often as one with 100 SPD."},
			{"Changing It", "Turn Meter Boost skills fill allies' meters; Turn Meter Reduction skills drain enemies'. Many bosses are immune to the drain, such as the Fire Knight while its shield is up and the Iron Colossus."},
		}, "what decides which hero acts next, the bar that fills up to 100 percent each tick"},
		{"affinity-advantage", "Affinity Advantage", [][2]string{
			{"The Cycle", "Magic beats Force, Force beats Spirit, and Spirit beats Magic. Void stands outside the cycle and is neutral against every affinity."},
			{"Effects", "Hitting with advantage gives extra damage, more critical hits and better debuff landing. Hitting at a disadvantage produces weak hits that deal less damage and let debuffs fail more often."},
		}, "which element beats which, weak hits and the cycle"},
		{"accuracy-and-resistance", "Accuracy and Resistance", [][2]string{
			{"How It Works", "When a debuff would land, the attacker's ACC is compared with the target's RES. If RES is higher, the debuff may be resisted. Bosses on higher difficulties have very high RES."},
			{"Building ACC", fmt.Sprintf("Raise ACC with the %s set, substats on gear and the %s, %s and %s masteries.", g("precision"), m("fast-learner"), m("sniper"), m("eagle-eye"))},
		}, "why does the word resisted appear when my debuffs fail to land on bosses"},
		{"critical-hits", "Critical Hits", [][2]string{
			{"How It Works", "Every hit rolls against C.RATE. A critical hit multiplies damage by 100% plus C.DMG. C.RATE above 100% gives no extra benefit."},
			{"Building Crits", fmt.Sprintf("Use %s and %s, gloves with C.RATE or C.DMG main stats, and the %s and %s masteries.", g("keen-edge"), g("executioner"), m("keen-strike"), m("flawless-execution"))},
		}, "how does crit chance and crit damage multiply my hits"},
		{"buffs-and-debuffs", "Buffs and Debuffs", [][2]string{
			{"Buffs", "Buffs are positive effects on your side: Increase ATK, Increase DEF, Increase SPD, Shield, Counterattack and Block Debuffs. Each lasts a number of turns shown on its icon."},
			{"Debuffs", "Debuffs weaken enemies: Decrease DEF, Decrease ATK, Decrease SPD, Weaken, Poison, HP Burn, Stun, Freeze, Provoke and Block Buffs. Debuffs must pass an ACC vs RES check."},
			{"Limits", "A champion can hold at most ten buffs and ten debuffs. Block Buffs prevents new buffs; Cleanse removes all debuffs."},
		}, "list of positive and negative status effects and their ten slot limit"},
		{"masteries", "Masteries", [][2]string{
			{"Trees", "Masteries are split into Offense, Defense and Support trees with six tiers each. A champion can unlock nodes in at most two trees."},
			{"Costs", fmt.Sprintf("Nodes cost mastery scrolls; tier 6 nodes such as %s, %s and %s cost the most. Resetting masteries refunds all scrolls for a gem fee.", m("warmaster"), m("giant-slayer"), m("eagle-eye"))},
		}, "passive nodes bought with scrolls in six tiers"},
		{"gear-sets", "Gear Sets", [][2]string{
			{"Slots", "Every champion has six gear slots: weapon, helmet, shield, gloves, chest and boots. Weapon, helmet and shield have fixed main stats; gloves, chest and boots can roll any."},
			{"Set Bonuses", fmt.Sprintf("Two-piece sets such as %s, %s and %s stack up to three times; four-piece sets such as %s, %s and %s give one special effect.", g("swiftwind"), g("warlord"), g("vitality"), g("bloodfang"), g("aegis"), g("retaliation"))},
		}, "six slots weapon helmet shield gloves chest boots and how set bonuses stack"},
		{"energy", "Energy", [][2]string{
			{"How It Works", "Campaign areas, dungeons and raids cost energy per run. Energy regenerates one point every three minutes up to a cap that rises with player level."},
			{"Getting More", "Daily quests, player level-ups and Market refills restore energy. Campaign runs cost 4 to 8 energy, dungeon runs 8 to 16 and raids around 20 plus a raid key."},
		}, "stamina regeneration every three minutes and the cost per run"},
		{"skill-cooldowns", "Skill Cooldowns", [][2]string{
			{"How It Works", "The basic attack (skill 1) has no cooldown. Other skills wait a number of the champion's own turns after use before they can be used again."},
			{"Reducing Cooldowns", fmt.Sprintf("Skill books permanently shorten cooldowns. The %s and %s masteries can cut them during a fight.", m("cycle-of-violence"), m("timely-intervention"))},
		}, "skill books and how many turns before an ability is ready again"},
		{"speed-tuning", "Speed Tuning", [][2]string{
			{"Why", "A tuned team acts in a planned order every round, for example a Decrease DEF support first, then a Weaken champion, then the damage dealers."},
			{"How", fmt.Sprintf("Adjust SPD with boots, substats and the %s set until each champion is a little faster than the next in the order.", g("swiftwind"))},
		}, "make the support act before the nuker every round"},
		{"damage-over-time", "Damage Over Time", [][2]string{
			{"Poison", "Poison deals a share of the target's max HP each turn and stacks up to ten times, ideal against high-HP bosses like the Iron Colossus."},
			{"HP Burn", "HP Burn deals damage to the target and its neighbours each turn, does not stack, and ignores DEF. It melts the Frost Wyrm's ice armour."},
		}, "ticking damage each turn based on max health that ignores defence"},
		{"crowd-control", "Crowd Control", [][2]string{
			{"Effects", "Stun and Freeze skip the target's turn; Provoke forces it to basic-attack the provoker; Turn Meter Reduction delays its turn."},
			{"Bosses", "Most bosses are immune to Stun and Freeze. The Crimson Minotaur and Ember Witch are the notable bosses that can be stunned."},
		}, "effects that skip the enemy turn or force it to basic-attack the provoker"},
		{"healing-and-revive", "Healing and Revive", [][2]string{
			{"Healing", fmt.Sprintf("Healing restores health based on the healer's max HP. The %s set and the %s mastery increase healing done.", g("mender"), m("healing-hands"))},
			{"Revive", "Revive brings fallen allies back with part of their HP. Some bosses, such as the Dread Lich and the Hollow King, punish deaths, which makes revivers essential."},
		}, "restoring health and bringing fallen allies back"},
		{"shields", "Shields", [][2]string{
			{"How It Works", "A Shield absorbs damage up to its value before HP is lost, and disappears when broken or when it expires."},
			{"Where It Matters", fmt.Sprintf("Shields block the Storm Drake's chain lightning and the Abyssal Leviathan's tidal damage. The %s set places one every round.", g("aegis"))},
		}, "barrier that absorbs damage before health is lost"},
		{"boss-phases", "Boss Phases", [][2]string{
			{"How It Works", "Bosses change behaviour when their HP drops below thresholds. Each boss guide lists its phases with the HP percentage at which each starts."},
			{"Planning", "Save cooldowns for the phase change: most bosses become more dangerous in their last phase."},
		}, "bosses change behaviour at HP thresholds"},
		{"extra-turns", "Extra Turns", [][2]string{
			{"How It Works", "An Extra Turn lets a champion act again immediately without waiting for its turn meter. It usually triggers on a kill or a critical hit."},
			{"Uses", "Extra turns chain damage before the enemy responds and are the key to defeating the Shadow Twins in a single round."},
		}, "acting again immediately after a kill or critical hit"},
		{"rarity-and-ranks", "Rarity, Levels and Ranks", [][2]string{
			{"Rarity", "Champions come in five rarities: Common, Uncommon, Rare, Epic and Legendary. Higher rarities have higher base stats and more skills."},
			{"Levels and Ranks", "Each star rank caps the level (rank 1 at level 10 up to rank 6 at level 60). Ranking up uses food champions of the same rank."},
		}, "five rarities from common to legendary and star caps on levels"},
		{"champion-roles", "Champion Roles", [][2]string{
			{"The Four Roles", "Attack champions scale their damage from ATK, Defense champions from DEF, HP champions from HP, and Support champions buff, heal and debuff."},
			{"Team Balance", "A typical team has two damage dealers, one Defense or HP anchor and one or two supports."},
		}, "attack defense hp and support scaling stats"},
		{"raids", "Raids", [][2]string{
			{"Access", "Raids such as the Foundry of the Colossus, Drowned Cathedral, Oblivion Spire and Bone Throne cost energy plus a raid key."},
			{"Rewards", "Raids drop the best four-piece gear sets and the most mastery scrolls. Retreating before the boss dies refunds the key."},
		}, "end-game content that needs a key and drops the best four-piece sets"},
		{"campaign", "Campaign", [][2]string{
			{"Structure", "The campaign is split into areas such as the Whispering Woods, Sunken Coast and Brass Road, each with stages on four difficulties: Normal, Hard, Brutal and Nightmare."},
			{"Rewards", "Campaign stages give champion experience, silver and basic two-piece gear. Three-starring every stage of a chapter opens its reward chest."},
		}, "story areas with stages on four difficulties and chapter chests"},
		{"boss-immunities", "Boss Immunities and Weaknesses", [][2]string{
			{"Immunities", "Every boss ignores some effects. An effect a boss is immune to fails silently, so a champion whose kit relies on it loses value."},
			{"Weaknesses", "Each boss guide lists the effects it is weak to. Champions whose skills carry those effects, ideally with affinity advantage, are its recommended counters."},
		}, "effects that fail silently against certain enemies"},
		{"damage-and-defense", "Damage and Defense", [][2]string{
			{"Formula", "Damage scales with the attacker's ATK (or DEF or HP, depending on the skill) and is reduced by the target's DEF. Decrease DEF and Weaken are the two biggest damage multipliers."},
			{"Mitigation", fmt.Sprintf("Increase DEF, Shields and the %s and %s masteries reduce damage taken.", m("iron-skin"), m("stoneguard"))},
		}, "how armour reduces incoming damage and the two biggest multipliers"},
	}
}

func mechanicsDocs(ix *index) []Document {
	var docs []Document
	for _, t := range mechanicsTopics(ix) {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", t.title)
		for _, s := range t.sections {
			fmt.Fprintf(&b, "## %s\n\n%s\n\n", s[0], s[1])
		}
		docs = append(docs, newDoc(CategoryMechanics, t.slug, t.title, t.title, 0, b.String()))
	}
	return docs
}
