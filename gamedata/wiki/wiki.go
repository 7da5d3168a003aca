// Package wiki renders the sample game into wiki-style markdown documents
// (the RAG corpus under content/) and builds the retrieval evaluation set
// that goes with them. Everything is a pure function of the Game, so the
// committed files can be checked against a fresh render.
package wiki

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/gamedata"
)

// Category names as written in the front matter.
const (
	CategoryChampion   = "champion"
	CategoryBoss       = "boss"
	CategoryDungeon    = "dungeon"
	CategoryFaction    = "faction"
	CategoryUX         = "ux"
	CategoryFAQ        = "faq"
	CategoryMechanics  = "mechanics"
	CategoryPatchNotes = "patch_notes"
)

// Categories lists every document category with the content sub-directory
// its files live in, in a stable order.
func Categories() []struct{ Name, Dir string } {
	return []struct{ Name, Dir string }{
		{CategoryChampion, "champions"},
		{CategoryBoss, "bosses"},
		{CategoryDungeon, "dungeons"},
		{CategoryFaction, "factions"},
		{CategoryUX, "ux"},
		{CategoryFAQ, "faq"},
		{CategoryMechanics, "mechanics"},
		{CategoryPatchNotes, "patch_notes"},
	}
}

// Document is one wiki page: front matter fields plus a markdown body.
type Document struct {
	DocID    string
	Title    string
	Category string
	Entity   string
	EntityID int // 0 when the page is not about one entity
	Locale   string
	Path     string // slash-separated, relative to the content root
	Body     string // markdown after the front matter, starting with "# Title"
}

// Markdown renders the document as stored on disk: front matter between
// "---" lines, then the body, ending in exactly one newline.
func (d Document) Markdown() string {
	var b strings.Builder
	b.WriteString("---\n")
	field := func(k, v string) {
		if v == "" {
			b.WriteString(k + ":\n")
			return
		}
		b.WriteString(k + ": " + v + "\n")
	}
	id := ""
	if d.EntityID != 0 {
		id = strconv.Itoa(d.EntityID)
	}
	field("doc_id", d.DocID)
	field("title", d.Title)
	field("category", d.Category)
	field("entity", d.Entity)
	field("entity_id", id)
	field("locale", d.Locale)
	b.WriteString("---\n")
	b.WriteString(strings.TrimRight(d.Body, "\n"))
	b.WriteString("\n")
	return b.String()
}

// Render builds every document of the wiki from g, sorted by path. It
// fails if two documents share a doc_id or a path, or a field that goes
// into the single-line front matter holds a line break.
func Render(g gamedata.Game) ([]Document, error) {
	ix := newIndex(g)
	var docs []Document
	for _, c := range g.Champions {
		docs = append(docs, championDoc(ix, c))
	}
	for _, b := range g.Bosses {
		docs = append(docs, bossDoc(ix, b))
	}
	for _, d := range g.Dungeons {
		docs = append(docs, dungeonDoc(ix, d))
	}
	for _, f := range g.Factions {
		docs = append(docs, factionDoc(ix, f))
	}
	docs = append(docs, uxDocs()...)
	docs = append(docs, faqDocs(ix)...)
	docs = append(docs, mechanicsDocs(ix)...)
	docs = append(docs, patchDocs(ix)...)
	sort.Slice(docs, func(i, j int) bool { return docs[i].Path < docs[j].Path })
	ids, paths := map[string]bool{}, map[string]bool{}
	for _, d := range docs {
		if ids[d.DocID] || paths[d.Path] {
			return nil, fmt.Errorf("wiki: duplicate document %s (%s)", d.DocID, d.Path)
		}
		ids[d.DocID], paths[d.Path] = true, true
		for _, f := range []string{d.DocID, d.Title, d.Category, d.Entity, d.Locale, d.Path} {
			if strings.ContainsAny(f, "\r\n") || strings.TrimSpace(f) != f {
				return nil, fmt.Errorf("wiki: document %s: front matter field %q is not a clean single line", d.DocID, f)
			}
		}
	}
	return docs, nil
}

// dirOf returns the content sub-directory of a category.
func dirOf(category string) string {
	for _, c := range Categories() {
		if c.Name == category {
			return c.Dir
		}
	}
	return category
}

func newDoc(category, slug, title, entity string, entityID int, body string) Document {
	prefix := category
	if category == CategoryPatchNotes {
		prefix = "patch-notes"
	}
	return Document{
		DocID: prefix + "-" + slug, Title: title, Category: category, Entity: entity, EntityID: entityID,
		Locale: "en", Path: dirOf(category) + "/" + slug + ".md", Body: body,
	}
}

// index gives the renderers lookups over the game.
type index struct {
	g         gamedata.Game
	champions map[int]gamedata.Champion
	factions  map[int]gamedata.Faction
	bosses    map[int]gamedata.Boss
	dungeons  map[int]gamedata.Dungeon
	gear      map[int]gamedata.GearSet
	gearByKey map[string]gamedata.GearSet
	mastery   map[string]gamedata.Mastery
	bossByKey map[string]gamedata.Boss
}

func newIndex(g gamedata.Game) *index {
	ix := &index{
		g: g, champions: map[int]gamedata.Champion{}, factions: map[int]gamedata.Faction{},
		bosses: map[int]gamedata.Boss{}, dungeons: map[int]gamedata.Dungeon{}, gear: map[int]gamedata.GearSet{},
		gearByKey: map[string]gamedata.GearSet{}, mastery: map[string]gamedata.Mastery{}, bossByKey: map[string]gamedata.Boss{},
	}
	for _, c := range g.Champions {
		ix.champions[c.ID] = c
	}
	for _, f := range g.Factions {
		ix.factions[f.ID] = f
	}
	for _, b := range g.Bosses {
		ix.bosses[b.ID] = b
		ix.bossByKey[b.Key] = b
	}
	for _, d := range g.Dungeons {
		ix.dungeons[d.ID] = d
	}
	for _, s := range g.GearSets {
		ix.gear[s.ID] = s
		ix.gearByKey[s.Key] = s
	}
	for _, m := range g.Masteries {
		ix.mastery[m.Key] = m
	}
	return ix
}

// gearName returns the display name of a gear set key, or the key itself.
func (ix *index) gearName(key string) string {
	if s, ok := ix.gearByKey[key]; ok {
		return s.Name
	}
	return key
}

func (ix *index) masteryName(key string) string {
	if m, ok := ix.mastery[key]; ok {
		return m.Name
	}
	return key
}

func (ix *index) bossName(key string) string {
	if b, ok := ix.bossByKey[key]; ok {
		return b.Name
	}
	return key
}

// effectText renders an effect key as "Label (plain words)".
func effectText(k string) string {
	e, ok := gamedata.EffectByKey(k)
	if !ok {
		return k
	}
	if strings.EqualFold(e.Label, e.Plain) {
		return e.Label
	}
	return e.Label + " (" + e.Plain + ")"
}

func effectLabel(k string) string {
	if e, ok := gamedata.EffectByKey(k); ok {
		return e.Label
	}
	return k
}

func championEffects(c gamedata.Champion) []string {
	var out []string
	for _, s := range c.Skills {
		for _, e := range s.Effects {
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	slices.Sort(out)
	return out
}

// joinAnd joins items as "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func ordinal(n int) string {
	words := []string{"zeroth", "first", "second", "third", "fourth", "fifth", "sixth"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n) + "th"
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// article returns "a" or "an" for the word w.
func article(w string) string {
	if w != "" && strings.ContainsRune("AEIOUaeiou", rune(w[0])) {
		return "an"
	}
	return "a"
}

// beatenBy returns the affinity that has the advantage over a.
func beatenBy(a string) string {
	for _, x := range gamedata.Affinities() {
		if gamedata.AffinityAdvantage(x, a) == 1 {
			return x
		}
	}
	return ""
}

// beats returns the affinity a has the advantage over.
func beats(a string) string {
	for _, x := range gamedata.Affinities() {
		if gamedata.AffinityAdvantage(a, x) == 1 {
			return x
		}
	}
	return ""
}

// hash gives a stable small number from a string, used to vary templates
// per entity without a PRNG.
func hash(s string) int {
	h := uint32(2166136261)
	for i := range len(s) {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return int(h % 1000003)
}

func choose(key string, options []string) string {
	return options[hash(key)%len(options)]
}
