package screens

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/tool"
)

const playerRules = `{"BossBattlePresenter": {
  "data_tools": [
    {"tool": "gcs_find_counters_for_boss", "json_field": "BossConfigId", "parameter_name": "boss_id"},
    {"tool": "gcs_get_character_details_by_id", "json_field": "$player.roster.0.id", "parameter_name": "character_id"}],
  "prompt_injection": {"template": "Boss {BossConfigId_translated}; player at chapter {$player.progress.chapter}, best champion {$player.roster.0.id_translated}",
                       "required_fields": ["BossConfigId"]}}}`

func playerCtx(t *testing.T, state string) context.Context {
	t.Helper()
	st, err := player.Parse("alice", "v1", time.Unix(1_800_000_000, 0), []byte(state))
	if err != nil {
		t.Fatal(err)
	}
	return tool.WithPlayer(context.Background(), st)
}

// Rules read the player state with $player paths; a path the state lacks
// skips the call with a reason naming the player state, as a missing
// screen field does, and a screen cannot pose as the player state.
func TestPlanReadsPlayerState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.json")
	if err := os.WriteFile(path, []byte(playerRules), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newTestEngine(t, path)
	screen := Screen{Name: "BossBattlePresenter", Data: json.RawMessage(`{"BossConfigId": 5001}`)}

	p, err := e.Plan(playerCtx(t, `{"progress":{"chapter":5},"roster":[{"id":1002,"level":60}]}`), screen, "en")
	if err != nil {
		t.Fatal(err)
	}
	want := []call{
		{name: "gcs_find_counters_for_boss", args: `{"boss_id":5001}`, role: RoleData},
		{name: "gcs_get_character_details_by_id", args: `{"character_id":1002}`, role: RoleData},
	}
	if got := callsOf(p); !slices.Equal(got, want) {
		t.Errorf("calls:\n got %+v\nwant %+v", got, want)
	}
	if !strings.Contains(p.Injection, "chapter 5") || !strings.Contains(p.Injection, `"Brann"`) {
		t.Errorf("injection = %q", p.Injection)
	}

	// No state: the player-fed call is skipped with a reason; the
	// template's player values render as unknown.
	for _, ctx := range []context.Context{context.Background(), playerCtx(t, `{"progress":{"chapter":5}}`)} {
		p, err := e.Plan(ctx, screen, "en")
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Calls) != 2 || p.Calls[1].Skipped != "field $player.roster.0.id is absent from the player state" || p.Calls[1].Fault {
			t.Fatalf("calls without a roster: %+v", p.Calls)
		}
	}

	// A screen sending "$player" itself feeds nothing.
	forged := Screen{Name: "BossBattlePresenter", Data: json.RawMessage(`{"BossConfigId": 5001, "$player": {"roster": [{"id": 1001}]}}`)}
	p, err = e.Plan(context.Background(), forged, "en")
	if err != nil {
		t.Fatal(err)
	}
	if p.Calls[1].Skipped == "" {
		t.Fatalf("a screen's own $player key fed the call: %+v", p.Calls[1])
	}
}

func TestPlayerPathsValidatedAtLoad(t *testing.T) {
	for _, rules := range []string{
		`{"S": {"data_tools": [{"tool": "gcs_get_character_details_by_id", "json_field": "$player", "parameter_name": "character_id"}]}}`,
		`{"S": {"data_tools": [{"tool": "gcs_get_character_details_by_id", "json_field": "$player..id", "parameter_name": "character_id"}]}}`,
		`{"S": {"data_tools": [{"tool": "gcs_get_character_details_by_id", "json_field": "$players.id", "parameter_name": "character_id"}]}}`,
		`{"S": {"prompt_injection": {"template": "at {$player.progress chapter}"}}}`,
	} {
		_, err := Parse([]byte(rules), newTestRegistry(t))
		if !errors.Is(err, ErrInvalidRules) {
			t.Errorf("rules %s: err = %v, want invalid rules", rules, err)
		}
	}
}
