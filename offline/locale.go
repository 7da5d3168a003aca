package offline

import (
	"fmt"
	"github.com/gameassist/gameassist/gamedata"
	"strconv"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// msg names one sentence template; each locale has every template.
type msg int

const (
	mHelpIntro msg = iota
	mHelpDetails
	mHelpCompare
	mHelpCounters
	mHelpFind
	mHelpFarm
	mHelpScreen
	mGreeting
	mOffTopic
	mNotRecognised
	mUnavailable
	mNothingFound
	mCountersLead
	mCountersNone
	mWeaknesses
	mImmunities
	mMatchYes
	mMatchNo
	mTeamLead
	mTeamNone
	mHowToLead
	mCompareLead
	mStatLeader
	mGearLead
	mGearRoleLead
	mFarmLead
	mFarmNone
	mCostLead
	mDrops
	mBoss
	mStages
	mFindLead
	mFindLeadLow
	mListLead
	mWith
	mHardestBosses
	mEasiestBosses
	mBossExtremeNone
	mDifficulties
	mFindNone
	mEffectLead
	mSkillsLead
	mCooldown
	mMasteriesLead
	mLoreLead
	mPatchLead
	mScreenLead
	mDetailsChampion
	mDetailsChampionShort
	mDetailsBoss
	mDetailsFaction
	mDetailsGearSet
	mStats
	mPhases
	mMembers
	mStrongAgainst
	mBossDungeon
	mDocsLead
	mEnergy
	mBestFor
	mOtherResults
	mNoName
	mNoChampion
	mNoBoss
	mNoFaction
	mNoDungeon
	mNoGearSet
	mNoMastery
	mDidYouMean
	mBrowse
)

var templates = map[string]map[msg]string{
	"en": {
		mHelpIntro:            "I can answer questions about the game's champions, bosses, dungeons and gear.",
		mHelpDetails:          "Champion details: \"Tell me about %s\"",
		mHelpCompare:          "Comparisons: \"%s vs %s\"",
		mHelpCounters:         "Boss counters: \"Who counters %s?\"",
		mHelpFind:             "Searches: \"Which Void supports are the fastest?\"",
		mHelpFarm:             "Farming: \"Where can I farm %s?\"",
		mHelpScreen:           "The screen you're on: \"How do I use this screen?\"",
		mGreeting:             "Hello, I'm the game's assistant!",
		mOffTopic:             "Sorry, I can only help with questions about the game.",
		mNotRecognised:        "I didn't recognise a champion, boss or dungeon in your message.",
		mUnavailable:          "That data is unavailable right now; please try again in a moment.",
		mNothingFound:         "I found nothing about that in the game's guides.",
		mCountersLead:         "The best counters for **%s** are %s.",
		mCountersNone:         "I found no recommended counters for **%s**.",
		mWeaknesses:           "Weak to: %s",
		mImmunities:           "Immune to: %s",
		mMatchYes:             "Yes, **%s** is a good pick against **%s**: it is one of its recommended counters.",
		mMatchNo:              "**%s** is not among the recommended counters for **%s**; better picks are %s.",
		mTeamLead:             "Against **%s**, %s of your team are recommended counters.",
		mTeamNone:             "None of your team is among the recommended counters for **%s**; better picks are %s.",
		mHowToLead:            "How to beat **%s**:",
		mCompareLead:          "%s compared:",
		mStatLeader:           "Higher stats: %s",
		mGearLead:             "Best gear for **%s**: %s.",
		mGearRoleLead:         "Gear sets made for %s champions: %s.",
		mFarmLead:             "You can farm **%s** in %s.",
		mFarmNone:             "The data names no place that drops **%s**.",
		mCostLead:             "**%s** costs %s energy per run.",
		mDrops:                "Drops: %s",
		mBoss:                 "Boss: %s",
		mStages:               "Stages: %s",
		mFindLead:             "%s, best first: %s.",
		mFindLeadLow:          "%s, lowest first: %s.",
		mListLead:             "The game has %s %s:",
		mWith:                 "with %s",
		mHardestBosses:        "The hardest bosses are the %s ones: %s.",
		mEasiestBosses:        "The easiest bosses are the %s ones: %s.",
		mBossExtremeNone:      "The game data rates no boss's difficulty.",
		mDifficulties:         "Difficulties, easiest first: %s",
		mFindNone:             "No champion matches that.",
		mEffectLead:           "Champions whose skills apply %s: %s.",
		mSkillsLead:           "**%s** has %s skills:",
		mCooldown:             "cooldown %s",
		mMasteriesLead:        "Recommended build for **%s**:",
		mLoreLead:             "The story of **%s**:",
		mPatchLead:            "From the patch notes:",
		mScreenLead:           "About this screen (%s):",
		mDetailsChampion:      "**%s** is a %s %s %s champion of the %s.",
		mDetailsChampionShort: "**%s** is a %s %s %s champion.",
		mDetailsBoss:          "**%s** is a %s %s boss with %s HP.",
		mDetailsFaction:       "**%s** is a faction from %s.",
		mDetailsGearSet:       "**%s** is a %s-piece gear set: %s.",
		mStats:                "Stats: %s",
		mPhases:               "Phases: %s",
		mMembers:              "Champions: %s",
		mStrongAgainst:        "Strong against: %s",
		mBossDungeon:          "Found in: %s",
		mDocsLead:             "From the game's guides:",
		mEnergy:               "Energy: %s",
		mBestFor:              "Best for: %s",
		mOtherResults:         "%s more match.",
		mNoName:               "There is nothing named \"%s\" in the game.",
		mNoChampion:           "There is no champion named \"%s\" in the game.",
		mNoBoss:               "There is no boss named \"%s\" in the game.",
		mNoFaction:            "There is no faction named \"%s\" in the game.",
		mNoDungeon:            "There is no dungeon named \"%s\" in the game.",
		mNoGearSet:            "There is no gear set named \"%s\" in the game.",
		mNoMastery:            "There is no mastery named \"%s\" in the game.",
		mDidYouMean:           "Did you mean %s?",
		mBrowse:               "The game's %s:",
	},
	"fr": {
		mHelpIntro:            "Je réponds aux questions sur les champions, les boss, les donjons et l'équipement du jeu.",
		mHelpDetails:          "Détails d'un champion : « Parle-moi de %s »",
		mHelpCompare:          "Comparaisons : « %s contre %s »",
		mHelpCounters:         "Contres d'un boss : « Qui contre %s ? »",
		mHelpFind:             "Recherches : « Quels supports Néant sont les plus rapides ? »",
		mHelpFarm:             "Farm : « Où farmer %s ? »",
		mHelpScreen:           "L'écran affiché : « Comment utiliser cet écran ? »",
		mGreeting:             "Bonjour, je suis l'assistant du jeu !",
		mOffTopic:             "Désolé, je ne peux répondre qu'aux questions sur le jeu.",
		mNotRecognised:        "Je n'ai reconnu aucun champion, boss ou donjon dans votre message.",
		mUnavailable:          "Ces données sont indisponibles pour le moment ; réessayez dans un instant.",
		mNothingFound:         "Je n'ai rien trouvé à ce sujet dans les guides du jeu.",
		mCountersLead:         "Les meilleurs contres de **%s** sont %s.",
		mCountersNone:         "Je n'ai trouvé aucun contre recommandé pour **%s**.",
		mWeaknesses:           "Faiblesses : %s",
		mImmunities:           "Immunités : %s",
		mMatchYes:             "Oui, **%s** est un bon choix contre **%s** : c'est l'un de ses contres recommandés.",
		mMatchNo:              "**%s** ne fait pas partie des contres recommandés de **%s** ; meilleurs choix : %s.",
		mTeamLead:             "Contre **%s**, %s de votre équipe font partie des contres recommandés.",
		mTeamNone:             "Aucun membre de votre équipe ne fait partie des contres recommandés de **%s** ; meilleurs choix : %s.",
		mHowToLead:            "Comment battre **%s** :",
		mCompareLead:          "Comparaison de %s :",
		mStatLeader:           "Meilleures stats : %s",
		mGearLead:             "Meilleur équipement pour **%s** : %s.",
		mGearRoleLead:         "Ensembles d'équipement pour les champions %s : %s.",
		mFarmLead:             "Vous pouvez farmer **%s** dans %s.",
		mFarmNone:             "Les données n'indiquent aucun lieu où obtenir **%s**.",
		mCostLead:             "**%s** coûte %s d'énergie par partie.",
		mDrops:                "Butin : %s",
		mBoss:                 "Boss : %s",
		mStages:               "Niveaux : %s",
		mFindLead:             "%s, du meilleur au moins bon : %s.",
		mFindLeadLow:          "%s, du plus bas au plus haut : %s.",
		mListLead:             "Le jeu compte %s %s :",
		mWith:                 "avec %s",
		mHardestBosses:        "Les boss les plus difficiles sont ceux de difficulté %s : %s.",
		mEasiestBosses:        "Les boss les plus faciles sont ceux de difficulté %s : %s.",
		mBossExtremeNone:      "Les données du jeu ne donnent la difficulté d'aucun boss.",
		mDifficulties:         "Difficultés, de la plus facile à la plus dure : %s",
		mFindNone:             "Aucun champion ne correspond.",
		mEffectLead:           "Champions dont les compétences appliquent %s : %s.",
		mSkillsLead:           "**%s** a %s compétences :",
		mCooldown:             "recharge %s",
		mMasteriesLead:        "Build recommandé pour **%s** :",
		mLoreLead:             "L'histoire de **%s** :",
		mPatchLead:            "D'après les notes de patch :",
		mScreenLead:           "À propos de cet écran (%s) :",
		mDetailsChampion:      "**%s** est un champion %s %s %s de la faction %s.",
		mDetailsChampionShort: "**%s** est un champion %s %s %s.",
		mDetailsBoss:          "**%s** est un boss %s %s avec %s PV.",
		mDetailsFaction:       "**%s** est une faction de %s.",
		mDetailsGearSet:       "**%s** est un ensemble de %s pièces : %s.",
		mStats:                "Stats : %s",
		mPhases:               "Phases : %s",
		mMembers:              "Champions : %s",
		mStrongAgainst:        "Fort contre : %s",
		mBossDungeon:          "Lieu : %s",
		mDocsLead:             "D'après les guides du jeu :",
		mEnergy:               "Énergie : %s",
		mBestFor:              "Idéal pour : %s",
		mOtherResults:         "%s autres correspondent.",
		mNoName:               "Le jeu n'a rien qui s'appelle «%s».",
		mNoChampion:           "Le jeu n'a aucun champion nommé «%s».",
		mNoBoss:               "Le jeu n'a aucun boss nommé «%s».",
		mNoFaction:            "Le jeu n'a aucune faction nommée «%s».",
		mNoDungeon:            "Le jeu n'a aucun donjon nommé «%s».",
		mNoGearSet:            "Le jeu n'a aucun ensemble d'équipement nommé «%s».",
		mNoMastery:            "Le jeu n'a aucune maîtrise nommée «%s».",
		mDidYouMean:           "Vouliez-vous dire %s ?",
		mBrowse:               "Les %s du jeu :",
	},
	"de": {
		mHelpIntro:            "Ich beantworte Fragen zu den Champions, Bossen, Verliesen und der Ausrüstung des Spiels.",
		mHelpDetails:          "Champion-Details: „Erzähl mir von %s“",
		mHelpCompare:          "Vergleiche: „%s gegen %s“",
		mHelpCounters:         "Konter für Bosse: „Wer kontert %s?“",
		mHelpFind:             "Suchen: „Welche Leere-Unterstützer sind die schnellsten?“",
		mHelpFarm:             "Farmen: „Wo farme ich %s?“",
		mHelpScreen:           "Der aktuelle Bildschirm: „Wie benutze ich diesen Bildschirm?“",
		mGreeting:             "Hallo, ich bin der Assistent des Spiels!",
		mOffTopic:             "Entschuldigung, ich kann nur Fragen zum Spiel beantworten.",
		mNotRecognised:        "Ich habe in deiner Nachricht keinen Champion, Boss oder kein Verlies erkannt.",
		mUnavailable:          "Diese Daten sind gerade nicht verfügbar; bitte versuche es gleich noch einmal.",
		mNothingFound:         "Dazu habe ich in den Spielanleitungen nichts gefunden.",
		mCountersLead:         "Die besten Konter für **%s** sind %s.",
		mCountersNone:         "Ich habe keine empfohlenen Konter für **%s** gefunden.",
		mWeaknesses:           "Schwächen: %s",
		mImmunities:           "Immun gegen: %s",
		mMatchYes:             "Ja, **%s** ist gegen **%s** eine gute Wahl: einer der empfohlenen Konter.",
		mMatchNo:              "**%s** gehört nicht zu den empfohlenen Kontern für **%s**; besser sind %s.",
		mTeamLead:             "Gegen **%s** sind %s aus deinem Team empfohlene Konter.",
		mTeamNone:             "Niemand aus deinem Team gehört zu den empfohlenen Kontern für **%s**; besser sind %s.",
		mHowToLead:            "So besiegst du **%s**:",
		mCompareLead:          "Vergleich von %s:",
		mStatLeader:           "Höhere Werte: %s",
		mGearLead:             "Beste Ausrüstung für **%s**: %s.",
		mGearRoleLead:         "Ausrüstungssets für %s-Champions: %s.",
		mFarmLead:             "Du kannst **%s** hier farmen: %s.",
		mFarmNone:             "Die Daten nennen keinen Ort, an dem **%s** droppt.",
		mCostLead:             "**%s** kostet %s Energie pro Durchgang.",
		mDrops:                "Beute: %s",
		mBoss:                 "Boss: %s",
		mStages:               "Stufen: %s",
		mFindLead:             "%s, die besten zuerst: %s.",
		mFindLeadLow:          "%s, die niedrigsten zuerst: %s.",
		mListLead:             "Das Spiel hat %s %s:",
		mWith:                 "mit %s",
		mHardestBosses:        "Die schwersten Bosse haben die Schwierigkeit %s: %s.",
		mEasiestBosses:        "Die leichtesten Bosse haben die Schwierigkeit %s: %s.",
		mBossExtremeNone:      "Die Spieldaten nennen für keinen Boss eine Schwierigkeit.",
		mDifficulties:         "Schwierigkeiten, die leichteste zuerst: %s",
		mFindNone:             "Kein Champion passt dazu.",
		mEffectLead:           "Champions, deren Fähigkeiten %s anwenden: %s.",
		mSkillsLead:           "**%s** hat %s Fähigkeiten:",
		mCooldown:             "Abklingzeit %s",
		mMasteriesLead:        "Empfohlener Build für **%s**:",
		mLoreLead:             "Die Geschichte von **%s**:",
		mPatchLead:            "Aus den Patchnotes:",
		mScreenLead:           "Über diesen Bildschirm (%s):",
		mDetailsChampion:      "**%s** ist ein %s %s %s-Champion der Fraktion %s.",
		mDetailsChampionShort: "**%s** ist ein %s %s %s-Champion.",
		mDetailsBoss:          "**%s** ist ein %s %s-Boss mit %s LP.",
		mDetailsFaction:       "**%s** ist eine Fraktion aus %s.",
		mDetailsGearSet:       "**%s** ist ein Ausrüstungsset mit %s Teilen: %s.",
		mStats:                "Werte: %s",
		mPhases:               "Phasen: %s",
		mMembers:              "Champions: %s",
		mStrongAgainst:        "Stark gegen: %s",
		mBossDungeon:          "Fundort: %s",
		mDocsLead:             "Aus den Spielanleitungen:",
		mEnergy:               "Energie: %s",
		mBestFor:              "Ideal für: %s",
		mOtherResults:         "%s weitere passen.",
		mNoName:               "Im Spiel gibt es nichts namens „%s“.",
		mNoChampion:           "Im Spiel gibt es keinen Champion namens „%s“.",
		mNoBoss:               "Im Spiel gibt es keinen Boss namens „%s“.",
		mNoFaction:            "Im Spiel gibt es keine Fraktion namens „%s“.",
		mNoDungeon:            "Im Spiel gibt es kein Verlies namens „%s“.",
		mNoGearSet:            "Im Spiel gibt es kein Ausrüstungsset namens „%s“.",
		mNoMastery:            "Im Spiel gibt es keine Meisterschaft namens „%s“.",
		mDidYouMean:           "Meintest du %s?",
		mBrowse:               "Die %s des Spiels:",
	},
}

// lang writes text in one locale: templates, lists and numbers.
type lang struct {
	loc string
	p   *message.Printer
}

var printers = map[string]*message.Printer{
	"en": message.NewPrinter(language.English),
	"fr": message.NewPrinter(language.French),
	"de": message.NewPrinter(language.German),
}

func newLang(loc string) lang {
	p, ok := printers[loc]
	if !ok {
		loc, p = "en", printers["en"]
	}
	return lang{loc: loc, p: p}
}

// t fills template m of the locale.
func (l lang) t(m msg, args ...any) string {
	s, ok := templates[l.loc][m]
	if !ok {
		s = templates["en"][m]
	}
	out := fmt.Sprintf(s, args...)
	if l.loc == "en" {
		out = anArticle.Replace(out)
	}
	return out
}

// anArticle fixes "a" before the vowel-initial words the templates fill in.
var anArticle = strings.NewReplacer(" a Epic ", " an Epic ", " a Uncommon ", " an Uncommon ", " a Easy ", " an Easy ")

// num formats a whole number the locale's way (15,525 · 15 525 · 15.525);
// other text is returned as is.
func (l lang) num(s string) string {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return s
	}
	return l.p.Sprintf("%d", n)
}

// and joins items as the locale lists them: "a, b and c".
func (l lang) and(xs []string) string {
	word := map[string]string{"en": "and", "fr": "et", "de": "und"}[l.loc]
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	out := ""
	for i, x := range xs[:len(xs)-1] {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out + " " + word + " " + xs[len(xs)-1]
}

// or joins items as alternatives: "a, b or c".
func (l lang) or(xs []string) string {
	word := map[string]string{"en": "or", "fr": "ou", "de": "oder"}[l.loc]
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " " + word + " " + xs[len(xs)-1]
}

// kindPlural names a kind's entities in the plural, for "the game's
// dungeons".
func (l lang) kindPlural(k Kind) string {
	return kindPlurals[l.loc][k]
}

var kindPlurals = map[string]map[Kind]string{
	"en": {KindChampion: "champions", KindBoss: "bosses", KindFaction: "factions", KindDungeon: "dungeons", KindGearSet: "gear sets"},
	"fr": {KindChampion: "champions", KindBoss: "boss", KindFaction: "factions", KindDungeon: "donjons", KindGearSet: "ensembles d'équipement"},
	"de": {KindChampion: "Champions", KindBoss: "Bosse", KindFaction: "Fraktionen", KindDungeon: "Verliese", KindGearSet: "Ausrüstungssets"},
}

// word translates the game's fixed vocabulary for the locale: the
// affinities, roles and rarities as the game data names them, then the
// responder's own words (difficulties as its sentences inflect them).
func (l lang) word(s string) string {
	if l.loc == "en" {
		return s
	}
	if w, ok := gamedata.WordLabel(s, l.loc); ok {
		return w
	}
	if w, ok := vocab[l.loc][s]; ok {
		return w
	}
	return s
}

var vocab = map[string]map[string]string{
	"fr": {
		"Easy": "facile", "Normal": "normal", "Hard": "difficile", "Brutal": "brutal", "Nightmare": "cauchemar",
		"champions": "Champions",
	},
	"de": {
		"Easy": "leichter", "Normal": "normaler", "Hard": "schwerer", "Brutal": "brutaler", "Nightmare": "albtraumhafter",
		"champions": "Champions",
	},
}

// difficultyNames name the game's difficulties on their own (the
// vocabulary's words are inflected for "a … boss"), by locale; English
// uses the data's names.
var difficultyNames = map[string]map[string]string{
	"fr": {"Normal": "normal", "Hard": "difficile", "Brutal": "brutal", "Nightmare": "cauchemar"},
	"de": {"Normal": "Normal", "Hard": "Schwer", "Brutal": "Brutal", "Nightmare": "Albtraum"},
}

// difficulty names the difficulty d on its own for the locale.
func (l lang) difficulty(d string) string {
	if n, ok := difficultyNames[l.loc][d]; ok {
		return n
	}
	return d
}
