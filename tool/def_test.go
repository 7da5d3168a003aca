package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

type greetArgs struct {
	Name  string `json:"name"`
	Limit *int   `json:"limit"`
}

// greeting is a typed result with every capability.
type greeting struct {
	Hello string   `json:"hello"`
	Names []string `json:"names"`
	Total int      `json:"total"`
}

func (g greeting) Summary() string { return "Hello " + g.Hello + "." }

func (g greeting) Entities() []tool.EntityRef {
	return []tool.EntityRef{{Kind: "champion", ID: 1001, Name: g.Hello}}
}

func (g greeting) Page() tool.Page {
	return tool.Page{Total: g.Total, Returned: len(g.Names), NextOffset: len(g.Names)}
}

func greetDef(run func(context.Context, greetArgs) (tool.Result, error)) *tool.Def[greetArgs] {
	return &tool.Def[greetArgs]{
		Name: "gcs_greet", Description: "greet", Category: tool.CategoryGCS, CacheFor: 2,
		Instruction: "Say hello.", Aliases: []string{"greet"}, Version: 2,
		Schema: json.RawMessage(nameSchema),
		Paging: &tool.Paging{LimitParam: "limit", OffsetParam: "offset", MaxLimit: 50},
		Run:    run,
	}
}

func TestDefSpec(t *testing.T) {
	d := greetDef(nil)
	s := d.Spec()
	if s.Name != "gcs_greet" || s.Category != tool.CategoryGCS || s.CacheDuration != 2 || s.Version != 2 ||
		s.Instruction != "Say hello." || len(s.Aliases) != 1 || s.Paging == nil || s.Paging.MaxLimit != 50 ||
		string(s.Parameters) != nameSchema {
		t.Fatalf("spec = %+v", s)
	}
	if d.ArgsType() != reflect.TypeFor[greetArgs]() {
		t.Fatalf("ArgsType = %v", d.ArgsType())
	}
}

func TestDefCall(t *testing.T) {
	var got greetArgs
	d := greetDef(func(_ context.Context, a greetArgs) (tool.Result, error) {
		got = a
		if a.Name == "fail" {
			return tool.Result{}, errors.New("backend down")
		}
		if a.Name == "own" {
			r := tool.Success("own", nil)
			r.LLMInstruction = "Own instruction."
			return r, nil
		}
		return tool.Success("hi "+a.Name, greeting{Hello: a.Name, Names: []string{a.Name}, Total: 3}), nil
	})
	tests := []struct {
		name       string
		args       string
		wantOK     bool
		wantErr    bool
		wantInstr  string
		wantDetail string
	}{
		{name: "decodes", args: `{"name":"Kaelith","limit":3}`, wantOK: true, wantInstr: "Say hello."},
		{name: "empty args", args: ``, wantOK: true, wantInstr: "Say hello."},
		{name: "tool's own instruction wins", args: `{"name":"own"}`, wantOK: true, wantInstr: "Own instruction."},
		{name: "unknown field refused", args: `{"name":"a","evil":1}`, wantDetail: "evil"},
		{name: "wrong type refused", args: `{"name":5}`, wantDetail: "name"},
		{name: "backend error passes through", args: `{"name":"fail"}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = greetArgs{}
			r, err := d.Call(context.Background(), json.RawMessage(tt.args))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if r.OK() != tt.wantOK {
				t.Fatalf("status %s: %s", r.Status, r.ForLLM())
			}
			if r.LLMInstruction != tt.wantInstr {
				t.Fatalf("instruction %q, want %q", r.LLMInstruction, tt.wantInstr)
			}
			if !strings.Contains(r.ErrorDetails, tt.wantDetail) {
				t.Fatalf("details %q lack %q", r.ErrorDetails, tt.wantDetail)
			}
		})
	}
	if _, err := d.Call(context.Background(), json.RawMessage(`{"name":"Brannoc","limit":7}`)); err != nil || got.Name != "Brannoc" || got.Limit == nil || *got.Limit != 7 {
		t.Fatalf("decoded %+v, err %v", got, err)
	}
}

func TestExecutorRecordsCapabilities(t *testing.T) {
	d := greetDef(func(_ context.Context, a greetArgs) (tool.Result, error) {
		return tool.Success("hi", greeting{Hello: a.Name, Names: []string{"a", "b"}, Total: 5}), nil
	})
	plain := &tool.Def[greetArgs]{Name: "gcs_plain", Category: tool.CategoryGCS, Schema: json.RawMessage(nameSchema),
		Run: func(context.Context, greetArgs) (tool.Result, error) {
			return tool.Success("x", map[string]int{"a": 1}), nil
		}}
	ex := newExec(t, tool.ExecutorOptions{}, d, plain)
	r := ex.Execute(context.Background(), tool.Call{Name: "greet", Arguments: json.RawMessage(`{"name":"Kaelith"}`)})
	if !r.OK() || r.LLMCacheDuration != 2 || r.LLMInstruction != "Say hello." {
		t.Fatalf("result %s", r.ForLLM())
	}
	if _, ok := r.Value.(greeting); !ok {
		t.Fatalf("Value is %T, want the typed greeting", r.Value)
	}
	if string(r.Data.(json.RawMessage)) != `{"hello":"Kaelith","names":["a","b"],"total":5}` {
		t.Fatalf("data %s", r.Data)
	}
	f := r.Facts()
	want := tool.ResultFacts{Summary: "Hello Kaelith.", Entities: []tool.EntityRef{{Kind: "champion", ID: 1001, Name: "Kaelith"}},
		Page: &tool.Page{Total: 5, Returned: 2, NextOffset: 2}}
	if !reflect.DeepEqual(f, want) {
		t.Fatalf("facts %+v, want %+v", f, want)
	}
	if !f.Page.More() {
		t.Fatal("page with a next offset reports no more")
	}
	// A result read back from the session cache has no Value; its facts
	// come from internal_info, which the LLM never sees.
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var cached tool.Result
	if err := json.Unmarshal(raw, &cached); err != nil {
		t.Fatal(err)
	}
	if cached.Value != nil || !reflect.DeepEqual(cached.Facts(), want) {
		t.Fatalf("cached facts %+v", cached.Facts())
	}
	if strings.Contains(r.ForLLM(), "Hello Kaelith.") || strings.Contains(r.ForLLM(), "entities") {
		t.Fatalf("capabilities leaked into the LLM view: %s", r.ForLLM())
	}
	p := ex.Execute(context.Background(), tool.Call{Name: "gcs_plain", Arguments: json.RawMessage(`{"name":"x"}`)})
	if f := p.Facts(); f.Summary != "" || f.Entities != nil || f.Page != nil {
		t.Fatalf("plain data declared facts: %+v", f)
	}
}

type nested struct {
	Inner struct {
		A string `json:"a"`
	} `json:"inner"`
}

type embedded struct {
	page
	Name string `json:"name"`
}

type page struct {
	Limit  *int `json:"limit"`
	Offset *int `json:"offset"`
}

func typed[A any](schema string) tool.Typed {
	return &tool.Def[A]{Name: "t", Schema: json.RawMessage(schema)}
}

func TestCheckArgs(t *testing.T) {
	tests := []struct {
		name    string
		tool    tool.Typed
		wantErr string
	}{
		{name: "match", tool: typed[greetArgs](nameSchema)},
		{name: "embedded fields", tool: typed[embedded](`{"type":"object","properties":{"name":{},"limit":{},"offset":{}}}`)},
		{name: "nested match", tool: typed[nested](`{"type":"object","properties":{"inner":{"type":"object","properties":{"a":{}}}}}`)},
		{name: "no arguments", tool: typed[struct{}](``)},
		{name: "property without field", tool: typed[greetArgs](`{"type":"object","properties":{"name":{},"limit":{},"extra":{}}}`), wantErr: "schema property arguments.extra has no struct field"},
		{name: "field without property", tool: typed[greetArgs](`{"type":"object","properties":{"name":{}}}`), wantErr: "struct field arguments.limit (Limit) has no schema property"},
		{name: "nested mismatch", tool: typed[nested](`{"type":"object","properties":{"inner":{"type":"object","properties":{"b":{}}}}}`), wantErr: "arguments.inner.b"},
		{name: "map arguments", tool: typed[map[string]any](nameSchema), wantErr: "not a struct"},
		{name: "bad schema", tool: typed[greetArgs](`{`), wantErr: "schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tool.CheckArgs(tt.tool)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		name string
		in   string
		n    int
		want string
	}{
		{name: "short unchanged", in: "Kaelith", n: 10, want: "Kaelith"},
		{name: "exact length unchanged", in: "Kaelith", n: 7, want: "Kaelith"},
		{name: "word boundary", in: "the quick brown fox jumps", n: 12, want: "the quick…"},
		{name: "next rune is a space", in: "the quick brown", n: 10, want: "the quick…"},
		{name: "dangling punctuation dropped", in: "one, two, three", n: 6, want: "one…"},
		{name: "one long word cut mid-word", in: "Supercalifragilistic", n: 8, want: "Superca…"},
		{name: "runes not bytes", in: "火の騎士は強い戦士です", n: 5, want: "火の騎士…"},
		{name: "accents kept whole", in: "Kaëlith é à ü ö", n: 9, want: "Kaëlith…"},
		{name: "zero", in: "abc", n: 0, want: ""},
		{name: "one", in: "abc", n: 1, want: "…"},
		{name: "invalid utf-8 stays bounded", in: "\xff\xfe\xfd\xfc", n: 3, want: "\xff\xfe…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tool.Clip(tt.in, tt.n); got != tt.want {
				t.Fatalf("Clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
			}
		})
	}
}

func FuzzClip(f *testing.F) {
	for _, s := range []string{"", "a b c", "火の騎士は強い", "\xff", "word, word; word"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n % 300
		got := tool.Clip(s, n)
		if n <= 0 {
			if got != "" {
				t.Fatalf("Clip(%q, %d) = %q", s, n, got)
			}
			return
		}
		if c := len([]rune(got)); c > n {
			t.Fatalf("Clip(%q, %d) has %d runes", s, n, c)
		}
		if got != s && !strings.HasSuffix(got, "…") {
			t.Fatalf("cut without a mark: %q", got)
		}
		if got != s && !strings.HasPrefix(s, strings.TrimSuffix(got, "…")) {
			t.Fatalf("Clip(%q) = %q is not a prefix", s, got)
		}
	})
}

// typedBench is a typed tool whose handler does no work, so the benchmarks
// below measure only what the definition and the executor add.
func typedBench() (*tool.Def[greetArgs], func(context.Context, greetArgs) (tool.Result, error)) {
	run := func(_ context.Context, a greetArgs) (tool.Result, error) {
		return tool.Success("ok", greeting{Hello: a.Name, Names: []string{a.Name}, Total: 1}), nil
	}
	d := greetDef(run)
	return d, run
}

// BenchmarkTypedExecutor is a typed definition through the executor:
// validation (memoized for repeated arguments), decoding into the struct,
// the handler, capabilities recorded, the envelope.
func BenchmarkTypedExecutor(b *testing.B) {
	d, _ := typedBench()
	ex := newExec(b, tool.ExecutorOptions{}, d)
	ctx := context.Background()
	call := tool.Call{Name: "gcs_greet", Arguments: json.RawMessage(`{"name":"Kaelith","limit":5}`)}
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
			ex.Execute(ctx, tool.Call{Name: "gcs_greet", Arguments: args[i%len(args)]})
			i++
		}
	})
}

// BenchmarkTypedPlumbing is a typed definition returning the same data as
// BenchmarkExecutorOverhead's untyped tool (no capabilities): what the
// definition itself adds to the executor, like for like.
func BenchmarkTypedPlumbing(b *testing.B) {
	d := &tool.Def[greetArgs]{Name: "gcs_noop", Schema: json.RawMessage(nameSchema),
		Run: func(context.Context, greetArgs) (tool.Result, error) {
			return tool.Success("ok", map[string]int{"id": 1}), nil
		}}
	ex := newExec(b, tool.ExecutorOptions{}, d)
	ctx := context.Background()
	call := tool.Call{Name: "gcs_noop", Arguments: json.RawMessage(`{"name":"Kaelith","limit":5}`)}
	b.ReportAllocs()
	for b.Loop() {
		ex.Execute(ctx, call)
	}
}

// BenchmarkUntypedDecoding is the way every tool was written before Def: an
// untyped tool decoding its own arguments strictly, through the executor.
func BenchmarkUntypedDecoding(b *testing.B) {
	t := &fakeTool{spec: tool.Spec{Name: "gcs_noop", Parameters: json.RawMessage(nameSchema)},
		fn: func(_ context.Context, args json.RawMessage, _ int) (tool.Result, error) {
			var a greetArgs
			if err := tool.DecodeArgs("gcs_noop", args, &a); err != nil {
				return tool.Result{}, err
			}
			return tool.Success("ok", map[string]int{"id": 1}), nil
		}}
	ex := newExec(b, tool.ExecutorOptions{}, t)
	ctx := context.Background()
	call := tool.Call{Name: "gcs_noop", Arguments: json.RawMessage(`{"name":"Kaelith","limit":5}`)}
	b.ReportAllocs()
	for b.Loop() {
		ex.Execute(ctx, call)
	}
}

// BenchmarkBaselineTypedHandler calls the typed handler directly with
// arguments already decoded and encodes its data: the baseline of
// BenchmarkTypedExecutor.
func BenchmarkBaselineTypedHandler(b *testing.B) {
	_, run := typedBench()
	ctx := context.Background()
	limit := 5
	a := greetArgs{Name: "Kaelith", Limit: &limit}
	b.ReportAllocs()
	for b.Loop() {
		r, _ := run(ctx, a)
		_, _ = json.Marshal(r.Data)
	}
}
