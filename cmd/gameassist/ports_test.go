package main

import (
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/memory"
)

// The Redis store is the session port the turn engine declares.
var _ chat.Store = (*memory.Store)(nil)
