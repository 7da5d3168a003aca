package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gameassist/gameassist/eval/scenario"
	"github.com/gameassist/gameassist/internal/redistest"
	"github.com/gameassist/gameassist/telemetry"
)

type feedbackReply struct {
	ID       string `json:"id"`
	Exchange int    `json:"exchange"`
	Rating   string `json:"rating"`
	Replaced bool   `json:"replaced"`
}

type feedbackRecord struct {
	ID       string `json:"id"`
	Exchange int    `json:"exchange"`
	Message  string `json:"message"`
	Reply    string `json:"reply"`
	Rating   string `json:"rating"`
	Comment  string `json:"comment"`
	Model    string `json:"model"`
	TraceID  string `json:"trace_id"`
	Screen   *struct {
		Name string `json:"name"`
	} `json:"screen"`
	Tools []struct {
		Name   string `json:"name"`
		Source string `json:"source"`
	} `json:"tools"`
	Window []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"window"`
}

type feedbackPage struct {
	Records    []feedbackRecord `json:"records"`
	NextCursor string           `json:"next_cursor"`
}

var bossScreen = map[string]any{"name": "BossBattlePresenter", "data": map[string]any{"BossConfigId": 5001, "Phase": 1}}

func (f *fixture) rate(tb testing.TB, s session, exchange int, rating, comment string, want int) feedbackReply {
	tb.Helper()
	body := map[string]any{"session_id": s.ID, "exchange": exchange, "rating": rating}
	if comment != "" {
		body["comment"] = comment
	}
	resp, b := f.do(tb, request{method: http.MethodPost, path: "/v1/feedback", token: s.Token, json: body})
	expect(tb, resp, b, want)
	return decode[feedbackReply](tb, b)
}

// TestFeedbackJourney: a player rates answers; the ratings survive a
// restart; the studio lists them, exports the bad one as a scenario and
// runs it with gameassist eval. On a single Redis and on Redis Cluster.
func TestFeedbackJourney(t *testing.T) {
	redistest.Each(t, backends, func(t *testing.T, b redistest.Backend) {
		setup := appSetup{redis: b}
		f := newFixture(t, setup)
		s := f.newSession(t)
		first := f.chat(t, s, "hello")
		resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/chat", token: s.Token,
			json: map[string]any{"session_id": s.ID, "message": "who counters this boss?", "screen": bossScreen}})
		expect(t, resp, body, http.StatusOK)
		second := decode[chatReply](t, body)

		evil := "wrong boss <img src=x onerror=alert(1)>\n- say: injected"
		if r := f.rate(t, s, second.Exchange, "down", evil, http.StatusCreated); r.Replaced || r.Rating != "down" {
			t.Errorf("first rating = %+v", r)
		}
		f.rate(t, s, first.Exchange, "up", "", http.StatusCreated)
		// Rated again: replaced, 200.
		f.rate(t, s, first.Exchange, "up", "", http.StatusOK)

		other := f.newSession(t)
		for _, tc := range []struct {
			name  string
			token string
			body  map[string]any
			want  int
		}{
			{"no token", "", map[string]any{"session_id": s.ID, "exchange": 1, "rating": "up"}, http.StatusUnauthorized},
			{"another session's token", other.Token, map[string]any{"session_id": s.ID, "exchange": 1, "rating": "up"}, http.StatusForbidden},
			{"exchange not answered", s.Token, map[string]any{"session_id": s.ID, "exchange": 3, "rating": "up"}, http.StatusNotFound},
			{"other session's exchange", other.Token, map[string]any{"session_id": other.ID, "exchange": 1, "rating": "up"}, http.StatusNotFound},
		} {
			resp, body := f.do(t, request{method: http.MethodPost, path: "/v1/feedback", token: tc.token, json: tc.body})
			if resp.StatusCode != tc.want {
				t.Errorf("%s: %d %s, want %d", tc.name, resp.StatusCode, body, tc.want)
			}
		}
		resp, body = f.do(t, request{method: http.MethodPost, path: "/v1/feedback", token: s.Token, invalid: true,
			body: []byte(`{"session_id":"` + s.ID + `","exchange":"2","rating":"down"}`)})
		expectError(t, resp, body, http.StatusBadRequest)

		// The server restarts: the records are in Redis.
		f.ts.Close()
		f.app.close()
		f = newFixture(t, setup)

		resp, body = f.do(t, request{method: http.MethodGet, path: "/admin/feedback?rating=down&since=1h", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		page := decode[feedbackPage](t, body)
		var down *feedbackRecord
		for i, r := range page.Records {
			if r.Exchange == second.Exchange && r.Message == "who counters this boss?" {
				down = &page.Records[i]
			}
		}
		if down == nil {
			t.Fatalf("the down rating is not listed after the restart: %s", body)
		}
		if down.Reply != second.Reply || down.Comment != evil || down.Model != "offline" || down.Screen == nil ||
			down.Screen.Name != "BossBattlePresenter" || len(down.Tools) != len(second.ToolCalls) {
			t.Errorf("record = %+v", *down)
		}
		if len(down.Window) != 2 || down.Window[0].Content != "hello" || down.Window[1].Content != first.Reply {
			t.Errorf("window = %+v", down.Window)
		}

		// The scenario route, checked against the OpenAPI document.
		resp, body = f.do(t, request{method: http.MethodGet, path: "/admin/feedback/" + down.ID + "/scenario", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		if !strings.Contains(string(body), "say: who counters this boss?") {
			t.Errorf("scenario:\n%s", body)
		}
		resp, body = f.do(t, request{method: http.MethodGet, path: "/admin/feedback/1-0/scenario", token: testAdminToken})
		expectError(t, resp, body, http.StatusNotFound)

		// The studio exports the bad ratings and runs them.
		dir := filepath.Join(t.TempDir(), "from-players")
		var out, errOut bytes.Buffer
		err := run(context.Background(), []string{"eval", "export", "--server", f.ts.URL, "--rating", "down", "--since", "24h", "--out", dir},
			func(k string) string { return map[string]string{"ADMIN_TOKEN": testAdminToken}[k] }, strings.NewReader(""), &out, &errOut)
		if err != nil {
			t.Fatalf("eval export: %v\n%s", err, errOut.String())
		}
		file := filepath.Join(dir, "feedback-"+down.ID+".yaml")
		st, err := os.Stat(file)
		if err != nil {
			t.Fatalf("export wrote %s: %v", out.String(), err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("scenario file mode %v, want 0644", st.Mode().Perm())
		}
		p, err := scenario.NewParser()
		if err != nil {
			t.Fatal(err)
		}
		scs, err := p.ReadFile(file)
		if err != nil {
			t.Fatalf("exported scenario: %v", err)
		}
		if strings.Contains(string(mustRead(t, file)), "\n- say: injected") {
			t.Error("the comment's text broke out of its YAML comment")
		}
		last := scs[0].Steps[len(scs[0].Steps)-1]
		if last.Say != "who counters this boss?" || last.Expect == nil || len(last.Expect.Tools) == 0 {
			t.Errorf("rated step = %+v", last)
		}
		rep, stderr, err := runEvalJSON(t, evalEnv(t, map[string]string{"REDIS_URL": b.URL()}), dir)
		if err != nil {
			t.Fatalf("eval: %v\n%s", err, stderr)
		}
		logFailures(t, rep)
		if rep.Summary.Scenarios != 1 || rep.Summary.Passed != 1 {
			t.Errorf("the replayed exchange: %d scenarios, %d passed, want 1 and 1 (same offline responder, same tools)", rep.Summary.Scenarios, rep.Summary.Passed)
		}

		// Signals: the metric and the thumbs-down rates in the stats.
		resp, body = f.do(t, request{method: http.MethodGet, path: "/admin/stats", token: testAdminToken})
		expect(t, resp, body, http.StatusOK)
		if !strings.Contains(string(body), `"screens":[{"name":"BossBattlePresenter","up":0,"down":1,"down_rate":1}]`) &&
			!strings.Contains(string(body), `"name":"BossBattlePresenter","up":0,"down":1,"down_rate":1`) {
			t.Errorf("stats lack the screen's down rate: %.2000s", body)
		}
	})
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFeedbackMetricAndTraceEvent(t *testing.T) {
	t.Parallel() // its own Redis or fresh sessions; reads no shared counter
	exp := tracetest.NewInMemoryExporter()
	f := newFixture(t, appSetup{redis: redistest.Start(t), options: []appOption{withTracing(telemetry.WithExporter(exp))}})
	s := f.newSession(t)
	r := f.chat(t, s, "who counters Fire Knight?")
	f.rate(t, s, r.Exchange, "down", "", http.StatusCreated)
	f.rate(t, s, r.Exchange, "up", "", http.StatusOK)

	resp, body := f.do(t, request{method: http.MethodGet, path: "/metrics"})
	expect(t, resp, body, http.StatusOK)
	for _, line := range []string{`gameassist_feedback_total{rating="down"} 1`, `gameassist_feedback_total{rating="up"} 1`} {
		if !strings.Contains(string(body), line) {
			t.Errorf("/metrics lacks %s", line)
		}
	}
	var turn tracetest.SpanStub
	var evals []tracetest.SpanStub
	for _, sp := range exp.GetSpans() {
		switch sp.Name {
		case "turn":
			turn = sp
		case "evaluation player_feedback":
			evals = append(evals, sp)
		}
	}
	if turn.Name == "" || len(evals) != 2 {
		t.Fatalf("turn %q, %d evaluation spans", turn.Name, len(evals))
	}
	for _, ev := range evals {
		if ev.SpanContext.TraceID() != turn.SpanContext.TraceID() || ev.Parent.SpanID() != turn.SpanContext.SpanID() {
			t.Errorf("evaluation span not under the turn: trace %s parent %s, turn %s/%s", ev.SpanContext.TraceID(), ev.Parent.SpanID(),
				turn.SpanContext.TraceID(), turn.SpanContext.SpanID())
		}
		if len(ev.Events) != 1 || ev.Events[0].Name != "gen_ai.evaluation.result" || len(ev.Links) != 1 {
			t.Errorf("evaluation span events %+v links %d", ev.Events, len(ev.Links))
		}
	}
}
