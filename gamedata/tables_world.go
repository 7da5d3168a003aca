package gamedata

// The hand-written parts of the world: factions, bosses, areas, gear sets and
// masteries. The generator adds numbers (hp, costs, ids) and links them.

type factionSeed struct {
	key, en, fr, de string
	alignment       string
	homeland        string
	description     string
	affinities      []string // affinities its champions favour
}

func factionSeeds() []factionSeed {
	return []factionSeed{
		{
			"emberguard-legion", "Emberguard Legion", "Légion de la Garde-Braise", "Glutwacht-Legion", "Order", "the Cinder Marches",
			"Soldier-priests who keep the eternal forge-fires of the Cinder Marches burning. They march in shield walls and believe every battle is a test of the flame within.",
			[]string{"Force", "Magic"},
		},
		{
			"sylvan-wardens", "Sylvan Wardens", "Gardiens Sylvains", "Sylvanische Wächter", "Order", "the Evergreen Reach",
			"Archers and druids sworn to the ancient trees of the Evergreen Reach. They strike from the canopy and heal their wounded with sap-light.",
			[]string{"Spirit", "Magic"},
		},
		{
			"hollow-covenant", "Hollow Covenant", "Pacte du Vide", "Bund der Leere", "Chaos", "the Sunless Vaults",
			"A secret order that bargained with the emptiness beneath the Sunless Vaults. Its members trade pieces of their memory for power and rarely remember why they fight.",
			[]string{"Void", "Magic"},
		},
		{
			"tideborn-clans", "Tideborn Clans", "Clans Nés-des-Marées", "Gezeitenclans", "Neutral", "the Shattered Isles",
			"Sea raiders and storm-singers of the Shattered Isles. Every clan keeps a tide-chant that tells its warriors when to strike and when to fall back.",
			[]string{"Spirit", "Force"},
		},
		{
			"iron-dominion", "Iron Dominion", "Dominion de Fer", "Eisernes Dominion", "Order", "the Brass Citadels",
			"An empire of engineers and drilled legions ruling from the Brass Citadels. Their champions wear clockwork armour and fight by the numbers.",
			[]string{"Force", "Void"},
		},
		{
			"skyreach-order", "Skyreach Order", "Ordre de Hautciel", "Himmelsorden", "Order", "the Cloudspire Monasteries",
			"Monks and griffon riders who train on the wind-cut ledges of the Cloudspire Monasteries. They value speed above strength and patience above both.",
			[]string{"Magic", "Spirit"},
		},
		{
			"ashen-nomads", "Ashen Nomads", "Nomades Cendrés", "Aschennomaden", "Neutral", "the Ashfall Wastes",
			"Caravan warriors who cross the Ashfall Wastes on armoured lizards. They trade, duel and poison their blades with desert venom.",
			[]string{"Force", "Spirit"},
		},
		{
			"verdant-circle", "Verdant Circle", "Cercle Verdoyant", "Grüner Zirkel", "Order", "the Moonwell Glades",
			"Healers and shapeshifters gathered around the Moonwell Glades. They mend what war breaks and punish those who poison the land.",
			[]string{"Spirit", "Magic"},
		},
		{
			"duskblood-houses", "Duskblood Houses", "Maisons Sang-Crépuscule", "Dämmerblut-Häuser", "Chaos", "the Velvet Necropolis",
			"Noble vampire houses of the Velvet Necropolis. They feast on the strength of their foes and scheme against each other between wars.",
			[]string{"Void", "Force"},
		},
		{
			"frostpeak-clans", "Frostpeak Clans", "Clans du Pic-Givre", "Frostgipfel-Clans", "Neutral", "the Rimeheart Mountains",
			"Hardy mountain clans of the Rimeheart Mountains who ride mammoths and chant to the winter spirits. Their shamans can freeze an enemy's blood mid-swing.",
			[]string{"Magic", "Force"},
		},
		{
			"gilded-syndicate", "Gilded Syndicate", "Syndicat Doré", "Goldenes Syndikat", "Neutral", "the Free Port of Sollam",
			"Merchant princes, duellists and assassins of the Free Port of Sollam. Every contract has a price and every champion a patron.",
			[]string{"Void", "Spirit"},
		},
		{
			"stormcaller-tribes", "Stormcaller Tribes", "Tribus Mande-Tempête", "Sturmrufer-Stämme", "Chaos", "the Thunder Steppes",
			"Horse tribes of the Thunder Steppes who call lightning down on their enemies. They fight fast, strike first and never retreat twice.",
			[]string{"Spirit", "Force"},
		},
		{
			"bonewright-cult", "Bonewright Cult", "Culte des Ossuaires", "Knochenkult", "Chaos", "the Ossuary Fens",
			"Necromancers of the Ossuary Fens who build servants from the bones of the fallen. Death, for them, is a tool to be repaired and reused.",
			[]string{"Magic", "Void"},
		},
		{
			"radiant-choir", "Radiant Choir", "Chœur Radieux", "Strahlender Chor", "Order", "the Sanctum of Dawn",
			"Paladins and battle-singers of the Sanctum of Dawn. Their hymns shield allies, cleanse curses and call the fallen back to their feet.",
			[]string{"Magic", "Spirit"},
		},
	}
}

type phaseSeed struct {
	name      string
	threshold int
	desc      string
}

type bossSeed struct {
	key, en, fr, de string
	affinity        string
	difficulty      string
	dungeon         string // dungeon key
	phases          []phaseSeed
	mechanics       []string
	weaknesses      []string
	immunities      []string
	description     string
}

func bossSeeds() []bossSeed {
	return []bossSeed{
		{
			"fire-knight", "Fire Knight", "Chevalier de Feu", "Feuerritter", "Force", "Hard", "fire-knights-castle",
			[]phaseSeed{
				{"Blazing Vanguard", 100, "The knight fights behind the Shield of Embers, a hit-counting shield that only breaks after it has been struck a set number of times."},
				{"Inferno Rising", 60, "The knight sets the ground ablaze and burns your whole team, placing HP Burn every turn while the Shield of Embers holds."},
				{"Molten Last Stand", 25, "The shield returns with more hits required and the knight gains Increase ATK, so finish the fight quickly."},
			},
			[]string{
				"The Shield of Embers absorbs all damage until it has been hit enough times; multi-hit skills break it much faster than single heavy blows.",
				"While the shield is up the knight ignores Turn Meter Reduction, so speed control only works once the shield is broken.",
				"Every burn the knight applies spreads to an adjacent ally at the start of the next round.",
			},
			[]string{"decrease_def", "decrease_spd", "cleanse", "heal"},
			[]string{"stun", "freeze", "turn_meter_reduce"},
			"An oathbound knight wreathed in living flame who guards the forge-gate of his castle. He rewards teams that hit often rather than hard.",
		},
		{
			"frost-wyrm", "Frost Wyrm", "Wyrm de Givre", "Frostwurm", "Spirit", "Hard", "glacier-spire",
			[]phaseSeed{
				{"Rime Coil", 100, "The wyrm wraps itself in ice armour that reduces all damage taken by half."},
				{"Glacial Breath", 50, "Every third turn it breathes a blizzard that places Freeze on two random champions."},
			},
			[]string{
				"Ice armour melts instantly when the wyrm is hit by HP Burn, removing the damage reduction.",
				"Frozen champions shatter for extra damage if they are still frozen when the wyrm's next turn starts; cleanse them first.",
				"The wyrm's tail sweep lowers the turn meter of the fastest champion.",
			},
			[]string{"burn", "decrease_atk", "cleanse", "block_debuffs"},
			[]string{"freeze", "decrease_spd"},
			"An ancient serpent of the Glacier Spire whose scales are made of never-melting ice. Fire and foresight are the only ways through its armour.",
		},
		{
			"spider-queen", "Spider Queen", "Reine Araignée", "Spinnenkönigin", "Magic", "Normal", "silkweb-caverns",
			[]phaseSeed{
				{"Brood Call", 100, "The queen summons four spiderlings that explode into poison when they reach a full turn meter."},
				{"Venom Weave", 40, "She webs the strongest champion, stopping its skills until the web takes three hits."},
			},
			[]string{
				"Spiderlings gain turn meter every time the queen is hit, so area attacks that kill them early are vital.",
				"Every spiderling still alive when the queen acts heals her for 5% of her maximum HP.",
				"Reducing the spiderlings' turn meter delays their poison explosions.",
			},
			[]string{"decrease_atk", "heal", "turn_meter_reduce", "burn"},
			[]string{"stun", "provoke"},
			"The many-eyed mistress of the Silkweb Caverns. She fights through her endless brood of spiderlings rather than with her own fangs.",
		},
		{
			"stone-golem", "Stone Golem", "Golem de Pierre", "Steingolem", "Force", "Normal", "quarry-of-echoes",
			[]phaseSeed{
				{"Granite Skin", 100, "The golem has enormous DEF and shrugs off weak hits entirely."},
				{"Petrifying Stomp", 50, "Its stomp petrifies the front line, turning them to stone for one turn."},
			},
			[]string{
				"Poison and HP Burn ignore the golem's granite DEF, dealing full damage each turn.",
				"Each time the golem is hit by a critical hit it loses one layer of granite.",
				"The golem rebuilds one layer of granite at the start of each of its turns.",
			},
			[]string{"decrease_def", "poison", "weaken", "burn"},
			[]string{"stun", "freeze", "decrease_spd"},
			"A walking hill of enchanted granite from the Quarry of Echoes. It is slow, stubborn and nearly impossible to crack by brute force.",
		},
		{
			"storm-drake", "Storm Drake", "Drake des Tempêtes", "Sturmdrache", "Spirit", "Brutal", "thunderhead-aerie",
			[]phaseSeed{
				{"Charged Wings", 100, "The drake gains Increase SPD every time one of your champions uses a buff."},
				{"Chain Lightning", 65, "Its lightning jumps between champions, hitting up to five times."},
				{"Eye of the Storm", 30, "The drake takes an extra turn after every lightning strike that kills a champion."},
			},
			[]string{
				"Chain lightning jumps only to champions without a Shield, so shields stop the chain cold.",
				"The drake is very fast; Decrease SPD and turn meter drain keep it from lapping your team.",
				"It cannot be provoked while airborne.",
			},
			[]string{"decrease_spd", "turn_meter_reduce", "shield", "increase_def"},
			[]string{"provoke", "stun"},
			"A thunder-scaled drake that nests in the Thunderhead Aerie. It punishes slow teams and rewards those who can keep it grounded.",
		},
		{
			"hollow-king", "Hollow King", "Roi Creux", "Hohler König", "Void", "Brutal", "crypt-of-the-hollow-crown",
			[]phaseSeed{
				{"Court of Bones", 100, "The king raises two skeletal courtiers who steal a buff from your team each turn."},
				{"Crown of Emptiness", 50, "He places a curse that kills any champion whose HP falls below 20% at the end of a turn."},
			},
			[]string{
				"Champions killed by the curse rise as enemy courtiers unless they are revived before the king's next turn.",
				"The king steals your buffs; Block Debuffs on your team prevents the curse from landing at all.",
				"His courtiers cannot be poisoned.",
			},
			[]string{"revive", "cleanse", "block_debuffs", "decrease_atk"},
			[]string{"poison", "stun"},
			"A crowned corpse seated on a throne in the Crypt of the Hollow Crown. His court grows every time one of your champions falls.",
		},
		{
			"plague-mother", "Plague Mother", "Mère de la Peste", "Pestmutter", "Magic", "Hard", "rotting-marsh",
			[]phaseSeed{
				{"Miasma", 100, "The Plague Mother spreads a sickness that reduces healing received by your team."},
				{"Feast of Rot", 45, "She heals herself for every debuff on your team at the start of her turn."},
			},
			[]string{
				"Removing debuffs from your team with Cleanse starves her self-healing.",
				"HP Burn on her cancels her regeneration for as long as it lasts.",
				"She is immune to poison and heals from it instead.",
			},
			[]string{"cleanse", "block_debuffs", "burn", "block_buffs"},
			[]string{"poison", "freeze"},
			"A bloated witch-matron of the Rotting Marsh who feeds on disease. The more sickness on your team, the harder she is to kill.",
		},
		{
			"iron-colossus", "Iron Colossus", "Colosse de Fer", "Eiserner Koloss", "Force", "Nightmare", "foundry-of-the-colossus",
			[]phaseSeed{
				{"Steam Pressure", 100, "The colossus builds pressure each turn and releases it as a counterattack when hit by area skills."},
				{"Overdrive", 70, "Its pistons overheat; it deals double damage but takes more damage from HP Burn."},
				{"Meltdown", 35, "It vents scalding steam on the whole team every turn."},
				{"Final Rivet", 10, "A last desperate strike that removes all your buffs."},
			},
			[]string{
				"The colossus counterattacks every area skill, so single-target damage dealers are safer.",
				"Weaken and Decrease DEF stack with its overheated plating for huge damage windows.",
				"It is immune to all crowd control, including Provoke and turn meter drain.",
			},
			[]string{"poison", "burn", "decrease_def", "weaken"},
			[]string{"stun", "freeze", "provoke", "turn_meter_reduce", "decrease_spd"},
			"A siege engine the size of a cathedral, built by the Iron Dominion and abandoned in its foundry. It runs on steam, rage and stolen souls.",
		},
		{
			"abyssal-leviathan", "Abyssal Leviathan", "Léviathan Abyssal", "Abgrund-Leviathan", "Spirit", "Nightmare", "drowned-cathedral",
			[]phaseSeed{
				{"Rising Tide", 100, "The arena floods a little more each turn, dealing damage to every champion without a Shield."},
				{"Crushing Depths", 50, "The leviathan drags one champion underwater, removing it from the fight for two turns."},
				{"Maelstrom", 20, "The whirlpool spins, reducing the turn meter of your whole team every round."},
			},
			[]string{
				"Shields absorb the tidal damage completely, so shield-casters are the backbone of any team.",
				"A dragged champion returns with full HP if the leviathan's ATK is lowered while it is underwater.",
				"It ignores Freeze because it lives in icy depths.",
			},
			[]string{"shield", "heal", "decrease_atk", "turn_meter_fill"},
			[]string{"freeze", "stun"},
			"A colossal sea beast that sleeps in the flooded nave of the Drowned Cathedral. When it wakes, the tide comes with it.",
		},
		{
			"ember-witch", "Ember Witch", "Sorcière des Braises", "Glutwitwe", "Magic", "Hard", "cinder-library",
			[]phaseSeed{
				{"Hex of Mirrors", 100, "The witch copies every buff your team places and casts it on herself."},
				{"Candle Ward", 50, "She lights three candles; each one grants her a turn of invulnerability until snuffed out by a stun."},
			},
			[]string{
				"Block Buffs stops her from copying your buffs, which is the main way to keep her weak.",
				"Each stun she suffers snuffs one of her candles.",
				"She is immune to HP Burn; fire only feeds her candles.",
			},
			[]string{"block_buffs", "stun", "decrease_spd", "decrease_def"},
			[]string{"burn", "provoke"},
			"A scholar of forbidden fire who took over the Cinder Library. She turns your own strengths against you.",
		},
		{
			"shadow-twins", "Shadow Twins", "Jumeaux de l'Ombre", "Schattenzwillinge", "Void", "Brutal", "twilight-maze",
			[]phaseSeed{
				{"Two Hearts", 100, "The twins share a pool of HP; if one dies, the other revives it at full HP after one turn."},
				{"Mirror Dance", 50, "The twins swap places every turn, moving the provoke target to the other twin."},
			},
			[]string{
				"Both twins must be killed in the same round, so Extra Turn and turn meter fill are key to bursting them.",
				"Speeding up your team lets you act twice before the surviving twin can revive its sibling.",
				"They cannot be stunned while both are standing.",
			},
			[]string{"extra_turn", "turn_meter_fill", "speed_up", "weaken"},
			[]string{"stun", "block_buffs"},
			"Two shadow assassins bound by a single heartbeat, haunting the Twilight Maze. Kill one and the other brings it back.",
		},
		{
			"thornheart-treant", "Thornheart Treant", "Tréant Cœur-d'Épine", "Dornenherz-Baumhirte", "Spirit", "Normal", "elderroot-grove",
			[]phaseSeed{
				{"Bramble Hide", 100, "The treant reflects 20% of all direct damage back at the attacker."},
				{"Overgrowth", 50, "It regrows 10% HP every turn and roots a random champion."},
			},
			[]string{
				"Damage over time like poison and HP Burn is not reflected by the bramble hide.",
				"Block Buffs prevents the treant's regrowth buff from being placed.",
				"Rooted champions cannot use skills with a cooldown.",
			},
			[]string{"burn", "poison", "block_buffs", "heal"},
			[]string{"decrease_def", "freeze"},
			"A walking oak corrupted by thorn-blight in the heart of the Elderroot Grove. Every blow against it cuts the attacker too.",
		},
		{
			"sand-tyrant", "Sand Tyrant", "Tyran des Sables", "Sandtyrann", "Force", "Hard", "sunscour-pit",
			[]phaseSeed{
				{"Sandstorm", 100, "A sandstorm lowers the ACC of your whole team, making debuffs miss."},
				{"Quicksand", 55, "The tyrant sinks your slowest champion, stopping it from gaining turn meter."},
			},
			[]string{
				"A Provoke from a tank keeps the tyrant from targeting your damage dealers.",
				"Decrease ATK and Increase DEF blunt his crushing single-target blows.",
				"High ACC is needed to land debuffs through the sandstorm.",
			},
			[]string{"provoke", "decrease_atk", "increase_def", "shield"},
			[]string{"turn_meter_reduce", "poison"},
			"A scorpion-tailed warlord who rules the Sunscour Pit. He blinds his foes with sand and crushes them one by one.",
		},
		{
			"crimson-minotaur", "Crimson Minotaur", "Minotaure Écarlate", "Purpurminotaurus", "Force", "Normal", "bloodhorn-labyrinth",
			[]phaseSeed{
				{"Bull Rush", 100, "The minotaur charges the champion with the highest ATK every other turn."},
				{"Blood Frenzy", 30, "It enrages, gaining Increase ATK and an extra attack each turn."},
			},
			[]string{
				"Provoke redirects its charge onto a tank built for the hit.",
				"Stunning it during the Blood Frenzy cancels the enrage.",
				"Decrease ATK halves the damage of its charge.",
			},
			[]string{"provoke", "stun", "decrease_atk", "counterattack"},
			[]string{"decrease_def", "burn"},
			"A red-horned beast that hunts intruders in the Bloodhorn Labyrinth. Simple, relentless and extremely dangerous when wounded.",
		},
		{
			"void-seraph", "Void Seraph", "Séraphin du Néant", "Leere-Seraph", "Void", "Nightmare", "oblivion-spire",
			[]phaseSeed{
				{"Wings of Oblivion", 100, "The seraph drains 25% turn meter from your whole team every turn."},
				{"Null Choir", 60, "It places a silence debuff on your champions that blocks their active skills."},
				{"Unmaking", 20, "Any champion with a debuff at the start of the seraph's turn is erased from the fight."},
			},
			[]string{
				"Turn meter boosts on your team undo the seraph's constant drain.",
				"Block Debuffs and Cleanse are the only protection against the Unmaking.",
				"Erased champions can be brought back with Revive.",
			},
			[]string{"turn_meter_fill", "block_debuffs", "cleanse", "revive"},
			[]string{"stun", "freeze", "provoke"},
			"A fallen angel of the void that rules the top of the Oblivion Spire raid. It erases what it cannot defeat.",
		},
		{
			"dread-lich", "Dread Lich", "Liche de l'Effroi", "Schreckenslich", "Magic", "Nightmare", "bone-throne",
			[]phaseSeed{
				{"Phylactery Ward", 100, "The lich cannot drop below 50% HP while its phylactery stands."},
				{"Army of the Grave", 50, "It raises skeletons that place Weaken on your champions."},
				{"Soul Harvest", 15, "Each champion that dies heals the lich for 10% of its HP."},
			},
			[]string{
				"Destroy the phylactery with Decrease DEF and Weaken focused damage before pushing the lich.",
				"Healing and revives deny the Soul Harvest.",
				"The lich and its skeletons are immune to poison.",
			},
			[]string{"decrease_def", "weaken", "heal", "revive"},
			[]string{"poison", "stun"},
			"An undying sorcerer-king of the Bonewright Cult, enthroned in the Bone Throne raid. His phylactery must fall before he does.",
		},
	}
}

type dungeonSeed struct {
	key, en, fr, de string
	kind            string
	description     string
}

func dungeonSeeds() []dungeonSeed {
	return []dungeonSeed{
		{
			"fire-knights-castle", "Fire Knight's Castle", "Château du Chevalier de Feu", "Burg des Feuerritters", "dungeon",
			"A fortress of black stone and flowing lava where the Fire Knight guards the forge-gate. Its stages climb the burning ramparts to the throne hall.",
		},
		{
			"glacier-spire", "Glacier Spire", "Flèche Glaciaire", "Gletscherturm", "dungeon",
			"A frozen tower of blue ice rising from the Rimeheart Mountains. Blizzards sweep its ledges and the Frost Wyrm coils at the summit.",
		},
		{
			"silkweb-caverns", "Silkweb Caverns", "Cavernes de Soie", "Seidennetzhöhlen", "dungeon",
			"Damp tunnels strung with webs as thick as ropes. The deeper stages are crawling with spiderlings guarding their queen.",
		},
		{
			"quarry-of-echoes", "Quarry of Echoes", "Carrière des Échos", "Steinbruch der Echos", "dungeon",
			"An abandoned quarry where every footstep echoes for minutes. Living rock gathers into golems at the bottom of the pit.",
		},
		{
			"thunderhead-aerie", "Thunderhead Aerie", "Aire des Orages", "Gewitterhorst", "dungeon",
			"A nest of crackling clouds perched above the Thunder Steppes. The wind shifts every stage and lightning strikes the slowest first.",
		},
		{
			"crypt-of-the-hollow-crown", "Crypt of the Hollow Crown", "Crypte de la Couronne Creuse", "Gruft der Hohlen Krone", "dungeon",
			"A royal tomb whose halls are lined with empty thrones. The dead here still remember their titles.",
		},
		{
			"rotting-marsh", "Rotting Marsh", "Marais Putride", "Faulmoor", "dungeon",
			"A swamp of green mist and sinking paths. Sickness clings to everything that enters.",
		},
		{
			"cinder-library", "Cinder Library", "Bibliothèque des Cendres", "Aschenbibliothek", "dungeon",
			"A burnt library whose books still smoulder. Forbidden spells float between the shelves.",
		},
		{
			"twilight-maze", "Twilight Maze", "Labyrinthe du Crépuscule", "Dämmerungslabyrinth", "dungeon",
			"A hedge maze where it is always dusk and every corridor has a twin. Two shadows wait at its heart.",
		},
		{
			"whispering-woods", "Whispering Woods", "Bois Murmurants", "Flüsterwald", "campaign",
			"The first campaign area, a forest where the trees warn travellers of danger. It teaches the basics of turn order and affinity.",
		},
		{
			"elderroot-grove", "Elderroot Grove", "Bosquet des Racines Anciennes", "Urwurzelhain", "campaign",
			"A campaign chapter deep in the Evergreen Reach, where thorn-blight has corrupted the oldest trees.",
		},
		{
			"sunscour-pit", "Sunscour Pit", "Fosse Brûle-Soleil", "Sonnenglutgrube", "campaign",
			"A campaign chapter in the Ashfall Wastes: a sun-baked arena where sandstorms blind the unprepared.",
		},
		{
			"bloodhorn-labyrinth", "Bloodhorn Labyrinth", "Labyrinthe Corne-de-Sang", "Bluthorn-Labyrinth", "campaign",
			"A campaign chapter of twisting stone corridors, splashed with red paint by the minotaur's victims.",
		},
		{
			"sunken-coast", "Sunken Coast", "Côte Engloutie", "Versunkene Küste", "campaign",
			"A campaign area of drowned villages and tide pools along the Shattered Isles. Good for farming early gear.",
		},
		{
			"brass-road", "Brass Road", "Route de Laiton", "Messingstraße", "campaign",
			"The last campaign area, a road of clockwork bridges leading to the Brass Citadels. Its enemies are fast and heavily armoured.",
		},
		{
			"foundry-of-the-colossus", "Foundry of the Colossus", "Fonderie du Colosse", "Gießerei des Kolosses", "raid",
			"A raid inside a gigantic foundry whose furnaces never went out. Only well-built teams survive the steam.",
		},
		{
			"drowned-cathedral", "Drowned Cathedral", "Cathédrale Engloutie", "Versunkene Kathedrale", "raid",
			"A raid in a cathedral swallowed by the sea, where the organ still plays under the waves.",
		},
		{
			"oblivion-spire", "Oblivion Spire", "Flèche de l'Oubli", "Turm des Vergessens", "raid",
			"A raid up a black spire that unmakes light itself. The hardest content in the game.",
		},
		{
			"bone-throne", "Bone Throne", "Trône d'Os", "Knochenthron", "raid",
			"A raid into the Ossuary Fens, up to the throne of skulls where the Dread Lich holds court.",
		},
	}
}

type gearSeed struct {
	key, en, fr, de string
	pieces          int
	bonus           string
	statBonus       string
	bestFor         string
}

func gearSeeds() []gearSeed {
	return []gearSeed{
		{"swiftwind", "Swiftwind", "Vent Rapide", "Flinkwind", 2, "Increases SPD, letting the wearer act more often.", "SPD +12%", "Support"},
		{"warlord", "Warlord", "Seigneur de Guerre", "Kriegsherr", 2, "Raises ATK for heavier hits.", "ATK +15%", "Attack"},
		{"ironbark", "Ironbark", "Écorce de Fer", "Eisenrinde", 2, "Hardens the wearer with extra DEF.", "DEF +15%", "Defense"},
		{"vitality", "Vitality", "Vitalité", "Lebenskraft", 2, "Adds HP to outlast long fights.", "HP +15%", "HP"},
		{"keen-edge", "Keen Edge", "Fil Acéré", "Scharfe Klinge", 2, "Raises the chance to land critical hits.", "C.RATE +12%", "Attack"},
		{"executioner", "Executioner", "Bourreau", "Henker", 2, "Critical hits deal more damage.", "C.DMG +20%", "Attack"},
		{"precision", "Precision", "Précision", "Präzision", 2, "Raises ACC so debuffs land on resistant bosses.", "ACC +40", "Support"},
		{"runeward", "Runeward", "Garde Runique", "Runenwacht", 2, "Raises RES so enemy debuffs are resisted.", "RES +40", "Defense"},
		{"bloodfang", "Bloodfang", "Croc-de-Sang", "Blutzahn", 4, "Heals the wearer for 30% of the damage it deals.", "Lifesteal 30%", "Attack"},
		{"retaliation", "Retaliation", "Représailles", "Vergeltung", 4, "Gives a 30% chance to counterattack when hit.", "Counterattack 30%", "Defense"},
		{"frenzy", "Frenzy", "Frénésie", "Raserei", 4, "Fills 10% turn meter every time the wearer is hit.", "Turn meter +10% on hit", "HP"},
		{"aegis", "Aegis", "Égide", "Ägis", 4, "Places a Shield equal to 30% of max HP at the start of each round.", "Shield 30% HP", "Defense"},
		{"venomthorn", "Venomthorn", "Épine Venimeuse", "Giftdorn", 4, "Gives a 25% chance to place Poison on every hit.", "Poison 25% on hit", "Attack"},
		{"thunderclap", "Thunderclap", "Coup de Tonnerre", "Donnerschlag", 4, "Gives an 18% chance to Stun the target on a hit.", "Stun 18% on hit", "Support"},
		{"mender", "Mender", "Guérisseur", "Heiler", 2, "Increases all healing done by the wearer.", "Healing +15%", "Support"},
		{"everbloom", "Everbloom", "Floraison Éternelle", "Ewigblüte", 4, "Restores 3% HP at the end of each of the wearer's turns.", "Regeneration 3% HP", "HP"},
		{"cursebreaker", "Cursebreaker", "Brise-Malédiction", "Fluchbrecher", 4, "Removes one debuff from the wearer each turn.", "Cleanse 1 debuff per turn", "HP"},
	}
}

type masterySeed struct {
	key, en, fr, de string
	tree            string
	tier            int
	desc            string
}

func masterySeeds() []masterySeed {
	return []masterySeed{
		{"blade-discipline", "Blade Discipline", "Discipline de la Lame", "Klingendisziplin", "Offense", 1, "Adds 75 ATK to the champion."},
		{"keen-strike", "Keen Strike", "Frappe Affûtée", "Scharfer Hieb", "Offense", 1, "Adds 5% C.RATE."},
		{"heavy-blows", "Heavy Blows", "Coups Lourds", "Schwere Schläge", "Offense", 2, "Increases damage dealt by 4% against enemies with more than 50% HP."},
		{"deadly-precision", "Deadly Precision", "Précision Mortelle", "Tödliche Präzision", "Offense", 2, "Adds 10% C.DMG."},
		{"bring-it-down", "Bring It Down", "Abattre le Colosse", "Zu Fall Bringen", "Offense", 3, "Deals extra damage equal to 6% of the target's max HP, capped against bosses."},
		{"single-out", "Single Out", "Isoler la Cible", "Ausgesondert", "Offense", 3, "Increases damage by 8% against enemies that have no allies left."},
		{"wrath-of-the-slain", "Wrath of the Slain", "Colère des Tombés", "Zorn der Gefallenen", "Offense", 4, "Increases damage by 5% for each dead ally."},
		{"flawless-execution", "Flawless Execution", "Exécution Parfaite", "Makellose Hinrichtung", "Offense", 4, "Adds 20% C.DMG."},
		{"cycle-of-violence", "Cycle of Violence", "Cycle de Violence", "Kreislauf der Gewalt", "Offense", 5, "Critical hits have a chance to reduce a random skill cooldown by one turn."},
		{"kill-streak", "Kill Streak", "Série Mortelle", "Todesserie", "Offense", 5, "Killing an enemy increases damage by 12% for the rest of the round."},
		{"warmaster", "Warmaster", "Maître de Guerre", "Kriegsmeister", "Offense", 6, "Each hit has a 60% chance to deal extra damage equal to 10% of the target's max HP."},
		{"giant-slayer", "Giant Slayer", "Tueur de Géants", "Riesentöter", "Offense", 6, "Gives a 30% chance per hit to deal extra damage equal to 5% of the target's max HP."},
		{"tough-skin", "Tough Skin", "Peau Épaisse", "Zähe Haut", "Defense", 1, "Adds 75 DEF."},
		{"blast-shield", "Blast Shield", "Bouclier Anti-Souffle", "Schutzschild", "Defense", 1, "Reduces damage from area attacks by 5%."},
		{"iron-skin", "Iron Skin", "Peau de Fer", "Eisenhaut", "Defense", 2, "Adds 5% DEF."},
		{"resilience", "Resilience", "Résilience", "Widerstandskraft", "Defense", 2, "Adds 10 RES."},
		{"shield-bash", "Shield Bash", "Coup de Bouclier", "Schildstoß", "Defense", 3, "The first hit each round deals bonus damage based on DEF."},
		{"deterrence", "Deterrence", "Dissuasion", "Abschreckung", "Defense", 3, "Gives a 20% chance to counterattack when an ally is hit."},
		{"unshakeable", "Unshakeable", "Inébranlable", "Unerschütterlich", "Defense", 4, "Prevents the first Stun or Freeze of each fight."},
		{"delay-death", "Delay Death", "Repousser la Mort", "Tod Aufschieben", "Defense", 4, "Survives a killing blow with 1 HP once per fight."},
		{"retribution", "Retribution", "Châtiment", "Vergeltungsschlag", "Defense", 5, "Reduces the duration of debuffs on the champion by one turn every third turn."},
		{"bulwark", "Bulwark", "Rempart", "Bollwerk", "Defense", 5, "Reduces damage taken by 10% while the champion has a Shield."},
		{"stoneguard", "Stoneguard", "Garde de Pierre", "Steinwache", "Defense", 6, "Reduces damage from critical hits by 25%."},
		{"unbreakable-will", "Unbreakable Will", "Volonté Inflexible", "Unbeugsamer Wille", "Defense", 6, "Removes one debuff from the champion at the start of each of its turns."},
		{"fast-learner", "Fast Learner", "Apprenti Rapide", "Schneller Lerner", "Support", 1, "Adds 10 ACC."},
		{"pinpoint-accuracy", "Pinpoint Accuracy", "Précision Chirurgicale", "Punktgenau", "Support", 1, "Adds 5 SPD."},
		{"steadfast", "Steadfast", "Inflexible", "Standhaft", "Support", 2, "Adds 75 HP per champion level and 5% HP."},
		{"sniper", "Sniper", "Tireur d'Élite", "Scharfschütze", "Support", 2, "Increases the chance of landing debuffs by 5%."},
		{"healing-hands", "Healing Hands", "Mains Guérisseuses", "Heilende Hände", "Support", 3, "Increases healing done by 10%."},
		{"swarm-smiter", "Swarm Smiter", "Fléau des Essaims", "Schwarmschläger", "Support", 3, "Increases damage against summoned enemies by 15%."},
		{"lore-of-steel", "Lore of Steel", "Savoir de l'Acier", "Stahlwissen", "Support", 4, "Increases the basic stat bonuses of 2-piece gear sets by 15%."},
		{"rapid-response", "Rapid Response", "Réaction Rapide", "Schnelle Reaktion", "Support", 4, "Fills 10% turn meter whenever an ally receives a buff."},
		{"arcane-celerity", "Arcane Celerity", "Célérité Arcanique", "Arkane Schnelligkeit", "Support", 5, "Adds 10 SPD when the champion's HP is above 50%."},
		{"master-hexer", "Master Hexer", "Maître des Maléfices", "Meister der Flüche", "Support", 5, "Gives a 30% chance to extend debuffs placed by the champion by one turn."},
		{"eagle-eye", "Eagle Eye", "Œil d'Aigle", "Adlerauge", "Support", 6, "Adds 50 ACC against bosses."},
		{"timely-intervention", "Timely Intervention", "Intervention Opportune", "Rechtzeitiges Eingreifen", "Support", 6, "Reduces the cooldown of the champion's skills by one turn when an ally drops below 30% HP."},
	}
}
