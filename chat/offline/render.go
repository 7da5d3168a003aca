package offline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gameassist/gameassist/tool"
)

// render writes the answer for plan p from the tool outcomes.
func (r *Responder) render(p Plan, outs []tool.Outcome) string {
	if p.Intent == IntentHelp || len(p.Calls) == 0 {
		return r.helpText(p)
	}
	byName := map[string][]tool.Outcome{}
	for _, o := range outs {
		byName[o.Name] = append(byName[o.Name], o)
	}
	var b strings.Builder
	switch p.Intent {
	case IntentMatchup:
		champ, _ := first(byName[toolChampion])
		counters, _ := first(byName[toolCounters])
		renderMatchup(&b, p, champ, counters)
	case IntentCounters:
		counters, _ := first(byName[toolCounters])
		renderCounters(&b, p.Entities, counters)
	case IntentCompare:
		if o, ok := first(byName[toolCompare]); ok {
			renderCompare(&b, o)
		} else {
			for _, o := range outs {
				renderDetails(&b, o)
			}
		}
	case IntentLore, IntentScreenHelp, IntentKnowledge:
		for _, o := range outs {
			renderPassages(&b, o, p)
		}
	case IntentGear:
		if o, ok := first(byName[toolGear]); ok {
			renderGear(&b, p, o)
		}
	default:
		for _, o := range outs {
			renderDetails(&b, o)
		}
	}
	text := strings.TrimSpace(b.String())
	if text == "" {
		return r.helpText(p)
	}
	return text
}

func first(os []tool.Outcome) (tool.Outcome, bool) {
	if len(os) == 0 {
		return tool.Outcome{}, false
	}
	return os[0], true
}

// helpText says what the assistant can do, with names from the game.
func (r *Responder) helpText(p Plan) string {
	champ := r.example(KindChampion, "Kaelith")
	champ2 := champ
	r.mu.Lock()
	if r.idx != nil && len(r.idx.kinds[KindChampion]) > 1 {
		champ2 = r.idx.kinds[KindChampion][1].Name
	}
	r.mu.Unlock()
	boss := r.example(KindBoss, "the Fire Knight")
	faction := r.example(KindFaction, "a faction")
	var b strings.Builder
	if p.Intent == IntentHelp {
		b.WriteString("I didn't recognise a champion, boss or faction in your message. ")
	}
	b.WriteString("Here is what I can help with:\n")
	fmt.Fprintf(&b, "- Champion details and stats: \"Tell me about %s\"\n", champ)
	if champ2 != champ {
		fmt.Fprintf(&b, "- Comparing champions: \"%s vs %s\"\n", champ, champ2)
	}
	fmt.Fprintf(&b, "- Boss counters: \"Who counters %s?\"\n", boss)
	fmt.Fprintf(&b, "- Matchups: \"Is %s good against %s?\"\n", champ, boss)
	fmt.Fprintf(&b, "- Lore: \"What's the story of %s?\"\n", faction)
	b.WriteString("- The screen you're on: \"How do I use this screen?\"")
	return b.String()
}

// decode turns a result's data into plain maps, slices, strings, numbers.
func decode(r tool.Result) any {
	raw, err := dataJSON(r.Data)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return v
}

// failed writes a short note for an error envelope and reports whether it did.
func failed(b *strings.Builder, o tool.Outcome) bool {
	if o.Result.OK() {
		return false
	}
	msg := strings.TrimSpace(o.Result.Message)
	if msg == "" {
		msg = "The data is unavailable right now."
	}
	b.WriteString(msg)
	if g := strings.TrimSpace(o.Result.Guidance); g != "" && !strings.Contains(g, "Call ") {
		b.WriteString(" " + g)
	}
	b.WriteString("\n\n")
	return true
}

// entityOf finds the entity object in a details result: the data itself,
// or its single object member (e.g. {"champion": {...}}).
func entityOf(v any) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if _, ok := m["name"]; ok {
		return m
	}
	for _, k := range sortedKeys(m) {
		if sub, ok := m[k].(map[string]any); ok {
			if _, ok := sub["name"]; ok {
				return sub
			}
		}
	}
	return m
}

func renderDetails(b *strings.Builder, o tool.Outcome) {
	if failed(b, o) {
		return
	}
	m := entityOf(decode(o.Result))
	if m == nil {
		return
	}
	b.WriteString(headline(m))
	b.WriteString("\n")
	if s := statsLine(m); s != "" {
		b.WriteString(s + "\n")
	}
	for _, k := range []string{"weaknesses", "immunities", "mechanics"} {
		if xs := stringList(m[k]); len(xs) > 0 {
			fmt.Fprintf(b, "%s: %s\n", title(k), strings.Join(xs, ", "))
		}
	}
	if s := phasesLine(m["phases"]); s != "" {
		b.WriteString(s + "\n")
	}
	if s := skillsText(m["skills"]); s != "" {
		b.WriteString(s)
	}
	for _, k := range []string{"recommended_counters", "counters", "strong_champions", "strong_against", "recommended_against", "champions", "members"} {
		if names := namesOf(m[k]); len(names) > 0 {
			fmt.Fprintf(b, "%s: %s\n", title(k), strings.Join(limit(names, 8), ", "))
		}
	}
	for _, k := range []string{"description", "summary", "lore"} {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			b.WriteString(clipRunes(strings.TrimSpace(s), 300))
			b.WriteString("\n")
			break
		}
	}
	b.WriteString("\n")
}

// headline is "Name — Legendary · Magic · Attack · Faction: Dawn Order".
func headline(m map[string]any) string {
	name := scalar(m["name"])
	var attrs []string
	for _, k := range []string{"rarity", "affinity", "element", "role", "type", "kind", "difficulty", "alignment", "homeland"} {
		if s := scalar(m[k]); s != "" {
			attrs = append(attrs, s)
		}
	}
	for _, k := range []string{"faction", "faction_name", "dungeon", "dungeon_name"} {
		v := m[k]
		if sub, ok := v.(map[string]any); ok {
			v = sub["name"]
		}
		if s := scalar(v); s != "" {
			attrs = append(attrs, title(strings.TrimSuffix(k, "_name"))+": "+s)
		}
	}
	if hp := scalar(m["hp"]); hp != "" {
		attrs = append(attrs, "HP "+hp)
	}
	if len(attrs) == 0 {
		return name
	}
	return name + " — " + strings.Join(attrs, " · ")
}

// statsLine renders a "stats" object: "Stats: HP 15000, ATK 1200, ...".
func statsLine(m map[string]any) string {
	st, ok := m["stats"].(map[string]any)
	if !ok || len(st) == 0 {
		return ""
	}
	order := []string{"hp", "atk", "def", "spd", "c_rate", "c_dmg", "res", "acc"}
	seen := map[string]bool{}
	var parts []string
	add := func(k string) {
		v := scalar(st[k])
		if v == "" || seen[k] {
			return
		}
		seen[k] = true
		label := strings.ToUpper(strings.ReplaceAll(k, "_", " "))
		if k == "c_rate" || k == "c_dmg" {
			label, v = map[string]string{"c_rate": "C.RATE", "c_dmg": "C.DMG"}[k], v+"%"
		}
		parts = append(parts, label+" "+v)
	}
	for _, k := range order {
		add(k)
	}
	for _, k := range sortedKeys(st) {
		add(k)
	}
	return "Stats: " + strings.Join(parts, ", ")
}

func skillsText(v any) string {
	xs, ok := v.([]any)
	if !ok || len(xs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Skills:\n")
	for i, x := range xs {
		if i == 4 {
			break
		}
		s, ok := x.(map[string]any)
		if !ok {
			continue
		}
		line := "- " + scalar(s["name"])
		if cd := scalar(s["cooldown"]); cd != "" && cd != "0" {
			line += " (cooldown " + cd + ")"
		}
		if d := scalar(s["description"]); d != "" {
			line += ": " + clipRunes(d, 160)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

func phasesLine(v any) string {
	xs, ok := v.([]any)
	if !ok || len(xs) == 0 {
		return ""
	}
	var parts []string
	for _, x := range xs {
		p, ok := x.(map[string]any)
		if !ok {
			continue
		}
		s := scalar(p["name"])
		if t := scalar(p["hp_threshold"]); t != "" {
			s += " (from " + t + "% HP)"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Phases: " + strings.Join(parts, ", ")
}

// counter is one champion recommended against a boss.
type counter struct {
	name, reason string
}

// countersOf finds the list of counters in a counters result: the first
// array of objects with a name, with a reason when one is given.
func countersOf(v any) []counter {
	arr := objectArray(v, "counters", "champions", "recommended", "results")
	var out []counter
	for _, o := range arr {
		c := counter{name: scalar(o["name"])}
		if c.name == "" {
			c.name = scalar(o["champion_name"])
		}
		for _, k := range []string{"reason", "why", "explanation", "reasons", "matched_weaknesses", "effects"} {
			switch x := o[k].(type) {
			case string:
				c.reason = x
			case []any:
				c.reason = strings.Join(stringList(x), ", ")
			}
			if c.reason != "" {
				break
			}
		}
		if c.name != "" {
			out = append(out, c)
		}
	}
	return out
}

func renderCounters(b *strings.Builder, ents []Entity, o tool.Outcome) {
	if o.Name == "" {
		return
	}
	if failed(b, o) {
		return
	}
	v := decode(o.Result)
	boss := bossName(v, ents)
	cs := countersOf(v)
	if len(cs) == 0 {
		fmt.Fprintf(b, "I found no recommended counters for %s.\n", boss)
		return
	}
	fmt.Fprintf(b, "Champions that counter %s:\n", boss)
	for i, c := range cs {
		if i == 6 {
			break
		}
		if c.reason != "" {
			fmt.Fprintf(b, "- %s: %s\n", c.name, clipRunes(c.reason, 160))
		} else {
			fmt.Fprintf(b, "- %s\n", c.name)
		}
	}
	if m, ok := v.(map[string]any); ok {
		if bm, ok := m["boss"].(map[string]any); ok {
			if xs := stringList(bm["weaknesses"]); len(xs) > 0 {
				fmt.Fprintf(b, "Weaknesses: %s\n", strings.Join(xs, ", "))
			}
		}
		if xs := stringList(m["weaknesses"]); len(xs) > 0 {
			fmt.Fprintf(b, "Weaknesses: %s\n", strings.Join(xs, ", "))
		}
	}
}

func bossName(v any, ents []Entity) string {
	if m, ok := v.(map[string]any); ok {
		if bm, ok := m["boss"].(map[string]any); ok {
			if s := scalar(bm["name"]); s != "" {
				return s
			}
		}
		if s := scalar(m["boss"]); s != "" {
			return s
		}
		if s := scalar(m["boss_name"]); s != "" {
			return s
		}
	}
	for _, e := range ents {
		if e.Kind == KindBoss {
			return e.Name
		}
	}
	return "this boss"
}

func renderMatchup(b *strings.Builder, p Plan, champ, counters tool.Outcome) {
	var champName, boss string
	for _, e := range p.Entities {
		if e.Kind == KindChampion && champName == "" {
			champName = e.Name
		}
		if e.Kind == KindBoss && boss == "" {
			boss = e.Name
		}
	}
	if counters.Name != "" && counters.Result.OK() {
		cs := countersOf(decode(counters.Result))
		var hit *counter
		for i := range cs {
			if strings.EqualFold(cs[i].name, champName) {
				hit = &cs[i]
				break
			}
		}
		if hit == nil && champ.Result.OK() {
			// The champion's own data may name the boss as one it is strong against.
			if m := entityOf(decode(champ.Result)); m != nil {
				for _, k := range []string{"strong_against", "recommended_against"} {
					for _, n := range namesOf(m[k]) {
						if strings.EqualFold(n, boss) {
							hit = &counter{name: champName, reason: "its data lists it as strong against " + boss}
						}
					}
				}
			}
		}
		if hit != nil {
			fmt.Fprintf(b, "Yes — %s is one of the recommended counters for %s", champName, boss)
			if hit.reason != "" {
				fmt.Fprintf(b, ": %s", clipRunes(hit.reason, 200))
			}
			b.WriteString(".\n\n")
		} else {
			fmt.Fprintf(b, "Not really — %s is not among the recommended counters for %s.", champName, boss)
			var names []string
			for _, c := range cs {
				names = append(names, c.name)
			}
			if len(names) > 0 {
				fmt.Fprintf(b, " Better picks: %s.", strings.Join(limit(names, 5), ", "))
			}
			b.WriteString("\n\n")
		}
	} else if counters.Name != "" {
		failed(b, counters)
	}
	if champ.Name != "" {
		renderDetails(b, champ)
	}
}

// renderCompare renders each character of a comparison briefly, then who
// leads each stat.
func renderCompare(b *strings.Builder, o tool.Outcome) {
	if failed(b, o) {
		return
	}
	v := decode(o.Result)
	chars := objectArray(v, "characters", "champions", "comparison", "results")
	if len(chars) == 0 {
		return
	}
	names := make([]string, 0, len(chars))
	for _, c := range chars {
		names = append(names, scalar(c["name"]))
	}
	fmt.Fprintf(b, "Comparing %s:\n", strings.Join(names, " and "))
	for _, c := range chars {
		b.WriteString("- " + headline(c) + "\n")
		if s := statsLine(c); s != "" {
			b.WriteString("  " + s + "\n")
		}
	}
	m, _ := v.(map[string]any)
	if winners, ok := m["stat_winners"].(map[string]any); ok && len(winners) > 0 {
		var parts []string
		for _, k := range []string{"hp", "atk", "def", "spd", "c_rate", "c_dmg", "res", "acc"} {
			if w := scalar(winners[k]); w != "" {
				label := map[string]string{"c_rate": "C.RATE", "c_dmg": "C.DMG"}[k]
				if label == "" {
					label = strings.ToUpper(k)
				}
				parts = append(parts, label+" "+w)
			}
		}
		if len(parts) > 0 {
			b.WriteString("Higher stat: " + strings.Join(parts, ", ") + "\n")
		}
		for _, mu := range objectArray(m["affinity_matchups"]) {
			if r := scalar(mu["result"]); r != "" {
				fmt.Fprintf(b, "Affinity %s vs %s: %s\n", scalar(mu["attacker"]), scalar(mu["defender"]), r)
			}
		}
		return
	}
	// Who leads each stat.
	var leads []string
	for _, k := range []string{"hp", "atk", "def", "spd", "res", "acc"} {
		best, bestName, tie := -1.0, "", false
		for _, c := range chars {
			st, _ := c["stats"].(map[string]any)
			n, ok := st[k].(json.Number)
			if !ok {
				continue
			}
			f, err := n.Float64()
			if err != nil {
				continue
			}
			switch {
			case f > best:
				best, bestName, tie = f, scalar(c["name"]), false
			case f == best:
				tie = true
			}
		}
		if bestName != "" && !tie {
			leads = append(leads, fmt.Sprintf("%s %s", strings.ToUpper(k), bestName))
		}
	}
	if len(leads) > 0 {
		b.WriteString("Higher stat: " + strings.Join(leads, ", ") + "\n")
	}
	if m, ok := v.(map[string]any); ok {
		for _, k := range []string{"summary", "verdict", "notes"} {
			if s := scalar(m[k]); s != "" {
				b.WriteString(clipRunes(s, 300) + "\n")
			}
		}
	}
}

// renderPassages renders lore or UX documentation: the top passages.
func renderPassages(b *strings.Builder, o tool.Outcome, p Plan) {
	if failed(b, o) {
		return
	}
	v := decode(o.Result)
	if s, ok := v.(string); ok {
		b.WriteString(clipRunes(strings.TrimSpace(s), 600) + "\n")
		return
	}
	arr := objectArray(v, "results", "passages", "chunks", "documents", "matches", "hits")
	if len(arr) == 0 {
		if m, ok := v.(map[string]any); ok {
			arr = []map[string]any{m}
		}
	}
	if len(arr) == 0 {
		b.WriteString("I found nothing about that in the game's documentation.\n")
		return
	}
	if p.Intent == IntentScreenHelp && p.Screen != "" {
		fmt.Fprintf(b, "About this screen (%s):\n", p.Screen)
	}
	shown := 0
	for _, x := range arr {
		if shown == 2 {
			break
		}
		text := ""
		for _, k := range []string{"text", "content", "chunk", "snippet", "body", "answer", "summary", "description"} {
			if s := scalar(x[k]); s != "" {
				text = s
				break
			}
		}
		if text == "" {
			continue
		}
		head := ""
		for _, k := range []string{"title", "heading", "section", "name"} {
			if s := scalar(x[k]); s != "" {
				head = s
				break
			}
		}
		if head != "" {
			b.WriteString(head + ": ")
		}
		b.WriteString(clipRunes(strings.TrimSpace(text), 500) + "\n")
		shown++
	}
	if shown == 0 {
		b.WriteString("I found nothing about that in the game's documentation.\n")
	}
}

// objectArray returns the first array of objects with a name or text in v:
// v itself, or a member named by prefer, or any member.
func objectArray(v any, prefer ...string) []map[string]any {
	toObjs := func(x any) []map[string]any {
		xs, ok := x.([]any)
		if !ok || len(xs) == 0 {
			return nil
		}
		var out []map[string]any
		for _, e := range xs {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	if objs := toObjs(v); objs != nil {
		return objs
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	for _, k := range prefer {
		if objs := toObjs(m[k]); objs != nil {
			return objs
		}
	}
	for _, k := range sortedKeys(m) {
		if objs := toObjs(m[k]); objs != nil {
			return objs
		}
	}
	return nil
}

// namesOf lists the names in an array of objects or strings.
func namesOf(v any) []string {
	xs, ok := v.([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, x := range xs {
		switch e := x.(type) {
		case string:
			out = append(out, e)
		case map[string]any:
			if s := scalar(e["name"]); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// stringList lists the strings in an array, with underscores as spaces.
func stringList(v any) []string {
	xs, ok := v.([]any)
	if !ok {
		return nil
	}
	var out []string
	for _, x := range xs {
		if s, ok := x.(string); ok && s != "" {
			out = append(out, strings.ReplaceAll(s, "_", " "))
		}
	}
	return out
}

func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "yes"
		}
		return "no"
	}
	return ""
}

func title(k string) string {
	k = strings.ReplaceAll(k, "_", " ")
	if k == "" {
		return k
	}
	return strings.ToUpper(k[:1]) + k[1:]
}

func limit(xs []string, n int) []string {
	if len(xs) > n {
		return xs[:n]
	}
	return xs
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// renderGear lists the recommended gear sets with why and where to farm them.
func renderGear(b *strings.Builder, p Plan, o tool.Outcome) {
	if failed(b, o) {
		return
	}
	sets := objectArray(decode(o.Result), "recommendations", "gear_sets", "sets")
	if len(sets) == 0 {
		b.WriteString("I have no gear recommendation for that champion.\n")
		return
	}
	who := "this champion"
	if len(p.Entities) > 0 {
		who = p.Entities[0].Name
	}
	fmt.Fprintf(b, "Gear for %s:\n", who)
	for i, s := range sets {
		if i == 3 {
			break
		}
		line := "- " + scalar(s["name"])
		if bonus := scalar(s["stat_bonus"]); bonus != "" {
			line += " (" + bonus + ")"
		}
		if why := scalar(s["reason"]); why != "" {
			line += ": " + why
		}
		if where := scalar(s["farm_in"]); where != "" {
			line += ". Farm it in " + where
		}
		b.WriteString(line + ".\n")
	}
}
