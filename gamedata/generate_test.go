package gamedata

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestGenerateDeterministic(t *testing.T) {
	a, b := Generate(DefaultSeed), Generate(DefaultSeed)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs with the same seed differ")
	}
	ja, err := EncodeJSON(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := EncodeJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ja, jb) {
		t.Fatal("two runs with the same seed encode differently")
	}
	jc, err := EncodeJSON(Generate(DefaultSeed + 1))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(ja, jc) {
		t.Fatal("a different seed gives the same game")
	}
}

func TestGenerateValidForManySeeds(t *testing.T) {
	for _, seed := range []int64{1, 2, 42, 1 << 40, -7, DefaultSeed} {
		g := Generate(seed)
		if err := Validate(g); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
		for _, b := range g.Bosses {
			if n := len(b.RecommendedCounters); n < 5 || n > 8 {
				t.Errorf("seed %d: boss %s has %d recommended counters, want 5-8", seed, b.Name, n)
			}
		}
	}
}

func TestGenerateCounts(t *testing.T) {
	g := Generate(DefaultSeed)
	tests := []struct {
		name string
		got  int
		min  int
	}{
		{"champions", len(g.Champions), 150},
		{"factions", len(g.Factions), 12},
		{"bosses", len(g.Bosses), 15},
		{"dungeons", len(g.Dungeons), 12},
		{"gear sets", len(g.GearSets), 15},
		{"masteries", len(g.Masteries), 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got < tt.min {
				t.Errorf("got %d, want at least %d", tt.got, tt.min)
			}
		})
	}
}

func TestRequiredEntities(t *testing.T) {
	g := Generate(DefaultSeed)
	if c := g.Champions[0]; c.Name != "Kaelith" || c.ID != 1001 {
		t.Errorf("first champion = %d %q, want 1001 Kaelith", c.ID, c.Name)
	}
	var fk *Boss
	for i := range g.Bosses {
		if g.Bosses[i].Name == "Fire Knight" {
			fk = &g.Bosses[i]
		}
	}
	if fk == nil {
		t.Fatal("no Fire Knight boss")
	}
	if fk.Names["fr"] != "Chevalier de Feu" || fk.Names["de"] != "Feuerritter" {
		t.Errorf("Fire Knight names = %v", fk.Names)
	}
	if !slices.Contains(fk.RecommendedCounters, 1001) {
		t.Errorf("Kaelith should counter the Fire Knight, counters = %v", fk.RecommendedCounters)
	}
}

func TestChampionsPlausible(t *testing.T) {
	g := Generate(DefaultSeed)
	for _, c := range g.Champions {
		if !pronounceable(c.Name) || len(c.Name) < 4 {
			t.Errorf("champion name %q is not pronounceable", c.Name)
		}
		s := c.Stats
		if s.HP < 9000 || s.HP > 30000 || s.ATK < 500 || s.ATK > 2000 || s.DEF < 500 || s.DEF > 2000 ||
			s.SPD < 85 || s.SPD > 130 || s.CRate < 10 || s.CDmg < 50 || s.RES < 0 || s.ACC < 0 {
			t.Errorf("%s: implausible stats %+v", c.Name, s)
		}
		if n := len(c.Skills); n < 3 || n > 4 {
			t.Errorf("%s: %d skills", c.Name, n)
		}
		for i, sk := range c.Skills {
			if sk.Slot != i+1 || (i == 0) != (sk.Cooldown == 0) {
				t.Errorf("%s: skill %d slot %d cooldown %d", c.Name, i, sk.Slot, sk.Cooldown)
			}
			if !strings.HasSuffix(sk.Description, ".") || len(sk.Description) < 15 {
				t.Errorf("%s: skill %q has no real description", c.Name, sk.Name)
			}
		}
		if n := strings.Count(c.Lore, ". "); n < 1 || n > 2 {
			t.Errorf("%s: lore should have 2-3 sentences: %q", c.Name, c.Lore)
		}
	}
}

// Stats follow role: Attack champions out-hit Defense ones, which out-armour them.
func TestStatsFollowRole(t *testing.T) {
	g := Generate(DefaultSeed)
	avg := func(role string, f func(Stats) int) int {
		sum, n := 0, 0
		for _, c := range g.Champions {
			if c.Role == role {
				sum += f(c.Stats)
				n++
			}
		}
		return sum / max(n, 1)
	}
	atk := func(s Stats) int { return s.ATK }
	def := func(s Stats) int { return s.DEF }
	hp := func(s Stats) int { return s.HP }
	if avg("Attack", atk) <= avg("Defense", atk) {
		t.Error("Attack champions should have more ATK than Defense champions")
	}
	if avg("Defense", def) <= avg("Attack", def) {
		t.Error("Defense champions should have more DEF than Attack champions")
	}
	if avg("HP", hp) <= avg("Attack", hp) {
		t.Error("HP champions should have more HP than Attack champions")
	}
}

func TestCountersMakeSense(t *testing.T) {
	g := Generate(DefaultSeed)
	byID := map[int]Champion{}
	for _, c := range g.Champions {
		byID[c.ID] = c
	}
	distinct := map[string]bool{}
	for _, b := range g.Bosses {
		distinct[fmt.Sprint(b.RecommendedCounters)] = true
		for _, id := range b.RecommendedCounters {
			c := byID[id]
			if !slices.Contains(c.StrongAgainst, b.ID) {
				t.Errorf("boss %s recommends %s, which does not list it in strong_against", b.Name, c.Name)
			}
			if _, m := CounterScore(c, b); m == 0 {
				t.Errorf("boss %s recommends %s, which brings none of its weaknesses", b.Name, c.Name)
			}
			if AffinityAdvantage(c.Affinity, b.Affinity) < 0 && !Counters(c, b) {
				t.Errorf("boss %s recommends %s at an affinity disadvantage", b.Name, c.Name)
			}
		}
	}
	if len(distinct) != len(g.Bosses) {
		t.Errorf("only %d distinct counter lists for %d bosses", len(distinct), len(g.Bosses))
	}
}

func TestAffinityAdvantage(t *testing.T) {
	tests := []struct {
		name     string
		att, def string
		want     int
	}{
		{"magic beats force", "Magic", "Force", 1},
		{"force beats spirit", "Force", "Spirit", 1},
		{"spirit beats magic", "Spirit", "Magic", 1},
		{"force loses to magic", "Force", "Magic", -1},
		{"same affinity", "Spirit", "Spirit", 0},
		{"void attacker", "Void", "Magic", 0},
		{"void defender", "Force", "Void", 0},
		{"unknown", "Fire", "Magic", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AffinityAdvantage(tt.att, tt.def); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

// Filters on faction, rarity, affinity, role and stats give varied answers.
func TestDataVariedForFilters(t *testing.T) {
	g := Generate(DefaultSeed)
	perFaction := map[int]int{}
	combos := map[string]int{}
	for _, c := range g.Champions {
		perFaction[c.FactionID]++
		combos[c.Rarity+"/"+c.Affinity+"/"+c.Role]++
	}
	for _, f := range g.Factions {
		if perFaction[f.ID] < 5 {
			t.Errorf("faction %s has only %d champions", f.Name, perFaction[f.ID])
		}
	}
	if len(combos) < 50 {
		t.Errorf("only %d rarity/affinity/role combinations", len(combos))
	}
	fast := 0
	for _, c := range g.Champions {
		if c.Stats.SPD >= 105 {
			fast++
		}
	}
	if fast < 10 || fast > len(g.Champions)-10 {
		t.Errorf("a SPD >= 105 filter matches %d of %d champions", fast, len(g.Champions))
	}
}

func TestLocalizedNamesDiffer(t *testing.T) {
	g := Generate(DefaultSeed)
	check := func(kind string, n Names) {
		t.Helper()
		for _, loc := range Locales() {
			if strings.TrimSpace(n[loc]) == "" {
				t.Errorf("%s %q: no %s name", kind, n["en"], loc)
			}
		}
		if n["fr"] == n["en"] || n["de"] == n["en"] {
			t.Errorf("%s %q: fr/de names do not differ: %v", kind, n["en"], n)
		}
	}
	for _, x := range g.Bosses {
		check("boss", x.Names)
	}
	for _, x := range g.Factions {
		check("faction", x.Names)
	}
	for _, x := range g.Dungeons {
		check("dungeon", x.Names)
	}
	for _, x := range g.GearSets {
		check("gear set", x.Names)
	}
	for _, x := range g.Masteries {
		check("mastery", x.Names)
	}
}
