package chat

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gameassist/gameassist/llm/llmtest"
)

// loreEveryTurn makes the fake call db_get_lore_details with the turn's
// message as query (a cache miss every turn), then answer.
func loreEveryTurn(req openai.ChatCompletionRequest) llmtest.Reply {
	if lastIsUser(req) {
		q := req.Messages[len(req.Messages)-1].Content
		return llmtest.ToolCalls(llmtest.Call{ID: "c1", Name: "db_get_lore_details", Arguments: fmt.Sprintf(`{"query":%q}`, q)})
	}
	return llmtest.Text("Here is what the lore says.")
}

func percentile(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := min(int(float64(len(s))*p), len(s)-1)
	return float64(s[i].Microseconds()) / 1000
}

// BenchmarkTurnOverhead measures one turn with one tool call (a cache miss)
// against a zero-latency fake LLM and the in-memory session store: the turn
// engine's own cost per turn, two LLM HTTP round trips included, and the
// store calls it makes (each one Redis round trip with memory.Store, whose
// own cost memory's BenchmarkTurn measures).
func BenchmarkTurnOverhead(b *testing.B) {
	e := newEnv(b, envConfig{})
	e.fake.SetResponder(loreEveryTurn)
	const sessions = 8
	ids := make([]string, sessions)
	for i := range ids {
		ids[i], _ = e.session(b)
	}
	ctx := context.Background()
	durs := make([]time.Duration, 0, b.N)
	calls0 := e.store.Calls()
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if _, err := e.svc.Turn(ctx, TurnRequest{SessionID: ids[i%sessions], Message: fmt.Sprint("question ", i)}, nil); err != nil {
			b.Fatal(err)
		}
		durs = append(durs, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(percentile(durs, 0.50), "p50_ms")
	b.ReportMetric(percentile(durs, 0.99), "p99_ms")
	b.ReportMetric(float64(e.store.Calls()-calls0)/float64(b.N), "store_calls/turn")
}

// BenchmarkTurnsConcurrent measures turns per second with 1, 16 and 64
// sessions answering at once, one turn at a time per session.
func BenchmarkTurnsConcurrent(b *testing.B) {
	for _, n := range []int{1, 16, 64} {
		b.Run(fmt.Sprint("sessions=", n), func(b *testing.B) {
			e := newEnv(b, envConfig{})
			e.fake.SetResponder(loreEveryTurn)
			ids := make([]string, n)
			for i := range ids {
				ids[i], _ = e.session(b)
			}
			var next atomic.Int64
			ctx := context.Background()
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for w := range n {
				wg.Go(func() {
					for {
						i := next.Add(1)
						if i > int64(b.N) {
							return
						}
						if _, err := e.svc.Turn(ctx, TurnRequest{SessionID: ids[w], Message: fmt.Sprint("q", i)}, nil); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "turns/s")
		})
	}
}

// scriptNames is a 20-turn conversation about two champions.
func scriptNames() []string {
	return []string{
		"Kaelith", "Kaelith", "Sylva", "Kaelith", "Sylva", "Sylva", "Kaelith", "Kaelith", "Sylva", "Kaelith",
		"Sylva", "Kaelith", "Kaelith", "Sylva", "Sylva", "Kaelith", "Sylva", "Kaelith", "Kaelith", "Sylva",
	}
}

// cacheAwareModel acts as a model that uses results already in its
// context: it calls gcs_get_champion_details only when the champion's
// details are not in the cached section.
func cacheAwareModel() func(openai.ChatCompletionRequest) llmtest.Reply {
	aboutRe := regexp.MustCompile(`about (\w+)`)
	return func(req openai.ChatCompletionRequest) llmtest.Reply {
		return cacheAwareReply(aboutRe, req)
	}
}

func cacheAwareReply(aboutRe *regexp.Regexp, req openai.ChatCompletionRequest) llmtest.Reply {
	last := req.Messages[len(req.Messages)-1]
	if last.Role != openai.ChatMessageRoleUser {
		return llmtest.Text("Answer from the tool data.")
	}
	m := aboutRe.FindStringSubmatch(last.Content)
	if m == nil {
		return llmtest.Text("Hello!")
	}
	args := `{"champion_name":"` + m[1] + `"}`
	for _, msg := range req.Messages {
		if msg.Role == openai.ChatMessageRoleUser && strings.Contains(msg.Content, "gcs_get_champion_details "+args+" → ") {
			return llmtest.Text("From the cached data: " + m[1] + ".")
		}
	}
	return llmtest.ToolCalls(llmtest.Call{ID: "c1", Name: "gcs_get_champion_details", Arguments: args})
}

// runScript plays the scripted conversation and returns tool executions
// and prompt tokens.
func runScript(b *testing.B, noCache bool) (execs, promptTokens int) {
	e := newEnv(b, envConfig{noCache: noCache})
	e.fake.SetResponder(cacheAwareModel())
	id, _ := e.session(b)
	for _, name := range scriptNames() {
		r := e.turn(b, id, "tell me about "+name)
		promptTokens += r.Usage.PromptTokens
	}
	return e.box.get("gcs_get_champion_details").count(), promptTokens
}

// BenchmarkConversationCache plays a 20-turn conversation with the session
// cache on and off (every duration forced to 0) and reports the tool
// executions and prompt tokens the cache saves.
func BenchmarkConversationCache(b *testing.B) {
	var onExec, offExec, onTok, offTok int
	for range b.N {
		ex, tok := runScript(b, false)
		onExec, onTok = onExec+ex, onTok+tok
		ex, tok = runScript(b, true)
		offExec, offTok = offExec+ex, offTok+tok
	}
	n := float64(b.N)
	b.ReportMetric(float64(onExec)/n, "tool_execs_cache_on")
	b.ReportMetric(float64(offExec)/n, "tool_execs_cache_off")
	b.ReportMetric(float64(onTok)/n, "prompt_tokens_cache_on")
	b.ReportMetric(float64(offTok)/n, "prompt_tokens_cache_off")
	b.ReportMetric(float64(offTok-onTok)/n, "prompt_tokens_saved")
	b.ReportMetric(float64(offExec-onExec)/n, "tool_execs_saved")
}
