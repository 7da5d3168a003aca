package chat

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/llm/llmtest"
)

// TestUnknownToolGuidanceNamesOnlyCallableTools: a misspelt tool name gets
// suggestions, and a tool hidden from the LLM (a SQL tool without
// Options.OfferSQLTools) is never among them, however close its name.
func TestUnknownToolGuidanceNamesOnlyCallableTools(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    Options
		wantSQL bool
	}{
		{name: "SQL tools hidden", opts: Options{}, wantSQL: false},
		{name: "SQL tools offered", opts: Options{OfferSQLTools: true}, wantSQL: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envConfig{opts: tc.opts})
			id, _ := e.session(t)
			e.fake.Enqueue(llmtest.ToolCalls(llmtest.Call{ID: "s", Name: "sql_querry", Arguments: `{"sql":"select 1"}`}), llmtest.Text("ok"))
			r := e.turn(t, id, "look it up")
			if len(r.ToolCalls) != 1 {
				t.Fatalf("calls %+v", r.ToolCalls)
			}
			res := r.ToolCalls[0].Result
			if !strings.Contains(res.Message, "Unknown tool") {
				t.Fatalf("refusal %q", res.Message)
			}
			fed := strings.Join(toolMessages(e.fake.Requests()[1]), "\n")
			if got := strings.Contains(fed, "sql_query"); got != tc.wantSQL {
				t.Errorf("guidance fed back names sql_query: %v, want %v: %s", got, tc.wantSQL, fed)
			}
			if !strings.Contains(fed, "Use one of: ") {
				t.Errorf("guidance fed back suggests nothing: %s", fed)
			}
		})
	}
}
