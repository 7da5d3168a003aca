package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/gameassist/gameassist/internal/redistest"
)

// browserTimeout bounds a whole browser test: past it the browser hangs.
const browserTimeout = 90 * time.Second

// hostPage is a third-party page embedding the widget with one tag. Its own
// styles would leak into the widget if the shadow root did not hold.
const hostPage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>host game</title>
<style>button, li, p { background: rgb(255, 0, 0) !important; font-size: 40px; }</style>
<script>
window.seen = {answer: [], delta: 0, tool: 0, screen: 0};
addEventListener('gameassist:answer', (e) => window.seen.answer.push(e.detail));
addEventListener('gameassist:delta', () => window.seen.delta++);
addEventListener('gameassist:tool', () => window.seen.tool++);
addEventListener('gameassist:screen', () => window.seen.screen++);
</script>
</head><body><h1>A web game</h1>
<script src="/web/widget.js" data-player-id="player-42" data-locale="en" async></script>
</body></html>`

// hostPageFR is the host page of a French game: the widget speaks French
// and so do its chips.
var hostPageFR = strings.NewReplacer(`lang="en"`, `lang="fr"`, `data-player-id="player-42" data-locale="en"`, `data-player-id="player-fr" data-locale="fr"`).Replace(hostPage)

// browser is a headless Debian chromium driven over the DevTools protocol;
// it fails the test on any console error or uncaught exception.
type browser struct {
	ctx       context.Context
	artifacts string
	step      int
	mu        sync.Mutex
	problems  []string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium is required for the browser tests (apt-get install -y chromium; .ci/run does): %v", err)
	}
	// With no UserDataDir option the allocator runs chromium on a fresh
	// temporary profile and removes it once the browser has exited.
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900),
	}
	ctx, cancel := context.WithTimeout(context.Background(), browserTimeout)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	dir := os.Getenv("GAMEASSIST_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	dir = filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b := &browser{ctx: bctx, artifacts: dir}
	chromedp.ListenTarget(bctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				b.problem("console." + string(ev.Type) + ": " + strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			msg := ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				msg += " " + ev.ExceptionDetails.Exception.Description
			}
			b.problem("exception: " + msg)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.LevelError {
				b.problem("log: " + ev.Entry.Text + " " + ev.Entry.URL)
			}
		}
	})
	if err := chromedp.Run(bctx, log.Enable(), runtime.Enable()); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, p := range b.problems {
			t.Errorf("browser: %s", p)
		}
	})
	return b
}

func (b *browser) problem(p string) {
	b.mu.Lock()
	b.problems = append(b.problems, p)
	b.mu.Unlock()
}

// run performs actions, then saves a screenshot named after the step.
func (b *browser) run(t *testing.T, step string, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		b.shot(t, step+"-failed")
		t.Fatalf("%s: %v", step, err)
	}
	b.shot(t, step)
}

func (b *browser) shot(t *testing.T, step string) {
	t.Helper()
	b.step++
	var png []byte
	if err := chromedp.Run(b.ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Errorf("screenshot %s: %v", step, err)
		return
	}
	name := filepath.Join(b.artifacts, fmt.Sprintf("%02d-%s.png", b.step, step))
	if err := os.WriteFile(name, png, 0o644); err != nil {
		t.Errorf("screenshot %s: %v", step, err)
	}
}

// eval evaluates a JS expression (awaiting a promise) into out.
func jsEval(expr string, out any) chromedp.Action {
	return chromedp.Evaluate(expr, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})
}

// poll waits until the JS expression is true; the test context bounds it.
func poll(expr string) chromedp.Action {
	return chromedp.Poll(expr, nil, chromedp.WithPollingInterval(20*time.Millisecond))
}

// shadow is a JS path into the widget's shadow root.
func shadow(sel string) string {
	return `document.getElementById('gameassist-widget').shadowRoot.querySelector(` + jsString(sel) + `)`
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// hostServer serves the host page and a favicon beside the real router.
func hostServer(t *testing.T, app http.Handler) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for path, page := range map[string]string{"/host.html": hostPage, "/host-fr.html": hostPageFR} {
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(page))
		})
	}
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.Handle("/", app)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

type widgetView struct {
	Bubbles []string `json:"bubbles"`
	Users   []string `json:"users"`
	Chips   []string `json:"chips"`
	// ChipText is each chip's text by tool name.
	ChipText map[string]string `json:"chip_text"`
	HasBold  bool              `json:"has_bold"`
	Stars    bool              `json:"stars"`
	Leaked   string            `json:"leaked"`
	Typing   bool              `json:"typing"`
	LiveRole string            `json:"live_role"`
}

const readWidget = `(() => {
  const r = document.getElementById('gameassist-widget').shadowRoot;
  const last = [...r.querySelectorAll('.msg.assistant')].pop();
  return {
    bubbles: [...r.querySelectorAll('.msg.assistant:not(.greeting) .text')].map((n) => n.textContent),
    users: [...r.querySelectorAll('.msg.user .text')].map((n) => n.textContent),
    chips: last ? [...last.querySelectorAll('.chip')].map((n) => n.dataset.tool) : [],
    chip_text: last ? Object.fromEntries([...last.querySelectorAll('.chip')].map((n) => [n.dataset.tool, n.textContent])) : {},
    has_bold: r.querySelectorAll('.msg.assistant strong').length > 0,
    stars: [...r.querySelectorAll('.msg.assistant .text')].some((n) => n.textContent.includes('**')),
    leaked: getComputedStyle(r.querySelector('.send')).backgroundColor,
    typing: last ? !last.querySelector('.typing').hidden : false,
    live_role: r.querySelector('.log').getAttribute('aria-live'),
  };
})()`

// TestBrowserWidgetAndInspector drives the widget embedded in a host page
// and then the admin inspector over the same session, in Chromium.
func TestBrowserWidgetAndInspector(t *testing.T) {
	f := newFixture(t, appSetup{redis: redistest.Start(t)})
	ts := hostServer(t, f.ts.Config.Handler)
	b := newBrowser(t)

	b.run(t, "host-loaded",
		chromedp.Navigate(ts.URL+"/host.html"),
		poll(`window.gameassist && window.gameassist.version === 1`),
	)

	// Ask through the panel, as a player would.
	const first = "Tell me about Kaelith"
	b.run(t, "first-answer",
		chromedp.Click(shadow(".launcher"), chromedp.ByJSPath),
		chromedp.WaitVisible(shadow("textarea"), chromedp.ByJSPath),
		chromedp.SendKeys(shadow("textarea"), first+kb.Enter, chromedp.ByJSPath),
		poll(`window.seen.answer.length === 1`),
	)
	var answers []chatReply
	var seen struct{ Delta, Tool int }
	var view widgetView
	b.run(t, "first-read", jsEval(`window.seen.answer`, &answers), jsEval(`window.seen`, &seen), jsEval(readWidget, &view))
	reply := answers[0]
	if !strings.Contains(reply.Reply, "Kaelith") || len(reply.ToolCalls) == 0 {
		t.Fatalf("first reply %q with tools %+v", reply.Reply, reply.ToolCalls)
	}
	if seen.Delta == 0 || seen.Tool == 0 {
		t.Errorf("streamed events: %d deltas, %d tool events; want both", seen.Delta, seen.Tool)
	}
	if len(view.Users) != 1 || view.Users[0] != first {
		t.Errorf("player messages shown = %q", view.Users)
	}
	if len(view.Bubbles) != 1 || view.Bubbles[0] != plainMarkdown(reply.Reply) {
		t.Errorf("answer shown = %q, want the reply's text %q", view.Bubbles, plainMarkdown(reply.Reply))
	}
	if view.Stars || (strings.Contains(reply.Reply, "**") && !view.HasBold) {
		t.Errorf("bold markdown not rendered: stars shown %v, <strong> %v", view.Stars, view.HasBold)
	}
	if view.Typing {
		t.Error("typing indicator still shown after the answer")
	}
	if view.LiveRole != "polite" {
		t.Errorf("log aria-live = %q", view.LiveRole)
	}
	if view.Leaked == "rgb(255, 0, 0)" {
		t.Error("the host page's styles reached the widget")
	}
	for _, c := range reply.ToolCalls {
		if !slices.Contains(view.Chips, c.Name) {
			t.Errorf("no chip for tool %s (chips %q)", c.Name, view.Chips)
		}
	}
	// Chips show the registry's display names, never raw tool names.
	names := displayNames(t, f)
	// Every chip is marked done: its result arrived.
	checkChips(t, reply.ToolCalls, view, names, "en", "✓ ")

	// The host game changes screen through the JS API; the next answer uses it.
	b.run(t, "boss-screen-answer",
		jsEval(`gameassist.setScreen('BossBattlePresenter', {BossConfigId: 5001, Phase: 2, Team: [1001, 1002, 1003, 1004]}); true`, nil),
		jsEval(`gameassist.ask('what should I do here?').then(() => true)`, nil),
		poll(`window.seen.answer.length === 2`),
		jsEval(`window.seen.answer`, &answers),
		jsEval(readWidget, &view),
	)
	second := answers[1]
	if !slices.ContainsFunc(second.ToolCalls, func(o outcome) bool {
		return o.Name == "gcs_get_boss_details" && o.Source == "proactive" && strings.Contains(string(o.Arguments), "5001")
	}) {
		t.Errorf("the answer after setScreen did not use the boss screen: %+v", second.ToolCalls)
	}
	if !slices.Contains(view.Chips, "gcs_get_boss_details") {
		t.Errorf("no chip for the screen's boss lookup (chips %q)", view.Chips)
	}
	if second.Exchange != 2 || len(view.Bubbles) != 2 {
		t.Errorf("second answer: exchange %d, %d bubbles", second.Exchange, len(view.Bubbles))
	}
	var sessionID string
	b.run(t, "session-kept", jsEval(`JSON.parse(sessionStorage.getItem('gameassist.session:'+location.origin)).session_id`, &sessionID))
	if v := f.adminSession(t, sessionID); v.Session.Screen == nil || v.Session.Screen.Name != "BossBattlePresenter" {
		t.Fatalf("stored screen after setScreen: %+v", v.Session.Screen)
	}

	// A third, repeated question is served from the session cache, so the
	// inspector's hits and the stats have something to agree on.
	b.run(t, "repeat-answer",
		jsEval(`gameassist.ask(`+jsString(first)+`).then(() => true)`, nil),
		poll(`window.seen.answer.length === 3`),
	)

	inspectAdmin(t, b, f, ts, sessionID)

	// A French game's page on its boss screen: the widget asks in French
	// and its chips name the tools (the screen rules' too) in French, from
	// the registry.
	b.run(t, "fr-answer",
		chromedp.Navigate(ts.URL+"/host-fr.html"),
		poll(`window.gameassist && window.gameassist.version === 1`),
		jsEval(`gameassist.setScreen('BossBattlePresenter', {BossConfigId: 5001, Phase: 1, Team: [1001, 1002, 1003, 1004]}); true`, nil),
		jsEval(`gameassist.ask('Parle-moi de Kaelith').then(() => true)`, nil),
		poll(`window.seen.answer.length === 1`),
		jsEval(`window.seen.answer`, &answers),
		jsEval(readWidget, &view),
	)
	fr := answers[0]
	if len(fr.ToolCalls) == 0 {
		t.Fatalf("French answer without tools: %q", fr.Reply)
	}
	checkChips(t, fr.ToolCalls, view, names, "fr", "✓ ")
	if !slices.ContainsFunc(fr.ToolCalls, func(o outcome) bool { return names[o.Name]["fr"] != names[o.Name]["en"] }) {
		t.Errorf("no French chip differs from the English one; the test cannot tell the locales apart: %+v", fr.ToolCalls)
	}
}

// displayNames reads every tool's display names by locale from /admin/tools.
func displayNames(t *testing.T, f *fixture) map[string]map[string]string {
	t.Helper()
	resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/tools", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	var list struct {
		Tools []struct {
			Name         string            `json:"name"`
			DisplayNames map[string]string `json:"display_names"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for _, tl := range list.Tools {
		out[tl.Name] = tl.DisplayNames
	}
	return out
}

// checkChips: each call of the answer has its chip, labelled prefix plus
// the tool's display name in locale from the registry (and a note for a
// cached result), as the server sent it.
func checkChips(t *testing.T, calls []outcome, view widgetView, names map[string]map[string]string, locale, prefix string) {
	t.Helper()
	for _, c := range calls {
		want := names[c.Name][locale]
		if want == "" || c.DisplayName != want {
			t.Errorf("%s: display_name %q, registry's %s name %q", c.Name, c.DisplayName, locale, want)
			continue
		}
		text := view.ChipText[c.Name]
		if !strings.HasPrefix(text, prefix+want) {
			t.Errorf("chip of %s reads %q, want it to start with %q", c.Name, text, prefix+want)
		}
		if strings.Contains(text, c.Name) {
			t.Errorf("chip of %s shows the raw tool name: %q", c.Name, text)
		}
	}
}

// plainMarkdown is the text a reader sees of a reply in the markdown
// subset: no ** markers, no list dashes, no blank lines.
func plainMarkdown(s string) string {
	var out strings.Builder
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, " \t")
		if m := regexp.MustCompile(`^\s*[-*] (.*)$`).FindStringSubmatch(line); m != nil {
			line = m[1]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		out.WriteString(regexp.MustCompile(`\*\*(.+?)\*\*`).ReplaceAllString(line, "$1"))
	}
	return out.String()
}

func inspectAdmin(t *testing.T, b *browser, f *fixture, ts *httptest.Server, sessionID string) {
	t.Helper()
	var rows []string
	b.run(t, "admin-sessions",
		chromedp.Navigate(ts.URL+"/web/admin.html"),
		chromedp.WaitVisible(`#admin-token`, chromedp.ByID),
		chromedp.SendKeys(`#admin-token`, testAdminToken, chromedp.ByID),
		chromedp.SendKeys(`#player-filter`, "player-42", chromedp.ByID),
		chromedp.Click(`#load-sessions`, chromedp.ByID),
		poll(`document.querySelectorAll('#sessions-table tbody button.link').length > 0`),
		jsEval(`[...document.querySelectorAll('#sessions-table tbody button.link')].map((b) => b.textContent)`, &rows),
	)
	if len(rows) != 1 || rows[0] != sessionID {
		t.Fatalf("sessions of player-42 = %q, want [%s]", rows, sessionID)
	}

	var cacheRows int
	b.run(t, "admin-open-session",
		chromedp.Click(`#sessions-table tbody button.link`, chromedp.ByQuery),
		poll(`!document.getElementById('cache-view').hidden && document.querySelectorAll('#session-history > li').length === 6`),
		jsEval(`document.querySelectorAll('#cache-table tbody button.danger').length`, &cacheRows),
	)
	if cacheRows == 0 {
		t.Fatal("the session's cache table is empty after three turns")
	}

	// Hits of the cache table agree with /admin/stats: one session in its
	// own Redis, so the per-tool counts must match.
	// The stats the turns queued are written now, not by the next
	// background flush.
	f.app.observer.flush(context.Background())
	var hits map[string]int
	b.run(t, "admin-stats",
		chromedp.Click(`#load-stats`, chromedp.ByID),
		poll(`document.querySelectorAll('#stats-charts svg').length === 4`),
		jsEval(`(() => { const h = {}; for (const tr of document.querySelectorAll('#cache-table tbody tr')) {
			const tool = tr.querySelector('td[data-col="tool"]'); if (!tool) continue;
			h[tool.textContent] = (h[tool.textContent] || 0) + Number(tr.querySelector('td[data-col="hits"]').textContent); }
			return h; })()`, &hits),
	)
	var figures []string
	b.run(t, "admin-stats-read", jsEval(`[...document.querySelectorAll('#stats-view td, #stats-view svg text')].map((n) => n.textContent)`, &figures))
	for _, text := range figures {
		if m := regexp.MustCompile(`\d\.\d{3,}`).FindString(text); m != "" {
			t.Errorf("stats show an unrounded figure %q", text)
		}
	}
	if len(figures) == 0 {
		t.Error("the stats view shows no figures")
	}
	resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/stats", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	var stats struct {
		Tools []struct {
			Name      string  `json:"name"`
			Calls     int     `json:"calls"`
			CacheHits int     `json:"cache_hits"`
			P50MS     float64 `json:"p50_ms"`
			P95MS     float64 `json:"p95_ms"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &stats); err != nil {
		t.Fatal(err)
	}
	total := 0
	statHits := map[string]int{}
	for _, s := range stats.Tools {
		total += s.CacheHits
		if s.CacheHits > 0 {
			statHits[s.Name] = s.CacheHits
		}
	}
	maps.DeleteFunc(hits, func(_ string, n int) bool { return n == 0 })
	if !maps.Equal(hits, statHits) {
		t.Errorf("cache table hits %v, /admin/stats cache_hits %v", hits, statHits)
	}
	if total == 0 {
		t.Error("no cache hit recorded after a repeated question")
	}

	// The latency chart draws a p50 and a p95 bar per tool called, with
	// the figures of /admin/stats.
	var chart struct {
		P50     []string `json:"p50"`
		P95     []string `json:"p95"`
		Figures []string `json:"figures"`
	}
	b.run(t, "admin-latency-chart", jsEval(`(() => {
		const fig = [...document.querySelectorAll('#stats-charts figure')].find((f) => f.querySelector('figcaption').textContent.includes('p50'));
		if (!fig) return {p50: [], p95: [], figures: []};
		const tools = (s) => [...fig.querySelectorAll('rect[data-series="' + s + '"]')].map((r) => r.dataset.tool);
		return {p50: tools('p50'), p95: tools('p95'), figures: [...fig.querySelectorAll('text.figure')].map((n) => n.textContent)};
	})()`, &chart))
	var called []string
	var wantFigures []string
	for _, s := range stats.Tools {
		if s.Calls > 0 {
			called = append(called, s.Name)
			wantFigures = append(wantFigures, jsRound(s.P50MS)+" ms / "+jsRound(s.P95MS)+" ms")
		}
	}
	if !slices.Equal(chart.P50, called) || !slices.Equal(chart.P95, called) {
		t.Errorf("latency chart bars: p50 %q, p95 %q; want one of each for %q", chart.P50, chart.P95, called)
	}
	if !slices.Equal(chart.Figures, wantFigures) {
		t.Errorf("latency chart figures %q, want %q", chart.Figures, wantFigures)
	}

	var left int
	b.run(t, "admin-evict",
		chromedp.Click(`#cache-table tbody button.danger`, chromedp.ByQuery),
		poll(fmt.Sprintf(`document.querySelectorAll('#cache-table tbody button.danger').length === %d`, cacheRows-1)),
		jsEval(`document.querySelectorAll('#cache-table tbody button.danger').length`, &left),
	)
	resp, body = f.do(t, request{method: http.MethodGet, path: "/admin/sessions/" + sessionID + "/cache", token: testAdminToken})
	expect(t, resp, body, http.StatusOK)
	var cache struct {
		Entries []json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal(body, &cache); err != nil {
		t.Fatal(err)
	}
	if len(cache.Entries) != left {
		t.Errorf("after evicting one entry the server has %d, the page shows %d", len(cache.Entries), left)
	}

	// The tools table names each tool for players, per locale.
	var shown string
	b.run(t, "admin-tools",
		chromedp.Click(`#load-tools`, chromedp.ByID),
		poll(`document.querySelectorAll('#tools-table tbody td[data-col="display_names"]').length > 0`),
		jsEval(`(() => { for (const tr of document.querySelectorAll('#tools-table tbody tr')) {
			if (tr.querySelector('td[data-col="name"]').textContent === 'gcs_find_counters_for_boss') return tr.querySelector('td[data-col="display_names"]').textContent; }
			return ''; })()`, &shown),
	)
	if want := "de: Konter · en: Counters · fr: Contres"; shown != want {
		t.Errorf("tools table shows the counters tool's display names as %q, want %q", shown, want)
	}

	// The page keeps inside a 1280 px window.
	var overflow bool
	b.run(t, "admin-fits", jsEval(`document.documentElement.scrollWidth > window.innerWidth`, &overflow))
	if overflow {
		t.Error("the admin page is wider than the window")
	}
}

// jsRound formats a figure as the admin page's round() does: integers as
// they are, others to two decimals without trailing zeros.
func jsRound(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}
