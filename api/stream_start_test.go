package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/memory"
)

// TestStreamStartsWithItsFirstEvent: a streamed turn that fails before its
// first event answers with the error's status as JSON, as an unstreamed
// turn does; once an event went out, a failure ends the stream with an
// error event.
func TestStreamStartsWithItsFirstEvent(t *testing.T) {
	for _, tc := range []struct {
		name       string
		err        error
		emitFirst  bool
		status     int
		code       string
		retryAfter bool
	}{
		{"store down", fmt.Errorf("turn: %w", memory.ErrUnavailable), false, http.StatusServiceUnavailable, "unavailable", true},
		{"session busy", fmt.Errorf("turn: %w", memory.ErrBusy), false, http.StatusConflict, "session_busy", true},
		{"session gone", fmt.Errorf("turn: %w", memory.ErrNotFound), false, http.StatusNotFound, "", false},
		{"store down after a delta", fmt.Errorf("turn: %w", memory.ErrUnavailable), true, http.StatusOK, "unavailable", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := newChatServer(t, fakeChat{turn: func(_ context.Context, _ chat.TurnRequest, emit func(chat.Event)) (chat.Reply, error) {
				if tc.emitFirst {
					emit(chat.Event{Type: chat.EventDelta, Data: chat.DeltaEvent{Text: "partial"}})
				}
				return chat.Reply{}, tc.err
			}}, api.Options{})
			resp, err := postChat(context.Background(), t, cs.ts.URL, chatBody(true))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, b)
			}
			if tc.emitFirst {
				if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
					t.Errorf("content type %q", ct)
				}
				if event, data := lastSSE(t, string(b)); event != "error" || !strings.Contains(data, `"code":"`+tc.code+`"`) {
					t.Errorf("stream ends with %q %s", event, data)
				}
				return
			}
			var body struct {
				Error struct{ Code string } `json:"error"`
			}
			if err := json.Unmarshal(b, &body); err != nil || body.Error.Code == "" || (tc.code != "" && body.Error.Code != tc.code) {
				t.Errorf("body %s (%v), want a JSON error %q", b, err, tc.code)
			}
			if got := resp.Header.Get("Retry-After") != ""; got != tc.retryAfter {
				t.Errorf("Retry-After present = %v, want %v", got, tc.retryAfter)
			}
		})
	}
}

// TestTurnOverQuota: a turn the session store refused for the session's
// quota answers 429 with the store's wait as Retry-After, streamed or not.
func TestTurnOverQuota(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			cs := newChatServer(t, fakeChat{turn: func(context.Context, chat.TurnRequest, func(chat.Event)) (chat.Reply, error) {
				return chat.Reply{}, fmt.Errorf("chat: turn s: %w", &memory.RateLimitError{RetryAfter: 41600 * time.Millisecond})
			}}, api.Options{})
			resp, err := postChat(context.Background(), t, cs.ts.URL, chatBody(stream))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(b), `"code":"rate_limited"`) {
				t.Fatalf("status %d %s, want 429 rate_limited", resp.StatusCode, b)
			}
			if got := resp.Header.Get("Retry-After"); got != "42" {
				t.Errorf("Retry-After %q, want 42", got)
			}
		})
	}
}
