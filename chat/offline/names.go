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
	// FindNames returns the entities named in text, in text order, each once.
	FindNames(ctx context.Context, text string) ([]resolve.Match, error)
	// NameByID returns the entity with id, of any kind.
	NameByID(ctx context.Context, id int64) (resolve.Candidate, bool, error)
	// DisplayNames returns an entity's display names by locale.
	DisplayNames(ctx context.Context, id int64) (map[string]string, error)
	// ExampleNames returns up to n entities of kind, for help text.
	ExampleNames(ctx context.Context, kind string, n int) ([]resolve.Candidate, error)
}

// entities turns the game's names into the responder's Entity values. With
// no Names (a studio's own game without the sample schema) it finds none, so
// the responder never answers as if it knew an entity it has no tools for.
type entities struct {
	names Names
	log   *slog.Logger
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
func (e entities) Resolve(ctx context.Context, text string) []Entity {
	if e.names == nil {
		return nil
	}
	ms, err := e.names.FindNames(ctx, text)
	if err != nil {
		e.log.LogAttrs(ctx, slog.LevelWarn, "offline: names unavailable", slog.String("error", err.Error()))
		return nil
	}
	out := make([]Entity, 0, len(ms))
	for _, m := range ms {
		if (m.How == resolve.Partial || m.How == resolve.Typo) && isStopWord(resolve.Fold(m.Text)) {
			continue
		}
		if ent, ok := e.entity(ctx, m.Candidate); ok {
			out = append(out, ent)
		}
	}
	return out
}

// ByID returns the entity with config id id (a decimal string).
func (e entities) ByID(ctx context.Context, id string) (Entity, bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	if e.names == nil || err != nil || n <= 0 {
		return Entity{}, false
	}
	c, ok, err := e.names.NameByID(ctx, n)
	if err != nil {
		e.log.LogAttrs(ctx, slog.LevelWarn, "offline: names unavailable", slog.String("error", err.Error()))
		return Entity{}, false
	}
	if !ok {
		return Entity{}, false
	}
	return e.entity(ctx, c)
}

// Examples returns up to n entities of kind, for help text.
func (e entities) Examples(ctx context.Context, kind Kind, n int) []Entity {
	if e.names == nil {
		return nil
	}
	cs, err := e.names.ExampleNames(ctx, string(kind), n)
	if err != nil {
		return nil
	}
	var out []Entity
	for _, c := range cs {
		if ent, ok := e.entity(ctx, c); ok {
			out = append(out, ent)
		}
	}
	return out
}

// entity is c as an Entity with its localized names.
func (e entities) entity(ctx context.Context, c resolve.Candidate) (Entity, bool) {
	k, ok := kindOf(c.Kind)
	if !ok {
		return Entity{}, false
	}
	ent := Entity{Kind: k, ID: strconv.FormatInt(c.ID, 10), Name: c.Name}
	display, err := e.names.DisplayNames(ctx, c.ID)
	if err != nil {
		// The canonical name still answers; only localization is lost.
		e.log.LogAttrs(ctx, slog.LevelWarn, "offline: display names unavailable", slog.Int64("id", c.ID), slog.String("error", err.Error()))
	}
	for loc, n := range display {
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
