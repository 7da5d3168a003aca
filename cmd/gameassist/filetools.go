package main

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/rollout"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
	toolsfile "github.com/gameassist/gameassist/tools_file"
)

// fileTools keeps the registry's file tools in step with TOOLS_FILE: loaded
// at start (a bad file stops start-up), reloaded on POST /admin/tools/reload
// (a bad file, or one that would break the screen rules, keeps the old set).
type fileTools struct {
	path string
	db   *sql.DB
	reg  *tool.Registry
	log  *slog.Logger
	// offered is the rule of the LLM's tool list, which chains obey too.
	offered func(tool.Spec) bool
	// rules checks the screen rules against a candidate registry; set once
	// the rule engine exists.
	rules *screens.Engine
	mu    sync.Mutex
	gen   atomic.Int64
	// weights are the file's rollouts: section as last loaded; assigner
	// receives them (set once Redis is open).
	weights  map[string]rollout.Weights
	assigner *rollout.Assigner
}

// useAssigner hands the file's rollout weights to a, now and at every reload.
func (f *fileTools) useAssigner(a *rollout.Assigner) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.assigner = a
	a.SetFileWeights(f.weights)
}

// load reads the file and swaps the file tools in; a reload holds mu.
func (f *fileTools) load(ctx context.Context) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, err := f.prepare(ctx)
	if err != nil {
		return nil, err
	}
	if f.rules != nil {
		if err := f.rules.Check(p.next); err != nil {
			return nil, fmt.Errorf("toolsfile: %w: %s: the screen rules would no longer hold: %v", tool.ErrInvalidTools, f.path, err)
		}
	}
	if err := f.commit(ctx, p); err != nil {
		return nil, err
	}
	return p.set.Names(), nil
}

// preparedTools is a tools file read and checked, not yet in place: next
// is the registry the file's tools would make.
type preparedTools struct {
	set  *toolsfile.Set
	next *tool.Registry
}

// prepare reads the file and builds the registry it would make; f.mu held.
func (f *fileTools) prepare(ctx context.Context) (*preparedTools, error) {
	// The built-ins: the registry without the file's current tools (a
	// built-in one of them joined is unversioned again in it).
	builtins, err := f.reg.WithGroup(toolsfile.Group)
	if err != nil {
		return nil, fmt.Errorf("toolsfile: %s: %w", f.path, err)
	}
	set, err := toolsfile.Load(ctx, f.path, f.db, builtins)
	if err != nil {
		return nil, err
	}
	// The chains are checked against the built-ins and the file's new tools.
	withTools, err := f.reg.WithGroup(toolsfile.Group, set.List()...)
	if err != nil {
		return nil, fmt.Errorf("toolsfile: %w: %s: %w", tool.ErrInvalidTools, f.path, err)
	}
	if err := set.Link(withTools, f.offered); err != nil {
		return nil, err
	}
	next, err := f.reg.WithGroup(toolsfile.Group, set.List()...)
	if err != nil {
		return nil, fmt.Errorf("toolsfile: %w: %s: %w", tool.ErrInvalidTools, f.path, err)
	}
	return &preparedTools{set: set, next: next}, nil
}

// commit puts prepared tools in place, with their rollout weights; f.mu
// held.
func (f *fileTools) commit(ctx context.Context, p *preparedTools) error {
	if err := f.reg.ReplaceGroup(toolsfile.Group, p.set.List()...); err != nil {
		return fmt.Errorf("toolsfile: %w: %s: %w", tool.ErrInvalidTools, f.path, err)
	}
	f.weights = make(map[string]rollout.Weights, len(p.set.Rollouts))
	for name, r := range p.set.Rollouts {
		f.weights[name] = rollout.Weights(r)
	}
	if f.assigner != nil {
		f.assigner.SetFileWeights(f.weights)
	}
	f.gen.Add(1)
	f.log.InfoContext(ctx, "tools file loaded", slog.String("file", f.path), slog.Int("tools", len(p.set.Names())),
		slog.Int64("generation", f.gen.Load()))
	return nil
}

// ReloadTools re-reads the tools file for the admin API.
func (f *fileTools) ReloadTools(ctx context.Context) (string, []string, error) {
	names, err := f.load(ctx)
	if err != nil {
		f.log.WarnContext(ctx, "tools file refused; the running tools stay", slog.String("file", f.path), slog.String("error", err.Error()))
		return f.path, nil, err
	}
	return f.path, names, nil
}

// generation counts successful loads; nil-safe (0 without a tools file).
func (f *fileTools) generation() int64 {
	if f == nil {
		return 0
	}
	return f.gen.Load()
}

// toolsGenVersion adds the tools file's generation to the data version:
// cached results of a tool whose statement a reload changed are not served.
type toolsGenVersion struct {
	base chat.DataVersioner
	ft   *fileTools
}

func (v toolsGenVersion) DataVersion(ctx context.Context) (string, error) {
	s, err := v.base.DataVersion(ctx)
	if err != nil || v.ft == nil {
		return s, err
	}
	return s + "-t" + strconv.FormatInt(v.ft.generation(), 10), nil
}
