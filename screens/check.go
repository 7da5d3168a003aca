package screens

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
)

// Check validates the engine's rules source against v without changing
// the engine: before a new set of tools replaces the running one (a tools
// file reload), it tells whether the screen rules would still hold.
func (e *Engine) Check(v Validator) error {
	if v == nil {
		return fmt.Errorf("screens: check: nil validator")
	}
	e.reload.Lock()
	defer e.reload.Unlock()
	data := e.builtin
	if e.path != "" {
		b, err := readLimited(e.path)
		if err != nil {
			return err
		}
		data = b
	}
	if _, err := Parse(data, v); err != nil {
		return fmt.Errorf("screens: check %s: %w", e.source(), err)
	}
	return nil
}

// NewEmptyEngine returns an engine with no rules, for a studio's own game
// started without SCREEN_RULES: the sample game's rules name tools it does
// not have. Every screen plans as unmatched.
func NewEmptyEngine(v Validator, tr Translator, logger *slog.Logger) (*Engine, error) {
	return newEngine("", []byte("{}"), v, tr, logger)
}

// ReloadWith re-reads the rules and validates them against v, the tools
// about to run (a candidate registry), then calls commit, which puts those
// tools in place, and only then swaps the rules in: rules and tools change
// together or not at all. Bad rules are refused before commit runs (an
// error wrapping ErrInvalidRules); an error from commit leaves the running
// rules too. Both happen under the engine's reload lock.
func (e *Engine) ReloadWith(ctx context.Context, v Validator, commit func() error) error {
	if v == nil || commit == nil {
		return errors.New("screens: reload with: nil validator or commit")
	}
	e.reload.Lock()
	defer e.reload.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("screens: reload: %w", err)
	}
	data := e.builtin
	if e.path != "" {
		b, err := readLimited(e.path)
		if err != nil {
			return err
		}
		data = b
	}
	rs, err := Parse(data, v)
	if err != nil {
		return fmt.Errorf("screens: load %s: %w", e.source(), err)
	}
	if err := commit(); err != nil {
		return err
	}
	e.rules.Store(rs)
	e.log.InfoContext(ctx, "screen rules reloaded", slog.String("source", e.source()), slog.Int("rules", rs.Len()))
	return nil
}
