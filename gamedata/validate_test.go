package gamedata

import (
	"strings"
	"testing"
)

func TestValidateAcceptsGenerated(t *testing.T) {
	if err := Validate(Generate(DefaultSeed)); err != nil {
		t.Fatal(err)
	}
}

func TestValidateCatchesBrokenData(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(g *Game)
		want   string
	}{
		{"champion faction", func(g *Game) { g.Champions[3].FactionID = 150 }, "faction_id 150 does not resolve"},
		{"champion strong_against", func(g *Game) { g.Champions[2].StrongAgainst = append(g.Champions[2].StrongAgainst, 5999) }, "strong_against boss 5999"},
		{"boss dungeon", func(g *Game) { g.Bosses[0].DungeonID = 7999 }, "dungeon_id 7999 does not resolve"},
		{"boss counters", func(g *Game) { g.Bosses[1].RecommendedCounters[0] = 1999 }, "recommended counter 1999 does not resolve"},
		{"dungeon boss", func(g *Game) { g.Dungeons[0].BossID = 5998 }, "boss_id 5998 does not resolve"},
		{"dungeon boss mismatch", func(g *Game) { g.Dungeons[0].BossID = g.Bosses[1].ID }, "lives in dungeon"},
		{"dungeon drops", func(g *Game) { g.Dungeons[2].Drops = append(g.Dungeons[2].Drops, 1001) }, "drop 1001 is not a gear set"},
		{"duplicate id", func(g *Game) { g.Champions[5].ID = g.Champions[4].ID }, "already used"},
		{"id across kinds", func(g *Game) {
			g.Factions = append(g.Factions, Faction{ID: 101, Name: "Other", Names: Names{"en": "Other"}})
		}, "already used"},
		{"id out of range", func(g *Game) { g.Champions[7].ID = 5050 }, "out of range"},
		{"gear id out of range", func(g *Game) { g.GearSets[0].ID = 9001 }, "out of range"},
		{"empty name", func(g *Game) { g.Bosses[2].Name = " " }, "empty name"},
		{"duplicate name", func(g *Game) { g.Champions[9].Name = "kaelith" }, "duplicate name"},
		{"missing en name", func(g *Game) { g.Masteries[0].Names = Names{"fr": "x"} }, "missing en display name"},
		{"unknown locale", func(g *Game) { g.GearSets[1].Names = Names{"en": "a", "xx": "b"} }, "unknown locale"},
		{"bad rarity", func(g *Game) { g.Champions[1].Rarity = "Mythic" }, "rarity"},
		{"bad affinity", func(g *Game) { g.Bosses[3].Affinity = "Fire" }, "affinity"},
		{"bad role", func(g *Game) { g.Champions[1].Role = "Healer" }, "role"},
		{"bad kind", func(g *Game) { g.Dungeons[1].Kind = "arena" }, "kind"},
		{"bad tree", func(g *Game) { g.Masteries[1].Tree = "Magic" }, "tree"},
		{"unknown effect", func(g *Game) { g.Champions[0].Skills[0].Effects = []string{"explode"} }, "unknown effect"},
		{"boss unknown weakness", func(g *Game) { g.Bosses[0].Weaknesses = []string{"tickle"} }, "unknown effect"},
		{"no skills", func(g *Game) { g.Champions[6].Skills = nil }, "no skills"},
		{"no phases", func(g *Game) { g.Bosses[4].Phases = nil }, "no phases"},
		{"gear pieces", func(g *Game) { g.GearSets[0].Pieces = 3 }, "pieces 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Generate(DefaultSeed)
			tt.mutate(&g)
			err := Validate(g)
			if err == nil {
				t.Fatal("Validate accepted broken data")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}
