package api_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/internal/openapitest"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// fakeReloader answers ReloadAll with what it holds.
type fakeReloader struct {
	r   api.Reloaded
	err error
}

func (f fakeReloader) ReloadAll(context.Context) (api.Reloaded, error) { return f.r, f.err }

// TestReloadRoute: POST /admin/reload answers 200 with the screens and
// tools in place, 422 for a bad tools file or bad rules (saying both
// stay), 503 without a reloader; every answer fits the OpenAPI document.
func TestReloadRoute(t *testing.T) {
	ex, err := tool.NewExecutor(tool.NewRegistry(), tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v := openapitest.Load(t)
	tests := []struct {
		name     string
		rel      api.Reloader
		want     int
		contains string
	}{
		{name: "both", rel: fakeReloader{r: api.Reloaded{Screens: []string{"CardScreen"}, ToolsFile: "tools.yaml", Tools: []string{"cards_card"}}}, want: 200,
			contains: `{"count":1,"screens":["CardScreen"],"tools":["cards_card"],"tools_file":"tools.yaml"}`},
		{name: "rules only", rel: fakeReloader{r: api.Reloaded{Screens: []string{"A"}}}, want: 200, contains: `{"count":1,"screens":["A"],"tools":[]}`},
		{name: "bad tools", rel: fakeReloader{err: fmt.Errorf("toolsfile: %w: tools.yaml:3: tool cards_card: bad", tool.ErrInvalidTools)}, want: 422,
			contains: "tools.yaml:3: tool cards_card: bad (the running tools and rules stay)"},
		{name: "bad rules", rel: fakeReloader{err: fmt.Errorf("screens: load rules.json: %w: rule A: tool cards_nope does not exist", screens.ErrInvalidRules)}, want: 422,
			contains: "invalid_rules"},
		{name: "no reloader", want: 503, contains: "unavailable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := api.New(api.Deps{Executor: ex, Reloader: tc.rel, Logger: slog.New(slog.DiscardHandler)}, api.Options{AdminToken: "adm"})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)
			resp, body := do(t, http.MethodPost, ts.URL+"/admin/reload", "adm", nil)
			if resp.StatusCode != tc.want || !strings.Contains(string(body), tc.contains) {
				t.Fatalf("status %d %s, want %d with %s", resp.StatusCode, body, tc.want, tc.contains)
			}
			v.CheckResponse(t, resp.Request, resp, body)
		})
	}
}
