package archtest

import (
	"errors"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/gameassist/gameassist"

// gameDeps returns the packages pkg depends on, itself included, that
// belong to the sample game or a tool family, as go list -deps reports them.
func gameDeps(t *testing.T, pkg string) []string {
	t.Helper()
	// The sample game (its SQLite driver, read model and data) and the
	// tool families.
	gamePackages := regexp.MustCompile(`^(github\.com/mattn/go-sqlite3|github\.com/gameassist/gameassist/(gcsdb|gamedata|tools_[^/]+))(/|$)`)
	cmd := exec.CommandContext(t.Context(), "go", "list", "-deps", pkg)
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	var game []string
	for p := range strings.Lines(string(out)) {
		if p = strings.TrimSpace(p); gamePackages.MatchString(p) {
			game = append(game, p)
		}
	}
	return game
}

// TestEngineKnowsNoGame: the turn engine and the HTTP layer build without
// the sample game and the tool families; those are wired in by
// cmd/gameassist.
func TestEngineKnowsNoGame(t *testing.T) {
	for _, pkg := range []string{module + "/chat", module + "/api"} {
		if game := gameDeps(t, pkg); len(game) > 0 {
			t.Errorf("%s depends on %s", pkg, strings.Join(game, ", "))
		}
	}
}

// TestGameDepsSeesTheGame: the check above finds the game where it is, in
// the offline responder's dependencies.
func TestGameDepsSeesTheGame(t *testing.T) {
	game := gameDeps(t, module+"/offline")
	for _, want := range []string{"github.com/mattn/go-sqlite3", module + "/gcsdb", module + "/tools_gcs"} {
		if !slices.Contains(game, want) {
			t.Errorf("game dependencies of offline = %q, want %s among them", game, want)
		}
	}
}
