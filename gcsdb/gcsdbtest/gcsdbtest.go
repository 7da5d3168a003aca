// Package gcsdbtest gives tests a small, fixed game and a real GCS database
// built from it under the test's temporary directory, so every package that
// reads GCS tests against SQLite and not a fake.
package gcsdbtest

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gcsdb"
)

// Game returns a small game: two factions, five champions, two bosses, two
// dungeons, three gear sets and two masteries, with French and German names
// (one with non-ASCII letters).
func Game() gamedata.Game {
	names := func(en, fr, de string) gamedata.Names { return gamedata.Names{"en": en, "fr": fr, "de": de} }
	return gamedata.Game{
		Version: "test-1",
		Seed:    1,
		Factions: []gamedata.Faction{
			{
				ID: 101, Key: "sunguard", Name: "Sunguard", Names: names("Sunguard", "Garde Solaire", "Sonnenwacht"),
				Alignment: "Order", Homeland: "Aurelia", Description: "Knights of the dawn.",
			},
			{
				ID: 102, Key: "hollow", Name: "Hollow Court", Names: names("Hollow Court", "Cour Creuse", "Hohler Hof"),
				Alignment: "Chaos", Homeland: "Umbral Marsh", Description: "Nobles of the drowned city.",
			},
		},
		Champions: []gamedata.Champion{
			{
				ID: 1001, Key: "kaelith", Name: "Kaelith", Names: names("Kaelith", "Kaelith", "Kaelith"), FactionID: 101,
				Rarity: "Legendary", Affinity: "Force", Role: "Attack",
				Stats: gamedata.Stats{HP: 15000, ATK: 1500, DEF: 900, SPD: 105, CRate: 20, CDmg: 60, RES: 30, ACC: 10},
				Skills: []gamedata.Skill{
					{Slot: 1, Name: "Dawn Strike", Cooldown: 0, Description: "Attacks one enemy.", Effects: []string{"decrease_def"}},
					{Slot: 2, Name: "Solar Flare", Cooldown: 3, Description: "Attacks all enemies.", Effects: []string{"stun", "decrease_def"}},
				},
				Lore: "A knight who never sleeps.", StrongAgainst: []int{5001}, Tags: []string{"nuker"},
			},
			{
				ID: 1002, Key: "mirelle", Name: "Mirelle", Names: names("Mirelle", "Mirelle", "Mirelle"), FactionID: 101,
				Rarity: "Epic", Affinity: "Magic", Role: "Support",
				Stats: gamedata.Stats{HP: 17000, ATK: 900, DEF: 1100, SPD: 112, CRate: 15, CDmg: 50, RES: 60, ACC: 40},
				Skills: []gamedata.Skill{
					{Slot: 1, Name: "Soft Light", Description: "Attacks one enemy.", Effects: []string{}},
					{Slot: 2, Name: "Mending Hymn", Cooldown: 4, Description: "Heals all allies.", Effects: []string{"heal"}},
				},
				Lore: "A healer of the dawn.", Tags: []string{"healer"},
			},
			{
				ID: 1003, Key: "eloise", Name: "Éloïse", Names: names("Éloïse", "Éloïse la Brave", "Elöise"), FactionID: 102,
				Rarity: "Rare", Affinity: "Spirit", Role: "Defense",
				Stats: gamedata.Stats{HP: 19000, ATK: 800, DEF: 1400, SPD: 98, CRate: 15, CDmg: 50, RES: 45, ACC: 0},
				Skills: []gamedata.Skill{
					{Slot: 1, Name: "Bulwark", Description: "Attacks one enemy.", Effects: []string{"provoke"}},
				},
				Lore: "Shield of the court.", StrongAgainst: []int{5002},
			},
			{
				ID: 1004, Key: "grimvar", Name: "Grimvar", Names: names("Grimvar", "Grimvar", "Grimvar"), FactionID: 102,
				Rarity: "Epic", Affinity: "Void", Role: "Attack",
				Stats: gamedata.Stats{HP: 14000, ATK: 1600, DEF: 800, SPD: 101, CRate: 25, CDmg: 70, RES: 20, ACC: 20},
				Skills: []gamedata.Skill{
					{Slot: 1, Name: "Hollow Bite", Description: "Attacks one enemy.", Effects: []string{"poison"}},
					{Slot: 2, Name: "Night Tide", Cooldown: 4, Description: "Attacks all enemies.", Effects: []string{"decrease_atk"}},
				},
				Lore: "A hunter of the marsh.",
			},
			{
				ID: 1005, Key: "tamsin", Name: "Tamsin", Names: names("Tamsin", "Tamsin", "Tamsin"), FactionID: 101,
				Rarity: "Common", Affinity: "Magic", Role: "HP",
				Stats:  gamedata.Stats{HP: 16000, ATK: 700, DEF: 900, SPD: 95, CRate: 15, CDmg: 50, RES: 30, ACC: 0},
				Skills: []gamedata.Skill{{Slot: 1, Name: "Poke", Description: "Attacks one enemy."}},
				Lore:   "A squire.",
			},
		},
		Bosses: []gamedata.Boss{
			{
				ID: 5001, Key: "drowned_king", Name: "Drowned King", Names: names("Drowned King", "Roi Noyé", "Ertrunkener König"),
				Affinity: "Magic", DungeonID: 7001, Difficulty: "Hard", HP: 2000000,
				Phases: []gamedata.BossPhase{
					{Number: 1, Name: "Tide", HPThreshold: 100, Description: "Summons waves."},
					{Number: 2, Name: "Undertow", HPThreshold: 50, Description: "Drains turn meter."},
				},
				Mechanics:  []string{"Cleanses debuffs every 3 turns", "Immune to stun in phase 2"},
				Weaknesses: []string{"decrease_def", "poison"}, Immunities: []string{"stun"},
				RecommendedCounters: []int{1004, 1001}, Description: "The king beneath the marsh.",
			},
			{
				ID: 5002, Key: "ember_wyrm", Name: "Ember Wyrm", Names: names("Ember Wyrm", "Wyrm de Braise", "Glutwurm"),
				Affinity: "Force", DungeonID: 7002, Difficulty: "Normal", HP: 900000,
				Phases:    []gamedata.BossPhase{{Number: 1, Name: "Blaze", HPThreshold: 100, Description: "Burns everyone."}},
				Mechanics: []string{"Burns the whole team"}, Weaknesses: []string{"heal"},
				RecommendedCounters: []int{1002}, Description: "A dragon of cinders.",
			},
		},
		Dungeons: []gamedata.Dungeon{
			{
				ID: 7001, Key: "sunken_halls", Name: "Sunken Halls", Names: names("Sunken Halls", "Salles Englouties", "Versunkene Hallen"),
				Kind: "dungeon", Stages: 20, EnergyCost: 16, BossID: 5001, Drops: []int{8001, 8002}, Description: "Flooded halls.",
			},
			{
				ID: 7002, Key: "ash_peak", Name: "Ash Peak", Names: names("Ash Peak", "Pic de Cendre", "Aschegipfel"),
				Kind: "campaign", Stages: 7, EnergyCost: 8, BossID: 5002, Drops: []int{8003}, Description: "A burning mountain.",
			},
		},
		GearSets: []gamedata.GearSet{
			{
				ID: 8001, Key: "savage", Name: "Savage", Names: names("Savage", "Sauvage", "Wild"),
				Pieces: 4, Bonus: "Ignores 25% DEF", StatBonus: "ATK +15%", BestFor: "Attack", Description: "For damage dealers.",
			},
			{
				ID: 8002, Key: "bulwark", Name: "Bulwark", Names: names("Bulwark", "Rempart", "Bollwerk"),
				Pieces: 2, Bonus: "DEF +15%", StatBonus: "DEF +15%", BestFor: "Defense", Description: "For tanks.",
			},
			{
				ID: 8003, Key: "grace", Name: "Grace", Names: names("Grace", "Grâce", "Gnade"),
				Pieces: 2, Bonus: "Heals 3% per turn", StatBonus: "HP +15%", BestFor: "Support", Description: "For healers.",
			},
		},
		Masteries: []gamedata.Mastery{
			{
				ID: 9001, Key: "blade_disciple", Name: "Blade Disciple", Names: names("Blade Disciple", "Disciple de la Lame", "Klingenjünger"),
				Tree: "Offense", Tier: 1, Description: "+8% damage.",
			},
			{
				ID: 9002, Key: "iron_skin", Name: "Iron Skin", Names: names("Iron Skin", "Peau de Fer", "Eisenhaut"),
				Tree: "Defense", Tier: 1, Description: "+75 DEF.",
			},
		},
	}
}

// Prepare builds the database for g under tb's temporary directory and
// returns its path; the test fails on any error.
func Prepare(tb testing.TB, g gamedata.Game) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "gcs.db")
	if _, err := gcsdb.Prepare(context.Background(), path, g, slog.New(slog.DiscardHandler)); err != nil {
		tb.Fatalf("gcsdbtest: prepare: %v", err)
	}
	return path
}

// Open builds the database for g and returns the read-only handle the tools
// use, closed when the test ends.
func Open(tb testing.TB, g gamedata.Game) *sql.DB {
	tb.Helper()
	db, err := gcsdb.OpenReadOnly(context.Background(), Prepare(tb, g))
	if err != nil {
		tb.Fatalf("gcsdbtest: open read-only: %v", err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	return db
}
