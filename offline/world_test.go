package offline_test

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gameassist/gameassist/internal/sampletools"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/offline"
	"github.com/gameassist/gameassist/player"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
	toolsrag "github.com/gameassist/gameassist/tools_rag"
)

// sampleWorld is the sample game served by the real tools: SQLite built
// from data.Sample(), the cache snapshot, the GCS tools, the embedded RAG
// index over content/ and the default screen rules.
type sampleWorld struct {
	exec  *tool.Executor
	rules *screens.Engine
	resp  *offline.Responder
}

// shared is the one sample world of the package's tests, built on first
// use (tests only ask it questions) and closed by TestMain.
var shared struct {
	once sync.Once
	dir  string
	game *sampletools.World
	w    *sampleWorld
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.game != nil {
		_ = shared.game.Close()
	}
	if shared.dir != "" {
		_ = os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// newSampleWorld returns the package's sample world, building it on the
// first call.
func newSampleWorld(tb testing.TB) *sampleWorld {
	tb.Helper()
	shared.once.Do(func() { shared.w, shared.err = buildSampleWorld() })
	if shared.err != nil {
		tb.Fatalf("sample world: %v", shared.err)
	}
	return shared.w
}

func buildSampleWorld() (*sampleWorld, error) {
	dir, err := os.MkdirTemp("", "offline-world-")
	if err != nil {
		return nil, err
	}
	shared.dir = dir
	game, err := sampletools.Open(context.Background(), dir, "../content")
	if err != nil {
		return nil, err
	}
	shared.game = game
	gloss, err := toolsrag.LoadGlossary(os.DirFS("../content"), "../content")
	if err != nil {
		return nil, err
	}
	resp, err := offline.New(game.Exec, offline.Options{Names: game.Game, Glossary: gloss, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, err
	}
	return &sampleWorld{exec: game.Exec, rules: game.Rules, resp: resp}, nil
}

// ask answers msg as the chat turn does: a screen's rules run first
// (proactive), then the responder's calls are served from those results
// when they are the same call (source cache) or run (source executed).
func (w *sampleWorld) ask(tb testing.TB, locale string, sc *screens.Screen, msg string) offline.Answer {
	tb.Helper()
	return w.askIn(tb, nil, locale, sc, msg)
}

// conversation is a session's exchanges as chat records them, on a
// logical clock: each step is one second after the one before.
type conversation struct {
	history  []offline.Exchange
	screenAt time.Time
	clock    time.Time
	// player is the session's player state (nil: none).
	player *player.State
}

// tick advances the conversation's clock and returns the new time.
func (c *conversation) tick() time.Time {
	if c.clock.IsZero() {
		c.clock = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	}
	c.clock = c.clock.Add(time.Second)
	return c.clock
}

// askIn answers msg as ask does, within conversation c (nil: none), and
// records the exchange in c.
func (w *sampleWorld) askIn(tb testing.TB, c *conversation, locale string, sc *screens.Screen, msg string) offline.Answer {
	tb.Helper()
	ctx := context.Background()
	req := offline.Request{Message: msg, Locale: locale}
	if c != nil {
		req.History, req.ScreenAt = c.history, c.screenAt
		if c.player != nil {
			ctx = tool.WithPlayer(ctx, c.player)
		}
	}
	cached := map[string]tool.Result{}
	if sc != nil {
		req.Screen, req.ScreenData = sc.Name, sc.Data
		plan, err := w.rules.Plan(ctx, *sc, locale)
		if err != nil {
			tb.Fatalf("screen %s: %v", sc.Name, err)
		}
		for _, pc := range plan.Calls {
			if pc.Skipped != "" {
				continue
			}
			res := w.exec.Execute(ctx, pc.Call)
			key, err := memory.CacheKey(pc.Name, pc.Arguments)
			if err != nil {
				tb.Fatal(err)
			}
			cached[key] = res
			req.Context = append(req.Context, offline.Prior{Name: pc.Name, Arguments: pc.Arguments, Result: res})
		}
	}
	run := func(ctx context.Context, calls []tool.Call) []tool.Outcome {
		outs := make([]tool.Outcome, len(calls))
		for i, c := range calls {
			key, err := memory.CacheKey(c.Name, c.Arguments)
			if err != nil {
				tb.Fatalf("call %s: arguments %s: %v", c.Name, c.Arguments, err)
			}
			if res, ok := cached[key]; ok {
				outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Source: tool.SourceCache, Status: res.Status, Result: res}
				continue
			}
			res := w.exec.Execute(ctx, c)
			outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Source: tool.SourceExecuted, Status: res.Status, Result: res}
		}
		return outs
	}
	a := w.resp.Answer(ctx, req, run)
	if c != nil {
		c.history = append(c.history, offline.Exchange{Message: msg, About: a.About, At: c.tick()})
	}
	return a
}
