package wiki

import (
	"fmt"
	"strings"
)

type faqEntry struct {
	slug       string
	question   string
	answer     string
	paraphrase string // empty: not used in the evaluation set
}

func faqEntries(ix *index) []faqEntry {
	g, m, bn := ix.gearName, ix.masteryName, ix.bossName
	return []faqEntry{
		{
			"increase-champion-speed", "How do I increase my champion's speed?",
			fmt.Sprintf("A champion that acts too late in the turn order needs more SPD. Equip the %s set (SPD +12%% per two pieces) and put SPD main stats on boots. The %s and %s masteries add more SPD, and supports with Increase SPD buffs raise the whole team's speed during a fight.", g("swiftwind"), m("pinpoint-accuracy"), m("arcane-celerity")),
			"my hero acts too late in the turn order, how do I make it faster",
		},
		{
			"best-gear-for-attackers", "What is the best gear for damage dealers?",
			fmt.Sprintf("To hit harder, damage dealers should equip %s for ATK first, then add %s or %s depending on critical rate. %s adds lifesteal for long fights. Aim for a C.RATE close to 100%% before stacking C.DMG.", g("warlord"), g("keen-edge"), g("executioner"), g("bloodfang")),
			"what should my nukers equip to hit harder",
		},
		{
			"what-is-affinity", "What does affinity do?",
			"Affinity works like rock-paper-scissors. Every champion and boss has an affinity: Magic, Force, Spirit or Void. Magic beats Force, Force beats Spirit and Spirit beats Magic. Attacking with advantage deals more damage and lands more debuffs; attacking at a disadvantage causes weak hits. Void is neutral to all.",
			"rock paper scissors advantage between heroes",
		},
		{
			"how-to-beat-fire-knight", "How do I beat the Fire Knight?",
			fmt.Sprintf("Break the Shield of Embers with multi-hit skills, then keep Decrease DEF and Decrease SPD on the %s. Bring a cleanser or healer for the burns of the second phase, and do not rely on stuns: it is immune.", bn("fire-knight")),
			"",
		},
		{
			"where-to-farm-gear", "Where should I farm gear?",
			"Each dungeon drops specific gear sets; the Rewards panel of the Dungeon Select screen lists them. Fire Knight's Castle, Glacier Spire and Silkweb Caverns are the most popular early farms, while raids drop the strongest four-piece sets.",
			"which place drops the equipment I need",
		},
		{
			"what-are-masteries", "What are masteries and how do I unlock them?",
			fmt.Sprintf("Masteries are passive bonuses in three trees: Offense, Defense and Support. Each node costs mastery scrolls, earned in dungeons and raids. Tier 6 nodes such as %s and %s are the most powerful.", m("warmaster"), m("unbreakable-will")),
			"what are scrolls for and how do passive skill trees work",
		},
		{
			"energy-refill", "How do I get more energy?",
			"If you ran out of energy (stamina), wait: energy regenerates one point every three minutes up to your cap, which grows with player level. You can also collect energy from daily quests and buy refills in the Market with gems.",
			"I ran out of stamina to play stages, how do I get it back",
		},
		{
			"rank-up-champion", "How do I rank up a champion?",
			"A champion at max level for its star rank can be ranked up on the Champion Details screen by sacrificing champions of the same star rank as food. Each rank raises the max level by 10 and boosts base stats.",
			"how do I add a star to a hero at max level using food",
		},
		{
			"what-is-turn-meter", "What is the turn meter?",
			"Every champion has a turn meter that fills based on SPD. When it reaches 100% the champion acts. Skills can fill allies' turn meters or drain enemies' turn meters to change who acts next.",
			"",
		},
		{
			"accuracy-vs-resistance", "Why do my debuffs keep getting resisted?",
			fmt.Sprintf("A debuff lands only if your ACC beats the target's RES. Bosses have high RES, so build ACC with the %s set and the %s and %s masteries.", g("precision"), m("fast-learner"), m("eagle-eye")),
			"the enemy keeps saying resisted when I try to place effects on it",
		},
		{
			"best-healers", "Who are good healers?",
			"Healers restore health to the team. Look for champions with the healer tag in the Champion Collection: their skills carry the Heal effect. Pair a healer with the Mender set and the Healing Hands mastery for the best results.",
			"which support heroes restore health to the team",
		},
		{
			"what-is-provoke", "What does Provoke do?",
			"Provoke makes the enemy attack your tank instead of your damage dealers: it forces the target to use its basic attack on the champion that placed it. It protects fragile damage dealers, and it is a key counter to the Crimson Minotaur and the Sand Tyrant.",
			"how do I make the enemy attack my tank instead of my damage dealers",
		},
		{
			"best-team-for-beginners", "What team should a beginner build?",
			"Starting advice for new players: build a balanced team with one Decrease DEF champion, one healer, one tank with Provoke or Shield and two damage dealers. Clear the Whispering Woods and Sunken Coast campaign areas first to level them.",
			"starting advice for new players",
		},
		{
			"how-to-beat-spider-queen", "How do I beat the Spider Queen?",
			fmt.Sprintf("Kill her spiderlings with area attacks before they explode into poison, and drain their turn meters. Decrease ATK and healing keep your team alive; the %s cannot be stunned or provoked.", bn("spider-queen")),
			"",
		},
		{
			"what-are-raid-keys", "What are raid keys?",
			"A raid key is the ticket needed to enter the hardest fights. Raids such as the Foundry of the Colossus, Drowned Cathedral, Oblivion Spire and Bone Throne need a raid key as well as energy. You earn keys from daily quests; retreating before the boss falls refunds the key.",
			"what is the ticket needed to enter the hardest fights",
		},
		{
			"poison-vs-burn", "Should I use Poison or HP Burn?",
			"Both deal damage over time. Poison can stack and scales with the target's max HP, which is great against huge bosses. HP Burn cannot stack but can spread to neighbours and ignores DEF. Check the boss guide: the Plague Mother is immune to poison, the Ember Witch to burn.",
			"does poison stack and can burn spread to neighbours",
		},
		{
			"critical-rate-cap", "What C.RATE should I aim for?",
			fmt.Sprintf("Crit chance (C.RATE) is what damage dealers need most: aim for 100%% C.RATE so every hit crits. Combine the %s set, %s and %s main stats on gloves.", g("keen-edge"), m("keen-strike"), "C.RATE"),
			"how much crit chance do damage dealers need",
		},
		{
			"counter-hollow-king", "Who counters the Hollow King?",
			fmt.Sprintf("Revivers, cleansers and Block Debuffs champions. The %s's curse kills low-HP champions and turns them into courtiers, so the Recommended Team section of its guide lists champions that bring Revive and Cleanse.", bn("hollow-king")),
			"",
		},
		{
			"free-roster-space", "How do I get more roster space?",
			"When your champion list is full, make room: buy extra roster slots in the Market with gems, or use unwanted champions as food when ranking up. Locked champions are never offered as food.",
			"my champion list is full, how do I make room",
		},
		{
			"sell-gear", "Should I sell gear?",
			"Sell low-rank, low-rarity pieces you will never upgrade. Keep anything with SPD substats; speed is the most valuable stat in the game.",
			"what should I do with useless equipment pieces",
		},
		{
			"what-is-void", "Why are Void champions special?",
			"Void is the neutral affinity. Void champions have no affinity advantage or disadvantage, so they never suffer weak hits. They are a safe choice against any boss, including the Void Seraph and the Shadow Twins.",
			"is the neutral affinity a safe choice against any boss",
		},
		{
			"extra-turn-explained", "How do extra turns work?",
			"An Extra Turn lets a champion act again immediately, twice in a row. Skills with Extra Turn usually trigger on a kill or a critical hit. They are the key to killing both Shadow Twins in one round.",
			"skills that let a hero act twice in a row",
		},
		{
			"when-to-use-auto", "When should I use auto battle?",
			"Auto lets the AI fight for you. Use Auto and Multi-Battle on stages your team clears reliably, such as lower dungeon stages and campaign areas. Play bosses like the Iron Colossus or Void Seraph manually until you know their phases.",
			"can the AI fight for me when farming",
		},
		{
			"how-to-get-legendary", "How do I get Legendary champions?",
			"Legendary champions come from shard summons, rare Market offers and events. Check a champion's counters before spending on it; Kaelith is a popular Legendary Magic attacker.",
			"where do the rarest heroes come from",
		},
		{
			"shield-vs-heal", "Are shields better than heals?",
			"A shield is a barrier that protects your team before damage happens; heals restore health afterwards. Against bursty bosses like the Abyssal Leviathan shields are better; against steady damage like the Fire Knight's burns, heals and cleanses matter more.",
			"protect my team with a barrier or restore health",
		},
		{
			"what-is-weaken", "What does Weaken do?",
			"Weaken makes the target take 15% or 25% more damage from all sources. It stacks with Decrease DEF, which is why the Iron Colossus and the Dread Lich melt under both.",
			"debuff that makes the target take more damage",
		},
		{
			"level-up-fast", "How do I level champions quickly?",
			"Farm the cheapest campaign areas such as the Whispering Woods with one strong carry and three champions to level. Experience potions from dungeons help too.",
			"fastest way to gain experience for heroes",
		},
		{
			"gear-set-bonus-pieces", "How many pieces does a set bonus need?",
			fmt.Sprintf("Two-piece sets like %s and %s give their bonus for every two pieces, so three pairs stack. Four-piece sets like %s and %s need four pieces for one bonus.", g("swiftwind"), g("vitality"), g("aegis"), g("bloodfang")),
			"how many artifacts of the same set do I need for the bonus",
		},
		{
			"counter-frost-wyrm", "What is the Frost Wyrm weak to?",
			fmt.Sprintf("HP Burn melts the %s's ice armour, Decrease ATK softens its blizzard, and Cleanse or Block Debuffs protect against its Freeze.", bn("frost-wyrm")),
			"",
		},
		{
			"what-is-leader", "What does the team leader do?",
			"The leader is the champion in the crown slot of the Team Setup screen. Its aura boosts a stat of the whole team, for example SPD or RES.",
			"what is the crown slot in a line-up for",
		},
		{
			"faction-crypts", "What are faction crypts?",
			"Faction crypts are stages that only accept champions of one faction. They are opened from the Faction Overview screen and reward gear for that faction.",
			"dungeon where only heroes of one faction can fight",
		},
		{
			"best-set-for-tanks", "What gear should a tank use?",
			fmt.Sprintf("Tanks hold the front line and take the hits. Defense champions use %s with %s or %s; HP champions prefer %s with %s. Add %s if enemies keep stunning your tank.", g("ironbark"), g("retaliation"), g("aegis"), g("vitality"), g("everbloom"), g("runeward")),
			"equipment for the front line hero that takes hits",
		},
		{
			"revive-explained", "How does Revive work?",
			"Revive brings a dead ally back to life during a battle with a share of its HP. It is vital against the Hollow King, whose curse raises fallen champions as enemies, and against the Void Seraph's Unmaking.",
			"bring a dead hero back to life during a battle",
		},
		{
			"cooldowns", "How do skill cooldowns work?",
			"Each skill except the basic attack has a cooldown in turns. After use, the skill is unavailable for that many of the champion's own turns. Skill books reduce cooldowns permanently; the Cycle of Violence mastery can reset them.",
			"why is my skill greyed out after I use it",
		},
		{
			"stun-immune-bosses", "Which bosses are immune to stun?",
			"Most bosses resist crowd control and cannot be stunned at all. The Fire Knight, Stone Golem, Storm Drake, Hollow King, Iron Colossus, Abyssal Leviathan, Shadow Twins, Spider Queen, Void Seraph and Dread Lich are all immune to Stun. The Ember Witch and Crimson Minotaur can be stunned.",
			"which bosses cannot be stunned at all",
		},
		{
			"compare-champions", "How do I compare two champions?",
			"Put them side by side: ask the assistant to compare them by name, or open both on the Champion Details screen and check base stats, skills and the bosses they counter.",
			"put two heroes side by side",
		},
		{
			"what-is-decrease-def", "Why is Decrease DEF so important?",
			"Everyone wants the defence down debuff because Decrease DEF lowers the target's defence by up to 60%, which roughly doubles the damage your team deals. Nearly every boss guide lists it as a weakness, including the Fire Knight, Stone Golem and Dread Lich.",
			"why does everyone want the defence down debuff",
		},
		{
			"what-is-patch-notes", "Where can I read what changed in the latest update?",
			"Every update comes with patch notes listing new content, balance changes and bug fixes. The newest version is 1.5.0, which added the Bone Throne raid and the Dread Lich.",
			"changelog of the newest version",
		},
		{
			"speed-tuning", "What is speed tuning?",
			"Speed tuning means you arrange the order your team acts by adjusting each champion's speed stat, setting each champion's SPD so the team acts in a chosen order, for example a Decrease DEF champion before the damage dealers. Tuned teams are essential for the Shadow Twins and the Iron Colossus.",
			"arrange the order my heroes act by adjusting their speed stat",
		},
		{
			"daily-quests", "What do daily quests give?",
			"The daily task list (daily quests) rewards energy, silver, mastery scrolls and raid keys. Open them from the scroll icon on the Main Menu.",
			"what rewards come from the daily task list",
		},
		{
			"spend-gems", "What should I spend gems on?",
			"Gems are the premium currency. The best use of them is roster slots and energy refills first, then Market offers of champions that counter the bosses you are stuck on.",
			"best use of premium currency",
		},
		{
			"counter-storm-drake", "How do I keep the Storm Drake from acting so often?",
			fmt.Sprintf("Slow it with Decrease SPD and drain its turn meter, and keep Shields up so its chain lightning cannot jump. The %s cannot be provoked.", bn("storm-drake")),
			"",
		},
	}
}

func faqDocs(ix *index) []Document {
	var docs []Document
	for _, e := range faqEntries(ix) {
		body := fmt.Sprintf("# %s\n\n## Answer\n\n%s\n", e.question, e.answer)
		docs = append(docs, newDoc(CategoryFAQ, e.slug, e.question, "", 0, strings.TrimSpace(body)))
	}
	return docs
}
