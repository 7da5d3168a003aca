package memory_test

import (
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/internal/sessionfake"
	"github.com/gameassist/gameassist/memory"
)

// TestSessionContract runs the session store contract package chat's
// tests rely on (they run on sessionfake) against the real store, on a
// single Redis and on a Redis Cluster.
func TestSessionContract(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		sessionfake.Contract(t, func(t *testing.T) sessionfake.Sessions {
			return newEnv(t, b, memory.Options{}).store
		})
	})
}
