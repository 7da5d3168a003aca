package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/rollout"
)

// Rollouts sets and reports the weights that assign sessions to the
// versions of a tool; *rollout.Assigner satisfies it.
type Rollouts interface {
	// Set validates and stores w for the tool under name (or alias) and
	// returns the canonical name; errors wrap rollout.ErrUnknownTool or
	// rollout.ErrInvalid (also for a tool with fewer than two versions).
	Set(ctx context.Context, name string, w rollout.Weights) (string, error)
	// Clear removes the weights set at run time for the tool under name
	// (or alias), so the tools file's (or the default) apply again, and
	// returns the canonical name; errors wrap rollout.ErrUnknownTool or,
	// for a tool with fewer than two versions, rollout.ErrInvalid.
	Clear(ctx context.Context, name string) (string, error)
	// Weights returns the weights in force for a tool and their source.
	Weights(ctx context.Context, tool string) (rollout.Weights, rollout.Source)
}

type rolloutRequest struct {
	Weights json.RawMessage `json:"weights"`
}

type rolloutView struct {
	Weights rollout.Weights `json:"weights"`
	Source  rollout.Source  `json:"source"`
}

// setRollout answers PUT /admin/tools/:name/rollout with
// {"weights": {"1": 80, "2": 20}}: 200 with the weights now in force, 400
// for a body that is not JSON, repeats a key or lacks weights, 404 for an
// unknown tool, 422 for a tool with fewer than two versions (as the tools
// file's rollouts: refuses it) or weights the tool cannot take (not an
// object of version to weight, an unknown version, a negative or
// non-integer weight, weights not summing to 100).
func (s *Server) setRollout(c *gin.Context) {
	if s.deps.Rollouts == nil {
		s.fail(c, errUnavailable("tool rollouts"))
		return
	}
	body, err := readBody(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req rolloutRequest
	if err := decodeJSON(c, body, &req); err != nil {
		s.fail(c, err)
		return
	}
	if len(req.Weights) == 0 || string(req.Weights) == "null" {
		s.fail(c, httpErr(http.StatusBadRequest, "invalid_rollout", `weights is required, like {"weights": {"1": 80, "2": 20}}`, nil))
		return
	}
	var w rollout.Weights
	if err := json.Unmarshal(req.Weights, &w); err != nil {
		s.fail(c, httpErr(http.StatusUnprocessableEntity, "invalid_rollout", rolloutMessage(err), err))
		return
	}
	name, err := s.deps.Rollouts.Set(c.Request.Context(), c.Param("name"), w)
	s.rolloutAnswer(c, name, err)
}

// clearRollout answers DELETE /admin/tools/:name/rollout: it removes the
// weights set at run time, so the tools file's weights (or the default,
// the highest version for every session) apply again; 200 with the
// weights now in force, as PUT answers, 404 for an unknown tool, 422 for
// a tool with fewer than two versions (it has no rollout). Deleting
// weights that are not set is fine.
func (s *Server) clearRollout(c *gin.Context) {
	if s.deps.Rollouts == nil {
		s.fail(c, errUnavailable("tool rollouts"))
		return
	}
	name, err := s.deps.Rollouts.Clear(c.Request.Context(), c.Param("name"))
	s.rolloutAnswer(c, name, err)
}

// rolloutAnswer answers a change of a tool's weights: the error's status,
// or 200 with the weights now in force and their source.
func (s *Server) rolloutAnswer(c *gin.Context, name string, err error) {
	switch {
	case errors.Is(err, rollout.ErrUnknownTool):
		s.fail(c, httpErr(http.StatusNotFound, "unknown_tool", "no tool is registered under this name", err))
		return
	case errors.Is(err, rollout.ErrInvalid):
		s.fail(c, httpErr(http.StatusUnprocessableEntity, "invalid_rollout", rolloutMessage(err), err))
		return
	case err != nil:
		s.fail(c, err)
		return
	}
	cur, src := s.deps.Rollouts.Weights(c.Request.Context(), name)
	c.JSON(http.StatusOK, gin.H{"tool": name, "weights": cur, "source": src})
}

// rolloutMessage is the client's view of a weights error: from the
// sentinel on, without the operation prefixes.
func rolloutMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, rollout.ErrInvalid.Error()); i >= 0 {
		msg = msg[i:]
	}
	return msg
}
