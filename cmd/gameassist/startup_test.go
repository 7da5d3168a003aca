package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/config"
)

// TestNewAppRefusesBadConfig: a setting that cannot work fails newApp
// with an error naming it, at whatever stage it is found; nothing panics
// while what was opened before is closed.
func TestNewAppRefusesBadConfig(t *testing.T) {
	t.Parallel() // its own app (and LLM fake); asserts nothing shared
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string
	}{
		{name: "content dir missing", env: map[string]string{"CONTENT_DIR": filepath.Join(t.TempDir(), "nope")}, wantErr: "nope"},
		{name: "screen rules file missing", env: map[string]string{"SCREEN_RULES": filepath.Join(t.TempDir(), "rules.json")}, wantErr: "rules.json"},
		{name: "redis URL of another scheme", env: map[string]string{"REDIS_URL": "http://127.0.0.1:1"}, wantErr: "REDIS_URL"},
		{name: "allowed origin without a scheme", env: map[string]string{"ALLOWED_ORIGINS": "game.example"}, wantErr: "game.example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := testEnv(t, appSetup{env: tt.env})
			cfg, err := config.Load(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			a, err := newApp(context.Background(), cfg, testLogger(t))
			if err == nil {
				a.close()
				t.Fatal("newApp accepted the setting")
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %q does not name %q", err, tt.wantErr)
			}
		})
	}
}

// TestNewAppRefusesBadToolsFile: a tools file that cannot load stops
// start-up with a message naming the file and the tool.
func TestNewAppRefusesBadToolsFile(t *testing.T) {
	t.Parallel() // its own app (and LLM fake); asserts nothing shared
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		file string
		want []string
	}{
		{name: "missing", file: filepath.Join(dir, "absent.yaml"), want: []string{"TOOLS_FILE", "absent.yaml"}},
		{name: "unknown table", file: write("table.yaml", "tools:\n  - name: my_tool\n    description: d\n    statement: SELECT * FROM nope\n"),
			want: []string{"table.yaml:2", "tool my_tool", "no such table"}},
		{name: "clash with a built-in", file: write("clash.yaml", "tools:\n  - name: gcs_get_champion_details\n    description: d\n    statement: SELECT 1\n"),
			want: []string{"clash.yaml", "tool gcs_get_champion_details", "built-in"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := testEnv(t, appSetup{env: map[string]string{"TOOLS_FILE": tt.file}})
			cfg, err := config.Load(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			a, err := newApp(context.Background(), cfg, testLogger(t))
			if err == nil {
				a.close()
				t.Fatal("newApp accepted the tools file")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error %q does not name %q", err, w)
				}
			}
		})
	}
}
