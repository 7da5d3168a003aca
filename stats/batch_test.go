package stats_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gameassist/gameassist/stats"
)

// cmdCounter counts the HINCRBY commands the client sends in pipelines.
type cmdCounter struct{ n int }

func (c *cmdCounter) DialHook(next redis.DialHook) redis.DialHook          { return next }
func (c *cmdCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }
func (c *cmdCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			if cmd.Name() == "hincrby" {
				c.n++
			}
		}
		return next(ctx, cmds)
	}
}

// TestBatchSummedBeforeSending: a flush of many LLM and turn records sends
// one HINCRBY per field it changes, not one per record, and the totals
// are the records' sums.
func TestBatchSummedBeforeSending(t *testing.T) {
	srv := backends[0]
	ctx := context.Background()
	rdb := srv.UniversalClient(t)
	cc := &cmdCounter{}
	rdb.AddHook(cc)
	r, err := stats.New(rdb, srv.Prefix(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1000
	llms := make([]stats.LLMRecord, n)
	turns := make([]time.Duration, n)
	for i := range llms {
		// Two durations: two buckets; every tenth call failed.
		d := 200 * time.Millisecond
		if i%2 == 1 {
			d = 2 * time.Second
		}
		llms[i] = stats.LLMRecord{PromptTokens: 100, CompletionTokens: 10, Duration: d, Err: i%10 == 0}
		turns[i] = d
	}
	if err := r.RecordLLM(ctx, llms...); err != nil {
		t.Fatal(err)
	}
	if err := r.RecordTurn(ctx, turns...); err != nil {
		t.Fatal(err)
	}
	// LLM: calls, errors, prompt, completion, timed, sum, two buckets;
	// turns: calls, timed, sum, two buckets.
	if want := 8 + 5; cc.n != want {
		t.Errorf("%d records of each kind sent %d HINCRBY, want %d", n, cc.n, want)
	}
	rep, err := r.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.LLM.Calls != n || rep.LLM.Errors != n/10 || rep.LLM.PromptTokens != 100*n || rep.LLM.CompletionTokens != 10*n {
		t.Errorf("LLM totals = %+v, want %d calls, %d errors, %d and %d tokens", rep.LLM, n, n/10, 100*n, 10*n)
	}
	if rep.LLM.MeanMS != 1100 || rep.Turns.Count != n || rep.Turns.MeanMS != 1100 {
		t.Errorf("means = LLM %v ms, turns %d at %v ms; want 1100 ms and %d turns", rep.LLM.MeanMS, rep.Turns.Count, rep.Turns.MeanMS, n)
	}
}
