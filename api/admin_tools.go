package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/tool"
)

type toolView struct {
	tool.Entry
	OfferedToLLM bool `json:"offered_to_llm"`
	// DisplayNames is what players see of the tool, in every session locale.
	DisplayNames map[string]string `json:"display_names"`
	// Version is the default (highest) version, 0 when unversioned; the
	// fields above describe it.
	Version int `json:"version,omitempty"`
	// Versions lists every version of a tool that has several, with the
	// weights assigning sessions to them.
	Versions []versionView `json:"versions,omitempty"`
	Rollout  *rolloutView  `json:"rollout,omitempty"`
	// Steps lists a chain's steps (the tools it calls, in order).
	Steps []tool.StepInfo `json:"steps,omitempty"`
}

// versionView is one version of a tool with several.
type versionView struct {
	Version       int             `json:"version"`
	Description   string          `json:"description"`
	Parameters    json.RawMessage `json:"parameters"`
	CacheDuration int             `json:"cache_duration"`
	// Steps are a chain version's steps (absent for a tool).
	Steps []tool.StepInfo `json:"steps,omitempty"`
}

func (s *Server) listTools(c *gin.Context) {
	reg := s.deps.Executor.Registry()
	specs := reg.Specs(nil)
	out := make([]toolView, 0, len(specs))
	for _, sp := range specs {
		names := map[string]string{}
		for _, l := range chat.Locales() {
			names[l] = sp.DisplayName(l)
		}
		v := toolView{Entry: sp.Entry(), OfferedToLLM: s.deps.OfferedToLLM(sp), DisplayNames: names, Version: sp.Version}
		if steps, ok := reg.StepInfos(sp.Name); ok {
			v.Steps = steps
		}
		if vs := reg.Versions(sp.Name); len(vs) > 1 {
			for _, n := range vs {
				vsp, _ := reg.SpecVersion(sp.Name, n)
				e := vsp.Entry()
				vv := versionView{Version: n, Description: e.Description, Parameters: e.Parameters, CacheDuration: e.CacheDuration}
				if steps, ok := reg.StepInfosVersion(sp.Name, n); ok {
					vv.Steps = steps
				}
				v.Versions = append(v.Versions, vv)
			}
			if s.deps.Rollouts != nil {
				w, src := s.deps.Rollouts.Weights(c.Request.Context(), sp.Name)
				v.Rollout = &rolloutView{Weights: w, Source: src}
			}
		}
		out = append(out, v)
	}
	c.JSON(http.StatusOK, gin.H{"tools": out})
}

type executeRequest struct {
	ToolCalls []tool.Call `json:"tool_calls"`
}

const maxAdminCalls = 20

// executeTools runs tool calls through the safe executor, concurrently,
// answering the envelopes in call order.
func (s *Server) executeTools(c *gin.Context) {
	body, err := readBody(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req executeRequest
	if err := decodeJSON(c, body, &req); err != nil {
		s.fail(c, err)
		return
	}
	if len(req.ToolCalls) == 0 || len(req.ToolCalls) > maxAdminCalls {
		s.fail(c, httpErr(http.StatusBadRequest, "bad_request", "tool_calls must hold 1 to 20 calls", nil))
		return
	}
	for i, call := range req.ToolCalls {
		if call.Name == "" {
			s.fail(c, httpErr(http.StatusBadRequest, "bad_request", fmt.Sprintf("tool_calls[%d].name is required", i), nil))
			return
		}
	}
	results := make([]tool.Result, len(req.ToolCalls))
	var wg sync.WaitGroup
	for i, call := range req.ToolCalls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = s.deps.Executor.Execute(c.Request.Context(), call)
		}()
	}
	wg.Wait()
	c.JSON(http.StatusOK, gin.H{"results": results})
}
