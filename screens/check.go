package screens

import (
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
