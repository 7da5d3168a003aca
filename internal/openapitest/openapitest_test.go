package openapitest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/schemas"
)

const sessionID = "5b0e4c1e-8f0a-4d37-9a55-3f1f8a1c2d4e"

// exchange is one hand-made request/response pair.
type exchange struct {
	method, path string
	reqCT        string
	reqHeader    map[string]string
	reqBody      string
	status       int
	respCT       string
	respHeader   map[string]string
	respBody     string
}

func (e exchange) build() (*http.Request, []byte, *http.Response, []byte) {
	req := httptest.NewRequest(e.method, "http://gameassist.test"+e.path, strings.NewReader(e.reqBody))
	if e.reqCT != "" {
		req.Header.Set("Content-Type", e.reqCT)
	}
	for k, v := range e.reqHeader {
		req.Header.Set(k, v)
	}
	resp := &http.Response{StatusCode: e.status, Header: http.Header{}}
	if e.respCT != "" {
		resp.Header.Set("Content-Type", e.respCT)
	}
	for k, v := range e.respHeader {
		resp.Header.Set(k, v)
	}
	return req, []byte(e.reqBody), resp, []byte(e.respBody)
}

const (
	jsonCT    = "application/json; charset=utf-8"
	chatReq   = `{"session_id":"` + sessionID + `","message":"Who is Kaelith?","screen":{"name":"ChampionFeatureModelsPresenter","data":{"ChampionConfigId":7}}}`
	toolCall  = `{"name":"gcs_get_champion_details","arguments":{"champion_name":"Kaelith"},"source":"executed","status":"success","duration_ms":0.42}`
	chatReply = `{"session_id":"` + sessionID + `","exchange":3,"reply":"Kaelith is a mage.","tool_calls":[` + toolCall + `],"usage":{"prompt_tokens":812,"completion_tokens":40},"degraded":false}`
	errBody   = `{"error":{"code":"rate_limited","message":"too many requests"}}`
	envelope  = `{"status":"success","message":"ok","data":{"name":"Kaelith"},"llm_cache_duration":3,"internal_info":{"function_name":"gcs_get_champion_details","parameters":{"champion_name":"Kaelith"},"attempts":1}}`
)

func TestValidate(t *testing.T) {
	v := Load(t)
	tests := []struct {
		name    string
		ex      exchange
		wantErr string // "" means the exchange must pass
	}{
		{
			name: "valid chat reply",
			ex:   exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 200, respCT: jsonCT, respBody: chatReply},
		},
		{
			name:    "chat reply missing exchange",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 200, respCT: jsonCT, respBody: strings.Replace(chatReply, `"exchange":3,`, "", 1)},
			wantErr: "exchange",
		},
		{
			name:    "chat reply with tool_calls null",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 200, respCT: jsonCT, respBody: strings.Replace(chatReply, `[`+toolCall+`]`, "null", 1)},
			wantErr: "tool_calls",
		},
		{
			name:    "chat reply with an unknown tool source",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 200, respCT: jsonCT, respBody: strings.Replace(chatReply, `"executed"`, `"teleported"`, 1)},
			wantErr: "source",
		},
		{
			name:    "chat request with a session id that is not a uuid",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: `{"session_id":"42","message":"hi"}`, status: 200, respCT: jsonCT, respBody: chatReply},
			wantErr: "uuid",
		},
		{
			name:    "chat request without a content type",
			ex:      exchange{method: "POST", path: "/v1/chat", reqBody: chatReq, status: 200, respCT: jsonCT, respBody: chatReply},
			wantErr: "Content-Type",
		},
		{
			name:    "chat reply with a session id that is not a uuid",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 200, respCT: jsonCT, respBody: strings.Replace(chatReply, sessionID, "s-1", 1)},
			wantErr: "uuid",
		},
		{
			name:    "undocumented status",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 418, respCT: jsonCT, respBody: errBody},
			wantErr: "status 418 is not documented",
		},
		{
			name:    "undocumented content type",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 200, respCT: "text/html", respBody: "<p>hi</p>"},
			wantErr: `content type "text/html" is not documented`,
		},
		{
			name: "streamed chat reply skips the body",
			ex:   exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: `{"session_id":"` + sessionID + `","message":"hi","stream":true}`, status: 200, respCT: "text/event-stream", respBody: "event: delta\ndata: {\"text\":\"Hi\"}\n\n"},
		},
		{
			name:    "chat request with an empty message",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: `{"session_id":"` + sessionID + `","message":""}`, status: 200, respCT: jsonCT, respBody: chatReply},
			wantErr: "request does not match",
		},
		{
			name:    "chat request with an unknown field",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: `{"session_id":"` + sessionID + `","message":"hi","debug":true}`, status: 200, respCT: jsonCT, respBody: chatReply},
			wantErr: "debug",
		},
		{
			name:    "429 without Retry-After",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 429, respCT: jsonCT, respBody: errBody},
			wantErr: "Retry-After",
		},
		{
			name: "429 with Retry-After",
			ex:   exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 429, respCT: jsonCT, respHeader: map[string]string{"Retry-After": "12"}, respBody: errBody},
		},
		{
			name:    "error body of the wrong shape",
			ex:      exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 404, respCT: jsonCT, respBody: `{"message":"not found"}`},
			wantErr: "error",
		},
		{
			name: "session created",
			ex:   exchange{method: "POST", path: "/v1/sessions", reqCT: "application/json", reqBody: `{"player_id":"p-42","locale":"fr"}`, status: 201, respCT: jsonCT, respBody: `{"session_id":"` + sessionID + `","session_token":"tok"}`},
		},
		{
			name:    "session with a locale that is not a string",
			ex:      exchange{method: "POST", path: "/v1/sessions", reqCT: "application/json", reqBody: `{"locale":7}`, status: 201, respCT: jsonCT, respBody: `{"session_id":"` + sessionID + `","session_token":"tok"}`},
			wantErr: "locale",
		},
		{
			name: "screen event without injection",
			ex: exchange{
				method: "POST", path: "/v1/screens/events", reqCT: "application/json", reqHeader: map[string]string{"X-Signature": "t=1700000000,v1=00"},
				reqBody: `{"session_id":"` + sessionID + `","screen":{"name":"Inventory","data":{}}}`,
				status:  200, respCT: jsonCT, respBody: `{"screen":"Inventory","matched":false,"applied":true,"tools":[],"prompt_injection":null}`,
			},
		},
		{
			name: "screen event with a skipped tool",
			ex: exchange{
				method: "POST", path: "/v1/screens/events", reqCT: "application/json", reqHeader: map[string]string{"X-Signature": "t=1700000000,v1=00"},
				reqBody: `{"session_id":"` + sessionID + `","screen":{"name":"ChampionFeatureModelsPresenter","data":{}}}`,
				status:  200, respCT: jsonCT, respBody: `{"screen":"ChampionFeatureModelsPresenter","matched":true,"applied":true,"prompt_injection":"You are on Champion Details",` +
					`"tools":[{"name":"gcs_get_character_details_by_id","arguments":null,"source":"skipped","status":"error","duration_ms":0,"reason":"field ChampionConfigId absent"}]}`,
			},
		},
		{
			name: "screen event with a non-string injection",
			ex: exchange{
				method: "POST", path: "/v1/screens/events", reqCT: "application/json", reqHeader: map[string]string{"X-Signature": "t=1700000000,v1=00"},
				reqBody: `{"session_id":"` + sessionID + `","screen":{"name":"Inventory","data":{}}}`,
				status:  200, respCT: jsonCT, respBody: `{"screen":"Inventory","matched":false,"applied":true,"tools":[],"prompt_injection":7}`,
			},
			wantErr: "prompt_injection",
		},
		{
			name: "readiness down",
			ex: exchange{
				method: "GET", path: "/readyz", status: 503, respCT: jsonCT,
				respBody: `{"status":"unavailable","checks":{"redis":{"status":"unavailable","required":true,"error":"dial tcp: refused"},"qdrant":{"status":"ok","required":false}}}`,
			},
		},
		{
			name: "metrics are text",
			ex:   exchange{method: "GET", path: "/metrics", status: 200, respCT: "text/plain; version=0.0.4; charset=utf-8", respBody: "# HELP x y\nx 1\n"},
		},
		{
			name: "cache entry dropped",
			ex:   exchange{method: "DELETE", path: "/admin/sessions/" + sessionID + "/cache/0cc175b9c0f1b6a831c399e269772661", status: 204},
		},
		{
			name:    "no-content status with a body",
			ex:      exchange{method: "DELETE", path: "/admin/sessions/" + sessionID + "/cache/0cc175b9c0f1b6a831c399e269772661", status: 204, respCT: jsonCT, respBody: `{}`},
			wantErr: "documented without a body",
		},
		{
			name: "admin cache view",
			ex: exchange{
				method: "GET", path: "/admin/sessions/" + sessionID + "/cache", status: 200, respCT: jsonCT,
				respBody: `{"exchange":4,"entries":[{"key":"0cc175b9c0f1b6a831c399e269772661","tool":"gcs_get_champion_details","parameters":{"champion_name":"Kaelith"},` +
					`"cached_at_exchange":2,"expires_after_exchange":5,"remaining_exchanges":1,"hits":2,"size_bytes":812}]}`,
			},
		},
		{
			name: "admin session view",
			ex: exchange{
				method: "GET", path: "/admin/sessions/" + sessionID, status: 200, respCT: jsonCT,
				respBody: `{"session":{"id":"` + sessionID + `","locale":"en","created_at":"2025-01-02T03:04:05Z","exchange":1,"screen":{"name":"Inventory","hash":"ab"}},` +
					`"history":[{"role":"user","content":"hi","exchange":1,"at":"2025-01-02T03:04:06Z"},{"role":"assistant","content":"Hello","exchange":1,"at":"2025-01-02T03:04:07Z","tools":["cache_get_champions_list"]}]}`,
			},
		},
		{
			name: "admin execute",
			ex: exchange{
				method: "POST", path: "/admin/tools/execute", reqCT: "application/json",
				reqBody: `{"tool_calls":[{"name":"gcs_get_champion_details","arguments":{"champion_name":"Kaelith"}}]}`,
				status:  200, respCT: jsonCT, respBody: `{"results":[` + envelope + `]}`,
			},
		},
		{
			name: "admin execute with too many calls",
			ex: exchange{
				method: "POST", path: "/admin/tools/execute", reqCT: "application/json",
				reqBody: `{"tool_calls":[` + strings.Repeat(`{"name":"x"},`, 20) + `{"name":"x"}]}`,
				status:  400, respCT: jsonCT, respBody: errBody,
			},
			wantErr: "request does not match",
		},
		{
			name: "admin execute envelope without internal_info",
			ex: exchange{
				method: "POST", path: "/admin/tools/execute", reqCT: "application/json",
				reqBody: `{"tool_calls":[{"name":"x"}]}`,
				status:  200, respCT: jsonCT, respBody: `{"results":[{"status":"error","message":"Unknown tool","data":null,"llm_cache_duration":0}]}`,
			},
			wantErr: "internal_info",
		},
		{
			name: "admin tools",
			ex: exchange{
				method: "GET", path: "/admin/tools", status: 200, respCT: jsonCT,
				respBody: `{"tools":[{"name":"gcs_get_champion_details","description":"d","category":"gcs","aliases":[],"parameters":{"type":"object"},"cache_duration":3,"offered_to_llm":true,"display_names":{"en":"Champion","fr":"Champion","de":"Champion"}}]}`,
			},
		},
		{
			name: "screens reload refused",
			ex:   exchange{method: "POST", path: "/admin/screens/reload", status: 422, respCT: jsonCT, respBody: `{"error":{"code":"invalid_rules","message":"unknown tool"}}`},
		},
		{
			name:    "undocumented route",
			ex:      exchange{method: "GET", path: "/v2/chat", status: 404, respCT: jsonCT, respBody: errBody},
			wantErr: "no documented operation",
		},
		{
			name:    "undocumented method",
			ex:      exchange{method: "PUT", path: "/v1/chat", status: 404, respCT: jsonCT, respBody: errBody},
			wantErr: "no documented operation",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, reqBody, resp, respBody := tc.ex.build()
			err := v.Validate(req, reqBody, resp, respBody)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("want a match, got: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("want a mismatch mentioning %q, got none", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Fatalf("want a mismatch mentioning %q, got: %v", tc.wantErr, err)
			}
		})
	}
}

func TestValidateConcurrently(t *testing.T) {
	v := Load(t)
	good := exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 200, respCT: jsonCT, respBody: chatReply}
	bad := good
	bad.respBody = strings.Replace(chatReply, `"exchange":3,`, "", 1)
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			ex := good
			if i%2 == 1 {
				ex = bad
			}
			req, reqBody, resp, respBody := ex.build()
			err := v.Validate(req, reqBody, resp, respBody)
			if (err != nil) != (i%2 == 1) {
				errs <- fmt.Errorf("exchange %d: unexpected result %v", i, err)
				return
			}
			errs <- nil
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestValidateResponseIgnoresTheRequest(t *testing.T) {
	v := Load(t)
	ex := exchange{
		method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: `{"session_id":"not-a-uuid","message":""}`,
		status: 400, respCT: jsonCT, respBody: `{"error":{"code":"bad_json","message":"message is required"}}`,
	}
	req, reqBody, resp, respBody := ex.build()
	if err := v.Validate(req, reqBody, resp, respBody); err == nil {
		t.Fatal("Validate: want the bad request reported")
	}
	if err := v.ValidateResponse(req, resp, respBody); err != nil {
		t.Fatalf("ValidateResponse: %v", err)
	}
}

// fakeTB records Fatal calls instead of stopping the test, so the failing
// path of Check can be asserted.
type fakeTB struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Fatal(args ...any) {
	f.failed = true
	f.msg = fmt.Sprint(args...)
}

func TestCheckFailsTheTest(t *testing.T) {
	v := Load(t)
	tests := []struct {
		name     string
		ex       exchange
		response bool // use CheckResponse
		wantFail bool
	}{
		{name: "valid chat reply", ex: exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 200, respCT: jsonCT, respBody: chatReply}},
		{name: "reply missing exchange", ex: exchange{method: "POST", path: "/v1/chat", reqCT: "application/json", reqBody: chatReq, status: 200, respCT: jsonCT, respBody: strings.Replace(chatReply, `"exchange":3,`, "", 1)}, wantFail: true},
		{name: "undocumented status", ex: exchange{method: "GET", path: "/healthz", status: 500, respCT: jsonCT, respBody: errBody}, wantFail: true},
		{name: "response only, undocumented status", ex: exchange{method: "GET", path: "/healthz", status: 500, respCT: jsonCT, respBody: errBody}, response: true, wantFail: true},
		{name: "response only, valid", ex: exchange{method: "GET", path: "/healthz", status: 200, respCT: jsonCT, respBody: `{"status":"ok"}`}, response: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, reqBody, resp, respBody := tc.ex.build()
			tb := &fakeTB{}
			if tc.response {
				v.CheckResponse(tb, req, resp, respBody)
			} else {
				v.Check(tb, req, reqBody, resp, respBody)
			}
			if tb.failed != tc.wantFail {
				t.Fatalf("failed = %v (%s), want %v", tb.failed, tb.msg, tc.wantFail)
			}
		})
	}
}

// TestEveryOperationIsRoutable proves each documented operation can be
// matched by a concrete request, so no path template is silently unusable.
func TestEveryOperationIsRoutable(t *testing.T) {
	v := Load(t)
	if got := v.doc.OpenAPI; got != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", got)
	}
	n := 0
	for path, item := range v.doc.Paths.Map() {
		concrete := strings.NewReplacer("{id}", sessionID, "{key}", "0cc175b9c0f1b6a831c399e269772661").Replace(path)
		for method, op := range item.Operations() {
			n++
			req := httptest.NewRequest(method, "http://127.0.0.1:39123"+concrete, nil)
			route, _, err := v.router.FindRoute(req)
			if err != nil {
				t.Errorf("%s %s: %v", method, path, err)
				continue
			}
			if route.Operation != op {
				t.Errorf("%s %s: matched %s", method, path, route.Path)
			}
			if len(op.Responses.Map()) == 0 {
				t.Errorf("%s %s: no responses", method, path)
			}
		}
	}
	if n != 29 { // 18 + POST /admin/tools/reload + GET /admin/sessions + GET / + PUT and DELETE /admin/tools/{name}/rollout + POST /admin/reload + PUT /v1/players/{player_id}/state + GET /admin/players/{player_id}/state + POST /v1/feedback, GET /admin/feedback and its scenario
		t.Errorf("%d operations, want 29", n)
	}
	ops := v.Operations()
	if len(ops) != n {
		t.Fatalf("Operations lists %d, the document has %d", len(ops), n)
	}
	seen := map[Operation]bool{}
	for i, op := range ops {
		if v.doc.Paths.Find(op.Path) == nil || v.doc.Paths.Find(op.Path).GetOperation(op.Method) == nil {
			t.Errorf("Operations lists %s, not in the document", op)
		}
		if seen[op] {
			t.Errorf("Operations lists %s twice", op)
		}
		seen[op] = true
		if i > 0 && (ops[i-1].Path > op.Path || ops[i-1].Path == op.Path && ops[i-1].Method > op.Method) {
			t.Errorf("Operations not sorted at %s", op)
		}
	}
}

func TestDocumentServesItself(t *testing.T) {
	v := Load(t)
	req := httptest.NewRequest(http.MethodGet, "/openapi.json", nil)
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}}
	v.Check(t, req, nil, resp, schemas.OpenAPI())
}
