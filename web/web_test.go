package web

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/schemas"
	"github.com/gameassist/gameassist/screens"
)

var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "no-referrer",
	"Cache-Control":           "no-cache",
}

func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.StripPrefix("/web", Handler()))
	t.Cleanup(srv.Close)
	return srv
}

// get sends a request with the path exactly as given (no client-side
// cleaning) and does not follow redirects.
func get(t *testing.T, srv *httptest.Server, method, rawPath string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Opaque = rawPath
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, rawPath, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(body)
}

func checkSecurityHeaders(t *testing.T, res *http.Response) {
	t.Helper()
	for k, want := range securityHeaders {
		if got := res.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

func TestServesFiles(t *testing.T) {
	srv := newServer(t)
	tests := []struct {
		name, path, wantType, wantBody string
	}{
		{name: "index at the root", path: "/web/", wantType: "text/html", wantBody: `src="widget.js"`},
		{name: "admin page", path: "/web/admin.html", wantType: "text/html", wantBody: `src="admin.js"`},
		{name: "widget script", path: "/web/widget.js", wantType: "text/javascript", wantBody: "/v1/chat"},
		{name: "widget style sheet", path: "/web/widget.css", wantType: "text/css", wantBody: ":host"},
		{name: "demo script", path: "/web/demo.js", wantType: "text/javascript", wantBody: "gameassist"},
		{name: "admin script", path: "/web/admin.js", wantType: "text/javascript", wantBody: "/admin/stats"},
		{name: "style sheet", path: "/web/style.css", wantType: "text/css", wantBody: ".transcript"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := get(t, srv, http.MethodGet, tt.path)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d, want 200; body %q", res.StatusCode, body)
			}
			if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, tt.wantType) {
				t.Errorf("Content-Type %q, want %s", got, tt.wantType)
			}
			if !strings.Contains(body, tt.wantBody) {
				t.Errorf("body lacks %q", tt.wantBody)
			}
			checkSecurityHeaders(t, res)
		})
	}
}

func TestRefusals(t *testing.T) {
	srv := newServer(t)
	tests := []struct {
		name, method, path string
		header             []string
		wantStatus         int
	}{
		{name: "range past the end", method: http.MethodGet, path: "/web/widget.js", header: []string{"Range", "bytes=99999999-"}, wantStatus: http.StatusRequestedRangeNotSatisfiable},
		{name: "unknown file", method: http.MethodGet, path: "/web/missing.js", wantStatus: http.StatusNotFound},
		{name: "unknown directory", method: http.MethodGet, path: "/web/missing/", wantStatus: http.StatusNotFound},
		{name: "embedded directory name", method: http.MethodGet, path: "/web/static/", wantStatus: http.StatusNotFound},
		{name: "file with a trailing slash", method: http.MethodGet, path: "/web/admin.html/", wantStatus: http.StatusNotFound},
		{name: "dot-dot to Go source", method: http.MethodGet, path: "/web/../web.go", wantStatus: http.StatusNotFound},
		{name: "encoded dot-dot to Go source", method: http.MethodGet, path: "/web/%2e%2e/web.go", wantStatus: http.StatusNotFound},
		{name: "encoded slash to Go source", method: http.MethodGet, path: "/web/..%2fweb.go", wantStatus: http.StatusNotFound},
		{name: "dot-dot to the test file", method: http.MethodGet, path: "/web/../../web/web_test.go", wantStatus: http.StatusNotFound},
		{name: "post", method: http.MethodPost, path: "/web/index.html", wantStatus: http.StatusMethodNotAllowed},
		{name: "delete", method: http.MethodDelete, path: "/web/widget.js", wantStatus: http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := get(t, srv, tt.method, tt.path, tt.header...)
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d", res.StatusCode, tt.wantStatus)
			}
			if strings.Contains(body, "package web") || strings.Contains(body, "<pre>") {
				t.Errorf("body serves source or a listing: %q", body)
			}
			checkSecurityHeaders(t, res)
		})
	}
}

func TestMountPointRedirects(t *testing.T) {
	srv := newServer(t)
	res, _ := get(t, srv, http.MethodGet, "/web")
	if res.StatusCode != http.StatusMovedPermanently {
		t.Fatalf("status %d, want 301", res.StatusCode)
	}
	loc, err := res.Request.URL.Parse(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if loc.Path != "/web/" {
		t.Errorf("redirect to %q, want /web/", loc.Path)
	}
	checkSecurityHeaders(t, res)
}

func staticFS(t *testing.T) fs.FS {
	t.Helper()
	sub, err := fs.Sub(files, "static")
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// filesWithExt returns name → content of the static files ending in ext.
func filesWithExt(t *testing.T, ext string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(staticFS(t), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ext {
			return err
		}
		b, err := fs.ReadFile(staticFS(t), p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no %s files embedded", ext)
	}
	return out
}

var (
	refAttr = regexp.MustCompile(`\b(?:src|href)="([^"]*)"`)
	// inline code or style the CSP would block
	inlineCode = regexp.MustCompile(`(?i)<script(?:\s[^>]*)?>\s*[^<\s]|<style\b|\sstyle=|\son[a-z]+=|javascript:`)
)

func TestHTMLReferencesEmbeddedFiles(t *testing.T) {
	sub := staticFS(t)
	for name, html := range filesWithExt(t, ".html") {
		t.Run(name, func(t *testing.T) {
			refs := refAttr.FindAllStringSubmatch(html, -1)
			if len(refs) == 0 {
				t.Fatal("no src or href found")
			}
			for _, m := range refs {
				ref := m[1]
				if strings.Contains(ref, ":") || strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "#") {
					t.Errorf("reference %q leaves the embedded files", ref)
					continue
				}
				if info, err := fs.Stat(sub, path.Join(path.Dir(name), ref)); err != nil || info.IsDir() {
					t.Errorf("reference %q is not an embedded file", ref)
				}
			}
			if loc := inlineCode.FindStringIndex(html); loc != nil {
				t.Errorf("inline script or style the CSP blocks: %q", html[loc[0]:min(loc[1]+20, len(html))])
			}
		})
	}
}

func TestScriptsUseNoUnsafeSinks(t *testing.T) {
	banned := []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "eval(", "document.write", "new Function", "localStorage"}
	for name, js := range filesWithExt(t, ".js") {
		t.Run(name, func(t *testing.T) {
			for _, b := range banned {
				if strings.Contains(js, b) {
					t.Errorf("uses %s", b)
				}
			}
		})
	}
}

// contract is the OpenAPI document's operations: path → lower-case methods.
type contract map[string][]string

func loadContract(t *testing.T) contract {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(schemas.OpenAPI(), &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	c := contract{}
	for p, ops := range doc.Paths {
		for m := range ops {
			c[p] = append(c[p], m)
		}
	}
	return c
}

// hasPath reports whether p is a documented path, or, when p ends in "/",
// the leading part of one.
func (c contract) hasPath(p string) bool {
	if _, ok := c[p]; ok {
		return true
	}
	if !strings.HasSuffix(p, "/") {
		return false
	}
	for doc := range c {
		if strings.HasPrefix(doc, p) {
			return true
		}
	}
	return false
}

func (c contract) hasOperation(method, p string) bool {
	return slices.Contains(c[p], strings.ToLower(method))
}

func TestContractMatching(t *testing.T) {
	c := contract{"/admin/sessions/{id}/cache": {"get", "delete"}, "/v1/chat": {"post"}}
	tests := []struct {
		name, method, path string
		wantPath, wantOp   bool
	}{
		{name: "exact path", method: "GET", path: "/admin/sessions/{id}/cache", wantPath: true, wantOp: true},
		{name: "prefix of a templated path", method: "GET", path: "/admin/sessions/", wantPath: true},
		{name: "prefix without slash", method: "GET", path: "/admin/sess", wantPath: false},
		{name: "undocumented method", method: "PUT", path: "/v1/chat", wantPath: true, wantOp: false},
		{name: "unknown path", method: "POST", path: "/v2/chat", wantPath: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.hasPath(tt.path); got != tt.wantPath {
				t.Errorf("hasPath(%q) = %v", tt.path, got)
			}
			if got := c.hasOperation(tt.method, tt.path); got != tt.wantOp {
				t.Errorf("hasOperation(%s %q) = %v", tt.method, tt.path, got)
			}
		})
	}
}

var (
	apiLiteral = regexp.MustCompile("['\"`](/(?:v1|admin)/[^'\"`]*)['\"`]")
	// admin.js: api('METHOD', '/path/{param}', ...)
	apiCall = regexp.MustCompile(`\bapi\('([A-Z]+)',\s*'([^']+)'`)
	// widget.js: call('METHOD', '/path', ...
	widgetCall = regexp.MustCompile(`\bcall\('([A-Z]+)',\s*'([^']+)'`)
)

func TestScriptsCallDocumentedRoutes(t *testing.T) {
	c := loadContract(t)
	used := map[string]bool{}
	for name, js := range filesWithExt(t, ".js") {
		t.Run(name, func(t *testing.T) {
			for _, m := range apiLiteral.FindAllStringSubmatch(js, -1) {
				if !c.hasPath(m[1]) {
					t.Errorf("path %q is not in openapi.json", m[1])
				}
			}
			for _, m := range apiCall.FindAllStringSubmatch(js, -1) {
				used[m[1]+" "+m[2]] = true
			}
			for _, m := range widgetCall.FindAllStringSubmatch(js, -1) {
				used[m[1]+" "+m[2]] = true
			}
		})
	}
	for op := range used {
		method, p, _ := strings.Cut(op, " ")
		if !c.hasOperation(method, p) {
			t.Errorf("%s is not an operation of openapi.json", op)
		}
	}
	want := []string{
		"POST /v1/sessions", "POST /v1/chat",
		"GET /admin/sessions", "GET /admin/sessions/{id}", "GET /admin/sessions/{id}/cache",
		"DELETE /admin/sessions/{id}/cache", "DELETE /admin/sessions/{id}/cache/{key}",
		"GET /admin/tools", "GET /admin/stats",
	}
	for _, op := range want {
		if !used[op] {
			t.Errorf("the pages never call %s", op)
		}
	}
}

func TestDemoScreensHaveRules(t *testing.T) {
	var rules map[string]json.RawMessage
	if err := json.Unmarshal(screens.DefaultRules(), &rules); err != nil {
		t.Fatal(err)
	}
	js := filesWithExt(t, ".js")["demo.js"]
	names := regexp.MustCompile(`(?m)^\s+(\w+Presenter): \{`).FindAllStringSubmatch(js, -1)
	if len(names) < 3 {
		t.Fatalf("found %d screens in demo.js, want at least 3", len(names))
	}
	for _, m := range names {
		if _, ok := rules[m[1]]; !ok {
			t.Errorf("screen %s has no rule in the default rules", m[1])
		}
	}
}

// The demo page's widget opens its sessions for the demo player, whose
// state the server pushes at start with --demo-player.
func TestDemoPageUsesTheDemoPlayer(t *testing.T) {
	b, err := fs.ReadFile(files, "static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `src="widget.js" data-player-id="demo"`) {
		t.Fatal("index.html does not load the widget for player demo")
	}
}
