package offline

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/gcsdb"
)

// screenCtx is what the player's screen shows: its entities, from the
// results the screen rules already fetched and from ids in the screen data.
type screenCtx struct {
	ents []Entity // primary kinds first (boss, dungeon, gear set, champion, faction)
	pos  map[string]int
	// implied are entities the screen's ones stand for without showing
	// them: a dungeon screen's boss is "this boss".
	implied []Entity
}

// kindRank orders the screen's entities: the one a screen is about first.
var kindRank = map[Kind]int{KindBoss: 0, KindDungeon: 1, KindGearSet: 2, KindChampion: 3, KindFaction: 4}

// toolKinds maps data tools to the kind of entity their results describe.
var toolKinds = map[string]Kind{
	toolChampion: KindChampion, toolCharacterByID: KindChampion, toolSkills: KindChampion, toolGear: KindChampion,
	toolBoss: KindBoss, toolCounters: KindBoss, toolFaction: KindFaction, toolDungeon: KindDungeon, toolGearSet: KindGearSet,
}

func screenContext(req Request, names entities) screenCtx {
	sc := screenCtx{pos: map[string]int{}}
	ids := screenIDs(req.ScreenData)
	if len(ids) == 0 {
		return sc
	}
	onScreen := map[string]int{}
	for i, id := range ids {
		if _, ok := onScreen[id]; !ok {
			onScreen[id] = i
		}
	}
	seen := map[string]bool{}
	add := func(e Entity) {
		p, ok := onScreen[e.ID]
		if e.ID == "" || seen[e.ID] || !ok {
			return
		}
		seen[e.ID] = true
		sc.pos[e.ID] = p
		sc.ents = append(sc.ents, e)
	}
	// The screen rules' results name the screen's entities (and their
	// kinds, for a studio's own ids); other cached results about entities
	// the screen does not show are not the screen's.
	for _, pr := range req.Context {
		if !pr.Result.OK() {
			continue
		}
		if _, ok := toolKinds[pr.Name]; !ok {
			continue
		}
		if e, ok := priorEntity(pr); ok {
			if full, ok := names.ByID(e.ID); ok {
				e = full
			}
			add(e)
			if _, shown := onScreen[e.ID]; shown && pr.Name == toolDungeon {
				if d, ok := dataAs[gcsdb.Dungeon](pr.Result); ok && d.Boss != nil {
					if b, ok := names.ByID(idString(d.Boss.ID)); ok && b.Kind == KindBoss {
						sc.implied = append(sc.implied, b)
					}
				}
			}
		}
	}
	for _, id := range ids {
		if e, ok := names.ByID(id); ok {
			add(e)
		}
	}
	sort.SliceStable(sc.ents, func(i, j int) bool {
		a, b := sc.ents[i], sc.ents[j]
		if kindRank[a.Kind] != kindRank[b.Kind] {
			return kindRank[a.Kind] < kindRank[b.Kind]
		}
		return sc.pos[a.ID] < sc.pos[b.ID]
	})
	return sc
}

func (sc screenCtx) first(kind Kind) (Entity, bool) {
	for _, e := range append(sc.ents, sc.implied...) {
		if e.Kind == kind {
			return e, true
		}
	}
	return Entity{}, false
}

func (sc screenCtx) primary() *Entity {
	if len(sc.ents) == 0 {
		return nil
	}
	return &sc.ents[0]
}

// team returns the champions on the screen, in screen order.
func (sc screenCtx) team() []Entity {
	return ofKind(sc.ents, KindChampion)
}

// screenIDs lists the whole numbers and numeric strings in screen data, in
// document order, at most 64 of them: candidate entity ids.
func screenIDs(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out []string
	for len(out) < 64 {
		t, err := dec.Token()
		if err != nil {
			break
		}
		var s string
		switch v := t.(type) {
		case json.Number:
			s = v.String()
		case string:
			s = v
		default:
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil && n > 0 {
			out = append(out, strconv.FormatInt(n, 10))
		}
	}
	return out
}

// priorEntity reads the entity a details or counters result is about, as
// its data declared it (tool.Entities; a counters result names its boss
// first).
func priorEntity(pr Prior) (Entity, bool) {
	ref, ok := factsEntity(pr.Result)
	if !ok {
		return Entity{}, false
	}
	kind, ok := kindOf(ref.Kind)
	if !ok {
		kind = toolKinds[pr.Name]
	}
	return Entity{Kind: kind, ID: idString(ref.ID), Name: ref.Name}, true
}
