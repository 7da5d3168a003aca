package main

import (
	"net/http"
	"testing"
)

// TestCORS: allowed origins get CORS headers; other origins get none (the
// browser refuses the answer) but still the contract's statuses and bodies.
func TestCORS(t *testing.T) {
	const allowed = "https://game.example"
	f := newFixture(t, appSetup{env: map[string]string{"ALLOWED_ORIGINS": allowed + ", https://admin.example"}})
	preflight := func(origin string) request {
		return request{method: http.MethodOptions, path: "/v1/chat", undocumented: true, header: map[string]string{
			"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type",
		}}
	}
	create := func(origin string) request {
		return request{method: http.MethodPost, path: "/v1/sessions", body: []byte(`{}`), header: map[string]string{"Origin": origin}}
	}
	tests := []struct {
		name       string
		req        request
		want       int
		wantOrigin string
	}{
		{name: "preflight from an allowed origin", req: preflight(allowed), want: http.StatusNoContent, wantOrigin: allowed},
		{name: "request from an allowed origin", req: create(allowed), want: http.StatusCreated, wantOrigin: allowed},
		{name: "preflight from another origin", req: preflight("https://evil.example"), want: http.StatusMethodNotAllowed},
		{name: "request from another origin", req: create("https://evil.example"), want: http.StatusCreated},
		{name: "request without origin", req: create(""), want: http.StatusCreated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.req.header["Origin"] == "" {
				delete(tt.req.header, "Origin")
			}
			resp, body := f.do(t, tt.req)
			if tt.want >= 400 {
				expectError(t, resp, body, tt.want)
			} else {
				expect(t, resp, body, tt.want)
			}
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != tt.wantOrigin {
				t.Fatalf("Access-Control-Allow-Origin %q, want %q", got, tt.wantOrigin)
			}
		})
	}
}
