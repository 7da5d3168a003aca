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
	"time"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// blockingChat holds each screen event until the test releases it.
type blockingChat struct {
	fakeChat
	entered chan struct{}
	release chan struct{}
}

func (b blockingChat) ScreenEventAt(_ context.Context, _ string, sc screens.Screen, _ memory.ScreenEvent) (chat.ScreenReply, error) {
	b.entered <- struct{}{}
	<-b.release
	return chat.ScreenReply{Screen: sc.Name, Applied: true, Tools: []tool.Outcome{}}, nil
}

// TestWebhookRetryWhileApplying: the same delivery arriving while the first
// is still being applied (the game server timed out and retried) is told
// to retry shortly, not refused as a replay; once applied, it is a
// duplicate.
func TestWebhookRetryWhileApplying(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	bc := blockingChat{entered: make(chan struct{}), release: make(chan struct{})}
	replay, _, _ := replayStore(t)
	ex, err := tool.NewExecutor(tool.NewRegistry(), tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Deps{Executor: ex, Chat: bc, Replay: replay, Logger: slog.New(slog.DiscardHandler)},
		api.Options{WebhookSecret: webhookSecret, WebhookTolerance: 5 * time.Minute, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	body := fmt.Sprintf(`{"session_id":%q,"screen":{"name":"Shop"},"seq":3}`, testSession)
	sig := api.Sign(webhookSecret, []byte(body), now)
	send := func() (*http.Response, string) {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, ts.URL+"/v1/screens/events", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Signature", sig)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return nil, ""
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp, string(raw)
	}
	type answer struct {
		resp *http.Response
		body string
	}
	first := make(chan answer, 1)
	go func() {
		r, b := send()
		first <- answer{r, b}
	}()
	<-bc.entered
	resp, raw := send()
	if resp.StatusCode != http.StatusConflict || !strings.Contains(raw, "delivery_in_progress") || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("retry while applying: %d %s (Retry-After %q), want 409 delivery_in_progress with Retry-After", resp.StatusCode, raw, resp.Header.Get("Retry-After"))
	}
	close(bc.release)
	a := <-first
	if a.resp == nil || a.resp.StatusCode != http.StatusOK {
		t.Fatalf("first delivery: %+v", a)
	}
	resp, raw = send()
	var r struct{ Applied, Duplicate bool }
	if err := json.Unmarshal([]byte(raw), &r); err != nil || resp.StatusCode != http.StatusOK || !r.Duplicate || r.Applied {
		t.Fatalf("retry after applying: %d %s, want 200 duplicate, not applied", resp.StatusCode, raw)
	}
}
