package toolsgcs

import "github.com/gameassist/gameassist/tool"

// displayNames are the players' names of the gcs_* tools (the chat
// widget's chips), in every locale sessions may use.
func displayNames(name string) tool.DisplayNames {
	return map[string]tool.DisplayNames{
		"gcs_get_champion_details":        {"en": "Champion", "fr": "Champion", "de": "Champion"},
		"gcs_get_character_details_by_id": {"en": "Champion", "fr": "Champion", "de": "Champion"},
		"gcs_find_champions":              {"en": "Champion search", "fr": "Recherche de champions", "de": "Championsuche"},
		"gcs_compare_characters":          {"en": "Comparison", "fr": "Comparaison", "de": "Vergleich"},
		"gcs_get_champion_skills":         {"en": "Skills", "fr": "Compétences", "de": "Fähigkeiten"},
		"gcs_get_boss_details":            {"en": "Boss", "fr": "Boss", "de": "Boss"},
		"gcs_find_counters_for_boss":      {"en": "Counters", "fr": "Contres", "de": "Konter"},
		"gcs_get_faction_details":         {"en": "Faction", "fr": "Faction", "de": "Fraktion"},
		"gcs_list_champions_by_faction":   {"en": "Faction roster", "fr": "Champions de la faction", "de": "Champions der Fraktion"},
		"gcs_get_dungeon_details":         {"en": "Dungeon", "fr": "Donjon", "de": "Dungeon"},
		"gcs_get_gear_set_details":        {"en": "Gear set", "fr": "Set d'équipement", "de": "Ausrüstungsset"},
		"gcs_get_mastery_details":         {"en": "Masteries", "fr": "Maîtrises", "de": "Meisterschaften"},
		"gcs_recommend_gear":              {"en": "Gear advice", "fr": "Conseils d'équipement", "de": "Ausrüstungstipps"},
		"gcs_find_champions_by_effect":    {"en": "Champions by effect", "fr": "Champions par effet", "de": "Champions nach Effekt"},
		"gcs_db_tables":                   {"en": "Database tables", "fr": "Tables de la base", "de": "Datenbanktabellen"},
		"gcs_db_schema":                   {"en": "Database schema", "fr": "Schéma de la base", "de": "Datenbankschema"},
		"gcs_db_query":                    {"en": "Database query", "fr": "Requête en base", "de": "Datenbankabfrage"},
	}[name]
}
