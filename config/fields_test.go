package config_test

import (
	"encoding/json"
	"flag"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/config"
)

var update = flag.Bool("update", false, "rewrite docs/config.md from config.Config's tags")

// Every field of Config is declared by its tags: Fields reads all of them.
func TestEveryFieldIsDeclared(t *testing.T) {
	fields, err := config.Fields()
	if err != nil {
		t.Fatal(err)
	}
	if n := reflect.TypeFor[config.Config]().NumField(); len(fields) != n {
		t.Fatalf("%d fields declared, Config has %d", len(fields), n)
	}
	seen := map[string]bool{}
	for _, f := range fields {
		for _, e := range f.Env {
			if seen[e] {
				t.Errorf("%s declared twice", e)
			}
			seen[e] = true
		}
	}
}

// The start-up log shows every setting once, under its key.
func TestLogValueListsEverySetting(t *testing.T) {
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	slog.New(slog.NewJSONHandler(&b, nil)).Info("config", "config", c)
	var line struct {
		Config map[string]any `json:"config"`
	}
	if err := json.Unmarshal([]byte(b.String()), &line); err != nil {
		t.Fatal(err)
	}
	fields, _ := config.Fields()
	if len(line.Config) != len(fields) {
		t.Errorf("log has %d settings, want %d: %v", len(line.Config), len(fields), line.Config)
	}
	for _, f := range fields {
		if _, ok := line.Config[f.Log]; !ok {
			t.Errorf("log lacks %s", f.Log)
		}
	}
	if line.Config["eval_prices"] != "gpt-4.1=2/8,gpt-4.1-mini=0.4/1.6,gpt-4o=2.5/10,gpt-4o-mini=0.15/0.6" || line.Config["log_level"] != "INFO" {
		t.Errorf("log: %v", line.Config)
	}
}

// docs/config.md is the table Config's tags generate.
func TestConfigDocIsUpToDate(t *testing.T) {
	want, err := config.Table()
	if err != nil {
		t.Fatal(err)
	}
	const path = "../docs/config.md"
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is out of date: run go test ./config -update", path)
	}
	fields, _ := config.Fields()
	for _, f := range fields {
		if !strings.Contains(string(got), "`"+f.Env[0]+"`") {
			t.Errorf("%s lacks %s", path, f.Env[0])
		}
	}
}
