package screens

import (
	"context"
	"encoding/json"
	"testing"
)

func BenchmarkPlan(b *testing.B) {
	e := newTestEngine(b, "")
	ctx := context.Background()
	screen := Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(`{"ChampionConfigId": 1001, "Level": 50, "Stars": 5}`)}
	b.ReportAllocs()
	for b.Loop() {
		p, err := e.Plan(ctx, screen, "en")
		if err != nil || p.Injection == "" {
			b.Fatalf("Plan = %+v, %v", p, err)
		}
	}
}

func BenchmarkHash(b *testing.B) {
	screen := Screen{Name: "BossBattlePresenter", Data: json.RawMessage(`{"BossConfigId": 5001, "Phase": 2, "Team": [1001, 1002]}`)}
	b.ReportAllocs()
	for b.Loop() {
		_ = screen.Hash()
	}
}
