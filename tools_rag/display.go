package toolsrag

import "github.com/gameassist/gameassist/tool"

// displayNames are the players' names of the RAG tools (the chat widget's
// chips), in every locale sessions may use.
func displayNames(name string) tool.DisplayNames {
	return map[string]tool.DisplayNames{
		"rag_get_champion_details": {"en": "Champion lore", "fr": "Histoire du champion", "de": "Champion-Hintergrund"},
		"rag_get_boss_details":     {"en": "Boss guide", "fr": "Guide du boss", "de": "Boss-Guide"},
		"rag_get_faction_lore":     {"en": "Faction lore", "fr": "Histoire de la faction", "de": "Fraktionsgeschichte"},
		"rag_get_dungeon_guide":    {"en": "Dungeon guide", "fr": "Guide du donjon", "de": "Dungeon-Guide"},
		"db_get_ux_details":        {"en": "Screen help", "fr": "Aide de l'écran", "de": "Bildschirmhilfe"},
		"db_get_lore_details":      {"en": "Lore", "fr": "Histoire", "de": "Hintergrund"},
		"rag_search_faq":           {"en": "FAQ", "fr": "FAQ", "de": "FAQ"},
		"rag_get_game_mechanics":   {"en": "Game mechanics", "fr": "Mécaniques de jeu", "de": "Spielmechanik"},
		"rag_search_patch_notes":   {"en": "Patch notes", "fr": "Notes de version", "de": "Patchnotes"},
		"rag_semantic_search":      {"en": "Document search", "fr": "Recherche documentaire", "de": "Dokumentsuche"},
		"rag_list_documents":       {"en": "Document list", "fr": "Liste des documents", "de": "Dokumentliste"},
		"rag_get_document":         {"en": "Document", "fr": "Document", "de": "Dokument"},
	}[name]
}
