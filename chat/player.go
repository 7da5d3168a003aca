package chat

import (
	"context"
	"log/slog"

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
		s.log.LogAttrs(ctx, slog.LevelWarn, "chat: unreadable player state", slog.String("player_id", clip(ps.PlayerID, 40)), slog.String("error", err.Error()))
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
