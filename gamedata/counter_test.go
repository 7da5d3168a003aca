package gamedata

import "testing"

func TestCounterFactsScore(t *testing.T) {
	tests := []struct {
		name string
		f    CounterFacts
		want int
	}{
		{name: "nothing", f: CounterFacts{}, want: 0},
		{name: "fit only", f: CounterFacts{WeaknessHits: 2, Advantage: 1, RarityRank: 5, ImmuneHits: 1}, want: 20 + 6 + 10 - 3},
		{name: "disadvantage", f: CounterFacts{Advantage: -1, RarityRank: 1}, want: -6 + 2},
		{name: "designer rank 1", f: CounterFacts{DesignerRank: 1}, want: 99},
		{name: "rank capped at 50", f: CounterFacts{DesignerRank: 80}, want: 50},
		{name: "strong against", f: CounterFacts{StrongAgainst: true, WeaknessHits: 1}, want: 50},
		{name: "all", f: CounterFacts{DesignerRank: 2, StrongAgainst: true, WeaknessHits: 1, ImmuneHits: 2, Advantage: 1, RarityRank: 4}, want: 98 + 40 + 10 - 6 + 6 + 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f.Score(); got != tt.want {
				t.Fatalf("Score(%+v) = %d, want %d", tt.f, got, tt.want)
			}
		})
	}
}

// TestFitCountsWeaknessesNotImmune pins the fit facts the generator and the
// read model share: a weakness the boss is also immune to is not a hit.
func TestFitCountsWeaknessesNotImmune(t *testing.T) {
	c := Champion{Affinity: "Magic", Rarity: "Epic", Skills: []Skill{{Effects: []string{"stun", "poison", "heal"}}, {Effects: []string{"stun"}}}}
	b := Boss{Affinity: "Force", Weaknesses: []string{"stun", "poison", "poison"}, Immunities: []string{"poison", "heal"}}
	f := Fit(c, b)
	want := CounterFacts{WeaknessHits: 1, ImmuneHits: 2, Advantage: AffinityAdvantage("Magic", "Force"), RarityRank: RarityRank("Epic")}
	if f != want {
		t.Fatalf("Fit = %+v, want %+v", f, want)
	}
	if s, m := CounterScore(c, b); s != want.Score() || m != 1 {
		t.Fatalf("CounterScore = %d, %d", s, m)
	}
}
