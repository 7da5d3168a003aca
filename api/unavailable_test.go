package api_test

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// TestRedisLoadingIs503: a real redis-server still loading its data set
// after a restart answers LOADING; the edge answers 503 with Retry-After
// (try again shortly), not 500. So do CLUSTERDOWN and a Redis that is down.
func TestRedisLoadingIs503(t *testing.T) {
	loading := redistest.StartLoading(t)
	clusterDown := redistest.StartClusterDown(t)
	down := redistest.Start(t)
	down.Stop()
	for _, tc := range []struct {
		name string
		srv  *redistest.Server
	}{{"loading", loading}, {"cluster down", clusterDown}, {"down", down}} {
		t.Run(tc.name, func(t *testing.T) {
			rdb := redis.NewClient(&redis.Options{Addr: tc.srv.Addr(), MaxRetries: 1})
			t.Cleanup(func() { _ = rdb.Close() })
			store, err := memory.New(rdb, memory.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ex, err := tool.NewExecutor(tool.NewRegistry(), tool.ExecutorOptions{})
			if err != nil {
				t.Fatal(err)
			}
			const admin = "admin-secret"
			srv, err := api.New(api.Deps{Executor: ex, Sessions: store, Logger: slog.New(slog.DiscardHandler)}, api.Options{AdminToken: admin})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)
			for _, path := range []string{"/admin/sessions/" + testSession, "/admin/sessions?limit=5"} {
				resp, body := do(t, http.MethodGet, ts.URL+path, admin, nil)
				if resp.StatusCode != http.StatusServiceUnavailable {
					t.Fatalf("GET %s: %d %s, want 503", path, resp.StatusCode, body)
				}
				secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
				if err != nil || secs < 1 || time.Duration(secs)*time.Second > time.Minute {
					t.Errorf("GET %s: Retry-After %q, want a few seconds", path, resp.Header.Get("Retry-After"))
				}
				var e struct {
					Error struct{ Code string } `json:"error"`
				}
				if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != "unavailable" {
					t.Errorf("GET %s: body %s, want code unavailable", path, body)
				}
			}
		})
	}
}

// TestAPIImportsNoRedisClient: the edge maps storage failures through the
// storage package's own sentinel errors; no file of package api imports
// the Redis client.
func TestAPIImportsNoRedisClient(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range af.Imports {
			if strings.Contains(imp.Path.Value, "github.com/redis/") {
				t.Errorf("%s imports %s", f, imp.Path.Value)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source files checked")
	}
}
