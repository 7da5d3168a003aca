package toolsgcs

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/gameassist/gameassist/tool"
)

// ownedOnly is the flag the LLM sets to scope a tool to what the player
// owns; the ids come from the session's player state, never from the LLM.
const ownedOnly = "owned_only"

// rosterBinding binds owned_only to the ids of the sample game's roster.
var rosterBinding = []tool.PlayerParam{{Flag: ownedOnly, Path: "roster.id"}}

// gearBinding binds owned_only to the gear sets the player has pieces of.
var gearBinding = []tool.PlayerParam{{Flag: ownedOnly, Path: "gear.id"}}

// unknownRoster is the note of a result that was asked for the player's own
// entities when the session has no player state.
const unknownRoster = " The player's state is not known here, so this is not limited to what they own."

// owned returns the ids bound to owned_only: scoped is false when the flag
// was not set or the session has no player state (the answer is then
// general), and ids holds the whole-number ids of the state otherwise.
func owned(ctx context.Context) (ids []int64, scoped, asked bool) {
	vals, known, set := tool.Bound(ctx, ownedOnly)
	if !set {
		return nil, false, false
	}
	if !known {
		return nil, false, true
	}
	ids = []int64{}
	for _, v := range vals {
		if id, ok := wholeID(v); ok {
			ids = append(ids, id)
		}
	}
	return ids, true, true
}

func wholeID(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		id, err := strconv.ParseInt(string(x), 10, 64)
		return id, err == nil && id > 0
	case string:
		id, err := strconv.ParseInt(x, 10, 64)
		return id, err == nil && id > 0
	case float64:
		return int64(x), x > 0 && x == float64(int64(x))
	}
	return 0, false
}

// bindOwned binds d's owned_only flag to the player state at b's path.
func bindOwned[A any](b []tool.PlayerParam, d boundDef[A]) boundDef[A] {
	d.Player = b
	return d
}
