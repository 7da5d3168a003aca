// Package web serves the chat widget demo page and the admin cache inspector:
// static files embedded in the binary, so a game developer can try the API
// and an operator can look into a session's tool cache with nothing but a
// browser and the server itself.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
)

//go:embed static
var files embed.FS

// contentSecurityPolicy is sent with every answer: the pages load nothing
// but their own files and talk only to their own origin, so the policy can
// forbid inline code, other origins and framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; " +
	"connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"

// Handler serves the embedded pages, to be mounted with its prefix stripped
// (http.StripPrefix("/web", web.Handler()) answers /web/, /web/admin.html,
// /web/widget.js, ...). Only GET and HEAD of existing files are answered; a
// directory other than the root, an unknown file or a path escaping the
// static tree is 404, so nothing is ever listed.
func Handler() http.Handler {
	// fs.Sub fails only for an invalid directory name, and "static" is
	// valid; the check keeps a broken build from serving anything.
	static, subErr := fs.Sub(files, "static")
	fileServer := http.FileServerFS(static)
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w := &securedWriter{ResponseWriter: rw}
		if subErr != nil {
			http.Error(w, "web: static files unavailable", http.StatusInternalServerError)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if r.URL.Path == "" {
			redirectToDir(w, r)
			return
		}
		if !isFile(static, r.URL.Path) {
			http.NotFound(w, r)
			return
		}
		fileServer.ServeHTTP(w, r)
	})
}

// Favicon returns the site icon (static/favicon.ico, 16×16), for
// /favicon.ico, where browsers ask for it whatever page they show.
func Favicon() []byte {
	b, err := fs.ReadFile(files, "static/favicon.ico")
	if err != nil {
		return nil
	}
	return b
}

// isFile reports whether p names a regular file of fsys, or is the root
// (served as index.html). Cleaning an absolute path removes every "..", so
// nothing outside fsys is reachable.
func isFile(fsys fs.FS, p string) bool {
	if p == "/" {
		return true
	}
	if strings.HasSuffix(p, "/") {
		return false
	}
	name := strings.TrimPrefix(path.Clean("/"+p), "/")
	if !fs.ValidPath(name) {
		return false
	}
	info, err := fs.Stat(fsys, name)
	return err == nil && info.Mode().IsRegular()
}

// redirectToDir answers the mount point without its trailing slash (/web)
// with a redirect to /web/, so the pages' relative links resolve under it.
func redirectToDir(w http.ResponseWriter, r *http.Request) {
	u, err := url.ParseRequestURI(r.RequestURI)
	base := ""
	if err == nil {
		base = path.Base(u.Path)
	}
	if base == "" || base == "/" || base == "." || base == ".." {
		http.NotFound(w, r)
		return
	}
	target := base + "/"
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	// target is one path segment (path.Base has no slash) plus "/": a
	// relative redirect that cannot leave this server.
	http.Redirect(w, r, target, http.StatusMovedPermanently) //nolint:gosec // relative, single segment
}

// securedWriter adds the security headers when the status is written, so
// they reach every answer, including the errors http.FileServerFS writes
// after removing Cache-Control.
type securedWriter struct {
	http.ResponseWriter
	wroteHeader bool
}

// WriteHeader sets the security headers, then the status.
func (w *securedWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.wroteHeader = true
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write sends the headers with a 200 status if none was written yet.
func (w *securedWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *securedWriter) Unwrap() http.ResponseWriter {
	return w.ResponseWriter
}
