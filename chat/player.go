package chat

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/tool"
)

// withPlayer returns ctx carrying the state of the session's player (read
// with the session, so from the stored player id only): screen rules,
// chains, player-bound tools and the spoiler gate read it from there.
func (s *Service) withPlayer(ctx context.Context, ps *memory.PlayerState) (context.Context, *player.State) {
	if ps == nil {
		return ctx, nil
	}
	st, err := player.Parse(ps.PlayerID, ps.Version, ps.UpdatedAt, ps.State)
	if err != nil {
		s.log.LogAttrs(ctx, slog.LevelWarn, "chat: unreadable player state", slog.String("player_id", tool.Clip(ps.PlayerID, 40)), slog.String("error", err.Error()))
		return ctx, nil
	}
	return tool.WithPlayer(ctx, st), st
}

// playerFrom returns the player state ctx carries (nil: none).
func playerFrom(ctx context.Context) *player.State {
	p, _ := tool.PlayerFrom(ctx)
	st, _ := p.(*player.State)
	return st
}

// DisplayNamer names game entities by id in a locale; gcsdb's name table
// (*gcsdb.Names) satisfies it.
type DisplayNamer interface {
	DisplayName(ctx context.Context, id int64, locale string) (string, error)
}

// playerHeader opens the player block of a turn's data block.
const playerHeader = "## Player (who the player is, from the game server)\n"

// noPlayer replaces the player block when the state an earlier block
// described is gone.
const noPlayer = "(none: the player state is no longer known)\n"

// Limits of the player block: owned entities named, and its size.
const (
	maxPlayerNames = 8
	maxPlayerBlock = 900
)

// playerBlock renders the short, labelled description of the player for
// the turn's data block: progress, roster size, the owned champions that
// the screen's current results name (with level and stars), else the
// strongest owned. It depends only on the state, the screen's cached
// results and the locale, so it is byte-identical from turn to turn until
// one of them changes, and a data block repeats it only then. "" when the
// session has no player state.
func (s *Service) playerBlock(ctx context.Context, st *player.State, cached []memory.CacheEntry, screenTools []string, locale string) string {
	if st == nil {
		return ""
	}
	var b strings.Builder
	if v, ok := st.Progress(s.opts.ProgressPath); ok {
		fmt.Fprintf(&b, "progress: %s %s", progressLabel(s.opts.ProgressPath), strconv.FormatFloat(v, 'f', -1, 64))
		if lvl, ok := st.Number("progress.level"); ok && s.opts.ProgressPath != "progress.level" {
			fmt.Fprintf(&b, ", level %s", strconv.FormatFloat(lvl, 'f', -1, 64))
		}
		b.WriteString("\n")
	}
	roster := st.Roster()
	if roster == nil {
		keys := slices.Sorted(maps.Keys(st.Data()))
		keys = slices.DeleteFunc(keys, func(k string) bool { return !safeKey(k) })
		if len(keys) > 12 {
			keys = keys[:12]
		}
		fmt.Fprintf(&b, "state fields: %s (read them through tools scoped to the player)\n", strings.Join(keys, ", "))
		return playerHeader + clipBlock(b.String())
	}
	fmt.Fprintf(&b, "roster: %d champions owned; tools with owned_only answer from it\n", len(roster))
	byID := make(map[int64]player.Owned, len(roster))
	for _, o := range roster {
		byID[o.ID] = o
	}
	// Owned champions the screen's results name, in their order.
	var here []player.Owned
	seen := map[int64]bool{}
	for _, e := range cached {
		if len(screenTools) > 0 && !slices.Contains(screenTools, e.Tool) {
			continue
		}
		res, err := decodeResult(e.Result)
		if err != nil {
			continue
		}
		for _, ref := range res.InternalInfo.Entities {
			if o, ok := byID[ref.ID]; ok && ref.Kind == "champion" && !seen[ref.ID] {
				seen[ref.ID] = true
				here = append(here, o)
			}
		}
	}
	label := "owned here"
	if len(here) == 0 {
		label = "strongest owned"
		here = slices.Clone(roster)
		slices.SortStableFunc(here, func(a, b player.Owned) int {
			return cmp.Or(cmp.Compare(b.Level, a.Level), cmp.Compare(b.Stars, a.Stars), cmp.Compare(a.ID, b.ID))
		})
	}
	if len(here) > maxPlayerNames {
		here = here[:maxPlayerNames]
	}
	names := make([]string, 0, len(here))
	for _, o := range here {
		names = append(names, s.ownedText(ctx, o, locale))
	}
	fmt.Fprintf(&b, "%s: %s\n", label, strings.Join(names, "; "))
	return playerHeader + clipBlock(b.String())
}

// ownedText is one owned champion: its name (the id when it has none), level and stars.
func (s *Service) ownedText(ctx context.Context, o player.Owned, locale string) string {
	name := strconv.FormatInt(o.ID, 10)
	if s.names != nil {
		if n, err := s.names.DisplayName(ctx, o.ID, locale); err == nil && strings.TrimSpace(n) != "" {
			name = tool.Clip(strings.Join(strings.Fields(n), " "), 60)
		}
	}
	var parts []string
	if o.Level > 0 {
		parts = append(parts, "level "+strconv.Itoa(o.Level))
	}
	if o.Stars > 0 {
		parts = append(parts, strconv.Itoa(o.Stars)+"★")
	}
	if len(parts) == 0 {
		return name
	}
	return name + " (" + strings.Join(parts, ", ") + ")"
}

// progressLabel names the progress by its path's last segment ("chapter").
func progressLabel(path string) string {
	if path == "" {
		path = player.DefaultProgressPath
	}
	return path[strings.LastIndexByte(path, '.')+1:]
}

func safeKey(k string) bool {
	if k == "" || len(k) > 40 {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func clipBlock(s string) string {
	if len(s) <= maxPlayerBlock {
		return s
	}
	cut := strings.LastIndexByte(s[:maxPlayerBlock], '\n')
	if cut < 0 {
		cut = maxPlayerBlock
	}
	return s[:cut] + "\n"
}
