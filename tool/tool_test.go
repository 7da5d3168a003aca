package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameassist/gameassist/tool"
)

// fakeTool is a tool whose behaviour each test sets.
type fakeTool struct {
	spec  tool.Spec
	calls atomic.Int32
	fn    func(ctx context.Context, args json.RawMessage, call int) (tool.Result, error)
}

func (f *fakeTool) Spec() tool.Spec { return f.spec }

func (f *fakeTool) Call(ctx context.Context, args json.RawMessage) (tool.Result, error) {
	n := int(f.calls.Add(1))
	return f.fn(ctx, args, n)
}

const nameSchema = `{"type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":100},"limit":{"type":"integer","minimum":1,"maximum":50}},"required":["name"],"additionalProperties":false}`

func newExec(t testing.TB, opts tool.ExecutorOptions, tools ...tool.Tool) *tool.Executor {
	t.Helper()
	reg := tool.NewRegistry()
	if err := reg.Register(tools...); err != nil {
		t.Fatal(err)
	}
	ex, err := tool.NewExecutor(reg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

func echoTool() *fakeTool {
	return &fakeTool{
		spec: tool.Spec{Name: "gcs_echo", Description: "echo", Category: tool.CategoryGCS, Parameters: json.RawMessage(nameSchema), CacheDuration: 3, Aliases: []string{"echo"}},
		fn: func(_ context.Context, args json.RawMessage, _ int) (tool.Result, error) {
			var a struct{ Name string }
			if err := json.Unmarshal(args, &a); err != nil {
				return tool.Result{}, err
			}
			return tool.Success("found "+a.Name, map[string]string{"name": a.Name}), nil
		},
	}
}

func TestExecutorArguments(t *testing.T) {
	ex := newExec(t, tool.ExecutorOptions{}, echoTool())
	tests := []struct {
		name       string
		call       tool.Call
		wantStatus tool.Status
		wantInErr  string
	}{
		{name: "valid", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":"Kaelith"}`)}, wantStatus: tool.StatusSuccess},
		{name: "alias", call: tool.Call{Name: "echo", Arguments: json.RawMessage(`{"name":"Kaelith"}`)}, wantStatus: tool.StatusSuccess},
		{name: "wrong type", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":42}`)}, wantStatus: tool.StatusError, wantInErr: "field 'name'"},
		{name: "missing field", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{}`)}, wantStatus: tool.StatusError, wantInErr: "name"},
		{name: "unknown field", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":"a","evil":1}`)}, wantStatus: tool.StatusError, wantInErr: "evil"},
		{name: "out of range", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":"a","limit":500}`)}, wantStatus: tool.StatusError, wantInErr: "field 'limit'"},
		{name: "empty string", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":""}`)}, wantStatus: tool.StatusError, wantInErr: "field 'name'"},
		{name: "100 KB string", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":"` + strings.Repeat("x", 100_000) + `"}`)}, wantStatus: tool.StatusError, wantInErr: "field 'name'"},
		{name: "unicode", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":"Kaëlith 火"}`)}, wantStatus: tool.StatusSuccess},
		{name: "injection shaped", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":"' OR '1'='1; DROP TABLE champions"}`)}, wantStatus: tool.StatusSuccess},
		{name: "malformed JSON", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":`)}, wantStatus: tool.StatusError, wantInErr: "not valid JSON"},
		{name: "not an object", call: tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`[1,2]`)}, wantStatus: tool.StatusError, wantInErr: "arguments"},
		{name: "unknown tool", call: tool.Call{Name: "gcs_ech", Arguments: json.RawMessage(`{}`)}, wantStatus: tool.StatusError, wantInErr: "no tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ex.Execute(context.Background(), tt.call)
			if r.Status != tt.wantStatus {
				t.Fatalf("status = %s (%s %s), want %s", r.Status, r.Message, r.ErrorDetails, tt.wantStatus)
			}
			if tt.wantInErr != "" && !strings.Contains(r.ErrorDetails+r.Message, tt.wantInErr) {
				t.Errorf("error %q / %q does not mention %q", r.Message, r.ErrorDetails, tt.wantInErr)
			}
			if r.Status == tool.StatusError && r.Guidance == "" {
				t.Error("error envelope without guidance")
			}
			if r.Status == tool.StatusError && r.LLMCacheDuration != 0 {
				t.Errorf("error result has cache duration %d", r.LLMCacheDuration)
			}
		})
	}
}

func TestExecutorDoesNotRunOnInvalidArguments(t *testing.T) {
	f := echoTool()
	ex := newExec(t, tool.ExecutorOptions{}, f)
	ex.Execute(context.Background(), tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(`{"name":1}`)})
	if n := f.calls.Load(); n != 0 {
		t.Fatalf("tool ran %d times on invalid arguments", n)
	}
}

func TestUnknownToolGuidanceNamesClosest(t *testing.T) {
	ex := newExec(t, tool.ExecutorOptions{}, echoTool())
	r := ex.Execute(context.Background(), tool.Call{Name: "gcs_eho"})
	if !strings.Contains(r.Guidance, "gcs_echo") {
		t.Fatalf("guidance %q does not name gcs_echo", r.Guidance)
	}
}

func TestExecutorCacheDurationAndInternalInfo(t *testing.T) {
	ex := newExec(t, tool.ExecutorOptions{}, echoTool())
	r := ex.Execute(context.Background(), tool.Call{Name: "echo", Arguments: json.RawMessage(`{"name":"a"}`)})
	if r.LLMCacheDuration != 3 {
		t.Errorf("cache duration = %d, want the spec's 3", r.LLMCacheDuration)
	}
	if r.InternalInfo.FunctionName != "gcs_echo" || string(r.InternalInfo.Parameters) != `{"name":"a"}` {
		t.Errorf("internal info = %+v", r.InternalInfo)
	}
	view := r.ForLLM()
	if strings.Contains(view, "internal_info") || strings.Contains(view, "function_name") {
		t.Errorf("LLM view leaks internal info: %s", view)
	}
}

func TestExecutorRetriesTransientOnly(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		wantCalls  int32
		wantStatus tool.Status
	}{
		{name: "transient then success", err: tool.Transient(errors.New("database is locked")), wantCalls: 2, wantStatus: tool.StatusSuccess},
		{name: "permanent", err: errors.New("no such table"), wantCalls: 1, wantStatus: tool.StatusError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeTool{spec: tool.Spec{Name: "gcs_flaky"}, fn: func(_ context.Context, _ json.RawMessage, n int) (tool.Result, error) {
				if n == 1 {
					return tool.Result{}, tt.err
				}
				return tool.Success("ok", 1), nil
			}}
			ex := newExec(t, tool.ExecutorOptions{BaseBackoff: time.Millisecond}, f)
			r := ex.Execute(context.Background(), tool.Call{Name: "gcs_flaky"})
			if r.Status != tt.wantStatus || f.calls.Load() != tt.wantCalls {
				t.Fatalf("status %s after %d calls, want %s after %d", r.Status, f.calls.Load(), tt.wantStatus, tt.wantCalls)
			}
		})
	}
	t.Run("gives up after max attempts", func(t *testing.T) {
		f := &fakeTool{spec: tool.Spec{Name: "gcs_down"}, fn: func(context.Context, json.RawMessage, int) (tool.Result, error) {
			return tool.Result{}, tool.Transient(errors.New("connection refused"))
		}}
		ex := newExec(t, tool.ExecutorOptions{BaseBackoff: time.Millisecond, MaxAttempts: 3}, f)
		r := ex.Execute(context.Background(), tool.Call{Name: "gcs_down"})
		if r.OK() || f.calls.Load() != 3 || r.Guidance == "" {
			t.Fatalf("got %+v after %d calls", r, f.calls.Load())
		}
	})
}

func TestExecutorPanicAndTimeout(t *testing.T) {
	panicky := &fakeTool{spec: tool.Spec{Name: "gcs_panic"}, fn: func(context.Context, json.RawMessage, int) (tool.Result, error) {
		panic("boom")
	}}
	slow := &fakeTool{spec: tool.Spec{Name: "gcs_slow"}, fn: func(ctx context.Context, _ json.RawMessage, _ int) (tool.Result, error) {
		<-ctx.Done()
		return tool.Result{}, ctx.Err()
	}}
	ex := newExec(t, tool.ExecutorOptions{Timeout: 20 * time.Millisecond}, panicky, slow)
	if r := ex.Execute(context.Background(), tool.Call{Name: "gcs_panic"}); r.OK() || !strings.Contains(r.Message, "unexpectedly") {
		t.Errorf("panic: got %+v", r)
	}
	if r := ex.Execute(context.Background(), tool.Call{Name: "gcs_slow"}); r.OK() || !strings.Contains(r.Message, "timed out") {
		t.Errorf("timeout: got %+v", r)
	}
}

func TestExecutorTruncation(t *testing.T) {
	rows := make([]map[string]any, 500)
	for i := range rows {
		rows[i] = map[string]any{"id": i, "name": strings.Repeat("n", 20)}
	}
	lines := strings.Repeat("a line of text\n", 2000)
	tests := []struct {
		name string
		data any
		unit string
	}{
		{name: "array", data: rows, unit: "items"},
		{name: "object with array", data: map[string]any{"total": 500, "items": rows}, unit: "items"},
		{name: "string", data: lines, unit: "lines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeTool{spec: tool.Spec{Name: "gcs_big"}, fn: func(context.Context, json.RawMessage, int) (tool.Result, error) {
				return tool.Success("rows", tt.data), nil
			}}
			ex := newExec(t, tool.ExecutorOptions{MaxResultChars: 2000}, f)
			r := ex.Execute(context.Background(), tool.Call{Name: "gcs_big"})
			raw := r.Data.(json.RawMessage)
			if len(raw) > 2000 {
				t.Fatalf("data is %d bytes, over the 2000 limit", len(raw))
			}
			if !json.Valid(raw) {
				t.Fatalf("truncated data is not JSON: %s", raw)
			}
			if !r.InternalInfo.Truncated || !strings.Contains(r.Message, "full size") || !strings.Contains(r.Message, tt.unit) {
				t.Fatalf("no truncation notice: %q %+v", r.Message, r.InternalInfo)
			}
			if tt.unit == "lines" {
				var s string
				_ = json.Unmarshal(raw, &s)
				if !strings.HasSuffix(s, "\n") {
					t.Errorf("string not cut at a line boundary")
				}
			}
		})
	}
}

func TestRegistryRefuses(t *testing.T) {
	tests := []struct {
		name  string
		tools []tool.Tool
	}{
		{name: "nil", tools: []tool.Tool{nil}},
		{name: "empty name", tools: []tool.Tool{&fakeTool{spec: tool.Spec{}}}},
		{name: "duplicate", tools: []tool.Tool{echoTool(), echoTool()}},
		{name: "alias clash", tools: []tool.Tool{echoTool(), &fakeTool{spec: tool.Spec{Name: "echo"}}}},
		{name: "bad schema", tools: []tool.Tool{&fakeTool{spec: tool.Spec{Name: "x", Parameters: json.RawMessage(`{"type":12}`)}}}},
		{name: "bad display name", tools: []tool.Tool{&fakeTool{spec: tool.Spec{Name: "x", DisplayNames: tool.DisplayNames{"en": "a\nb"}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tool.NewRegistry().Register(tt.tools...); err == nil {
				t.Fatal("registered, want an error")
			}
		})
	}
}

func FuzzExecutorArguments(f *testing.F) {
	for _, s := range []string{`{"name":"a"}`, `{}`, `null`, ``, `{"name":`, `[]`, `{"name":"x","limit":1e400}`, "{\"name\":\"\xff\"}", `{"name":{"$ref":"#"}}`} {
		f.Add(s)
	}
	ex := newExec(f, tool.ExecutorOptions{}, echoTool())
	f.Fuzz(func(t *testing.T, args string) {
		r := ex.Execute(context.Background(), tool.Call{Name: "gcs_echo", Arguments: json.RawMessage(args)})
		if r.Status != tool.StatusSuccess && r.Status != tool.StatusError {
			t.Fatalf("status %q", r.Status)
		}
		if r.Status == tool.StatusError && r.Guidance == "" {
			t.Fatalf("error without guidance for %q", args)
		}
		if !json.Valid([]byte(r.ForLLM())) {
			t.Fatalf("LLM view is not JSON for %q", args)
		}
	})
}

func BenchmarkExecutorOverhead(b *testing.B) {
	noop := &fakeTool{spec: tool.Spec{Name: "gcs_noop", Parameters: json.RawMessage(nameSchema)}, fn: func(context.Context, json.RawMessage, int) (tool.Result, error) {
		return tool.Success("ok", map[string]int{"id": 1}), nil
	}}
	ex := newExec(b, tool.ExecutorOptions{}, noop)
	call := tool.Call{Name: "gcs_noop", Arguments: json.RawMessage(`{"name":"Kaelith","limit":5}`)}
	ctx := context.Background()
	b.Run("repeated-args", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ex.Execute(ctx, call)
		}
	})
	b.Run("new-args", func(b *testing.B) {
		args := make([]json.RawMessage, 10000)
		for i := range args {
			args[i] = json.RawMessage(fmt.Sprintf(`{"name":"Kaelith %d","limit":5}`, i))
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			ex.Execute(ctx, tool.Call{Name: "gcs_noop", Arguments: args[i%len(args)]})
			i++
		}
	})
}

// BenchmarkBaselineDirectCall is the tool called directly, without the
// executor: the baseline the executor's overhead is measured against.
func BenchmarkBaselineDirectCall(b *testing.B) {
	noop := &fakeTool{spec: tool.Spec{Name: "gcs_noop"}, fn: func(context.Context, json.RawMessage, int) (tool.Result, error) {
		return tool.Success("ok", map[string]int{"id": 1}), nil
	}}
	args := json.RawMessage(`{"name":"Kaelith","limit":5}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		r, _ := noop.Call(ctx, args)
		_, _ = json.Marshal(r.Data)
	}
}

func TestRowCount(t *testing.T) {
	type list struct {
		Total int              `json:"total"`
		Items []map[string]int `json:"items"`
	}
	tests := []struct {
		name string
		data any
		want int
	}{
		{name: "nil", data: nil, want: 0},
		{name: "slice", data: []int{1, 2, 3}, want: 3},
		{name: "struct with a list", data: list{Total: 9, Items: make([]map[string]int, 4)}, want: 4},
		{name: "pointer to struct", data: &list{Items: make([]map[string]int, 2)}, want: 2},
		{name: "map with a list", data: map[string]any{"total": 2, "rows": []any{1, 2}}, want: 2},
		{name: "single object", data: map[string]any{"name": "Kaelith"}, want: 1},
		{name: "text", data: "No rows returned", want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeTool{spec: tool.Spec{Name: "gcs_rows"}, fn: func(context.Context, json.RawMessage, int) (tool.Result, error) {
				return tool.Success("ok", tt.data), nil
			}}
			r := newExec(t, tool.ExecutorOptions{}, f).Execute(context.Background(), tool.Call{Name: "gcs_rows"})
			if r.InternalInfo.Rows != tt.want {
				t.Fatalf("rows = %d, want %d", r.InternalInfo.Rows, tt.want)
			}
		})
	}
}

// TestDecodeArgsSpeaksOfParameters checks that argument errors a model or a
// studio reads name the tool's parameters, never Go types or structs.
func TestDecodeArgsSpeaksOfParameters(t *testing.T) {
	type args struct {
		CharacterID int64    `json:"character_id"`
		Names       []string `json:"names"`
		Deep        struct {
			On bool `json:"on"`
		} `json:"deep"`
	}
	tests := []struct {
		name string
		args string
		want string
	}{
		{name: "float for an integer", args: `{"character_id": 1001.0}`, want: "parameter 'character_id': expected a whole number, got the number 1001.0"},
		{name: "string for an integer", args: `{"character_id": "1001"}`, want: "parameter 'character_id': expected a whole number, got a string"},
		{name: "object for a list", args: `{"names": {"a": 1}}`, want: "parameter 'names': expected a list, got an object"},
		{name: "nested", args: `{"deep": {"on": 1}}`, want: "parameter 'deep.on': expected true or false, got a number"},
		{name: "unknown parameter", args: `{"character": 1}`, want: `unknown parameter "character"`},
		{name: "cut short", args: `{"character_id": 1`, want: "not valid JSON"},
		{name: "syntax", args: `{"character_id": 1,,}`, want: "not valid JSON"},
		{name: "list for the object", args: `[1]`, want: "arguments: expected an object, got a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a args
			r, refused := tool.Refused(tool.DecodeArgs("gcs_get_character_details_by_id", json.RawMessage(tt.args), &a))
			if !refused {
				t.Fatalf("decoded %s", tt.args)
			}
			if !strings.Contains(r.ErrorDetails, tt.want) {
				t.Fatalf("error details %q, want %q", r.ErrorDetails, tt.want)
			}
			for _, internal := range []string{"json:", "Go struct", "int64", "unmarshal", "tool_test"} {
				if strings.Contains(r.ErrorDetails+r.Message+r.Guidance, internal) {
					t.Fatalf("envelope mentions %q: %+v", internal, r)
				}
			}
		})
	}
}

// TestTypedDefSpeaksOfParameters sends 1001.0 for an integer parameter of a
// typed tool: the schema accepts it as an integer, decoding into int64 does
// not, and the error the model reads names the parameter, not Go.
func TestTypedDefSpeaksOfParameters(t *testing.T) {
	type byID struct {
		CharacterID int64 `json:"character_id"`
	}
	def := &tool.Def[byID]{
		Name: "gcs_get_character_details_by_id", Description: "by id", Category: tool.CategoryGCS,
		Schema: json.RawMessage(`{"type":"object","properties":{"character_id":{"type":"integer","minimum":1}},"required":["character_id"],"additionalProperties":false}`),
		Run: func(_ context.Context, a byID) (tool.Result, error) {
			return tool.Success("ok", map[string]int64{"id": a.CharacterID}), nil
		},
	}
	ex := newExec(t, tool.ExecutorOptions{}, def)
	r := ex.Execute(context.Background(), tool.Call{Name: def.Name, Arguments: json.RawMessage(`{"character_id": 1001.0}`)})
	if r.OK() {
		return // decoding 1001.0 as 1001 is as good an answer
	}
	if !strings.Contains(r.ErrorDetails, "character_id") {
		t.Fatalf("error details %q do not name the parameter", r.ErrorDetails)
	}
	for _, internal := range []string{"json:", "Go struct", "int64", "unmarshal"} {
		if strings.Contains(r.ErrorDetails+r.Message+r.Guidance, internal) {
			t.Fatalf("envelope mentions %q: %+v", internal, r)
		}
	}
}
