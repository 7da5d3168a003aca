package offline

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gameassist/gameassist/tool"
)

// FuzzAnswer feeds hostile messages, screen data and locales to the
// responder: it must always answer, with valid UTF-8, no text cut
// mid-word by a rune cap, and no markup outside its subset.
func FuzzAnswer(f *testing.F) {
	for _, s := range []struct{ msg, data, locale string }{
		{"who counters this boss?", `{"BossConfigId": 5001, "Team": [1001, 1002]}`, "en"},
		{"tell me about kaelith", ``, "fr"},
		{"Kaelith vs Morgrath the Bold vs Sylva vs Ironhide vs Kaelith", `null`, "de"},
		{"which void supports are the fastest?", `[1,2,3]`, "xx"},
		{"\x00\xff<script>alert(1)</script> **", `{"a": {"b": "1001"}}`, "en-US"},
		{strings.Repeat("fire knight ", 500), `{"x": 1e400}`, ""},
		{"ce boss ici", `"5001"`, "fr"},
	} {
		f.Add(s.msg, s.data, s.locale)
	}
	w := newWorld(f)
	r, err := New(w.exec, Options{})
	if err != nil {
		f.Fatal(err)
	}
	run := func(ctx context.Context, calls []tool.Call) []tool.Outcome {
		outs := make([]tool.Outcome, len(calls))
		for i, c := range calls {
			res := w.exec.Execute(ctx, c)
			outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Source: tool.SourceExecuted, Status: res.Status, Result: res}
		}
		return outs
	}
	f.Fuzz(func(t *testing.T, msg, data, locale string) {
		req := Request{Message: msg, Locale: locale, Screen: "BossBattlePresenter"}
		if json.Valid([]byte(data)) {
			req.ScreenData = json.RawMessage(data)
		}
		a := r.Answer(context.Background(), req, run)
		if strings.TrimSpace(a.Text) == "" {
			t.Fatalf("empty answer to %q", msg)
		}
		if !utf8.ValidString(a.Text) {
			t.Fatalf("answer is not UTF-8: %q", a.Text)
		}
		for _, line := range strings.Split(a.Text, "\n") {
			if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "|") {
				t.Fatalf("markup outside the subset: %q", line)
			}
		}
		for _, c := range a.Plan.Calls {
			if !json.Valid(c.Arguments) {
				t.Fatalf("call %s with invalid arguments %s", c.Name, c.Arguments)
			}
		}
	})
}

// FuzzConversation feeds a hostile first message, a hostile follow-up and
// hostile recorded subjects (kinds and ids as a tampered session could
// hold them) to the responder over named entities: it always answers,
// and no call it makes is refused by the tool's schema.
func FuzzConversation(f *testing.F) {
	for _, s := range []struct{ first, next, kind, id string }{
		{"tell me about Kaelith", "and her skills?", "champion", "1001"},
		{"compare Kaelith and Sylva", "which one is tankier?", "champion", "1002"},
		{"who counters the Fire Knight?", "is the first one good against it?", "boss", "5001"},
		{"Kaelith vs Sylva", "the second one's gear", "champion", "-1"},
		{"", "et lequel des deux ?", "boss", "99999999999999999999"},
		{"x", "und beide gegen den Fire Knight?", "\x00", "1001"},
		{"is Kaelith good against the Fire Knight?", "what about Sylva?", "gear_set", "abc"},
	} {
		f.Add(s.first, s.next, s.kind, s.id)
	}
	w := newWorld(f)
	r, err := New(w.exec, Options{Names: w.names})
	if err != nil {
		f.Fatal(err)
	}
	var refused []string
	run := func(ctx context.Context, calls []tool.Call) []tool.Outcome {
		outs := make([]tool.Outcome, len(calls))
		for i, c := range calls {
			res := w.exec.Execute(ctx, c)
			if !res.OK() && strings.HasPrefix(res.Message, "Invalid arguments") {
				refused = append(refused, c.Name+" "+string(c.Arguments))
			}
			outs[i] = tool.Outcome{Name: c.Name, Arguments: c.Arguments, Source: tool.SourceExecuted, Status: res.Status, Result: res}
		}
		return outs
	}
	f.Fuzz(func(t *testing.T, first, next, kind, id string) {
		refused = refused[:0]
		ctx := context.Background()
		a := r.Answer(ctx, Request{Message: first, Locale: "en"}, run)
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		hist := []Exchange{{Message: first, About: append(a.About, Subject{Kind: kind, ID: id}), At: at}}
		for _, loc := range []string{"en", "fr", "de"} {
			b := r.Answer(ctx, Request{Message: next, Locale: loc, History: hist, ScreenAt: at.Add(-time.Second)}, run)
			if strings.TrimSpace(b.Text) == "" || !utf8.ValidString(b.Text) {
				t.Fatalf("bad answer to %q after %q: %q", next, first, b.Text)
			}
		}
		if len(refused) > 0 {
			t.Fatalf("calls refused by their schema: %v", refused)
		}
	})
}
