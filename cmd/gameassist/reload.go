package main

import (
	"context"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/screens"
)

// reloader reloads the screen rules and the tools file together for
// POST /admin/reload: the new rules are checked against the new tools, and
// both go in or neither does, so a tool parameter that a rule uses can
// change in one step.
type reloader struct {
	files *fileTools // nil without TOOLS_FILE: the rules alone
	rules *screens.Engine
}

var _ api.Reloader = reloader{}

// ReloadAll reads both files; on any problem the running rules and tools
// stay and the error wraps tool.ErrInvalidTools or screens.ErrInvalidRules.
func (r reloader) ReloadAll(ctx context.Context) (api.Reloaded, error) {
	if r.files == nil {
		if err := r.rules.Reload(ctx); err != nil {
			return api.Reloaded{}, err
		}
		return api.Reloaded{Screens: r.rules.Rules()}, nil
	}
	r.files.mu.Lock()
	defer r.files.mu.Unlock()
	p, err := r.files.prepare(ctx)
	if err != nil {
		return api.Reloaded{}, err
	}
	if err := r.rules.ReloadWith(ctx, p.next, func() error { return r.files.commit(ctx, p) }); err != nil {
		return api.Reloaded{}, err
	}
	return api.Reloaded{Screens: r.rules.Rules(), ToolsFile: r.files.path, Tools: p.set.Names()}, nil
}
