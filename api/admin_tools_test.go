package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/tool"
)

type echoTool struct{}

func (echoTool) Spec() tool.Spec {
	return tool.Spec{
		Name: "gcs_echo", Description: "echo a name", Category: tool.CategoryGCS, CacheDuration: 3,
		Parameters: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","maxLength":50}},"required":["name"],"additionalProperties":false}`),
	}
}

func (echoTool) Call(_ context.Context, args json.RawMessage) (tool.Result, error) {
	var a struct{ Name string }
	_ = json.Unmarshal(args, &a)
	return tool.Success("echo", map[string]string{"name": a.Name}), nil
}

func newTestServer(t *testing.T, adminToken string, checks ...api.Check) *httptest.Server {
	t.Helper()
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool{}); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Deps{Executor: ex, Checks: checks, Logger: slog.New(slog.DiscardHandler)}, api.Options{AdminToken: adminToken})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func do(t *testing.T, method, url, token string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func TestAdminToolsAuth(t *testing.T) {
	tests := []struct {
		name       string
		configured string
		sent       string
		want       int
	}{
		{name: "admin disabled refuses even a token", configured: "", sent: "anything", want: http.StatusForbidden},
		{name: "admin disabled refuses no token", configured: "", sent: "", want: http.StatusForbidden},
		{name: "no token", configured: "s3cret", sent: "", want: http.StatusUnauthorized},
		{name: "wrong token", configured: "s3cret", sent: "s3cres", want: http.StatusUnauthorized},
		{name: "right token", configured: "s3cret", sent: "s3cret", want: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, tt.configured)
			resp, body := do(t, http.MethodGet, ts.URL+"/admin/tools", tt.sent, nil)
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.want, body)
			}
			if tt.want != http.StatusOK {
				var e struct {
					Error struct{ Code, Message string }
				}
				if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
					t.Fatalf("error body %s", body)
				}
			}
		})
	}
}

func TestExecuteTools(t *testing.T) {
	ts := newTestServer(t, "tok")
	big := `{"tool_calls":[{"name":"gcs_echo","arguments":{"name":"` + strings.Repeat("x", 1<<20) + `"}}]}`
	deep := strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat(`}`, 40)
	tests := []struct {
		name     string
		body     string
		want     int
		wantCode string
	}{
		{name: "ok", body: `{"tool_calls":[{"name":"gcs_echo","arguments":{"name":"Kaelith"}},{"name":"nope","arguments":{}}]}`, want: http.StatusOK},
		{name: "malformed", body: `{"tool_calls":[`, want: http.StatusBadRequest, wantCode: "bad_json"},
		{name: "unknown field", body: `{"tool_calls":[],"x":1}`, want: http.StatusBadRequest, wantCode: "bad_json"},
		{name: "empty calls", body: `{"tool_calls":[]}`, want: http.StatusBadRequest, wantCode: "bad_request"},
		{name: "wrong type", body: `{"tool_calls":"gcs_echo"}`, want: http.StatusBadRequest, wantCode: "bad_json"},
		{name: "too deep", body: deep, want: http.StatusBadRequest, wantCode: "bad_json"},
		{name: "not utf8", body: "{\"tool_calls\":[{\"name\":\"\xff\"}]}", want: http.StatusBadRequest, wantCode: "bad_json"},
		{name: "over 1 MiB", body: big, want: http.StatusRequestEntityTooLarge, wantCode: "body_too_large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := do(t, http.MethodPost, ts.URL+"/admin/tools/execute", "tok", bytes.NewBufferString(tt.body))
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d: %.300s", resp.StatusCode, tt.want, body)
			}
			if tt.wantCode != "" && !strings.Contains(string(body), `"code":"`+tt.wantCode+`"`) {
				t.Fatalf("body %.300s lacks code %s", body, tt.wantCode)
			}
		})
	}
	t.Run("results in call order", func(t *testing.T) {
		_, body := do(t, http.MethodPost, ts.URL+"/admin/tools/execute", "tok",
			bytes.NewBufferString(`{"tool_calls":[{"name":"gcs_echo","arguments":{"name":"Kaelith"}},{"name":"gcs_ecoh","arguments":{}}]}`))
		var out struct{ Results []tool.Result }
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Results) != 2 || !out.Results[0].OK() || out.Results[1].OK() {
			t.Fatalf("results %s", body)
		}
		if out.Results[0].InternalInfo.FunctionName != "gcs_echo" || !strings.Contains(out.Results[1].Guidance, "gcs_echo") {
			t.Fatalf("results %s", body)
		}
	})
}

func TestHealthAndReady(t *testing.T) {
	up := api.Check{Name: "gcs", Required: true, Ping: func(context.Context) error { return nil }}
	down := api.Check{Name: "redis", Required: true, Ping: func(context.Context) error { return errors.New("connection refused") }}
	optional := api.Check{Name: "llm", Required: false, Ping: func(context.Context) error { return errors.New("no key") }}
	tests := []struct {
		name   string
		checks []api.Check
		want   int
	}{
		{name: "all up", checks: []api.Check{up, optional}, want: http.StatusOK},
		{name: "required down", checks: []api.Check{up, down}, want: http.StatusServiceUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, "", tt.checks...)
			if resp, _ := do(t, http.MethodGet, ts.URL+"/healthz", "", nil); resp.StatusCode != http.StatusOK {
				t.Fatalf("healthz %d", resp.StatusCode)
			}
			resp, body := do(t, http.MethodGet, ts.URL+"/readyz", "", nil)
			if resp.StatusCode != tt.want {
				t.Fatalf("readyz %d, want %d: %s", resp.StatusCode, tt.want, body)
			}
			if resp.Header.Get("X-Request-ID") == "" {
				t.Error("no X-Request-ID echoed")
			}
		})
	}
}

func TestWebPages(t *testing.T) {
	ts := newTestServer(t, "")
	tests := []struct {
		path, wantType string
		want           int
	}{
		{"/web/", "text/html", http.StatusOK},
		{"/web/admin.html", "text/html", http.StatusOK},
		{"/web/widget.js", "javascript", http.StatusOK},
		{"/web/widget.css", "text/css", http.StatusOK},
		{"/web/nope.js", "", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, _ := do(t, http.MethodGet, ts.URL+tt.path, "", nil)
			if resp.StatusCode != tt.want || !strings.Contains(resp.Header.Get("Content-Type"), tt.wantType) {
				t.Fatalf("%s: %d %s", tt.path, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if resp.Header.Get("Content-Security-Policy") == "" {
				t.Error("no Content-Security-Policy")
			}
		})
	}
}
