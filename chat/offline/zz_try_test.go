package offline_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZTry(t *testing.T) {
	qs := os.Getenv("TRY")
	if qs == "" {
		return
	}
	w := newSampleWorld(t)
	boss := screenOf(t, "BossBattlePresenter", map[string]any{"BossConfigId": 5001, "Phase": 1, "Team": []int{1001, 1152, 1003, 1004}})
	frost := screenOf(t, "BossBattlePresenter", map[string]any{"BossConfigId": 5002, "Phase": 1, "Team": []int{1001, 1002}})
	champ := screenOf(t, "ChampionFeatureModelsPresenter", map[string]any{"ChampionConfigId": 1001, "Level": 60, "Stars": 6})
	for _, q := range strings.Split(qs, ";") {
		loc := "en"
		var sc = boss
		sc = nil
		if strings.HasPrefix(q, "fr:") || strings.HasPrefix(q, "de:") {
			loc, q = q[:2], q[3:]
		}
		switch {
		case strings.HasPrefix(q, "B:"):
			sc, q = boss, q[2:]
		case strings.HasPrefix(q, "F:"):
			sc, q = frost, q[2:]
		case strings.HasPrefix(q, "C:"):
			sc, q = champ, q[2:]
		}
		a := w.ask(t, loc, sc, q)
		fmt.Printf("\n### %s [%s] intent=%s\n", q, loc, a.Plan.Intent)
		for _, o := range a.Outcomes {
			fmt.Printf("  > %s %s %s %s\n", o.Name, o.Arguments, o.Source, o.Status)
		}
		fmt.Println(a.Text)
	}
}
