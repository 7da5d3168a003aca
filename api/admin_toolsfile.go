package api

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/tool"
)

// ToolsReloader re-reads the tools file (TOOLS_FILE) and swaps the file
// tools; on error the running tools stay.
type ToolsReloader interface {
	ReloadTools(ctx context.Context) (file string, names []string, err error)
}

// maxToolsErrorChars bounds the problems listed in a refused reload.
const maxToolsErrorChars = 8000

// reloadTools answers POST /admin/tools/reload: 200 with the file tools now
// registered, 422 naming every problem of a bad file (the old set stays),
// 409 when no tools file is configured.
func (s *Server) reloadTools(c *gin.Context) {
	if s.deps.Tools == nil {
		s.fail(c, httpErr(http.StatusConflict, "no_tools_file", "no tools file is configured (TOOLS_FILE)", nil))
		return
	}
	file, names, err := s.deps.Tools.ReloadTools(c.Request.Context())
	if errors.Is(err, tool.ErrInvalidTools) {
		s.fail(c, invalidTools(err, "the running tools stay"))
		return
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	if names == nil {
		names = []string{}
	}
	c.JSON(http.StatusOK, gin.H{"file": file, "tools": names, "count": len(names)})
}

// invalidTools answers a refused tools file: 422 with the file's error
// (cut to maxToolsErrorChars) and what stays in force.
func invalidTools(err error, stays string) error {
	msg := strings.TrimPrefix(err.Error(), "toolsfile: ")
	if len(msg) > maxToolsErrorChars {
		msg = strings.ToValidUTF8(msg[:maxToolsErrorChars], "") + "..."
	}
	return httpErr(http.StatusUnprocessableEntity, "invalid_tools", msg+" ("+stays+")", err)
}
