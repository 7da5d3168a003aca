package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// authChat is a fakeChat whose Authorize fails with err.
type authChat struct {
	fakeChat
	err error
}

func (a authChat) Authorize(context.Context, string, string) error {
	return a.err
}

// serveChat serves the api over svc and returns its URL.
func serveChat(t *testing.T, svc api.ChatService) string {
	t.Helper()
	reg := tool.NewRegistry()
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Deps{Executor: ex, Chat: svc, Logger: slog.New(slog.DiscardHandler)}, api.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestWrongTokenAnsweredAsUnknownSession: a token that does not open an
// existing session gets the very answer an unknown session gets, so the
// answer does not tell which session ids exist.
func TestWrongTokenAnsweredAsUnknownSession(t *testing.T) {
	answer := func(t *testing.T, err error) (int, string) {
		t.Helper()
		cs := serveChat(t, authChat{err: err})
		resp, rerr := postChat(context.Background(), t, cs, chatBody(false))
		if rerr != nil {
			t.Fatal(rerr)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	wrongStatus, wrongBody := answer(t, chat.ErrForbidden)
	unknownStatus, unknownBody := answer(t, fmt.Errorf("chat: authorize: memory: session %q: %w", testSession, memory.ErrNotFound))
	if wrongStatus != unknownStatus || wrongBody != unknownBody {
		t.Fatalf("wrong token: %d %s; unknown session: %d %s; want the same answer", wrongStatus, wrongBody, unknownStatus, unknownBody)
	}
	if wrongStatus != http.StatusNotFound {
		t.Fatalf("status %d, want 404", wrongStatus)
	}
}

// TestBadScreenMessageOmitsSessionID: the bad_screen refusal says what is
// wrong with the screen and does not echo the session id the turn carried.
func TestBadScreenMessageOmitsSessionID(t *testing.T) {
	bad := screens.Screen{Name: ""}.Validate()
	if bad == nil {
		t.Fatal("an empty screen name validated")
	}
	cs := newChatServer(t, fakeChat{turn: func(context.Context, chat.TurnRequest, func(chat.Event)) (chat.Reply, error) {
		// The shape chat.Service.Turn returns.
		return chat.Reply{}, fmt.Errorf("chat: turn %s: %w", testSession, bad)
	}}, api.Options{})
	resp, err := postChat(context.Background(), t, cs.ts.URL, chatBody(false))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusBadRequest || body.Error.Code != "bad_screen" {
		t.Fatalf("%d %+v, want 400 bad_screen", resp.StatusCode, body)
	}
	if strings.Contains(body.Error.Message, testSession) || strings.Contains(body.Error.Message, testSession[:8]) {
		t.Errorf("message %q echoes the session id", body.Error.Message)
	}
	if !strings.Contains(body.Error.Message, "name is empty") {
		t.Errorf("message %q does not say what is wrong", body.Error.Message)
	}
}
