package toolscache

import "github.com/gameassist/gameassist/tool"

// displayNames are the players' names of the cache_* tools (the chat
// widget's chips), in every locale sessions may use.
func displayNames(name string) tool.DisplayNames {
	return map[string]tool.DisplayNames{
		"cache_get_champions_list": {"en": "Champion list", "fr": "Liste des champions", "de": "Championliste"},
		"cache_get_bosses_list":    {"en": "Boss list", "fr": "Liste des boss", "de": "Bossliste"},
		"cache_get_factions_list":  {"en": "Faction list", "fr": "Liste des factions", "de": "Fraktionsliste"},
		"cache_get_dungeons_list":  {"en": "Dungeon list", "fr": "Liste des donjons", "de": "Dungeonliste"},
		"cache_get_gear_sets_list": {"en": "Gear set list", "fr": "Liste des sets", "de": "Setliste"},
	}[name]
}
