package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/gameassist/gameassist/eval/scenario"
	"github.com/gameassist/gameassist/internal/redistest"
)

// launcherOverlap lists the page's visible text elements the widget's
// launcher covers, with the page scrolled to its end.
const launcherOverlap = `(() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  const l = document.getElementById('gameassist-widget').shadowRoot.querySelector('.launcher').getBoundingClientRect();
  const hit = [];
  for (const n of document.body.querySelectorAll('h1, h2, p, a, button, li, footer, small, strong')) {
    if (n.closest('#gameassist-widget')) continue;
    for (const r of n.getClientRects()) {
      if (r.width === 0 || r.height === 0) continue;
      if (r.left < l.right && r.right > l.left && r.top < l.bottom && r.bottom > l.top) hit.push(n.tagName + ' ' + n.textContent.trim().slice(0, 30));
    }
  }
  window.scrollTo(0, 0);
  return hit;
})()`

// widgetState is what the feedback test reads of the widget.
type widgetState struct {
	Suggestions []string `json:"suggestions"`
	Answers     int      `json:"answers"`
	Running     int      `json:"running"`
	Chips       int      `json:"chips"`
	LastInView  bool     `json:"last_in_view"`
	Thumbs      int      `json:"thumbs"`
	CommentOpen bool     `json:"comment_open"`
	Focused     string   `json:"focused"`
}

const readWidgetState = `(() => {
  const r = document.getElementById('gameassist-widget').shadowRoot;
  const log = r.querySelector('.log').getBoundingClientRect();
  const answers = [...r.querySelectorAll('.msg.assistant:not(.greeting)')];
  const last = answers[answers.length - 1];
  let inView = false;
  if (last) { const a = last.getBoundingClientRect(); inView = a.top >= log.top - 1 && a.top < log.bottom - 20; }
  const box = last && last.querySelector('.comment');
  return {
    suggestions: [...r.querySelectorAll('.suggestion')].map((b) => b.textContent),
    answers: answers.length,
    running: r.querySelectorAll('.chip.running').length,
    chips: r.querySelectorAll('.chip').length,
    last_in_view: inView,
    thumbs: r.querySelectorAll('.thumb').length,
    comment_open: Boolean(box && !box.hidden),
    focused: r.activeElement ? r.activeElement.className + ':' + r.activeElement.tagName : '',
  };
})()`

// TestBrowserFeedback: a player rates answers in the widget with the
// keyboard (a comment on thumbs down), and the studio finds the rating in
// the inspector's Feedback view and downloads its scenario; at 1280 × 800
// and at 390 × 844.
func TestBrowserFeedback(t *testing.T) {
	for _, vp := range []struct{ w, h int64 }{{1280, 800}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", vp.w, vp.h), func(t *testing.T) {
			f := newFixture(t, appSetup{redis: redistest.Start(t)})
			ts := hostServer(t, f.ts.Config.Handler)
			b := newBrowser(t)
			downloads := t.TempDir()
			done := make(chan string, 1)
			chromedp.ListenTarget(b.ctx, func(ev any) {
				if e, ok := ev.(*cdpbrowser.EventDownloadProgress); ok && e.State == cdpbrowser.DownloadProgressStateCompleted {
					select {
					case done <- e.GUID:
					default:
					}
				}
			})
			var hits []string
			b.run(t, "demo-loaded",
				chromedp.EmulateViewport(vp.w, vp.h),
				cdpbrowser.SetDownloadBehavior(cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName).WithDownloadPath(downloads).WithEventsEnabled(true),
				chromedp.Navigate(ts.URL+"/web/"),
				poll(`window.gameassist && window.gameassist.version === 1`),
				jsEval(`window.seen = []; window.rated = [];
					addEventListener('gameassist:answer', (e) => window.seen.push(e.detail));
					addEventListener('gameassist:feedback', (e) => window.rated.push(e.detail)); true`, nil),
				jsEval(launcherOverlap, &hits),
			)
			if len(hits) > 0 {
				t.Errorf("the launcher covers the page's content: %q", hits)
			}

			// Opened: a greeting and three questions for the screen.
			var st widgetState
			b.run(t, "greeting",
				chromedp.Click(shadow(".launcher"), chromedp.ByJSPath),
				chromedp.WaitVisible(shadow(".suggestion"), chromedp.ByJSPath),
				jsEval(readWidgetState, &st),
			)
			if want := []string{"Tell me about this champion", "What gear should this champion use?", "What are the skills of this champion?"}; strings.Join(st.Suggestions, "|") != strings.Join(want, "|") {
				t.Errorf("suggestions on the champion screen = %q, want %q", st.Suggestions, want)
			}
			b.run(t, "boss-suggestions",
				jsEval(`gameassist.setScreen('BossBattlePresenter', {BossConfigId: 5001, Phase: 2, Team: [1001, 1002, 1003, 1004]}); true`, nil),
				jsEval(readWidgetState, &st),
			)
			if len(st.Suggestions) != 3 || st.Suggestions[0] != "Who counters this boss?" {
				t.Errorf("suggestions on the boss screen = %q", st.Suggestions)
			}

			// A suggestion asks; then a typed question. Each reply comes
			// into view and its chips end done.
			b.run(t, "first-answer",
				chromedp.Click(shadow(".suggestion"), chromedp.ByJSPath),
				poll(`window.seen.length === 1`),
				jsEval(readWidgetState, &st),
			)
			if st.Answers != 1 || st.Chips == 0 || st.Running != 0 || len(st.Suggestions) != 0 {
				t.Errorf("after the first answer: %+v (want chips all done, suggestions gone)", st)
			}
			b.run(t, "second-answer",
				chromedp.SendKeys(shadow("form.ask textarea"), "Tell me about Kaelith"+kb.Enter, chromedp.ByJSPath),
				poll(`window.seen.length === 2`),
				jsEval(readWidgetState, &st),
			)
			if !st.LastInView || st.Running != 0 || st.Thumbs != 4 {
				t.Errorf("after the second answer: %+v (want it in view, chips done, two thumbs each)", st)
			}
			var exchanges []int
			var sessionID string
			b.run(t, "exchanges", jsEval(`window.seen.map((r) => r.exchange)`, &exchanges), jsEval(`window.seen[0].session_id`, &sessionID))

			// Keyboard: Enter on the first answer's thumbs up; Space on the
			// second's thumbs down opens the comment box, focused.
			const thumbs = `[...document.getElementById('gameassist-widget').shadowRoot.querySelectorAll('.msg.assistant:not(.greeting)')]`
			b.run(t, "thumbs-up",
				chromedp.SendKeys(thumbs+`[0].querySelector('.thumb.up')`, kb.Enter, chromedp.ByJSPath),
				poll(thumbs+`[0].querySelector('.rate-status').textContent !== ''`),
			)
			comment := `<img src=x onerror="document.title='pwned'"> **wrong** boss`
			b.run(t, "comment-box",
				chromedp.SendKeys(thumbs+`[1].querySelector('.thumb.down')`, " ", chromedp.ByJSPath),
				poll(thumbs+`[1].querySelector('.rate-status').textContent !== ''`),
				jsEval(readWidgetState, &st),
			)
			if !st.CommentOpen || !strings.Contains(st.Focused, "TEXTAREA") {
				t.Errorf("thumbs down: comment box open %v, focus on %q", st.CommentOpen, st.Focused)
			}
			b.run(t, "comment-sent",
				chromedp.SendKeys(thumbs+`[1].querySelector('.comment textarea')`, comment, chromedp.ByJSPath),
				chromedp.SendKeys(thumbs+`[1].querySelector('.comment button.send')`, kb.Enter, chromedp.ByJSPath),
				poll(thumbs+`[1].querySelector('.comment').hidden`),
			)
			// The widget says when the server took the comment.
			b.run(t, "comment-recorded", poll(`window.rated.some((r) => r.comment !== '')`))
			resp, body := f.do(t, request{method: http.MethodGet, path: "/admin/feedback", token: testAdminToken})
			expect(t, resp, body, http.StatusOK)
			page := decode[feedbackPage](t, body)
			if len(page.Records) != 2 || page.Records[0].Comment != comment {
				t.Fatalf("records = %+v", page.Records)
			}
			if page.Records[0].Rating != "down" || page.Records[0].Exchange != exchanges[1] || page.Records[1].Rating != "up" || page.Records[1].Exchange != exchanges[0] {
				t.Fatalf("records = %+v", page.Records)
			}

			// The inspector: the token alone loads sessions and feedback.
			var rows []string
			var injected string
			b.run(t, "admin-feedback",
				chromedp.Navigate(ts.URL+"/web/admin.html"),
				chromedp.WaitVisible(`#admin-token`, chromedp.ByID),
				chromedp.SendKeys(`#admin-token`, testAdminToken+kb.Enter, chromedp.ByID),
				poll(`document.querySelectorAll('#feedback-table tbody button.download').length === 1 && document.querySelectorAll('#sessions-table tbody button.link').length === 1`),
				jsEval(`[...document.querySelectorAll('#feedback-table tbody td[data-col="comment"]')].map((n) => n.textContent)`, &rows),
				jsEval(`document.title + (document.querySelector('#feedback-table img') ? ' img' : '')`, &injected),
			)
			if len(rows) != 1 || rows[0] != comment {
				t.Errorf("down ratings' comments shown = %q, want the comment as text", rows)
			}
			if strings.Contains(injected, "pwned") || strings.Contains(injected, "img") {
				t.Errorf("the comment was interpreted as markup: %q", injected)
			}
			var detail struct {
				Visible bool     `json:"visible"`
				InView  bool     `json:"in_view"`
				Says    []string `json:"says"`
				Stars   bool     `json:"stars"`
			}
			b.run(t, "admin-feedback-open",
				chromedp.Click(`#feedback-table tbody button.link`, chromedp.ByQuery),
				poll(`!document.getElementById('feedback-detail').hidden`),
				jsEval(`(() => { const d = document.getElementById('feedback-detail'); const r = d.getBoundingClientRect();
					return {visible: !d.hidden, in_view: r.top >= -1 && r.top < innerHeight,
						says: [...d.querySelectorAll('.msg.user .text')].map((n) => n.textContent),
						stars: [...d.querySelectorAll('.msg.assistant .text')].some((n) => n.textContent.includes('**'))}; })()`, &detail),
			)
			if !detail.InView || len(detail.Says) != 2 || detail.Says[1] != "Tell me about Kaelith" || detail.Stars {
				t.Errorf("feedback detail = %+v (want in view, the earlier question then the rated one, markup rendered)", detail)
			}

			var guid string
			b.run(t, "admin-scenario-download", chromedp.Click(`#feedback-detail button.download`, chromedp.ByQuery))
			select {
			case guid = <-done:
			case <-b.ctx.Done():
				t.Fatal("the scenario download did not complete")
			}
			y, err := os.ReadFile(filepath.Join(downloads, guid))
			if err != nil {
				t.Fatal(err)
			}
			p, err := scenario.NewParser()
			if err != nil {
				t.Fatal(err)
			}
			scs, err := p.Parse("download.yaml", y)
			if err != nil {
				t.Fatalf("the downloaded scenario does not parse: %v\n%s", err, y)
			}
			if last := scs[0].Steps[len(scs[0].Steps)-1]; last.Say != "Tell me about Kaelith" {
				t.Errorf("the downloaded scenario's rated step says %q", last.Say)
			}

			// A session opened from the list comes into view, its replies
			// rendered; the page fits the window.
			var view struct {
				InView   bool `json:"in_view"`
				Markup   int  `json:"markup"`
				Overflow bool `json:"overflow"`
				Width    int  `json:"width"`
			}
			b.run(t, "admin-session-open",
				chromedp.Click(`#sessions-table tbody button.link`, chromedp.ByQuery),
				// The cache view shows last: the session was opened and scrolled to.
				poll(`!document.getElementById('cache-view').hidden && document.querySelectorAll('#session-history > li').length === 4`),
				jsEval(`(() => { const r = document.getElementById('session-view').getBoundingClientRect();
					return {in_view: r.top >= -1 && r.top < innerHeight, markup: document.querySelectorAll('#session-history .text.markup p, #session-history .text.markup li').length,
						overflow: document.documentElement.scrollWidth > innerWidth, width: document.documentElement.scrollWidth}; })()`, &view),
			)
			if !view.InView || view.Markup == 0 {
				t.Errorf("opened session: %+v (want in view, replies rendered)", view)
			}
			b.run(t, "admin-stats", chromedp.Click(`#load-stats`, chromedp.ByID), poll(`!document.getElementById('stats-view').hidden`),
				jsEval(`document.documentElement.scrollWidth > innerWidth`, &view.Overflow), jsEval(`document.documentElement.scrollWidth`, &view.Width))
			var cut []string
			b.run(t, "admin-stats-charts", jsEval(`[...document.querySelectorAll('#stats-view svg, #stats-view figure')].filter((n) => n.getBoundingClientRect().right > innerWidth + 1).map((n) => n.tagName)`, &cut))
			b.element(t, "admin-stats-charts-view", `#stats-view`)
			if len(cut) > 0 {
				t.Errorf("stats charts run past the window: %q", cut)
			}
			if view.Overflow {
				var wide []string
				_ = chromedp.Run(b.ctx, jsEval(`[...document.querySelectorAll('body *')].filter((n) => n.getBoundingClientRect().right > innerWidth + 1 && !n.closest('.table-wrap')).slice(0, 12).map((n) => n.tagName + '#' + n.id + '.' + n.className + ' ' + Math.round(n.getBoundingClientRect().right))`, &wide))
				t.Errorf("the inspector is %d px wide in a %d px window; wide: %q", view.Width, vp.w, wide)
			}
			if _, err := os.Stat(filepath.Join(downloads, guid)); err != nil || sessionID == "" {
				t.Errorf("download %v, session %q", err, sessionID)
			}
		})
	}
}

// element saves a screenshot of the element sel alone (long pages make
// full-page shots too small to read).
func (b *browser) element(t *testing.T, step, sel string) {
	t.Helper()
	b.step++
	var png []byte
	if err := chromedp.Run(b.ctx, chromedp.Screenshot(sel, &png, chromedp.ByQuery)); err != nil {
		t.Errorf("screenshot %s: %v", step, err)
		return
	}
	if err := os.WriteFile(filepath.Join(b.artifacts, fmt.Sprintf("%02d-%s.png", b.step, step)), png, 0o644); err != nil {
		t.Errorf("screenshot %s: %v", step, err)
	}
}
