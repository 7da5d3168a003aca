package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/api"
	"github.com/gameassist/gameassist/chat"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// screenChat records screen events; fail, when set, fails them.
type screenChat struct {
	fakeChat
	mu   sync.Mutex
	evs  []memory.ScreenEvent
	fail error
}

func (s *screenChat) ScreenEventAt(_ context.Context, _ string, sc screens.Screen, ev memory.ScreenEvent) (chat.ScreenReply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return chat.ScreenReply{}, s.fail
	}
	s.evs = append(s.evs, ev)
	return chat.ScreenReply{Screen: sc.Name, Applied: true, Tools: []tool.Outcome{}}, nil
}

// replayStore is a ReplayGuard on a real redis-server, under a prefix of
// its own; it returns the store, its client and the prefix.
func replayStore(t *testing.T) (*memory.Store, *redis.Client, string) {
	t.Helper()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	prefix := srv.Prefix(t)
	st, err := memory.New(rdb, memory.Options{Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	return st, rdb, prefix
}

const webhookSecret = "whsec-test"

func TestWebhookSignature(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	sc := &screenChat{}
	replay, rdb, prefix := replayStore(t)
	reg := tool.NewRegistry()
	ex, err := tool.NewExecutor(reg, tool.ExecutorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.New(api.Deps{Executor: ex, Chat: sc, Logger: slog.New(slog.DiscardHandler)}, api.Options{WebhookSecret: webhookSecret}); err == nil {
		t.Fatal("a webhook secret without a replay guard was accepted")
	}
	srv, err := api.New(api.Deps{Executor: ex, Chat: sc, Replay: replay, Logger: slog.New(slog.DiscardHandler)},
		api.Options{WebhookSecret: webhookSecret, WebhookTolerance: 5 * time.Minute, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)

	body := []byte(fmt.Sprintf(`{"session_id":%q,"screen":{"name":"BossBattlePresenter","data":{"BossConfigId":5001}}}`, testSession))
	legacy := "sha256=" + strings.SplitN(api.Sign(webhookSecret, body, now), ",v1=", 2)[1]
	seqBody := func(seq string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":%q,"screen":{"name":"BossBattlePresenter"},"seq":%s}`, testSession, seq))
	}
	tests := []struct {
		name     string
		sig      string
		body     []byte
		fail     error
		want     int
		wantCode string
		wantIn   string
		wantDup  bool
	}{
		{name: "valid", sig: api.Sign(webhookSecret, body, now), want: http.StatusOK},
		{name: "replayed: the same delivery again is a duplicate", sig: api.Sign(webhookSecret, body, now), want: http.StatusOK, wantDup: true},
		{name: "replayed once more", sig: api.Sign(webhookSecret, body, now), want: http.StatusOK, wantDup: true},
		{name: "replay with an altered body", sig: api.Sign(webhookSecret, body, now), body: []byte(strings.Replace(string(body), "5001", "5003", 1)), want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "replay with a forged signature", sig: "t=1800000000,v1=" + strings.Repeat("ab", 32), want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "same body signed anew", sig: api.Sign(webhookSecret, body, now.Add(time.Second)), want: http.StatusOK},
		{name: "legacy sha256 form", sig: legacy, want: http.StatusUnauthorized, wantCode: "bad_signature", wantIn: "t=<unix seconds>,v1="},
		{name: "too old", sig: api.Sign(webhookSecret, body, now.Add(-5*time.Minute-time.Second)), want: http.StatusUnauthorized, wantCode: "signature_expired"},
		{name: "too far ahead", sig: api.Sign(webhookSecret, body, now.Add(5*time.Minute+time.Second)), want: http.StatusUnauthorized, wantCode: "signature_expired"},
		{name: "at the edge", sig: api.Sign(webhookSecret, body, now.Add(-5*time.Minute)), want: http.StatusOK},
		{name: "wrong secret", sig: api.Sign("other", body, now), want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "timestamp swapped", sig: strings.Replace(api.Sign(webhookSecret, body, now.Add(2*time.Second)), "t=1800000002", "t=1800000003", 1), want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "body changed", sig: api.Sign(webhookSecret, body, now.Add(3*time.Second)), body: []byte(strings.Replace(string(body), "5001", "5002", 1)), want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "missing", sig: "", want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "no v1", sig: "t=1800000000", want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "no t", sig: "v1=00", want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "two t", sig: "t=1,t=2,v1=00", want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "t not a number", sig: "t=soon,v1=00", want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "garbage", sig: "\xff,,==", want: http.StatusUnauthorized, wantCode: "bad_signature"},
		{name: "rotated secrets, second matches", sig: api.Sign(webhookSecret, body, now.Add(4*time.Second)) + ",v1=" + strings.Repeat("0", 64), want: http.StatusOK},
		{name: "server failure lets the delivery retry", sig: api.Sign(webhookSecret, body, now.Add(5*time.Second)), fail: syscall.ECONNREFUSED, want: http.StatusServiceUnavailable},
		{name: "the retry", sig: api.Sign(webhookSecret, body, now.Add(5*time.Second)), want: http.StatusOK},
		{name: "the retry again is a duplicate", sig: api.Sign(webhookSecret, body, now.Add(5*time.Second)), want: http.StatusOK, wantDup: true},
		{name: "with a sequence number", sig: api.Sign(webhookSecret, seqBody("7"), now.Add(7*time.Second)), body: seqBody("7"), want: http.StatusOK},
		{name: "sequence number zero", sig: api.Sign(webhookSecret, seqBody("0"), now.Add(8*time.Second)), body: seqBody("0"), want: http.StatusBadRequest},
		{name: "negative sequence number", sig: api.Sign(webhookSecret, seqBody("-3"), now.Add(8*time.Second)), body: seqBody("-3"), want: http.StatusBadRequest},
		{name: "sequence number not an integer", sig: api.Sign(webhookSecret, seqBody(`"7"`), now.Add(8*time.Second)), body: seqBody(`"7"`), want: http.StatusBadRequest},
		{name: "bad input keeps nothing", sig: api.Sign(webhookSecret, []byte(`{"session_id":""}`), now.Add(6*time.Second)), body: []byte(`{"session_id":""}`), want: http.StatusBadRequest},
	}
	for _, tt := range tests {
		sc.mu.Lock()
		sc.fail = tt.fail
		sc.mu.Unlock()
		b := tt.body
		if b == nil {
			b = body
		}
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, ts.URL+"/v1/screens/events", strings.NewReader(string(b)))
		req.Header.Set("Content-Type", "application/json")
		if tt.sig != "" {
			req.Header.Set("X-Signature", tt.sig)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Fatalf("%s: status %d, want %d: %s", tt.name, resp.StatusCode, tt.want, raw)
		}
		if resp.StatusCode == http.StatusOK {
			var r struct {
				Applied   *bool `json:"applied"`
				Duplicate *bool `json:"duplicate"`
			}
			if err := json.Unmarshal(raw, &r); err != nil || r.Applied == nil || r.Duplicate == nil {
				t.Fatalf("%s: reply %s lacks applied or duplicate", tt.name, raw)
			}
			if *r.Duplicate != tt.wantDup || (tt.wantDup && *r.Applied) {
				t.Fatalf("%s: reply %s, want duplicate %v (and applied false for a duplicate)", tt.name, raw, tt.wantDup)
			}
		}
		if tt.wantCode != "" || tt.wantIn != "" {
			var e struct {
				Error struct{ Code, Message string }
			}
			if err := json.Unmarshal(raw, &e); err != nil || e.Error.Code != tt.wantCode || !strings.Contains(e.Error.Message, tt.wantIn) {
				t.Fatalf("%s: error %s, want code %q mentioning %q", tt.name, raw, tt.wantCode, tt.wantIn)
			}
		}
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	want := []memory.ScreenEvent{
		{At: now}, {At: now.Add(time.Second)}, {At: now.Add(-5 * time.Minute)}, {At: now.Add(4 * time.Second)},
		{At: now.Add(5 * time.Second)}, {At: now.Add(7 * time.Second), Seq: 7},
	}
	if len(sc.evs) != len(want) {
		t.Fatalf("events applied %v, want %v (each delivery once)", sc.evs, want)
	}
	for i := range want {
		if !sc.evs[i].At.Equal(want[i].At) || sc.evs[i].Seq != want[i].Seq {
			t.Fatalf("event %d applied as %+v, want its signed time and seq %+v", i, sc.evs[i], want[i])
		}
	}
	keys, err := rdb.Keys(context.Background(), prefix+":*").Result()
	if err != nil || len(keys) == 0 {
		t.Fatalf("remembered deliveries: %v, %v", keys, err)
	}
	for _, key := range keys {
		ttl, err := rdb.PTTL(context.Background(), key).Result()
		if err != nil || ttl <= 0 || ttl > 10*time.Minute+time.Second {
			t.Fatalf("%s remembered for %s (%v), want within the tolerance window", key, ttl, err)
		}
	}
}

// TestStreamHeartbeat keeps a turn quiet until the client has read a
// heartbeat comment: the stream must carry one before the answer.
func TestStreamHeartbeat(t *testing.T) {
	heard := make(chan struct{})
	cs := newChatServer(t, fakeChat{turn: func(ctx context.Context, _ chat.TurnRequest, _ func(chat.Event)) (chat.Reply, error) {
		select {
		case <-heard:
			return chat.Reply{SessionID: testSession, Reply: "hi", ToolCalls: []tool.Outcome{}}, nil
		case <-ctx.Done():
			return chat.Reply{}, ctx.Err()
		}
	}}, api.Options{HeartbeatInterval: time.Millisecond})
	resp, err := postChat(context.Background(), t, cs.ts.URL, chatBody(true))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	beats := 0
	var rest strings.Builder
	for {
		line, err := r.ReadString('\n')
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(line, ":") {
			if beats == 0 {
				if rest.Len() != 0 {
					t.Fatalf("event before the first heartbeat: %q", rest.String())
				}
				close(heard)
			}
			beats++
			continue
		}
		rest.WriteString(line)
	}
	if beats == 0 || !strings.Contains(rest.String(), "event:done") {
		t.Fatalf("%d heartbeats; stream: %q", beats, rest.String())
	}
}
