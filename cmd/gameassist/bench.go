package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// runBench drives a running server with concurrent sessions and reports
// turns per second and latency percentiles of whole HTTP turns.
func runBench(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "soak" {
		return runSoak(ctx, args[1:], getenv, stdout)
	}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	server := fs.String("server", serverURL(getenv), "server base URL")
	sessions := fs.Int("sessions", 16, "concurrent sessions")
	turns := fs.Int("turns", 20, "turns per session")
	message := fs.String("message", "Tell me about Kaelith", "message sent each turn")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *sessions < 1 || *turns < 1 {
		return errors.New("bench: -sessions and -turns must be positive")
	}
	cl := &client{base: strings.TrimRight(*server, "/"), http: &http.Client{Timeout: time.Minute}}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		failures  int
		firstErr  error
		wg        sync.WaitGroup
	)
	start := time.Now()
	for range *sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sess struct {
				SessionID    string `json:"session_id"`
				SessionToken string `json:"session_token"`
			}
			if err := cl.post(ctx, "/v1/sessions", "", map[string]string{}, &sess); err != nil {
				mu.Lock()
				failures += *turns
				firstErr = cmp(firstErr, err)
				mu.Unlock()
				return
			}
			for range *turns {
				t0 := time.Now()
				var reply map[string]any
				err := cl.post(ctx, "/v1/chat", sess.SessionToken, map[string]any{"session_id": sess.SessionID, "message": *message}, &reply)
				d := time.Since(t0)
				mu.Lock()
				if err != nil {
					failures++
					firstErr = cmp(firstErr, err)
				} else {
					latencies = append(latencies, d)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(latencies) == 0 {
		return fmt.Errorf("bench: every turn failed: %w", firstErr)
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	fmt.Fprintf(stdout, "sessions=%d turns=%d ok=%d failed=%d elapsed=%s\n", *sessions, *sessions**turns, len(latencies), failures, elapsed.Round(time.Millisecond))
	fmt.Fprintf(stdout, "turns/s=%.0f p50=%s p99=%s max=%s\n", float64(len(latencies))/elapsed.Seconds(), pct(0.50), pct(0.99), latencies[len(latencies)-1])
	if firstErr != nil {
		fmt.Fprintln(stdout, "first error:", firstErr)
	}
	return nil
}

func cmp(first, err error) error {
	if first != nil {
		return first
	}
	return err
}
