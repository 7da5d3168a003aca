package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestCommands(t *testing.T) {
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "gcs.db")
	content := filepath.Join("..", "..", "content")
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
		wantOut string
	}{
		{name: "no command", args: nil, wantErr: "no command"},
		{name: "unknown command", args: []string{"launch"}, wantErr: `unknown command "launch"`},
		{name: "help", args: []string{"help"}, wantOut: "serve"},
		{name: "bad config", args: []string{"migrate"}, env: map[string]string{"MAX_TOOL_ITERATIONS": "many"}, wantErr: "MAX_TOOL_ITERATIONS"},
		{name: "migrate without --sample on no database", args: []string{"migrate", "-db", dbPath}, wantErr: "migrate --sample"},
		{name: "migrate --sample", args: []string{"migrate", "--sample", "-db", dbPath}, wantOut: "ready with the sample game, data version"},
		{name: "migrate --sample again is idempotent", args: []string{"migrate", "-sample", "-db", dbPath}, wantOut: "data version"},
		{name: "migrate without --sample reports", args: []string{"migrate", "-db", dbPath}, wantOut: "holds the sample game"},
		{name: "ingest of the embedded content", args: []string{"ingest"}, wantOut: "the embedded sample content"},
		{name: "ingest into the embedded index", args: []string{"ingest", "-content", content}, wantOut: "Documents:294"},
		{name: "ingest of a missing dir", args: []string{"ingest", "-content", filepath.Join(t.TempDir(), "none")}, wantErr: "none"},
		{name: "chat with a bad screen", args: []string{"chat", "-screen", "{nope"}, wantErr: "not valid JSON"},
		{name: "bench with no sessions", args: []string{"bench", "-sessions", "0"}, wantErr: "positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			err := run(ctx, tt.args, envOf(tt.env), strings.NewReader(""), &out, &errOut)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v; stderr %s", err, errOut.String())
			}
			if !strings.Contains(out.String(), tt.wantOut) {
				t.Fatalf("stdout %q lacks %q", out.String(), tt.wantOut)
			}
		})
	}
}

// TestChatClient drives the terminal client against a running server: it
// opens a session, sends each line and prints the reply and the tools used.
func TestChatClient(t *testing.T) {
	f := newFixture(t, appSetup{})
	in := strings.NewReader("is Kaelith good against the Fire Knight?\n\nwho counters the Fire Knight?\n")
	var out bytes.Buffer
	err := run(context.Background(), []string{
		"chat", "-server", f.ts.URL, "-screen",
		`{"name":"BossBattlePresenter","data":{"BossConfigId":5001}}`,
	}, envOf(nil), in, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"session ", "Kaelith", "gcs_find_counters_for_boss", "exchange 1", "exchange 2"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

// TestBenchCommand runs the bench subcommand against a running server.
func TestBenchCommand(t *testing.T) {
	f := newFixture(t, appSetup{})
	var out bytes.Buffer
	if err := run(context.Background(), []string{"bench", "-server", f.ts.URL, "-sessions", "2", "-turns", "3"}, envOf(nil), nil, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "ok=6 failed=0") || !strings.Contains(out.String(), "turns/s=") {
		t.Fatalf("bench output %q", out.String())
	}
}
