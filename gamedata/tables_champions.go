package gamedata

// Word tables the champion generator draws from. Order matters: the
// generator indexes them with a seeded PRNG, so changing a table changes
// the generated game (and the committed data/game.json must be regenerated).

func nameOnsets() []string {
	return []string{
		"Ka", "Ve", "Tor", "Se", "Mo", "A", "Dra", "Ny", "I", "Bra", "Co", "E", "Fe", "Ga", "Ha", "Jo",
		"Lu", "Ma", "O", "Qui", "Ra", "Sy", "Tha", "U", "Vo", "Wy", "Xa", "Yr", "Ze", "Ri", "Bel", "Cas", "Dar",
		"Gwen", "Mal", "Nor", "Pel", "Sol", "Tam", "Val", "Ae", "Ky", "Li", "Or", "Pha", "Rho", "Sa", "Te",
	}
}

func nameMiddles() []string {
	return []string{"", "", "", "la", "ri", "no", "va", "de", "mi", "ro", "sa", "the", "lo", "ka", "ren", "di"}
}

func nameEndings() []string {
	return []string{
		"ith", "ara", "ion", "os", "ek", "wyn", "dra", "us", "elle", "ar", "is", "orn", "ael", "ix",
		"ane", "or", "ia", "en", "ath", "yn", "ok", "ira", "un", "eth", "as", "iel", "oth", "ea", "ul", "ande",
	}
}

func skillAdjectives(affinity string) []string {
	switch affinity {
	case "Magic":
		return []string{"Arcane", "Astral", "Runic", "Mystic", "Prismatic", "Starlit", "Eldritch", "Sigil", "Azure", "Aether", "Celestial", "Glyph", "Lucent", "Oracle's"}
	case "Force":
		return []string{"Iron", "Savage", "Crushing", "Thunder", "Brutal", "Molten", "Granite", "Blazing", "Scarlet", "Warbound", "Ember", "Forged", "Raging", "Titan's"}
	case "Spirit":
		return []string{"Verdant", "Tidal", "Gale", "Moonlit", "Feral", "Spectral", "Dawn", "Whispering", "Sylvan", "Misty", "Thorned", "Wild", "Rippling", "Ancestral"}
	default:
		return []string{"Hollow", "Abyssal", "Null", "Shadow", "Umbral", "Grim", "Dusk", "Silent", "Veiled", "Ashen", "Withering", "Starless", "Bleak", "Wraith"}
	}
}

func basicNouns() []string {
	return []string{"Strike", "Slash", "Bolt", "Lance", "Jab", "Arrow", "Cleave", "Fang", "Claw", "Lash", "Shot", "Swipe", "Thrust", "Blade", "Spike", "Smite"}
}

func skillNouns() []string {
	return []string{
		"Tempest", "Ward", "Requiem", "Verdict", "Onslaught", "Benediction", "Eclipse", "Cascade", "Bulwark",
		"Hymn", "Reckoning", "Surge", "Rupture", "Sanctuary", "Barrage", "Vortex", "Judgement", "Rite", "Covenant",
		"Howl", "Torrent", "Mandate", "Pulse", "Curse", "Blessing", "Nova", "Aegis", "Decree", "Storm", "Chorus",
		"Lament", "Execution", "Rampart", "Dirge", "Uprising", "Fury",
	}
}

func roleEffects(role string) []string {
	switch role {
	case "Attack":
		return []string{"decrease_def", "burn", "poison", "extra_turn", "block_buffs", "weaken", "increase_atk", "decrease_spd", "decrease_def", "extra_turn", "stun"}
	case "Defense":
		return []string{"provoke", "stun", "decrease_atk", "shield", "increase_def", "turn_meter_reduce", "freeze", "counterattack", "decrease_def", "block_debuffs"}
	case "HP":
		return []string{"heal", "cleanse", "shield", "poison", "burn", "provoke", "counterattack", "revive", "decrease_atk", "weaken", "block_debuffs"}
	default:
		return []string{"speed_up", "heal", "cleanse", "revive", "turn_meter_fill", "block_debuffs", "increase_atk", "decrease_def", "turn_meter_reduce", "decrease_spd", "shield", "weaken"}
	}
}

func weaponOf(affinity string) []string {
	switch affinity {
	case "Magic":
		return []string{"rune-etched staff", "book of star charts", "crystal focus", "glass sword that sings"}
	case "Force":
		return []string{"two-handed warhammer", "cinder-forged axe", "tower shield", "chain of iron hooks"}
	case "Spirit":
		return []string{"bow of living wood", "pair of tide-curved sabres", "totem spear", "moon-silver sickle"}
	default:
		return []string{"blade that casts no shadow", "mask of black glass", "cursed scythe", "lantern full of whispers"}
	}
}

func loreOrigins() []string {
	return []string{
		"%[1]s was born in %[2]s and swore an oath to the %[3]s before the age of sixteen.",
		"Raised among the %[3]s of %[2]s, %[1]s learned to fight before learning to read.",
		"%[1]s came to the %[3]s as an exile from the borderlands of %[2]s.",
		"Few in %[2]s remember a time before %[1]s served the %[3]s.",
		"%[1]s was found as a child in the ruins of %[2]s and raised by the %[3]s.",
		"Once a simple messenger of %[2]s, %[1]s earned a place in the %[3]s after surviving an ambush alone.",
	}
}

func loreRoles(role string) []string {
	switch role {
	case "Attack":
		return []string{
			"They are feared for a %s that has ended more than one siege in a single blow.",
			"Their %s strikes first and asks questions never.",
			"Enemy captains still speak of the day a lone %s broke their line.",
		}
	case "Defense":
		return []string{
			"They stand at the front with a %s, drawing every blow meant for their friends.",
			"No wall has held longer than the one they built with a %s and stubborn pride.",
			"Their %s has turned aside arrows, spells and the claws of beasts alike.",
		}
	case "HP":
		return []string{
			"They endure wounds that would fell three soldiers, steadied by a %s.",
			"Carrying a %s, they outlast every foe by simply refusing to fall.",
			"Scars cover them from head to toe, and each came from a fight won with a %s.",
		}
	default:
		return []string{
			"They guide allies with a %s, turning a losing battle into a rout.",
			"Their %s hums with songs that quicken the step of every ally nearby.",
			"Armies move faster and fight longer when they raise their %s.",
		}
	}
}
