package sessionfake_test

import (
	"testing"

	"github.com/gameassist/gameassist/internal/sessionfake"
)

func TestContract(t *testing.T) {
	sessionfake.Contract(t, func(*testing.T) sessionfake.Sessions { return sessionfake.New() })
}
