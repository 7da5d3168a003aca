package chat

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/screens"
	"github.com/gameassist/gameassist/tool"
)

// TestScreenKeepsItsCallKeys: a screen stores the cache keys of the calls
// its rule ran, main subject first (data calls in rule order, then the
// context call), and nothing for a call the rule skipped.
func TestScreenKeepsItsCallKeys(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       []string // tools, in the keys' order
	}{
		{"every field", `{"ChampionConfigId":1001,"BossName":"Fire Knight"}`, []string{"gcs_get_character_details_by_id", "gcs_get_boss_details", "db_get_ux_details"}},
		{"a field absent", `{"ChampionConfigId":1001}`, []string{"gcs_get_character_details_by_id", "db_get_ux_details"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envConfig{screens: true})
			ctx := context.Background()
			id, _ := e.session(t)
			sc := screens.Screen{Name: "ChampionFeatureModelsPresenter", Data: json.RawMessage(tc.data)}
			if _, err := e.svc.ScreenEvent(ctx, id, sc); err != nil {
				t.Fatal(err)
			}
			m, err := e.store.Session(ctx, id)
			if err != nil || m.Screen == nil {
				t.Fatalf("session %+v: %v", m, err)
			}
			cache, err := e.store.Cache(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, k := range m.Screen.Keys {
				i := slices.IndexFunc(cache, func(c memory.CacheEntry) bool { return c.Key == k })
				if i < 0 {
					t.Fatalf("key %s is not in the cache", k)
				}
				got = append(got, cache[i].Tool)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("keys name %v, want %v", got, tc.want)
			}
		})
	}
}

// shareEntry is a cached result of the tool name with params, cached at
// exchange at.
func shareEntry(t *testing.T, key, name, params string, at int) memory.CacheEntry {
	t.Helper()
	raw, err := json.Marshal(tool.Success("ok", map[string]any{"lore": strings.Repeat(key+" ", 20)}))
	if err != nil {
		t.Fatal(err)
	}
	return memory.CacheEntry{Key: key, Tool: name, Parameters: json.RawMessage(params), Result: raw, CachedAt: at, Duration: 5}
}

// inFull reports which of keys a block gives in full (the others are one
// line each).
func inFull(b block, keys ...string) []bool {
	out := make([]bool, len(keys))
	for i, k := range keys {
		out[i] = strings.Contains(b.text, k+" "+k)
	}
	return out
}

// TestBlockScreenShareByCall: the screen's share of a data block goes to
// the results of the screen's own calls; a result of one of its rule
// tools called for something else (an earlier screen's team member) is
// not the screen's. A screen stored without keys shares by tool.
func TestBlockScreenShareByCall(t *testing.T) {
	e := newEnv(t, envConfig{})
	own := shareEntry(t, "own", "gcs_get_character_details_by_id", `{"character_id":1001}`, 2)
	other := shareEntry(t, "other", "gcs_get_character_details_by_id", `{"character_id":1006}`, 2)
	in := blockInput{cached: []memory.CacheEntry{own, other}, screenTools: []string{"gcs_get_character_details_by_id"}}
	share := blockShare{subject: 10000, screen: 10000, other: 0}

	in.screenKeys = []string{"own"}
	if got := inFull(e.svc.contextBlock(in, visible{}, share), "own", "other"); !slices.Equal(got, []bool{true, false}) {
		t.Errorf("with the screen's keys, in full: %v, want [true false]", got)
	}
	in.screenKeys = nil
	if got := inFull(e.svc.contextBlock(in, visible{}, share), "own", "other"); !slices.Equal(got, []bool{true, true}) {
		t.Errorf("by tool, in full: %v, want [true true]", got)
	}
}

// TestBlockMainSubjectFirst: the screen's main subject takes the subject
// share, its other results only the smaller screen share.
func TestBlockMainSubjectFirst(t *testing.T) {
	e := newEnv(t, envConfig{})
	subject := shareEntry(t, "subject", "gcs_get_boss_details", `{"boss_id":5001}`, 2)
	help := shareEntry(t, "help", "db_get_ux_details", `{"query":"BossBattlePresenter"}`, 2)
	in := blockInput{
		cached:      []memory.CacheEntry{help, subject},
		screenTools: []string{"gcs_get_boss_details", "db_get_ux_details"},
		screenKeys:  []string{"subject", "help"},
	}
	size := e.svc.countTokens(resultLine(subject, mustText(t, e, subject)))
	for _, tc := range []struct {
		name  string
		share blockShare
		want  []bool
	}{
		{"room for the subject alone", blockShare{subject: size, screen: size, other: 10000}, []bool{true, false}},
		{"room for both", blockShare{subject: size, screen: 10000, other: 0}, []bool{true, true}},
		{"no room for the subject", blockShare{subject: size - 1, screen: 10000, other: 10000}, []bool{false, true}},
	} {
		if got := inFull(e.svc.contextBlock(in, visible{}, tc.share), "subject", "help"); !slices.Equal(got, tc.want) {
			t.Errorf("%s: in full %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestBlockEarlierResultAsLine: a result that is not the screen's and was
// cached before the history window's newest exchange (shown in a block
// since folded into the summary, or passed over) comes back as one line;
// the results of the newest exchange's own calls come in full.
func TestBlockEarlierResultAsLine(t *testing.T) {
	e := newEnv(t, envConfig{})
	old := shareEntry(t, "old", "gcs_get_champion_details", `{"champion_name":"Kaelith"}`, 1)
	last := shareEntry(t, "last", "gcs_get_champion_details", `{"champion_name":"Sylva"}`, 3)
	in := blockInput{cached: []memory.CacheEntry{old, last}, newest: 3}
	share := blockShare{subject: 10000, screen: 10000, other: 10000}
	b := e.svc.contextBlock(in, visible{}, share)
	if got := inFull(b, "old", "last"); !slices.Equal(got, []bool{false, true}) {
		t.Errorf("in full %v, want [false true]:\n%s", got, b.text)
	}
	if !strings.Contains(b.text, `- gcs_get_champion_details {"champion_name":"Kaelith"}: `+stubNote) {
		t.Errorf("the earlier result is not a line:\n%s", b.text)
	}
	in.newest = 0
	if got := inFull(e.svc.contextBlock(in, visible{}, share), "old", "last"); !slices.Equal(got, []bool{true, true}) {
		t.Errorf("without a window, in full %v, want [true true]", got)
	}
}

func mustText(t *testing.T, e *env, c memory.CacheEntry) string {
	t.Helper()
	text, ok := e.svc.results.stored(c.Result, "", e.svc.words)
	if !ok {
		t.Fatal("result not rendered")
	}
	return text
}

// TestBlockCachedAnew: a result cached anew (the same call, a later
// exchange) is listed as current, and its earlier instance, shown in an
// earlier block, is retired without a line of its own, which would read
// the same as the call listed; a result that is gone keeps its line.
func TestBlockCachedAnew(t *testing.T) {
	e := newEnv(t, envConfig{})
	const call = `db_get_ux_details {"query":"BossBattlePresenter"}`
	anew := shareEntry(t, "help", "db_get_ux_details", `{"query":"BossBattlePresenter"}`, 4)
	old := memory.ShownResult{Key: "help", CachedAt: 1, Tool: "db_get_ux_details", Parameters: json.RawMessage(`{"query":"BossBattlePresenter"}`)}
	gone := memory.ShownResult{Key: "gone", CachedAt: 1, Tool: "gcs_get_boss_details", Parameters: json.RawMessage(`{"boss_id":5001}`)}
	share := blockShare{subject: 10000, screen: 10000, other: 10000}
	for _, tc := range []struct {
		name    string
		shown   []memory.ShownResult
		retired string // the block's retired part; "" for none
	}{
		{"cached anew", []memory.ShownResult{old}, ""},
		{"cached anew and one gone", []memory.ShownResult{old, gone}, retiredHeader + `- gcs_get_boss_details {"boss_id":5001}` + "\n"},
	} {
		v := visible{results: map[string]memory.ShownResult{}}
		for _, r := range tc.shown {
			v.results[shownID(r.Key, r.CachedAt)] = r
		}
		b := e.svc.contextBlock(blockInput{cached: []memory.CacheEntry{anew}}, v, share)
		if n := strings.Count(b.text, call); n != 1 {
			t.Errorf("%s: the call appears %d times, want once (listed as current):\n%s", tc.name, n, b.text)
		}
		_, retired, _ := strings.Cut(b.text, retiredHeader)
		if got := strings.TrimSuffix(retired, contextClose); tc.retired == "" && strings.Contains(b.text, retiredHeader) || tc.retired != "" && retiredHeader+got != tc.retired {
			t.Errorf("%s: retired part %q, want %q", tc.name, got, tc.retired)
		}
		if len(b.shown.Retired) != len(tc.shown) {
			t.Errorf("%s: %d results retired, want %d (the earlier instance too)", tc.name, len(b.shown.Retired), len(tc.shown))
		}
	}
}

// TestBlockNewScreenSubjectInFull: when the screen changes, its main
// subject that the window gives only as one line (listed before it was
// the screen's) is given in full, and recorded so; only when it fits (no
// second line for it), only the main subject, and only on a change of
// screen. A result the window gives in full is not given again.
func TestBlockNewScreenSubjectInFull(t *testing.T) {
	e := newEnv(t, envConfig{})
	subject := shareEntry(t, "subject", "gcs_get_character_details_by_id", `{"character_id":1008}`, 2)
	help := shareEntry(t, "help", "db_get_ux_details", `{"query":"ChampionFeatureModelsPresenter"}`, 2)
	size := e.svc.countTokens(resultLine(subject, mustText(t, e, subject)))
	listed := func(full ...memory.CacheEntry) visible {
		v := visible{results: map[string]memory.ShownResult{}}
		for _, c := range []memory.CacheEntry{subject, help} {
			v.results[shownID(c.Key, c.CachedAt)] = memory.ShownResult{Key: c.Key, CachedAt: c.CachedAt, Tool: c.Tool, Parameters: c.Parameters,
				Stub: !slices.ContainsFunc(full, func(f memory.CacheEntry) bool { return f.Key == c.Key })}
		}
		return v
	}
	const champScreen = "The player is on the Champion Details screen viewing \"Liande\"."
	in := blockInput{
		cached: []memory.CacheEntry{subject, help}, screen: champScreen,
		screenTools: []string{"gcs_get_character_details_by_id", "db_get_ux_details"}, screenKeys: []string{"subject", "help"},
	}
	share := blockShare{subject: size, screen: 10000, other: 10000}

	b := e.svc.contextBlock(in, listed(), share)
	if got := inFull(b, "subject", "help"); !slices.Equal(got, []bool{true, false}) {
		t.Errorf("new screen, subject listed as one line: in full %v, want [true false]:\n%s", got, b.text)
	}
	if strings.Contains(b.text, "ChampionFeatureModelsPresenter") {
		t.Errorf("the screen's other result, listed before, is listed again:\n%s", b.text)
	}
	if len(b.shown.Results) != 1 || b.shown.Results[0].Key != "subject" || b.shown.Results[0].Stub {
		t.Errorf("recorded %+v, want the subject in full", b.shown.Results)
	}

	share.subject = size - 1
	b = e.svc.contextBlock(in, listed(), share)
	if strings.Contains(b.text, "1008") || len(b.shown.Results) != 0 || !strings.Contains(b.text, champScreen) {
		t.Errorf("no room for the subject: want the screen alone, no second line for it:\n%s", b.text)
	}

	share.subject = size
	v := listed()
	v.screen = new(string)
	*v.screen = champScreen
	if b := e.svc.contextBlock(in, v, share); b.text != "" {
		t.Errorf("same screen: want no block, got\n%s", b.text)
	}
	if b := e.svc.contextBlock(in, listed(subject), share); strings.Contains(b.text, "1008") {
		t.Errorf("subject given in full before is given again:\n%s", b.text)
	}
}
