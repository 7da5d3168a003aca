package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
)

// recordingChat counts the calls that would change state; a refused
// request must make none.
type recordingChat struct {
	fakeChat
	turns, creates *atomic.Int32
}

func (r recordingChat) CreateSession(context.Context, string, string) (string, string, error) {
	r.creates.Add(1)
	return testSession, "some-session-token", nil
}

func (r recordingChat) Turn(context.Context, chat.TurnRequest, func(chat.Event)) (chat.Reply, error) {
	r.turns.Add(1)
	return chat.Reply{}, nil
}

// TestBadInput sends malformed bodies: each gets a 4xx with an error code
// and reaches no service.
func TestBadInput(t *testing.T) {
	rc := recordingChat{turns: &atomic.Int32{}, creates: &atomic.Int32{}}
	const admin = "admin-token"
	ts := newEdgeServer(t, rc, nil, api.Options{AdminToken: admin})
	post := func(t *testing.T, path, token, contentType, body string, chunked bool) (int, string) {
		t.Helper()
		h := map[string]string{"Content-Type": "application/json"}
		if contentType != "" {
			h["Content-Type"] = contentType
		}
		if token != "" {
			h["Authorization"] = "Bearer " + token
		}
		var r io.Reader = strings.NewReader(body)
		if chunked {
			r = io.MultiReader(r) // no length: sent chunked
		}
		resp, b := sendReader(t, http.MethodPost, ts.URL+path, h, r)
		return resp.StatusCode, b
	}
	errCode := func(t *testing.T, body string) string {
		t.Helper()
		var e struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code == "" {
			t.Fatalf("not an error object: %s", body)
		}
		return e.Error.Code
	}

	sid := `"session_id":"` + testSession + `"`
	long := strings.Repeat("a", 4001)
	chatCases := []struct {
		name        string
		body        string
		contentType string
		chunked     bool
		want        int
		code        string
	}{
		{name: "malformed JSON", body: `{` + sid + `,"message":`, want: 400, code: "bad_json"},
		{name: "unknown field", body: `{` + sid + `,"message":"hi","mood":"happy"}`, want: 400, code: "bad_json"},
		{name: "message not a string", body: `{` + sid + `,"message":42}`, want: 400, code: "bad_json"},
		{name: "stream not a boolean", body: `{` + sid + `,"message":"hi","stream":"yes"}`, want: 400, code: "bad_json"},
		{name: "session_id not a string", body: `{"session_id":7,"message":"hi"}`, want: 400, code: "bad_json"},
		{name: "missing session_id", body: `{"message":"hi"}`, want: 400, code: "bad_request"},
		{name: "empty message", body: `{` + sid + `,"message":""}`, want: 400, code: "bad_request"},
		{name: "blank message", body: `{` + sid + `,"message":" \n\t "}`, want: 400, code: "bad_request"},
		{name: "missing message", body: `{` + sid + `}`, want: 400, code: "bad_request"},
		{name: "message over the limit", body: `{` + sid + `,"message":"` + long + `"}`, want: 400, code: "message_too_long"},
		{name: "multi-byte message over the limit", body: `{` + sid + `,"message":"` + strings.Repeat("é", 4001) + `"}`, want: 400, code: "message_too_long"},
		{name: "screen data an array", body: `{` + sid + `,"message":"hi","screen":{"name":"BossBattlePresenter","data":[1]}}`, want: 400},
		{name: "screen data a string", body: `{` + sid + `,"message":"hi","screen":{"name":"BossBattlePresenter","data":"x"}}`, want: 400},
		{name: "screen data a number", body: `{` + sid + `,"message":"hi","screen":{"name":"BossBattlePresenter","data":5}}`, want: 400},
		{name: "screen not an object", body: `{` + sid + `,"message":"hi","screen":"BossBattlePresenter"}`, want: 400, code: "bad_json"},
		{name: "screen without name", body: `{` + sid + `,"message":"hi","screen":{"data":{}}}`, want: 400},
		{name: "screen data too deep", body: `{` + sid + `,"message":"hi","screen":{"name":"X","data":` + strings.Repeat(`{"a":`, 33) + `1` + strings.Repeat(`}`, 33) + `}}`, want: 400, code: "bad_json"},
		{name: "non-UTF-8 message", body: "{" + sid + ",\"message\":\"caf\xe9\"}", want: 400, code: "bad_json"},
		{name: "invalid escape", body: `{` + sid + `,"message":"\x"}`, want: 400, code: "bad_json"},
		{name: "trailing data", body: `{` + sid + `,"message":"hi"}{"message":"again"}`, want: 400, code: "bad_json"},
		{name: "array body", body: `[` + `{` + sid + `,"message":"hi"}]`, want: 400, code: "bad_json"},
		{name: "null body", body: `null`, want: 400},
		{name: "empty body", body: ``, want: 400, code: "bad_json"},
		{name: "text content type", body: `{` + sid + `,"message":"hi"}`, contentType: "text/plain", want: 415, code: "unsupported_media_type"},
		{name: "over 1 MiB", body: `{` + sid + `,"message":"` + strings.Repeat("a", 1<<20) + `"}`, want: 413, code: "body_too_large"},
		{name: "over 1 MiB chunked", body: `{` + sid + `,"message":"` + strings.Repeat("a", 1<<20) + `"}`, chunked: true, want: 413, code: "body_too_large"},
		{name: "small chunked but malformed", body: `{` + sid + `,"message":`, chunked: true, want: 400, code: "bad_json"},
	}
	for _, tt := range chatCases {
		t.Run("chat/"+tt.name, func(t *testing.T) {
			status, body := post(t, "/v1/chat", "some-session-token", tt.contentType, tt.body, tt.chunked)
			code := errCode(t, body)
			if status != tt.want || (tt.code != "" && code != tt.code) {
				t.Fatalf("status %d code %s, want %d %s: %s", status, code, tt.want, tt.code, body)
			}
		})
	}

	sessionCases := []struct{ name, body string }{
		{"locale not a string", `{"locale":1}`},
		{"unknown field", `{"locale":"en","admin":true}`},
		{"malformed", `{"locale":`},
		{"not UTF-8", "{\"player_id\":\"\xff\"}"},
	}
	for _, tt := range sessionCases {
		t.Run("sessions/"+tt.name, func(t *testing.T) {
			if status, body := post(t, "/v1/sessions", "", "", tt.body, false); status != http.StatusBadRequest {
				t.Fatalf("status %d, want 400: %s", status, body)
			} else {
				errCode(t, body)
			}
		})
	}

	executeCases := []struct{ name, body string }{
		{"no calls", `{"tool_calls":[]}`},
		{"too many calls", `{"tool_calls":[` + strings.TrimSuffix(strings.Repeat(`{"name":"cache_get_bosses_list","arguments":{}},`, 21), ",") + `]}`},
		{"call without name", `{"tool_calls":[{"arguments":{}}]}`},
		{"calls not an array", `{"tool_calls":{}}`},
		{"unknown field", `{"tool_calls":[],"dry_run":true}`},
	}
	for _, tt := range executeCases {
		t.Run("execute/"+tt.name, func(t *testing.T) {
			if status, body := post(t, "/admin/tools/execute", admin, "", tt.body, false); status != http.StatusBadRequest {
				t.Fatalf("status %d, want 400: %s", status, body)
			} else {
				errCode(t, body)
			}
		})
	}

	t.Run("wrong method", func(t *testing.T) {
		resp, body := send(t, http.MethodGet, ts.URL+"/v1/chat", nil, "")
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		errCode(t, body)
	})
	t.Run("unknown route", func(t *testing.T) {
		resp, body := send(t, http.MethodGet, ts.URL+"/v1/nothing-here", nil, "")
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		errCode(t, body)
	})
	if n, m := rc.turns.Load(), rc.creates.Load(); n != 0 || m != 0 {
		t.Fatalf("refused requests reached the chat service: %d turns, %d sessions created", n, m)
	}
}
