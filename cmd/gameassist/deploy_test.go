package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestDockerfile checks the runtime stage of the image: a non-root user, a
// HEALTHCHECK through a subcommand the binary has, and the content where
// CONTENT_DIR says.
func TestDockerfile(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var last []string // instructions of the last stage
	sc := bufio.NewScanner(bytes.NewReader(raw))
	var cont string
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			cont += strings.TrimSuffix(line, "\\") + " "
			continue
		}
		line, cont = cont+line, ""
		if strings.HasPrefix(strings.ToUpper(line), "FROM ") {
			last = nil
		}
		last = append(last, line)
	}
	find := func(instr string) []string {
		var out []string
		for _, l := range last {
			if strings.HasPrefix(strings.ToUpper(l), instr+" ") {
				out = append(out, strings.TrimSpace(l[len(instr)+1:]))
			}
		}
		return out
	}
	users := find("USER")
	if len(users) == 0 || strings.HasPrefix(users[len(users)-1], "0") || strings.HasPrefix(users[len(users)-1], "root") {
		t.Errorf("runtime stage user %v: want a non-root user", users)
	}
	hc := find("HEALTHCHECK")
	if len(hc) != 1 || !strings.Contains(hc[0], `"healthcheck"`) {
		t.Fatalf("HEALTHCHECK %v: want the healthcheck subcommand", hc)
	}
	if err := run(context.Background(), []string{"healthcheck", "-h"}, envOf(nil), strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Errorf("the HEALTHCHECK's subcommand: %v", err)
	}
	env := strings.Join(find("ENV"), " ")
	if !strings.Contains(env, `CONTENT_DIR="/app/content"`) || !strings.Contains(strings.Join(find("COPY"), " "), "content /app/content") {
		t.Errorf("CONTENT_DIR and the copied content disagree: ENV %s", env)
	}
}

// TestComposeFile checks what docker-compose config (syntax, run in CI)
// does not: secrets, healthchecks, restart policies, the ingest order and
// that only the app publishes a port.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Services map[string]struct {
			Ports       []string                  `json:"ports"`
			Restart     string                    `json:"restart"`
			Healthcheck map[string]any            `json:"healthcheck"`
			DependsOn   map[string]map[string]any `json:"depends_on"`
			Environment map[string]string         `json:"environment"`
			Command     []string                  `json:"command"`
			Profiles    []string                  `json:"profiles"`
			ReadOnly    bool                      `json:"read_only"`
		} `json:"services"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for name, s := range doc.Services {
		if name == "ingest" {
			if s.Restart != "no" {
				t.Errorf("ingest is one-shot: restart %q", s.Restart)
			}
			continue
		}
		if s.Healthcheck == nil || s.Restart == "" {
			t.Errorf("service %s: healthcheck %v restart %q", name, s.Healthcheck, s.Restart)
		}
		if name != "app" && len(s.Ports) > 0 {
			t.Errorf("service %s publishes %v", name, s.Ports)
		}
	}
	app := doc.Services["app"]
	if c := app.DependsOn["ingest"]["condition"]; c != "service_completed_successfully" {
		t.Errorf("app waits for ingest with %v", c)
	}
	if !app.ReadOnly {
		t.Error("app does not run with a read-only root filesystem")
	}
	if !strings.Contains(app.Environment["REDIS_URL"], ":${REDIS_PASSWORD") {
		t.Errorf("REDIS_URL %q carries no password", app.Environment["REDIS_URL"])
	}
	if !strings.Contains(strings.Join(doc.Services["redis"].Command, " "), "--requirepass") {
		t.Error("redis runs without a password")
	}
	if !strings.Contains(doc.Services["qdrant"].Environment["QDRANT__SERVICE__API_KEY"], "QDRANT_API_KEY") ||
		!strings.Contains(app.Environment["QDRANT_API_KEY"], "QDRANT_API_KEY") {
		t.Error("Qdrant and the app do not share QDRANT_API_KEY")
	}
	if llm := doc.Services["llm"]; len(llm.Profiles) != 1 || llm.Profiles[0] != "local-llm" {
		t.Errorf("llm profiles %v", llm.Profiles)
	}
}
