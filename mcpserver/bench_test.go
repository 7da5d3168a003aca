package mcpserver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkHTTPToolCall is one stateless tools/call through the HTTP
// handler: the SDK's JSON-RPC round, the executor and a GCS query.
func BenchmarkHTTPToolCall(b *testing.B) {
	h := newHarness(b, setup{})
	handler := h.srv.Handler()
	const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gcs_get_boss_details","arguments":{"boss_id":5001}}}`
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, req)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"structuredContent"`) {
			b.Fatalf("status %d: %s", w.Code, w.Body.String())
		}
	}
}
