package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/tool"
)

// Reloaded is what POST /admin/reload put in place.
type Reloaded struct {
	// Screens are the screens the rules now cover.
	Screens []string
	// ToolsFile is the tools file read ("" without TOOLS_FILE), Tools the
	// names it registered.
	ToolsFile string
	Tools     []string
}

// Reloader reloads the screen rules and the tools file together: both or
// neither. Errors wrap tool.ErrInvalidTools or screens.ErrInvalidRules for
// a bad file.
type Reloader interface {
	ReloadAll(ctx context.Context) (Reloaded, error)
}

// reloadAll answers POST /admin/reload: 200 with the screens and file
// tools now in place, 422 naming the problems of a bad tools file or rules
// file (the running rules and tools both stay).
func (s *Server) reloadAll(c *gin.Context) {
	if s.deps.Reloader == nil {
		s.fail(c, errUnavailable("reload"))
		return
	}
	r, err := s.deps.Reloader.ReloadAll(c.Request.Context())
	if errors.Is(err, tool.ErrInvalidTools) {
		s.fail(c, invalidTools(err, "the running tools and rules stay"))
		return
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	if r.Screens == nil {
		r.Screens = []string{}
	}
	if r.Tools == nil {
		r.Tools = []string{}
	}
	body := gin.H{"screens": r.Screens, "count": len(r.Screens), "tools": r.Tools}
	if r.ToolsFile != "" {
		body["tools_file"] = r.ToolsFile
	}
	c.JSON(http.StatusOK, body)
}
