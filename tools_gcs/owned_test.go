package toolsgcs_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/gcsdb/gcsdbtest"
	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/tool"
	toolsgcs "github.com/gameassist/gameassist/tools_gcs"
)

func withState(t *testing.T, state string) context.Context {
	t.Helper()
	st, err := player.Parse("alice", "v1", time.Unix(1_800_000_000, 0), []byte(state))
	if err != nil {
		t.Fatal(err)
	}
	return tool.WithPlayer(context.Background(), st)
}

// owned_only scopes the counters, champion search and gear tools to the
// ids in the session's player state; the LLM only sets the flag.
func TestOwnedOnlyFromPlayerState(t *testing.T) {
	ex := newExecutor(t, gcsdbtest.Open(t, gcsdbtest.Game()))
	call := func(ctx context.Context, name, args string) tool.Result {
		t.Helper()
		r := ex.Execute(ctx, tool.Call{Name: name, Arguments: json.RawMessage(args)})
		if !r.OK() {
			t.Fatalf("%s %s: %s", name, args, r.ForLLM())
		}
		return r
	}
	counters := func(r tool.Result) toolsgcs.CounterList {
		t.Helper()
		var l toolsgcs.CounterList
		if err := json.Unmarshal(r.Data.(json.RawMessage), &l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	all := counters(call(context.Background(), "gcs_find_counters_for_boss", `{"boss_id": 5001}`))
	if len(all.Counters) < 2 {
		t.Fatalf("fixture boss has %d counters", len(all.Counters))
	}
	best, second := all.Counters[0], all.Counters[1]
	ctx := withState(t, `{"roster": [{"id": `+itoa(second.ID)+`, "level": 50}, {"id": 999999}]}`)

	mine := counters(call(ctx, "gcs_find_counters_for_boss", `{"boss_id": 5001, "owned_only": true}`))
	if !mine.OwnedOnly || len(mine.Counters) != 1 || mine.Counters[0].ID != second.ID || mine.BestNotOwned == nil || mine.BestNotOwned.ID != best.ID {
		t.Fatalf("owned counters = %+v", mine)
	}
	// Without the flag the same session gets every counter.
	if l := counters(call(ctx, "gcs_find_counters_for_boss", `{"boss_id": 5001}`)); l.OwnedOnly || len(l.Counters) != len(all.Counters) {
		t.Fatalf("unflagged counters = %+v", l)
	}
	// The flag without a player state answers in general and says so.
	r := call(context.Background(), "gcs_find_counters_for_boss", `{"boss_id": 5001, "owned_only": true}`)
	if l := counters(r); l.OwnedOnly || len(l.Counters) != len(all.Counters) || !strings.Contains(r.Message, "not known") {
		t.Fatalf("no state: %s %+v", r.Message, l)
	}
	// Ids cannot be passed by the caller.
	if r := ex.Execute(ctx, tool.Call{Name: "gcs_find_counters_for_boss", Arguments: json.RawMessage(`{"boss_id": 5001, "owned_ids": [1001]}`)}); r.OK() {
		t.Fatalf("an id list was accepted as an argument: %s", r.ForLLM())
	}

	var found toolsgcs.ChampionList
	if err := json.Unmarshal(call(ctx, "gcs_find_champions", `{"owned_only": true, "limit": 50}`).Data.(json.RawMessage), &found); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, c := range found.Champions {
		ids = append(ids, c.ID)
	}
	if !found.OwnedOnly || !slices.Equal(ids, []int64{second.ID}) {
		t.Fatalf("owned search = %+v", found)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
