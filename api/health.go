package api

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

type checkResult struct {
	Status   string `json:"status"`
	Required bool   `json:"required"`
	Error    string `json:"error,omitempty"`
}

// readyz probes every dependency concurrently, each with its own deadline;
// it answers 503 when a required one is down.
func (s *Server) readyz(c *gin.Context) {
	results := make(map[string]checkResult, len(s.deps.Checks))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, ch := range s.deps.Checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
			defer cancel()
			r := checkResult{Status: "ok", Required: ch.Required}
			if err := ch.Ping(ctx); err != nil {
				r.Status, r.Error = "unavailable", err.Error()
			}
			mu.Lock()
			results[ch.Name] = r
			mu.Unlock()
		}()
	}
	wg.Wait()
	status, code := "ok", http.StatusOK
	for _, r := range results {
		if r.Required && r.Status != "ok" {
			status, code = "unavailable", http.StatusServiceUnavailable
		}
	}
	c.JSON(code, gin.H{"status": status, "checks": results})
}
