package toolselect

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/tool"
)

func specs(names ...string) []tool.Spec {
	out := make([]tool.Spec, len(names))
	for i, n := range names {
		out[i] = tool.Spec{Name: n, Description: "Tool about " + strings.ReplaceAll(n, "_", " ") + "."}
	}
	return out
}

func names(ss []tool.Spec) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Name
	}
	return out
}

var sample = specs("a_core", "boss_lookup", "gear_sets", "mastery_tree", "patch_notes", "screen_help", "lore_search", "faq_search")

func newSel(t *testing.T, opts Options) *Selector {
	t.Helper()
	if opts.Core == nil {
		opts.Core = []string{"a_core", "not_registered"}
	}
	if opts.Examples == nil {
		opts.Examples = map[string][]string{"gear_sets": {"what does the warlord set do"}, "faq_search": {"how do I get more energy"}}
	}
	s, err := New(sample, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSelect(t *testing.T) {
	tests := []struct {
		name     string
		opts     Options
		q        Query
		n        int
		want     []string // all of these, in this order, and nothing past the cap
		wantLen  int
		excluded []string
	}{
		{
			name: "best message match before the core under a tight cap", opts: Options{Max: 2},
			q: Query{Message: "what does the swiftwind set give"}, want: []string{"gear_sets"}, wantLen: 1,
		},
		{
			name: "core when there is room", opts: Options{Max: 10},
			q: Query{}, want: []string{"a_core"}, wantLen: 1,
		},
		{
			name: "found and screen tools first under a tight cap", opts: Options{Max: 3},
			q:    Query{Message: "energy", Found: []string{"patch_notes"}, Screen: []string{"screen_help"}},
			want: []string{"patch_notes", "faq_search"}, wantLen: 2, excluded: []string{"a_core"},
		},
		{
			name: "recent tools fill remaining room", opts: Options{Max: 10},
			q: Query{Recent: []string{"mastery_tree", "unknown_tool"}}, want: []string{"a_core", "mastery_tree"}, wantLen: 2,
		},
		{
			name: "explicit n", opts: Options{Max: 10}, n: 1,
			q: Query{Message: "what does the warlord set do"}, want: []string{"gear_sets"}, wantLen: 1,
		},
		{
			name: "mode all offers everything", opts: Options{Mode: ModeAll, Max: 3},
			q: Query{Message: "x"}, want: names(sample), wantLen: len(sample),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSel(t, tt.opts)
			got := names(s.Select(tt.q, tt.n))
			if len(got) != tt.wantLen {
				t.Fatalf("Select = %v, want %d tools", got, tt.wantLen)
			}
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("Select = %v, lacks %s", got, w)
				}
			}
			for _, x := range tt.excluded {
				if slices.Contains(got, x) {
					t.Errorf("Select = %v, holds %s", got, x)
				}
			}
			// Stable order: the registry's.
			if !slices.IsSortedFunc(got, func(a, b string) int { return slices.Index(names(sample), a) - slices.Index(names(sample), b) }) {
				t.Errorf("Select = %v, not in registry order", got)
			}
			// Same query, same bytes.
			if again := names(s.Select(tt.q, tt.n)); !slices.Equal(again, got) {
				t.Errorf("Select not deterministic: %v then %v", got, again)
			}
		})
	}
}

func TestNewRefuses(t *testing.T) {
	tests := []struct {
		name  string
		specs []tool.Spec
		opts  Options
		want  string
	}{
		{name: "bad mode", specs: sample, opts: Options{Mode: "some"}, want: `mode "some"`},
		{name: "cap too small", specs: sample, opts: Options{Max: 1}, want: "under 2"},
		{name: "name clash", specs: specs("find_tools"), want: "named find_tools"},
		{name: "use_tool clash", specs: specs("use_tool"), want: "named use_tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.specs, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestAnswerFind(t *testing.T) {
	s := newSel(t, Options{})
	tests := []struct {
		name      string
		args      string
		status    tool.Status
		wantNames []string
	}{
		{name: "match", args: `{"need":"gear set bonus"}`, status: tool.StatusSuccess, wantNames: []string{"gear_sets"}},
		{name: "empty need", args: `{"need":"  "}`, status: tool.StatusError},
		{name: "unknown field", args: `{"need":"x","other":1}`, status: tool.StatusError},
		{name: "not JSON", args: `need gear`, status: tool.StatusError},
		{name: "too long", args: `{"need":"` + strings.Repeat("x", 301) + `"}`, status: tool.StatusError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, got := s.AnswerFind(json.RawMessage(tt.args))
			if res.Status != tt.status {
				t.Fatalf("status %s, want %s: %+v", res.Status, tt.status, res)
			}
			for _, w := range tt.wantNames {
				if !slices.Contains(got, w) {
					t.Errorf("names %v lack %s", got, w)
				}
			}
			if tt.status == tool.StatusError && (got != nil || res.Guidance == "") {
				t.Errorf("error answer with names %v or without guidance", got)
			}
		})
	}
}

func TestEntityNames(t *testing.T) {
	s := newSel(t, Options{
		Entities:  map[string][]string{"boss": {"Fire Knight", "Knight"}, "champion": {"Kael"}},
		KindTools: map[string][]string{"boss": {"boss_lookup"}, "champion*2": {"mastery_tree"}},
		Examples:  map[string][]string{},
	})
	tests := []struct {
		name, msg string
		top       string
	}{
		{name: "boss name favours boss tools", msg: "fire knight?", top: "boss_lookup"},
		{name: "names match whole words only", msg: "knightly", top: ""},
		{name: "one champion named twice is not a pair", msg: "kael and kael", top: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.rank(tt.msg)
			top := ""
			if len(r) > 0 && (r[0] == "boss_lookup" || r[0] == "mastery_tree") {
				top = r[0]
			}
			if top != tt.top {
				t.Errorf("rank(%q) = %v, want %q first", tt.msg, r, tt.top)
			}
		})
	}
}

// FuzzAnswerFind: find_tools arguments come from the model; any bytes give
// an envelope, names only on success, never more than the cap, no panic.
func FuzzAnswerFind(f *testing.F) {
	for _, seed := range []string{`{"need":"gear set bonus"}`, `{"need":""}`, `{}`, `null`, `[1]`, `{"need":"x","y":2}`, "\xff\xfe", `{"need":"` + strings.Repeat("é", 301) + `"}`} {
		f.Add([]byte(seed))
	}
	s, err := New(sample, Options{Examples: map[string][]string{}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		res, names := s.AnswerFind(json.RawMessage(args))
		if res.Status != tool.StatusSuccess && len(names) > 0 {
			t.Fatalf("names %v with status %s", names, res.Status)
		}
		if len(names) > maxFound {
			t.Fatalf("%d names", len(names))
		}
	})
}

func TestConfident(t *testing.T) {
	s := newSel(t, Options{})
	best := s.scored("what does the warlord set do")
	if len(best) < 2 || s.specs[best[0].i].Name != "gear_sets" {
		t.Fatalf("ranking %v", best)
	}
	top, second := best[0].score, best[1].score
	tests := []struct {
		name         string
		msg          string
		k            int
		floor, close float32
		want         []string
	}{
		{name: "best match", msg: "what does the warlord set do", k: 1, want: []string{"gear_sets"}},
		{name: "a distant second is left out", msg: "what does the warlord set do", k: 2, close: second/top + 0.01, want: []string{"gear_sets"}},
		{name: "a close second counts", msg: "what does the warlord set do", k: 2, close: second / top, want: []string{"gear_sets", s.specs[best[1].i].Name}},
		{name: "under the floor nothing is asked for", msg: "what does the warlord set do", k: 2, floor: top + 0.01},
		{name: "empty message", msg: "  ", k: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Confident(tt.msg, tt.k, tt.floor, tt.close); !slices.Equal(got, tt.want) {
				t.Errorf("Confident = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSticky(t *testing.T) {
	s := newSel(t, Options{Max: 5})
	find := FindToolsSpec()
	local := []tool.Spec{find}
	first := names(s.Sticky(nil, Query{Message: "what does the warlord set do"}, local))
	if len(first) > 5 || first[0] != FindToolsName || !slices.Contains(first, "gear_sets") {
		t.Fatalf("first call offers %v", first)
	}
	tests := []struct {
		name string
		q    Query
		same bool     // the previous list again, same order
		want []string // else: these lead, in this order
	}{
		{name: "small talk keeps the list", q: Query{Message: "thanks!"}, same: true},
		{name: "a held best match keeps the list", q: Query{Message: "what does the warlord set give"}, same: true},
		{name: "a new screen tool changes it, kept tools first in their order", q: Query{Message: "thanks!", Screen: []string{"mastery_tree"}}, want: first[:2]},
		{name: "find_tools results change it", q: Query{Message: "thanks!", Found: []string{"patch_notes"}}, want: first[:1]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := names(s.Sticky(first, tt.q, local))
			if tt.same {
				if !slices.Equal(got, first) {
					t.Errorf("Sticky = %v, want the previous %v", got, first)
				}
				return
			}
			if slices.Equal(got, first) || len(got) > 5 || !slices.Equal(got[:len(tt.want)], tt.want) {
				t.Errorf("Sticky = %v, want a new list led by %v (previous %v)", got, tt.want, first)
			}
			for _, n := range append(slices.Clone(tt.q.Screen), tt.q.Found...) {
				if !slices.Contains(got, n) {
					t.Errorf("Sticky = %v lacks %s", got, n)
				}
			}
		})
	}
	t.Run("a tool gone from the registry changes it", func(t *testing.T) {
		prev := append(slices.Clone(first[:len(first)-1]), "gone_tool")
		if got := names(s.Sticky(prev, Query{Message: "thanks!"}, local)); slices.Contains(got, "gone_tool") {
			t.Errorf("Sticky = %v offers a tool that is gone", got)
		}
	})
}

func TestKeepOrder(t *testing.T) {
	tests := []struct {
		name  string
		specs []tool.Spec
		prev  []string
		want  []string
	}{
		{name: "no previous call", specs: specs("a", "b"), want: []string{"a", "b"}},
		{name: "kept ones in the previous order, new ones after", specs: specs("find", "x", "c", "a"), prev: []string{"find", "a", "b", "c"}, want: []string{"find", "a", "c", "x"}},
		{name: "same set, previous order", specs: specs("b", "a"), prev: []string{"a", "b"}, want: []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := names(keepOrder(tt.specs, tt.prev)); !slices.Equal(got, tt.want) {
				t.Errorf("keepOrder = %v, want %v", got, tt.want)
			}
		})
	}
}

// In ModeDeferred find_tools answers with the argument schemas the model
// needs to call the tools through use_tool; in ModeAuto without them.
func TestAnswerFindDeferred(t *testing.T) {
	for _, mode := range []string{ModeAuto, ModeDeferred} {
		s := newSel(t, Options{Mode: mode})
		res, got := s.AnswerFind(json.RawMessage(`{"need":"gear set bonus"}`))
		if res.Status != tool.StatusSuccess || !slices.Contains(got, "gear_sets") {
			t.Fatalf("%s: %+v, names %v", mode, res, got)
		}
		b, err := json.Marshal(res.Data)
		if err != nil {
			t.Fatal(err)
		}
		hasArgs := strings.Contains(string(b), `"arguments"`)
		if hasArgs != (mode == ModeDeferred) || strings.Contains(res.Message, UseToolName) != (mode == ModeDeferred) {
			t.Errorf("%s: arguments given %v, summary %q", mode, hasArgs, res.Message)
		}
		if strings.Contains(s.FindToolsSpec().Description, UseToolName) != (mode == ModeDeferred) {
			t.Errorf("%s: find_tools description %q", mode, s.FindToolsSpec().Description)
		}
	}
}

// Described lists found tools, clear matches and the screen's tools, never
// the core (offered on every call) nor a name twice, nor an unknown name.
func TestDescribed(t *testing.T) {
	s := newSel(t, Options{Mode: ModeDeferred})
	if !s.Deferred() || !slices.Equal(names(s.Core()), []string{"a_core"}) {
		t.Fatalf("deferred %v, core %v", s.Deferred(), names(s.Core()))
	}
	got := names(s.Described(Query{
		Message: "what does the warlord set do",
		Screen:  []string{"screen_help", "a_core", "gone_tool", "gear_sets"},
		Found:   []string{"patch_notes"},
	}))
	if len(got) == 0 || got[0] != "patch_notes" || !slices.Contains(got, "gear_sets") || !slices.Contains(got, "screen_help") ||
		slices.Contains(got, "a_core") || slices.Contains(got, "gone_tool") {
		t.Errorf("Described = %v", got)
	}
	seen := map[string]bool{}
	for _, n := range got {
		if seen[n] {
			t.Errorf("Described repeats %s: %v", n, got)
		}
		seen[n] = true
	}
	if small := s.Described(Query{Message: "thanks!"}); len(small) > DescribedMatches {
		t.Errorf("small talk describes %v", names(small))
	}
}
