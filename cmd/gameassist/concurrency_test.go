package main

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/gameassist/gameassist/internal/redistest"
)

// TestConcurrentTurnsOneSession sends 16 turns of one session at once:
// the session lock serializes them, so each exchange 1..16 is used once.
func TestConcurrentTurnsOneSession(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	redistest.Each(t, backends, testConcurrentTurnsOneSession)
}

func testConcurrentTurnsOneSession(t *testing.T, rs redistest.Backend) {
	f := newFixture(t, appSetup{redis: rs})
	s := f.newSession(t)
	const turns = 16
	type result struct {
		status   int
		exchange int
		err      error
		body     string
	}
	results := make([]result, turns)
	var wg sync.WaitGroup
	for i := range turns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, body, err := f.send(context.Background(), t, request{
				method: http.MethodPost, path: "/v1/chat", token: s.Token,
				json: chatBody(s, "Tell me about Kaelith"),
			})
			if err != nil {
				results[i] = result{err: err}
				return
			}
			r := result{status: resp.StatusCode, body: string(body)}
			if resp.StatusCode == http.StatusOK {
				var rep chatReply
				if err := json.Unmarshal(body, &rep); err != nil {
					r.err = err
				}
				r.exchange = rep.Exchange
			}
			results[i] = r
		}()
	}
	wg.Wait()

	var exchanges []int
	for i, r := range results {
		switch {
		case r.err != nil:
			t.Fatalf("turn %d: %v", i, r.err)
		case r.status != http.StatusOK:
			t.Fatalf("turn %d: status %d: %.300s", i, r.status, r.body)
		}
		exchanges = append(exchanges, r.exchange)
	}
	slices.Sort(exchanges)
	for i, ex := range exchanges {
		if ex != i+1 {
			t.Fatalf("exchanges %v, want 1..%d each once", exchanges, turns)
		}
	}
	v := f.adminSession(t, s.ID)
	if v.Session.Exchange != turns || len(v.History) != 2*turns {
		t.Fatalf("session: exchange %d, %d history messages", v.Session.Exchange, len(v.History))
	}
	seen := map[int]int{}
	for i, m := range v.History {
		seen[m.Exchange]++
		if want := []string{"user", "assistant"}[i%2]; m.Role != want {
			t.Fatalf("history[%d] role %s, want %s: turns interleaved", i, m.Role, want)
		}
		if i%2 == 1 && v.History[i-1].Exchange != m.Exchange {
			t.Fatalf("history[%d]: answer of exchange %d follows question of %d", i, m.Exchange, v.History[i-1].Exchange)
		}
	}
	for ex := 1; ex <= turns; ex++ {
		if seen[ex] != 2 {
			t.Fatalf("exchange %d has %d history messages, want 2", ex, seen[ex])
		}
	}
}
