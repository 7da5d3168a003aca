package offline

import (
	"context"
	"log/slog"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/gcsdb/resolve"
)

// Names is the game's one name resolver (package gcsdb/resolve over every
// entity's names, keys and localized display names) as the responder reads
// it. *gcsdb.Game satisfies it, so a name the gcs_* tools accept is a name
// the responder finds in a message, with the same typo, partial and
// localized-name rules.
type Names interface {
	// NameIndex returns the resolver as of the game's current data.
	NameIndex(ctx context.Context) (*resolve.Resolver, error)
}

// entities reads one answer's names from the resolver of the moment. With no
// resolver (a studio's own game without the sample schema, or the names
// unavailable) it finds none, so the responder never answers as if it knew
// an entity it has no tools for.
type entities struct {
	idx *resolve.Resolver
}

// entities returns the names for one answer: the index is read once.
func (r *Responder) entities(ctx context.Context) entities {
	if r.gameNames == nil {
		return entities{}
	}
	idx, err := r.gameNames.NameIndex(ctx)
	if err != nil {
		r.log.LogAttrs(ctx, slog.LevelWarn, "offline: names unavailable", slog.String("error", err.Error()))
		return entities{}
	}
	return entities{idx: idx}
}

// kindOf is the responder's kind for a resolver kind; masteries and a
// studio's own kinds have no intents here.
func kindOf(k string) (Kind, bool) {
	switch kk := Kind(k); kk {
	case KindChampion, KindBoss, KindFaction, KindDungeon, KindGearSet:
		return kk, true
	}
	return "", false
}

// Resolve returns the entities named in text, in text order, each once.
func (e entities) Resolve(text string) []Entity {
	if e.idx == nil {
		return nil
	}
	ms := e.idx.FindAll("", text)
	out := make([]Entity, 0, len(ms))
	for _, m := range ms {
		if (m.How == resolve.Partial || m.How == resolve.Typo) && isStopWord(resolve.Fold(m.Text)) {
			continue
		}
		if ent, ok := entityOf(m.Candidate); ok {
			out = append(out, ent)
		}
	}
	return out
}

// ByID returns the entity with config id id (a decimal string).
func (e entities) ByID(id string) (Entity, bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	if e.idx == nil || err != nil || n <= 0 {
		return Entity{}, false
	}
	c, ok := e.idx.ByID("", n)
	if !ok {
		return Entity{}, false
	}
	return entityOf(c)
}

// Examples returns up to n entities of kind, for help text.
func (e entities) Examples(kind Kind, n int) []Entity {
	if e.idx == nil {
		return nil
	}
	var out []Entity
	for _, c := range e.idx.OfKind(string(kind), n) {
		if ent, ok := entityOf(c); ok {
			out = append(out, ent)
		}
	}
	return out
}

// entityOf is c as an Entity with its localized names.
func entityOf(c resolve.Candidate) (Entity, bool) {
	k, ok := kindOf(c.Kind)
	if !ok {
		return Entity{}, false
	}
	ent := Entity{Kind: k, ID: strconv.FormatInt(c.ID, 10), Name: c.Name}
	for loc, n := range c.Display {
		if n != "" && n != c.Name {
			if ent.Names == nil {
				ent.Names = map[string]string{}
			}
			ent.Names[loc] = n
		}
	}
	return ent, true
}

// isStopWord reports words of questions and of the game's vocabulary (en,
// fr, de) that name no entity when the resolver matched them only as a typo
// or as one word of a longer name ("quelle" is not the champion Uelle, "void"
// in "fastest void supports" is not the boss Void Seraph); spelled as a
// whole name they still match.
func isStopWord(w string) bool {
	_, ok := stopWords[w]
	return ok
}

var stopWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`
the this that there their these those what which where when about tell show stats story lore good best better
against counter counters compare versus screen help should could would shake shade stone night light knight
fire dark with from have does some more than skills skill fastest highest strongest weakest boss bosses champion
champions team teams farm where gear sets energy cost costs much many dungeon dungeons faction factions set
support attack defense speed damage cheapest lowest reward rewards drop drops story history beat defeat kill
other others story stories mastery masteries tree
bring here hello thanks thank weather today please again first second third about after before every
ceux cette celui quel quelle quels quelles comment combien pourquoi histoire contre meilleur meilleure
meilleurs equipement champion donjon faction energie battre vaincre ecran quoi ou est sont dans pour avec
dieser diese dieses welche welcher welches warum gegen beste besten bester ausruestung ausrustung verlies
geschichte energie kostet kosten schlagen besiegen bildschirm champion wer wie was wo hier bitte danke
hallo bonjour merci salut void magic spirit force leere geist kraft magie neant esprit vide`) {
		m[w] = struct{}{}
	}
	return m
}()
