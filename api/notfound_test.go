package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/web"
)

// TestNotFoundLogsThePath: a request no route matches is logged with its
// path (clipped), so an operator sees what was asked for; a matched route
// is logged by its route alone.
func TestNotFoundLogsThePath(t *testing.T) {
	cs := newChatServer(t, fakeChat{}, api.Options{})
	long := "/x/" + strings.Repeat("y", 500)
	for _, p := range []string{"/no/such/page", long, "/healthz"} {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, cs.ts.URL+p, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	byPath := map[string]map[string]any{}
	var healthz map[string]any
	for _, line := range strings.Split(strings.TrimSpace(cs.logs.String()), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["msg"] != "http request" {
			continue
		}
		if rec["route"] == "/healthz" {
			healthz = rec
		}
		if p, ok := rec["path"].(string); ok {
			byPath[p] = rec
		}
	}
	if rec := byPath["/no/such/page"]; rec == nil || rec["status"] != 404.0 || rec["route"] != "unmatched" {
		t.Fatalf("the 404 is logged as %v (all: %v)", rec, byPath)
	}
	var clipped bool
	for p := range byPath {
		if strings.HasPrefix(p, "/x/yyy") && len(p) < 300 {
			clipped = true
		}
	}
	if !clipped {
		t.Errorf("the long path is not logged clipped: %v", byPath)
	}
	if healthz == nil || healthz["path"] != nil {
		t.Errorf("a matched route is logged as %v", healthz)
	}
}

// TestFavicon: /favicon.ico answers the embedded icon, for GET and HEAD.
func TestFavicon(t *testing.T) {
	cs := newChatServer(t, fakeChat{}, api.Options{})
	want := web.Favicon()
	if len(want) < 22 || !bytes.HasPrefix(want, []byte{0, 0, 1, 0}) {
		t.Fatalf("the embedded icon is not an ICO file: % x", want[:min(len(want), 8)])
	}
	for _, m := range []string{http.MethodGet, http.MethodHead} {
		resp, body := do(t, m, cs.ts.URL+"/favicon.ico", "", nil)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/x-icon" {
			t.Fatalf("%s: status %d, type %q", m, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if m == http.MethodGet && !bytes.Equal(body, want) {
			t.Fatalf("GET answered %d bytes, want the %d-byte icon", len(body), len(want))
		}
	}
}
