package main

import (
	"context"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/offline"
)

// offlineFallback is the sample game's offline responder as the chat
// service's Fallback.
type offlineFallback struct{ r *offline.Responder }

func (f offlineFallback) Answer(ctx context.Context, t chat.FallbackTurn, run chat.RunFunc) chat.FallbackAnswer {
	req := offline.Request{Message: t.Message, Locale: t.Locale, Screen: t.Screen, ScreenData: t.ScreenData, ScreenAt: t.ScreenAt}
	for _, ex := range t.History {
		e := offline.Exchange{Message: ex.Message, At: ex.At}
		for _, s := range ex.About {
			e.About = append(e.About, offline.Subject{Kind: s.Kind, ID: s.ID, Focus: s.Focus})
		}
		req.History = append(req.History, e)
	}
	for _, c := range t.Cached {
		req.Context = append(req.Context, offline.Prior{Name: c.Tool, Arguments: c.Arguments, Result: c.Result})
	}
	ans := f.r.Answer(ctx, req, offline.RunFunc(run))
	out := chat.FallbackAnswer{Text: ans.Text, Outcomes: ans.Outcomes}
	for _, s := range ans.About {
		out.About = append(out.About, memory.Subject{Kind: s.Kind, ID: s.ID, Focus: s.Focus})
	}
	return out
}
