package wiki

import (
	"fmt"
	"strings"
	"time"

	"github.com/gameassist/gameassist/gamedata"
)

type patch struct {
	version    string
	date       string
	name       string
	highlights string
	content    []string
	balance    []int // champion indexes whose skills were tuned
	fixes      []string
	paraphrase string
}

func patches(ix *index) []patch {
	bn := ix.bossName
	return []patch{
		{
			"1.0.0", "2025-03-04", "Launch", "The game launches with the campaign, the first dungeons and " + fmt.Sprint(len(ix.g.Champions)-20) + " champions.",
			[]string{"Campaign areas Whispering Woods, Sunken Coast and Brass Road.", "Dungeons Fire Knight's Castle, Glacier Spire, Silkweb Caverns and Quarry of Echoes.", "Offense, Defense and Support mastery trees up to tier 5."},
			nil,
			[]string{"None: this is the first release."},
			"first release day of the game in March 2025",
		},
		{
			"1.1.0", "2025-05-13", "Storms and Bones", "Two new dungeons and the first balance pass.",
			[]string{"New dungeon Thunderhead Aerie with the " + bn("storm-drake") + ".", "New dungeon Crypt of the Hollow Crown with the " + bn("hollow-king") + ".", "Multi-Battle added to the Dungeon Select screen to repeat cleared stages."},
			[]int{7, 19, 33},
			[]string{"Fixed the Champion Collection filter forgetting the selected faction.", "Fixed energy refills not updating the energy bar until a restart."},
			"May update that added multi-battle to repeat cleared stages",
		},
		{
			"1.2.0", "2025-07-22", "Tides of War", "The first raid arrives, along with the Tideborn Clans' new champions.",
			[]string{"New raid Drowned Cathedral with the " + bn("abyssal-leviathan") + ".", "Raid keys added to daily quests.", "New gear sets Aegis and Frenzy."},
			[]int{12, 41, 58, 77},
			[]string{"Fixed shields not absorbing damage over time.", "Fixed the Market refresh timer showing negative values."},
			"summer update that added the first raid and raid keys",
		},
		{
			"1.3.0", "2025-09-30", "Twin Shadows", "A new dungeon built around killing two bosses in one round, and tier 6 masteries.",
			[]string{"New dungeon Twilight Maze with the " + bn("shadow-twins") + ".", "New dungeons Rotting Marsh and Cinder Library.", "Tier 6 mastery nodes, including Warmaster, Giant Slayer, Stoneguard and Eagle Eye."},
			[]int{3, 26, 64, 90, 101},
			[]string{"Fixed Extra Turn not triggering on critical hits from multi-hit skills.", "Fixed the Mastery Tree reset refunding one scroll too few."},
			"September update that added tier 6 mastery nodes",
		},
		{
			"1.4.0", "2025-12-09", "Into Oblivion", "The hardest raid yet and a rework of the Iron Colossus.",
			[]string{"New raid Oblivion Spire with the " + bn("void-seraph") + ".", "New raid Foundry of the Colossus; the Iron Colossus gains its Final Rivet phase.", "Team Setup now highlights champions that match the target boss's weaknesses."},
			[]int{15, 48, 72, 119},
			[]string{"Fixed Provoke being removed by Cleanse on the provoker's own team.", "Fixed the Boss Battle phase marker showing the wrong phase after a revive."},
			"December update where team setup highlights champions matching boss weaknesses",
		},
		{
			"1.5.0", "2026-02-17", "The Bone Throne", "A necromantic raid, two new gear sets and quality-of-life changes.",
			[]string{"New raid Bone Throne with the " + bn("dread-lich") + ".", "New gear sets Cursebreaker and Everbloom.", "Campaign chapters Elderroot Grove, Sunscour Pit and Bloodhorn Labyrinth."},
			[]int{0, 55, 88, 130, 145},
			[]string{"Fixed Gear Inventory sorting by set ignoring four-piece sets.", "Fixed the chat widget closing when switching screens."},
			"february update with the necromancer raid and new equipment sets",
		},
	}
}

func patchDocs(ix *index) []Document {
	var docs []Document
	for _, p := range patches(ix) {
		var b strings.Builder
		title := fmt.Sprintf("Patch %s: %s", p.version, p.name)
		fmt.Fprintf(&b, "# %s\n\nVersion %s, released %s (%s).\n\n", title, p.version, p.date, monthYear(p.date))
		b.WriteString("## Highlights\n\n" + p.highlights + "\n\n")
		b.WriteString("## New Content\n\n")
		for _, c := range p.content {
			fmt.Fprintf(&b, "- %s\n", c)
		}
		b.WriteString("\n## Balance Changes\n\n")
		if len(p.balance) == 0 {
			b.WriteString("- None.\n")
		}
		for _, i := range p.balance {
			if i >= len(ix.g.Champions) {
				continue
			}
			fmt.Fprintf(&b, "- %s\n", balanceLine(ix.g.Champions[i]))
		}
		b.WriteString("\n## Bug Fixes\n\n")
		for _, f := range p.fixes {
			fmt.Fprintf(&b, "- %s\n", f)
		}
		slug := strings.ReplaceAll(p.version, ".", "-")
		docs = append(docs, newDoc(CategoryPatchNotes, slug, title, "", 0, b.String()))
	}
	return docs
}

// balanceLine describes a change that led to the champion's current data.
func balanceLine(c gamedata.Champion) string {
	for i := len(c.Skills) - 1; i >= 0; i-- {
		s := c.Skills[i]
		if s.Cooldown > 0 {
			return fmt.Sprintf("%s: %s cooldown reduced from %d to %d turns.", c.Name, s.Name, s.Cooldown+1, s.Cooldown)
		}
	}
	return fmt.Sprintf("%s: base SPD raised to %d.", c.Name, c.Stats.SPD)
}

// monthYear turns "2025-05-13" into "May 2025".
func monthYear(date string) string {
	t, err := time.Parse("2006-01-02", date)
	if err != nil {
		return date
	}
	return t.Format("January 2006")
}
