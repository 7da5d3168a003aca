package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The HTML report is a shared file: readable by others whatever the umask,
// and it marks the offline baseline's scenarios.
func TestEvalHTMLReportIsReadableAndMarksTheBaseline(t *testing.T) {
	old := syscall.Umask(0o077)
	t.Cleanup(func() { syscall.Umask(old) })
	f := newFixture(t, appSetup{})
	dir := filepath.Join(t.TempDir(), "offline")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := writeFile(t, dir, "s.yaml", "name: baseline question\nsteps:\n  - say: tell me about Kaelith\n    expect:\n      facts: [Kaelith]\n")
	html := filepath.Join(t.TempDir(), "report.html")
	rep, stderr, err := runEvalJSON(t, evalEnv(t, nil), "--server", f.ts.URL, "--html", html, file)
	if err != nil {
		t.Fatalf("eval: %v\n%s", err, stderr)
	}
	st, err := os.Stat(html)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("report mode %v, want 0644", st.Mode().Perm())
	}
	if rep.Summary.Scenarios != 1 {
		t.Fatalf("summary %+v", rep.Summary)
	}
	page := string(mustRead(t, html))
	if !strings.Contains(page, "of them offline baseline (eval/offline)") || !strings.Contains(page, "PASS") && !strings.Contains(page, "FAIL") {
		t.Errorf("report does not mark the baseline or say PASS/FAIL:\n%.1500s", page)
	}
}
