package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/config"
)

// TestNewAppRefusesBadConfig: a setting that cannot work fails newApp
// with an error naming it, at whatever stage it is found; nothing panics
// while what was opened before is closed.
func TestNewAppRefusesBadConfig(t *testing.T) {
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
