package sessionfake_test

import (
	"testing"

	"github.com/gameassist/gameassist/internal/sessionfake"
	"github.com/gameassist/gameassist/memory"
)

func TestContract(t *testing.T) {
	sessionfake.Contract(t, func(*testing.T) sessionfake.Sessions { return sessionfake.New() })
}

func TestQuotaContract(t *testing.T) {
	sessionfake.QuotaContract(t, func(_ *testing.T, q memory.Quota) sessionfake.Sessions {
		st := sessionfake.New()
		st.SetTurnQuota(q)
		return st
	})
}
