package wiki

import (
	"fmt"
	"strings"
)

type uxPage struct {
	screen     string
	title      string
	fields     string
	see        string
	use        []string
	tips       []string
	paraphrase string
}

func uxPages() []uxPage {
	return []uxPage{
		{
			"MainMenuPresenter", "Main Menu", "`PlayerLevel`",
			"The home screen. Your player level and energy bar sit at the top, the chat widget on the left, and big buttons lead to Battle, Champions, Market, Factions and the daily quest log. A red dot marks anything with an unclaimed reward.",
			[]string{"Tap Battle to open the campaign map, dungeons and raids.", "Tap Champions to open your roster.", "Open the daily quest log from the scroll icon to collect energy and raid keys."},
			[]string{"Claim the free energy refill in the Market once a day.", "Your player level raises the energy cap; higher levels unlock raids."},
			"where is the home screen with the battle button and the daily quest log",
		},
		{
			"ChampionFeatureModelsPresenter", "Champion Details", "`ChampionConfigId`, `Level`, `Stars`",
			"The detail page of one champion: a 3D model, the rarity frame, affinity icon, level and stars. Tabs show base stats (HP, ATK, DEF, SPD, C.RATE, C.DMG, RES, ACC), the skill list with cooldowns, the equipped gear and the mastery trees.",
			[]string{"Tap a skill icon to read its full description, cooldown and effects.", "Use the Level Up button to feed food champions or experience potions.", "Tap Rank Up when the champion is at max level to add a star.", "Open the Gear tab to equip artifacts, or the Masteries tab for the trees."},
			[]string{"Long-press a stat to see how much comes from gear, masteries and set bonuses.", "The lore button in the corner opens the champion's biography."},
			"which page shows a single hero's 3D model, stars, skill cooldowns and the rank up button",
		},
		{
			"ChampionCollectionPresenter", "Champion Collection", "`Filter.Faction`, `SelectedChampionId`",
			"Your whole roster as a grid of portraits. Each card shows rarity colour, affinity icon, level and stars. A filter bar at the top narrows the grid by faction, rarity, affinity and role, and a sort menu orders it by level, power or stat.",
			[]string{"Tap the funnel icon to filter by faction, rarity, affinity or role.", "Tap a portrait to select it and open its detail page.", "Use the lock icon to protect a champion from being used as food."},
			[]string{"Sort by SPD when you are building a speed-tuned team.", "The counter at the top shows how many slots your roster has left; buy more in the Market."},
			"how do I filter my roster grid of portraits by faction rarity and role and lock heroes",
		},
		{
			"BossBattlePresenter", "Boss Battle", "`BossConfigId`, `Phase`, `Team`",
			"The battle screen during a boss fight. The boss's HP bar, affinity and current phase sit at the top; your team's portraits with HP, turn meter and buffs/debuffs line the bottom. The turn order bar on the left shows who acts next.",
			[]string{"Tap a skill button, then a target, to act; skills on cooldown are greyed out.", "Toggle Auto to let the AI play, or speed up the animations with the x2 button.", "Tap the boss's HP bar to see its active buffs and which phase comes next."},
			[]string{"Watch the phase marker: most bosses change behaviour when their HP crosses a threshold.", "Pause with the top-right button to read a debuff's tooltip before acting."},
			"during a fight where do I see the turn order bar, the phase marker and toggle auto",
		},
		{
			"TeamSetupPresenter", "Team Setup", "`Slot.Champion.ConfigId`, `TargetBossId`",
			"The pre-battle screen where you pick up to five champions. The target boss's portrait and affinity appear on the right together with its weaknesses; empty slots are shown as outlines and the leader slot is marked with a crown.",
			[]string{"Drag a champion from the roster strip into a slot.", "Tap the crown to set the leader; the leader's aura applies to the whole team.", "Save the line-up as a preset to reuse it next time."},
			[]string{"Check the boss's weaknesses panel before choosing: champions with matching effects are highlighted.", "Mind affinity: a red arrow on a portrait means an affinity disadvantage against this boss."},
			"before a fight how do I drag heroes into slots, set the crown leader and save a preset line-up",
		},
		{
			"DungeonSelectPresenter", "Dungeon Select", "`DungeonConfigId`, `Stage`",
			"The dungeon list with a banner for each dungeon, its energy cost, the stage selector and the drop table. Stages you have cleared show a tick; the highest cleared stage is remembered.",
			[]string{"Pick a dungeon banner, then a stage number with the arrows.", "Check the Rewards panel for which gear sets drop there.", "Tap Multi-Battle to repeat a cleared stage automatically."},
			[]string{"Multi-Battle stops when your energy runs out or your inventory is full.", "The recommended power on each stage is a guide, not a guarantee."},
			"where do I pick a stage number and use multi-battle to repeat runs",
		},
		{
			"GearInventoryPresenter", "Gear Inventory", "`GearSetConfigId`, `Champion.ConfigId`",
			"Every piece of gear you own, grouped by slot: weapon, helmet, shield, gloves, chest and boots. Each piece shows its set icon, rank, rarity, main stat and substats. The right panel shows the selected champion's equipped set bonuses.",
			[]string{"Filter by set to find pieces of one set.", "Tap a piece, then Equip, to put it on the selected champion.", "Use Upgrade to raise a piece's level with silver; substats roll at levels 4, 8, 12 and 16."},
			[]string{"Set bonuses only count when the full number of pieces is equipped (2 or 4).", "Sell low-rank pieces you will never upgrade to free inventory space."},
			"where do I equip artifacts, upgrade pieces with silver and see substats and set bonuses",
		},
		{
			"FactionOverviewPresenter", "Faction Overview", "`FactionConfigId`",
			"A faction's banner, lore summary and homeland map, plus the list of its champions you own and those you are missing. A progress bar tracks faction crypt stages cleared.",
			[]string{"Tap a missing champion to see where to get it.", "Open Faction Crypt from the bottom button to fight with only this faction's champions."},
			[]string{"Faction crypts reward gear for champions of that faction only, so build one faction at a time."},
			"where can I see which heroes of a faction I am missing and open the faction crypt",
		},
		{
			"MarketPresenter", "Market", "`Offer.ChampionConfigId`, `Offer.Price`",
			"The shop. Rotating offers list a champion or item, its price in gems, silver or shards, and a timer until the offer refreshes. Tabs lead to energy refills, roster slots and the shard summon altar.",
			[]string{"Tap an offer to see the champion's details before buying.", "Use the refresh button (free once every hour) to roll new offers.", "Buy energy refills from the Energy tab when you are out."},
			[]string{"Offers of Epic and Legendary champions appear more often at higher player levels.", "Compare a champion's counters before spending gems on it."},
			"where do I spend gems, see the refresh timer on offers and buy energy refills",
		},
		{
			"MasteryTreePresenter", "Mastery Tree", "`ChampionConfigId`, `Tree`",
			"The three mastery trees (Offense, Defense, Support) of the selected champion, each with six tiers of nodes. Unlocked nodes glow; the scroll counter at the top shows how many mastery scrolls you have.",
			[]string{"Tap a node to read its effect, then Unlock to spend scrolls.", "Switch trees with the tabs; a champion can take nodes from up to two trees.", "Use Reset (costs gems) to refund all scrolls."},
			[]string{"Tier 6 nodes such as Warmaster and Unbreakable Will change how a champion plays; plan your path towards one.", "Mastery scrolls come from dungeon stages and raids."},
			"where do I spend scrolls to unlock nodes in the offense defense or support trees",
		},
		{
			"CampaignMapPresenter", "Campaign Map", "`DungeonConfigId`, `Chapter`",
			"The campaign as a world map of chapters and areas. Each area shows its stages as markers, its energy cost and the stars earned per stage; the current chapter is highlighted.",
			[]string{"Tap an area to zoom in, then a stage marker to start it.", "Switch difficulty (Normal, Hard, Brutal, Nightmare) with the toggle at the top.", "Use the chest icons to collect rewards for three-starring a chapter."},
			[]string{"Campaign stages are the cheapest way to level new champions.", "Three stars need every champion of your team to survive."},
			"where is the world map of chapters with stage markers and three-star chests",
		},
	}
}

func uxDocs() []Document {
	var docs []Document
	for _, p := range uxPages() {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", p.title)
		// Integration details are developer notes: the corpus keeps them out
		// of the index, so players never see them.
		fmt.Fprintf(&b, "```dev-notes\nScreen: %s. The game sends this screen with the fields %s.\n```\n\n", p.screen, p.fields)
		b.WriteString("## What You See\n\n" + p.see + "\n\n")
		b.WriteString("## How To Use It\n\n")
		for _, u := range p.use {
			fmt.Fprintf(&b, "- %s\n", u)
		}
		b.WriteString("\n## Tips\n\n")
		for _, t := range p.tips {
			fmt.Fprintf(&b, "- %s\n", t)
		}
		slug := strings.ToLower(p.screen)
		d := newDoc(CategoryUX, slug, p.title, p.screen, 0, b.String())
		docs = append(docs, d)
	}
	return docs
}
