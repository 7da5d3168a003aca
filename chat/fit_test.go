package chat

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameassist/gameassist/llm"
	"github.com/gameassist/gameassist/tokens"
)

// fitService is a Service with only what fitToolResult needs.
func fitService(t testing.TB) *Service {
	t.Helper()
	tok, err := tokens.ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	return &Service{tok: tok}
}

// FuzzFitToolResult cuts results of any size to any budget, spent ones
// included (the budget left goes below zero once a round's results have
// used it): no panic, a result that fits is unchanged, a cut one is a
// prefix of the result on a rune boundary followed by the note, and the
// count returned is the text's.
func FuzzFitToolResult(f *testing.F) {
	// The reported crash: a 177-byte result once the budget was spent.
	f.Add(`{"status":"success","message":"ok","data":{"counters":[{"name":"Kaelith","reason":"decreases DEF"},{"name":"Sylva","reason":"heals"}]},"llm_cache_duration":3,"x":1}`, -200)
	f.Add("", 0)
	f.Add("short", 3)
	f.Add(strings.Repeat("word ", 400), 100)
	f.Add(strings.Repeat("é", 300), 70)
	f.Add(strings.Repeat("🐉", 500), 1)
	f.Add(strings.Repeat("x", 5000), 90)
	f.Add("\xff\xfe\xfd", -1)
	s := fitService(f)
	f.Fuzz(func(t *testing.T, content string, left int) {
		out, n := s.fitToolResult(context.Background(), content, left)
		if n != s.countTokens(out) {
			t.Fatalf("returned %d tokens, the text has %d", n, s.countTokens(out))
		}
		full := s.countTokens(content)
		if full+msgOverhead <= left || out == content {
			if out != content {
				t.Fatalf("a result that fits was changed")
			}
			return
		}
		i := strings.Index(out, "\n[cut to fit the context budget")
		if i < 0 {
			t.Fatalf("cut result without the note: %q", out)
		}
		kept := out[:i]
		if !strings.HasPrefix(content, kept) || len(kept) >= len(content) {
			t.Fatalf("kept %d bytes that are not a strict prefix of the %d-byte result", len(kept), len(content))
		}
		if utf8.ValidString(content) && !utf8.ValidString(kept) {
			t.Fatalf("cut inside a rune: %q", kept)
		}
	})
}

// TestFitToolResultSpentBudget is the reported crash as a plain test: a
// result shorter than the minimum shown, with the budget spent.
func TestFitToolResultSpentBudget(t *testing.T) {
	s := fitService(t)
	content := strings.Repeat("Kaelith decreases DEF. ", 8)
	for _, left := range []int{-500, -1, 0, 10, 40} {
		out, n := s.fitToolResult(context.Background(), content, left)
		if out != content || n != s.countTokens(content) {
			t.Errorf("left %d: got %q (%d tokens), want the short result whole", left, out, n)
		}
	}
}

// exactTools is turnTools' budget as it was before results were owed:
// every text counted when it is charged.
type exactTools struct {
	s    *Service
	left int
}

func (r *exactTools) fit(content string) string {
	out, n := r.s.fitToolResult(context.Background(), content, r.left)
	r.left -= n + msgOverhead
	return out
}

func (r *exactTools) charge(m llm.Message) {
	n := msgOverhead + r.s.countTokens(m.Content)
	for _, c := range m.ToolCalls {
		n += r.s.countTokens(c.Name) + r.s.countTokens(c.Arguments) + msgOverhead
	}
	r.left -= n
}

// TestOwedBudgetSameAsCounted: a tool loop's budget with results owed
// (counted only when a later result needs the budget) cuts every result
// exactly as counting each text at once does, and ends with the same
// tokens left, over random rounds of calls, results and notes of every
// size against budgets from spent to ample.
func TestOwedBudgetSameAsCounted(t *testing.T) {
	s := fitService(t)
	pool := []string{
		"",
		"ok",
		`{"champion_name":"Kaelith"}`,
		`{"message":"Details of Kaelith.","data":{"id":1001,"name":"Kaelith","stats":{"hp":15000,"atk":1200}}}`,
		strings.Repeat("Kaelith decreases DEF and heals allies. ", 40),
		strings.Repeat(`{"name":"Sylva","reason":"heals"},`, 120),
		strings.Repeat("🐉", 400),
		strings.Repeat("x", 3000),
	}
	rng := rand.New(rand.NewPCG(25, 2026))
	cuts := 0
	for trial := range 400 {
		left := []int{-50, 0, 40, 300, 900, 2500, 20000}[trial%7]
		tt := &turnTools{s: s, left: left}
		ref := &exactTools{s: s, left: left}
		for round := range 1 + rng.IntN(3) {
			m := llm.Message{Role: llm.RoleAssistant, Content: pool[rng.IntN(3)]}
			for range 1 + rng.IntN(3) {
				m.ToolCalls = append(m.ToolCalls, llm.ToolCall{Name: "gcs_get_champion_details", Arguments: pool[2]})
			}
			tt.charge(m)
			ref.charge(m)
			for i := range m.ToolCalls {
				content := pool[rng.IntN(len(pool))]
				got, want := tt.fit(context.Background(), content), ref.fit(content)
				if got != want {
					t.Fatalf("trial %d round %d result %d (left %d): owed budget gave %.60q, counted %.60q", trial, round, i, left, got, want)
				}
				if got != content {
					cuts++
				}
				if i == len(m.ToolCalls)-1 && rng.IntN(4) == 0 {
					note := tt.note("\n[2 more tool calls of your answer were not run]")
					ref.left -= s.countTokens(note)
				}
			}
		}
		tt.settle(context.Background())
		if tt.left != ref.left {
			t.Fatalf("trial %d: %d tokens left once settled, counting at once leaves %d", trial, tt.left, ref.left)
		}
	}
	if cuts == 0 {
		t.Fatal("no result was cut: the budgets never ran out")
	}
}

// TestFittingResultNotCounted: a result that fits at one token per byte is
// given whole without being counted, until a later result needs the
// budget; then it is counted once.
func TestFittingResultNotCounted(t *testing.T) {
	s := fitService(t)
	rec := &recordingCounter{inner: s.tok}
	s.tok = rec
	small := `{"message":"Details of Kaelith.","data":{"id":1001}}`
	tt := &turnTools{s: s, left: 4000}
	if got := tt.fit(context.Background(), small); got != small {
		t.Fatalf("fit gave %q", got)
	}
	if got := rec.take(); len(got) != 0 {
		t.Fatalf("a result that fits was counted: %q", got)
	}
	big := strings.Repeat("Kaelith decreases DEF. ", 400) // over 4000 bytes
	tt.fit(context.Background(), big)
	got := rec.take()
	if !slices.Contains(got, small) || !slices.Contains(got, big) {
		t.Fatalf("a result past the byte bound counted %q, want the owed one and itself", got)
	}
}
