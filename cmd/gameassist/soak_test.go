package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestSoakShort runs `bench soak` for a few seconds against the package's
// redis-server: the workload mixes every route, the fake LLM hangs, fails
// and floods, and every accepted turn must be in history exactly once.
func TestSoakShort(t *testing.T) {
	if testing.Short() {
		t.Skip("soak runs the whole server for seconds")
	}
	env := map[string]string{"REDIS_URL": redisSrv.URL(), "CONTENT_DIR": "../../content"}
	var out bytes.Buffer
	err := run(context.Background(), []string{"bench", "soak", "-duration", "3s", "-rate", "40", "-sessions", "4", "-sample", "1s"},
		func(k string) string { return env[k] }, strings.NewReader(""), &out, &out)
	if err != nil {
		t.Fatalf("soak: %v\n%s", err, out.String())
	}
	text := out.String()
	for _, want := range []string{"| elapsed | RSS MiB | goroutines | open fds |", "history check: ok", "hung=", "floods="} {
		if !strings.Contains(text, want) {
			t.Fatalf("soak output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "accepted=0 ") {
		t.Fatalf("no turn was accepted:\n%s", text)
	}
	t.Log(text)
}
