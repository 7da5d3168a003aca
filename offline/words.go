package offline

import (
	"strconv"
	"strings"
)

// The phrases below are matched as whole words against the message after
// lower-casing, accent folding and apostrophe removal ("qu'est-ce" is
// "quest ce", "Fähigkeiten" is "fahigkeiten"). Each list holds the English,
// French and German phrasings of one intent.
//
//nolint:misspell // French and German words, not misspelt English
var (
	wordsGreeting = phrases(`hi|hello|hey|yo|greetings|good morning|good evening|thanks|thank you|what can you do|who are you|help|
		bonjour|salut|coucou|bonsoir|merci|que peux tu faire|qui es tu|aide|
		hallo|moin|servus|guten tag|danke|was kannst du|wer bist du|hilfe`)
	wordsDeictic = phrases(`this|this one|here|these|that one|current|my|
		ce|cet|cette|ces|ici|celui ci|celle ci|mon|ma|mes|
		dieser|diese|dieses|diesen|diesem|hier|mein|meine|meinem|meinen`)
	// wordsThisSet point at a gear set the player is looking at, not at
	// the champion who wears it ("what does this set do?" on the gear
	// screen).
	wordsThisSet = phrases(`this set|this gear set|this gear|that set|these sets|
		ce set|cet ensemble|cette panoplie|cet equipement|ces ensembles|
		dieses set|diese set|diesem set|dieses ausrustungsset|diese ausrustung`)
	// wordsThisKind point at an entity of a kind the player is looking
	// at: "and what gear for this champion?" after a question about a set
	// is about the screen's champion, not the set.
	wordsThisKind = map[Kind][]string{
		KindChampion: phrases(`this champion|this hero|this character|that champion|ce champion|cette championne|ce heros|
			ce personnage|dieser champion|diesen champion|diesem champion|dieser held|diesen held|diesem held`),
		KindBoss: phrases(`this boss|that boss|ce boss|dieser boss|diesen boss|diesem boss`),
		KindDungeon: phrases(`this dungeon|that dungeon|ce donjon|dieser dungeon|diesen dungeon|diesem dungeon|
			dieses verlies|diesem verlies`),
		KindFaction: phrases(`this faction|that faction|cette faction|diese fraktion|dieser fraktion`),
		KindGearSet: wordsThisSet,
	}
	wordsTeam = phrases(`my team|my champions|my squad|this team|this squad|our team|mon equipe|mes champions|cette equipe|notre equipe|
		mein team|meine champions|meine truppe|dieses team|unser team`)
	wordsLore = phrases(`lore|story|backstory|history|legend|origin|origins|background|biography|
		histoire|legende|origine|origines|passe|recit|
		geschichte|hintergrund|herkunft|vorgeschichte|legende`)
	wordsSkills = phrases(`skill|skills|ability|abilities|kit|moves|spells|cooldown|cooldowns|
		competence|competences|capacite|capacites|sort|sorts|
		fahigkeit|fahigkeiten|faehigkeit|faehigkeiten|skills`)
	wordsCompare = phrases(`vs|versus|compare|comparison|better|difference|stronger|or|
		comparer|compare|comparaison|mieux|ou|
		vergleich|vergleiche|vergleichen|besser|oder`)
	wordsCounters = phrases(`counter|counters|countering|who should i bring|bring|use against|good against|best against|
		against|beat|beats|kill|defeat|strong against|who should|who do i|team for|champions for|weak|weakness|weaknesses|
		contrer|contre|qui amener|amener|emmener|battre|vaincre|bon contre|efficace contre|
		konter|kontern|kontert|kontere|gegen|mitnehmen|besiegen|schlagen|gut gegen|stark gegen`)
	// wordsWeakness ask what a boss is weak or immune to (not who
	// exploits it: see wordsWhoAsk).
	wordsWeakness = phrases(`weak to|weak against|weakness|weaknesses|immune to|immune|immunity|immunities|vulnerable to|
		faible contre|faible face|faiblesse|faiblesses|insensible|immunise|immunisee|immunite|immunites|
		est il faible|est elle faible|point faible|points faibles|
		schwach gegen|schwache|schwachen|schwachstelle|schwachstellen|immun gegen|immun|immunitat|immunitaten|
		wogegen|ist schwach|schwach`)
	// wordsImmune ask what a boss is immune to.
	wordsImmune = phrases(`immune to|immune|immunity|immunities|insensible|immunise|immunisee|immunite|immunites|
		immun gegen|immun|immunitat|immunitaten`)
	// wordsWhoAsk ask for champions: "which champions hit its weaknesses?"
	// is a counters question.
	wordsWhoAsk = phrases(`who|which champion|which champions|counter|counters|bring|
		quel champion|quels champions|contrer|amener|
		wer|welcher champion|welche champions|konter|mitnehmen`)
	wordsHowTo = phrases(`how do i beat|how to beat|how do i kill|how to kill|how do i defeat|how to defeat|how can i beat|
		strategy|strategy for|tips for|guide|how do i win|
		comment battre|comment vaincre|comment tuer|strategie|astuces|conseils|
		wie besiege ich|wie besiegt man|wie schlage ich|wie schlagt man|strategie|tipps|wie gewinne ich`)
	wordsGear = phrases(`gear|set|sets|artifact|artifacts|equip|equipment|build|wear|armor|armour|
		equipement|ensemble|ensembles|panoplie|armure|
		ausrustung|ausruestung|set|sets|rustung`)
	wordsMastery = phrases(`mastery|masteries|maitrise|maitrises|meisterschaft|meisterschaften`)
	wordsFarm    = phrases(`farm|farming|where can i get|where do i get|where to get|where does|drop|drops|dropped|obtain|
		farmer|ou obtenir|ou trouver|obtenir|ou farmer|tombe|
		farmen|farme|farmt|wo bekomme|wo finde|droppt|bekommen|erhalten`)
	wordsCost = phrases(`energy|cost|costs|price|stamina|how much|reward|rewards|loot|stages|
		energie|cout|coute|combien|recompense|recompenses|butin|
		energie|kostet|kosten|belohnung|belohnungen|beute|stufen`)
	wordsPatch = phrases(`patch|patch notes|update|changelog|nerf|nerfed|buffed|what changed|latest changes|
		mise a jour|notes de patch|changements|
		aktualisierung|anderungen|aenderungen|patchnotes`)
	wordsScreen = phrases(`this screen|this page|this menu|this window|this tab|how do i use|how does this work|how to use|
		what can i do here|what am i looking at|what is this|whats this|where am i|use this|
		cet ecran|cette page|ce menu|que faire ici|comment utiliser|ou suis je|
		dieser bildschirm|diesen bildschirm|diese seite|dieses menu|was kann ich hier|wie benutze ich|wo bin ich`)
	wordsSuperlative = phrases(`fastest|quickest|slowest|highest|strongest|tankiest|most|top|best|biggest|hardest hitting|
		squishiest|frailest|lowest|the least|fewest|plus lent|plus lente|plus lents|plus lentes|le moins|la moins|les moins|
		langsamste|langsamsten|niedrigste|niedrigsten|niedrigstes|am wenigsten|
		plus rapide|plus rapides|le plus|la plus|les plus|meilleur|meilleurs|meilleure|meilleures|
		schnellste|schnellsten|hochste|hochsten|starkste|starksten|beste|besten|meiste|meisten`)
	// wordsAsk ask about something by name; with no name recognised the
	// answer says so instead of calling the question off-topic.
	wordsAsk = phrases(`tell me about|info on|information about|details of|stats of|who is|
		parle moi de|parlez moi de|qui est|infos sur|erzahl mir von|erzahl mir vom|erzahle mir von|wer ist`)
	wordsList    = phrases(`which|who|list|show me|all|champions|heroes|quels|quelles|lesquels|liste|welche|wer|liste|alle`)
	wordsEffectQ = phrases(`who can|which champions|champions that|champions with|who has|who applies|who gives|
		qui peut|quels champions|champions avec|welche champions|wer kann|champions mit`)
	// wordsGame are words only a question about the game would use; a
	// message with none of them and no entity is off-topic.
	wordsGame = phrases(`champion|champions|hero|heroes|boss|bosses|dungeon|dungeons|raid|raids|faction|factions|gear|set|sets|
		skill|skills|stat|stats|speed|spd|atk|attack|def|defense|defence|hp|health|res|resistance|acc|accuracy|crit|critical|
		level|rank|ascend|debuff|debuffs|buff|buffs|heal|healer|healing|turn meter|turn|turns|shields|heals|affinity|affinities|void|magic|spirit|force|
		team|campaign|arena|gem|gems|scroll|scrolls|roster|quest|quests|stun|poison|burn|provoke|shield|revive|cooldown|
		leader|aura|extra turn|energy|refill|legendary|epic|rare|uncommon|common|mastery|masteries|support|tank|damage|
		counter|counters|farm|drop|patch|summon|shard|shards|upgrade|stage|stages|chapter|tier|phase|phases|phasen|mechanic|mechanics|piece|pieces|set bonus|
		equipe|competence|competences|degats|affinite|affinites|attaque|bouclier|boucliers|equipement|statistiques|tour supplementaire|cle|cles|soin|vitesse|donjon|donjons|energie|niveau|rang|gemmes|maitrise|
		mannschaft|schaden|heilung|affinitat|affinitaten|angriff|verteidigung|schild|schilde|runde|zusatzrunde|schlussel|geschwindigkeit|verlies|verliese|stufe|edelsteine|meisterschaft|ausrustung|
		fahigkeit|fahigkeiten|faehigkeiten`)
)

// phrases splits a "|"-separated list into normalized phrases.
func phrases(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "|") {
		toks := tokens(p)
		if len(toks) > 0 {
			out = append(out, strings.Join(toks, " "))
		}
	}
	return out
}

// has reports whether the normalized text (" "-padded) holds any phrase as
// whole words.
func has(text string, ps []string) bool {
	for _, p := range ps {
		if strings.Contains(text, " "+p+" ") {
			return true
		}
	}
	return false
}

// statWords maps words naming a stat to gcs_find_champions' sort key.
var statWords = []struct {
	key   string
	words []string
}{
	{"spd", phrases(`fastest|quickest|speed|spd|fast|rapide|rapides|vitesse|schnell|schnellste|schnellsten|geschwindigkeit|
		slowest|plus lent|plus lente|plus lents|plus lentes|langsamste|langsamsten`)},
	{"atk", phrases(`atk|attack stat|highest attack|most attack|hardest hitting|strongest attack|attaque|angriff|angriffs`)},
	{"hp", phrases(`hp|health|tankiest|most hp|squishiest|frailest|pv|points de vie|lebenspunkte|lp`)},
	{"def", phrases(`def|defense stat|highest defense|most defense|highest def|defence stat|tankiest defense|verteidigung|
		lowest defense|least defense|lowest defence|least defence|moins de defense|plus basse defense`)},
	{"res", phrases(`res|resistance|resist|widerstand`)},
	{"acc", phrases(`acc|accuracy|precision|genauigkeit`)},
	{"c_rate", phrases(`crit rate|critical rate|c rate|taux critique|kritrate`)},
	{"c_dmg", phrases(`crit damage|critical damage|c dmg|degats critiques|kritschaden`)},
}

var affinityWords = []struct {
	value string
	words []string
}{
	{"Magic", phrases(`magic|magie|magique|magisch`)},
	{"Force", phrases(`force|kraft`)},
	{"Spirit", phrases(`spirit|esprit|geist`)},
	{"Void", phrases(`void|neant|vide|leere`)},
}

var roleWords = []struct {
	value string
	words []string
}{
	{"Support", phrases(`support|supports|healer|healers|soutien|soutiens|soigneur|soigneurs|unterstutzer|unterstutzung|heiler`)},
	{"Attack", phrases(`attacker|attackers|dps|damage dealer|damage dealers|nuker|nukers|attaquant|attaquants|angreifer|
		attack champion|attack champions|attack role|attack hero|attack heroes|champion attaque|champions attaque|
		angriffs champion|angriffs champions|angriffschampion|angriffschampions`)},
	{"Defense", phrases(`tank|tanks|defender|defenders|defense champion|defense champions|defenseur|defenseurs|verteidiger`)},
	{"HP", phrases(`hp champion|hp champions|hp role|role hp|champions hp|lp champion`)},
}

//nolint:misspell // French and German words, not misspelt English
var rarityWords = []struct {
	value string
	words []string
}{
	{"Legendary", phrases(`legendary|legendaries|legendaire|legendaires|legendar|legendare|legendaren`)},
	{"Epic", phrases(`epic|epics|epique|epiques|episch|epische|epischen`)},
	{"Rare", phrases(`rare|rares|selten|seltene|seltenen`)},
	{"Uncommon", phrases(`uncommon|peu commun|peu communs|ungewohnlich|ungewohnliche`)},
	{"Common", phrases(`common|commun|communs|gewohnlich|gewohnliche`)},
}

// effectWords maps phrasings of a skill effect to its key.
var effectWords = []struct {
	key   string
	words []string
}{
	{"decrease_def", phrases(`decrease def|decrease defense|defense down|def down|lower defense|reduce defense|baisse de defense|verteidigung senken`)},
	{"decrease_atk", phrases(`decrease atk|decrease attack|attack down|baisse d attaque|angriff senken`)},
	{"decrease_spd", phrases(`decrease spd|decrease speed|slow|slows|ralentir|verlangsamen`)},
	{"stun", phrases(`stun|stuns|etourdir|etourdissement|betauben`)},
	{"heal", phrases(`heal|heals|healing|soigne|soigner|soin|heilen|heilung`)},
	{"poison", phrases(`poison|poisons|vergiften|gift`)},
	{"burn", phrases(`burn|hp burn|brulure|verbrennung`)},
	{"freeze", phrases(`freeze|geler|einfrieren`)},
	{"provoke", phrases(`provoke|taunt|provoquer|provozieren`)},
	{"shield", phrases(`shield|shields|bouclier|schild`)},
	{"revive", phrases(`revive|revives|ressusciter|wiederbeleben`)},
	{"cleanse", phrases(`cleanse|cleanses|purifier|reinigen`)},
	{"block_buffs", phrases(`block buffs|bloquer les buffs|buffs blockieren`)},
	{"weaken", phrases(`weaken|affaiblir|schwachen`)},
	{"extra_turn", phrases(`extra turn|tour supplementaire|extrazug`)},
	{"increase_atk", phrases(`increase atk|increase attack|attack up|augmentation d attaque`)},
	{"increase_spd", phrases(`increase spd|increase speed|speed up|speed buff|augmentation de vitesse`)},
	{"turn_meter_reduce", phrases(`turn meter reduce|reduce turn meter|reduction de jauge`)},
}

func effectOf(text string) string {
	for _, e := range effectWords {
		if has(text, e.words) {
			return e.key
		}
	}
	return ""
}

func roleOf(text string) string {
	v, _ := roleMatch(text)
	return v
}

// roleMatch returns the role text names and the phrase that named it.
func roleMatch(text string) (value, phrase string) {
	for _, r := range roleWords {
		for _, p := range r.words {
			if strings.Contains(text, " "+p+" ") {
				return r.value, p
			}
		}
	}
	return "", ""
}

// withoutRole is text without the phrase that named a role, so "attack
// champion" keeps its role and does not also ask for the attack stat.
func withoutRole(text string) string {
	if _, p := roleMatch(text); p != "" {
		return strings.Replace(text, " "+p+" ", " ", 1)
	}
	return text
}

// isFind reports a filter or superlative question over champions: a
// superlative, or a list question naming an affinity, role or rarity.
func isFind(text string) bool {
	filters := namesFilter(text)
	sup := has(text, wordsSuperlative)
	return (sup && (namesStat(text) || filters)) || (filters && has(text, wordsList)) ||
		len(minStats(text)) > 0 && (has(text, wordsList) || has(text, wordsChampions))
}

// namesFilter reports a role, affinity or rarity named in text.
func namesFilter(text string) bool {
	filters := roleOf(text) != ""
	for _, a := range affinityWords {
		filters = filters || has(text, a.words)
	}
	for _, r := range rarityWords {
		filters = filters || has(text, r.words)
	}
	return filters
}

// namesStat reports a stat named in text (a role's name aside).
func namesStat(text string) bool {
	for _, s := range statWords {
		if has(withoutRole(text), s.words) {
			return true
		}
	}
	return false
}

// wordsDrops ask what a dungeon drops; wordsStages how many stages it has.
//
//nolint:misspell // French and German words, not misspelt English
var (
	wordsDrops = phrases(`drop|drops|loot|reward|rewards|what can i get|butin|recompense|recompenses|lache|
		beute|belohnung|belohnungen|droppt`)
	// wordsBossWord name a boss as such ("who is the boss here?").
	wordsBossWord = phrases(`boss|endboss`)
	wordsStages   = phrases(`how many stages|how many levels|number of stages|stages|combien d etapes|combien de niveaux|
		wie viele stufen|wie viele level|stufen`)
)

// wordsPieces ask about a gear set's pieces or bonus.
//
//nolint:misspell // French and German words, not misspelt English
var wordsPieces = phrases(`piece|pieces|set bonus|bonus|pieces do i need|
	combien de pieces|bonus d ensemble|teile|teil|setbonus|wie viele teile`)

// wordsMembers ask for the champions of a faction as a list.
//
//nolint:misspell // French and German words, not misspelt English
var wordsMembers = phrases(`members|champions of|champions in|heroes of|who is in|who are in|roster of|
	its champions|their champions|belong to|belongs to|
	membres|champions de|champions du|champions des|qui fait partie|ses champions|leurs champions|appartiennent a|
	mitglieder|champions der|champions von|wer gehort zu|gehoren zu|gehoren zur|gehoren zum|gehort zur|gehort zum|ihre champions|seine champions`)

// asksMembers reports a request for a faction's champions as a list
// ("list the champions of …", "who are the members of …"), not for the
// best of them nor for champions with given attributes.
func asksMembers(text string) bool {
	if !has(text, wordsMembers) || has(text, wordsSuperlative) || has(text, wordsLore) || roleOf(text) != "" {
		return false
	}
	for _, a := range affinityWords {
		if has(text, a.words) {
			return false
		}
	}
	return has(text, wordsList) || has(text, phrases(`members|membres|mitglieder`))
}

// findFilters builds gcs_find_champions arguments from the message.
func findFilters(text string, factions []Entity) map[string]any {
	args := map[string]any{"limit": 5}
	for _, a := range affinityWords {
		if has(text, a.words) {
			args["affinity"] = a.value
			break
		}
	}
	if r := roleOf(text); r != "" {
		args["role"] = r
	}
	for _, r := range rarityWords {
		if has(text, r.words) {
			args["rarity"] = r.value
			break
		}
	}
	if len(factions) > 0 {
		args["faction"] = factions[0].Name
	}
	mins := minStats(text)
	for _, s := range statWords {
		if n, ok := mins[s.key]; ok {
			args["min_"+s.key] = n
		}
	}
	for _, s := range statWords {
		if has(withoutRole(textWithoutMins(text)), s.words) {
			args["sort_by"] = s.key
			break
		}
	}
	if _, ok := args["sort_by"]; !ok {
		// "champions with at least 1500 ATK": the highest ATK first.
		for _, s := range statWords {
			if _, ok := mins[s.key]; ok {
				args["sort_by"] = s.key
				break
			}
		}
	}
	if _, ok := args["sort_by"]; !ok && has(text, wordsSuperlative) {
		// "best" with no stat: the rarest first, the tool's default.
		args["sort_by"] = "rarity"
	}
	if args["sort_by"] != "rarity" && has(text, wordsStatLowest) {
		// "the slowest", "the least HP": the stat's lowest first.
		args["lowest_first"] = true
	}
	return args
}

// wordsStatLowest ask for a stat's lowest values first ("at least 1500
// ATK" is a minimum, not one of them).
//
//nolint:misspell // French and German words, not misspelt English
var wordsStatLowest = phrases(`slowest|squishiest|frailest|lowest|the least|fewest|
	plus lent|plus lente|plus lents|plus lentes|le moins de|la moins de|le moins|la moins|les moins|plus bas|plus basse|
	langsamste|langsamsten|niedrigste|niedrigsten|niedrigstes|am wenigsten|wenigsten`)

// wordsGood ask for a judgement: "is X good", "X or Y", "worth it".
//
//nolint:misspell // French and German words, not misspelt English
var wordsGood = phrases(`good|any good|decent|strong|worth|worth it|viable|better|best pick|good enough|
	bon|bonne|bons|bonnes|fort|forte|vaut|vaut il|rentable|mieux|suffisant|suffisante|
	gut|gute|guter|gutes|stark|starke|lohnt|lohnt sich|besser|reicht|ausreichend|taugt`)

// listKind is a kind of entity the sample game's list tools name in
// full, and the words that name it as a kind.
type listKind struct {
	kind  Kind
	tool  string
	words []string
}

// listKinds are the kinds a list question may ask for (en, fr, de).
//
//nolint:misspell // French and German words, not misspelt English
var listKinds = []listKind{
	{KindChampion, "cache_get_champions_list", phrases(`champions|heroes|heros|helden`)},
	{KindBoss, "cache_get_bosses_list", phrases(`bosses|les boss|des boss|bosse|bossen|endbosse`)},
	{KindDungeon, "cache_get_dungeons_list", phrases(`dungeons|donjons|dungeon list|verliese|dungeons gibt`)},
	{KindFaction, "cache_get_factions_list", phrases(`factions|fraktionen`)},
	{KindGearSet, "cache_get_gear_sets_list", phrases(`gear sets|equipment sets|sets|ensembles|sets d equipement|ausrustungssets`)},
}

// wordsListAll ask for every item of a kind.
//
//nolint:misspell // French and German words, not misspelt English
var wordsListAll = phrases(`list|list all|list the|all|all the|every|show me|show me all|show all|what are the|which are the|are there|how many|
	combien|wie viele|
	liste|lister|tous les|toutes les|quels sont les|quelles sont les|y a t il|montre moi|
	alle|zeig mir|zeig mir alle|welche gibt es|gibt es`)

// listLimit is how many items a list answer asks for: every item of the
// sample game's kinds (its champions are counted, not named).
const listLimit = 200

// listOf returns the kind a message asks to list ("list all bosses",
// "what dungeons are there?"), nil when it asks something else of them
// ("which bosses are weak to poison?", "the hardest boss").
func listOf(text string) *listKind {
	if !has(text, wordsListAll) || has(text, wordsWeakness) || has(text, wordsDrops) {
		return nil
	}
	for i := range listKinds {
		lk := &listKinds[i]
		if !has(text, lk.words) {
			continue
		}
		if lk.kind == KindChampion && (namesFilter(text) || has(text, wordsOwned) || has(text, wordsMy) || has(text, wordsMembers)) {
			// "list the Legendary champions", "how many champions do I
			// have?", "the champions of …": a search of their own.
			return nil
		}
		// The kind's own name ("gear sets") asks nothing more.
		rest := text
		for _, w := range lk.words {
			rest = strings.ReplaceAll(rest, " "+w+" ", " ")
		}
		if ownQuestion(rest) {
			return nil
		}
		return lk
	}
	return nil
}

// wordsHardest and wordsEasiest ask for the bosses of the highest and the
// lowest difficulty (en, fr, de).
//
//nolint:misspell // French and German words, not misspelt English
var (
	wordsHardest = phrases(`hardest|toughest|most difficult|most dangerous|deadliest|
		plus dur|plus dure|plus difficile|plus dangereux|plus dangereuse|
		schwerste|schwersten|schwierigste|schwierigsten|gefahrlichste|gefahrlichsten|harteste|hartesten`)
	wordsEasiest = phrases(`easiest|least difficult|least dangerous|
		plus facile|moins difficile|moins dangereux|moins dangereuse|
		leichteste|leichtesten|einfachste|einfachsten`)
	// wordsBosses name bosses as such.
	wordsBosses = phrases(`boss|bosses|le boss|les boss|bosse|endboss|endbosse`)
)

// bossExtreme reads "which boss is the hardest?" (hardest true) and "the
// easiest boss" (false); ok is false for any other question.
func bossExtreme(text string) (hardest, ok bool) {
	if !has(text, wordsBosses) {
		return false, false
	}
	switch {
	case has(text, wordsHardest):
		return true, true
	case has(text, wordsEasiest):
		return false, true
	}
	return false, false
}

// wordsAtLeast introduce a minimum: "at least 1500 ATK", "over 110 speed".
//
//nolint:misspell // French and German words, not misspelt English
var wordsAtLeast = phrases(`at least|over|more than|above|minimum|min|greater than|
	au moins|plus de|superieur a|minimum de|
	mindestens|uber|mehr als|minimal`)

// minStats reads the minimums text sets on stats, by stat key: a word of
// wordsAtLeast, a number, then the stat's word ("at least 1500 ATK",
// "au moins 110 de vitesse", "mindestens 20000 LP").
func minStats(text string) map[string]int64 {
	mins, _ := readMins(text)
	return mins
}

// textWithoutMins is text without the stat words of the minimums minStats
// reads, so "the fastest with at least 1500 ATK" sorts by speed.
func textWithoutMins(text string) string {
	_, rest := readMins(text)
	return rest
}

// readMins finds the minimums of text (see minStats) and returns them with
// text less the words that named their stats.
func readMins(text string) (map[string]int64, string) {
	f := strings.Fields(text)
	var out map[string]int64
	for i := range f {
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil || n < 0 || n > 10_000_000 {
			continue
		}
		if before := " " + strings.Join(f[max(0, i-3):i], " ") + " "; !has(before, wordsAtLeast) {
			continue
		}
		end := min(len(f), i+4)
		after := " " + strings.Join(f[i+1:end], " ") + " "
		for _, s := range statWords {
			if has(after, s.words) {
				if out == nil {
					out = map[string]int64{}
				}
				out[s.key] = n
				for j := i + 1; j < end; j++ {
					f[j] = ""
				}
				break
			}
		}
	}
	if out == nil {
		return nil, text
	}
	return out, " " + strings.Join(strings.Fields(strings.Join(f, " ")), " ") + " "
}
