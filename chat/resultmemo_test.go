package chat

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gameassist/gameassist/memory"
	"github.com/gameassist/gameassist/tool"
)

// countingWords is a Labeler that counts the Words it gives: the memo asks
// for them only when it renders a result.
type countingWords struct{ n atomic.Int64 }

func (c *countingWords) Words(locale string) Words {
	c.n.Add(1)
	return frenchEffects{}.Words(locale)
}

func champResult(name, effect string) tool.Result {
	r := tool.Success("Details of "+name+".", json.RawMessage(`{"name":"`+name+`","skills":[{"slot":1,"effect":"`+effect+
		`"},{"slot":2,"effect":"decrease_spd"}],"affinity":"Magic"}`))
	r.LLMCacheDuration = 3
	return r
}

// TestResultMemo: a tool result is rendered once per envelope and locale,
// from the tool's result and from its stored payload alike, and the
// remembered text is what resultText renders; a changed result, payload
// or locale gets its own rendering, never a stale one.
func TestResultMemo(t *testing.T) {
	var m resultMemo
	lab := &countingWords{}
	r := champResult("Kaelith", "decrease_def")
	want := resultText(r, "fr", lab.Words("fr"))
	lab.n.Store(0)

	if got := m.text(r.ForLLM(), "fr", lab.Words); got != want {
		t.Fatalf("text:\n got %s\nwant %s", got, want)
	}
	for range 3 {
		if got := m.text(r.ForLLM(), "fr", lab.Words); got != want {
			t.Fatalf("remembered text:\n got %s\nwant %s", got, want)
		}
	}
	if n := lab.n.Load(); n != 1 {
		t.Errorf("one envelope rendered %d times, want once", n)
	}

	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	res, err := decodeResult(raw)
	if err != nil {
		t.Fatal(err)
	}
	wantStored := resultText(res, "fr", frenchEffects{}.Words("fr"))
	lab.n.Store(0)
	for range 3 {
		got, ok := m.stored(raw, "fr", lab.Words)
		if !ok || got != wantStored {
			t.Fatalf("stored: %v\n got %s\nwant %s", ok, got, wantStored)
		}
	}
	if n := lab.n.Load(); n > 1 {
		t.Errorf("one payload rendered %d times, want at most once", n)
	}
	if n := testing.AllocsPerRun(50, func() { m.stored(raw, "fr", lab.Words) }); n != 0 {
		t.Errorf("a remembered payload: %v allocations, want 0", n)
	}

	// Changed data, changed payload bytes, another locale: each rendered
	// anew, as resultText renders it.
	changed := champResult("Kaelith", "decrease_atk")
	if got, want := m.text(changed.ForLLM(), "fr", lab.Words), resultText(changed, "fr", frenchEffects{}.Words("fr")); got != want || !strings.Contains(got, "decrease_atk") {
		t.Errorf("changed result: %s, want %s", got, want)
	}
	rawChanged, _ := json.Marshal(changed)
	if got, ok := m.stored(rawChanged, "fr", lab.Words); !ok || !strings.Contains(got, "decrease_atk") || strings.Contains(got, "Baisse de DEF") {
		t.Errorf("changed payload: %v %s", ok, got)
	}
	if got, ok := m.stored(raw, "en", lab.Words); !ok || !strings.Contains(got, "decrease_def") || strings.Contains(got, "Baisse") {
		t.Errorf("English: %v %s, want the identifiers", ok, got)
	}
	if got, ok := m.stored(raw, "fr", lab.Words); !ok || got != wantStored {
		t.Errorf("French again: %v %s", ok, got)
	}

	// A payload that does not decode is skipped and not remembered.
	if got, ok := m.stored(json.RawMessage(`{"data":1}`), "fr", lab.Words); ok {
		t.Errorf("a payload without status rendered as %s", got)
	}
}

// TestResultMemoBounds: the memo keeps at most maxResultMemo texts and
// about maxResultMemoBytes, forgetting the oldest first, and renders a
// forgotten result again; a huge result is not remembered.
func TestResultMemoBounds(t *testing.T) {
	var m resultMemo
	lab := &countingWords{}
	for i := range maxResultMemo + 10 {
		m.text(champResult(fmt.Sprint("c", i), "decrease_def").ForLLM(), "en", lab.Words)
	}
	if len(m.m) != maxResultMemo || len(m.order) != maxResultMemo {
		t.Errorf("%d texts (%d in order), want %d", len(m.m), len(m.order), maxResultMemo)
	}
	lab.n.Store(0)
	m.text(champResult("c0", "decrease_def").ForLLM(), "en", lab.Words)
	if lab.n.Load() != 1 {
		t.Error("the oldest result was still remembered")
	}
	m.text(champResult(fmt.Sprint("c", maxResultMemo+9), "decrease_def").ForLLM(), "en", lab.Words)
	if lab.n.Load() != 1 {
		t.Error("the newest result was forgotten")
	}

	var big resultMemo
	filler := strings.Repeat("x", 100<<10)
	for i := range 200 {
		big.text(tool.Success(fmt.Sprint(i, filler), nil).ForLLM(), "en", lab.Words)
	}
	if big.bytes > maxResultMemoBytes {
		t.Errorf("%d bytes remembered, want at most %d", big.bytes, maxResultMemoBytes)
	}
	sum := 0
	for _, e := range big.m {
		sum += len(e.in) + len(e.out)
	}
	if sum != big.bytes {
		t.Errorf("accounted %d bytes, hold %d", big.bytes, sum)
	}
	huge := tool.Success(strings.Repeat("y", maxResultMemoText), nil)
	n := len(big.m)
	if got := big.text(huge.ForLLM(), "en", lab.Words); got != resultText(huge, "", nil) {
		t.Error("a huge result rendered differently")
	}
	if _, ok := big.get(huge.ForLLM(), false, "en"); ok || len(big.m) != n {
		t.Error("a huge result was remembered")
	}
}

// TestResultMemoConcurrent: turns of many sessions share the memo (run
// with -race).
func TestResultMemoConcurrent(t *testing.T) {
	var m resultMemo
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				r := champResult(fmt.Sprint("c", i%7), "decrease_def")
				raw, _ := json.Marshal(r)
				locale := []string{"en", "fr"}[g%2]
				if got, want := m.text(r.ForLLM(), locale, frenchEffects{}.Words), resultText(r, locale, frenchEffects{}.Words(locale)); got != want {
					t.Errorf("text %s", got)
				}
				if _, ok := m.stored(raw, locale, frenchEffects{}.Words); !ok {
					t.Error("stored")
				}
			}
		})
	}
	wg.Wait()
}

// TestDataBlockRendersCachedResultOnce: a data block renders each cached
// result from the service's memo: a second block (the next turn, another
// session) showing the same payload does not render it again.
func TestDataBlockRendersCachedResultOnce(t *testing.T) {
	lab := &countingWords{}
	e := newEnv(t, envConfig{deps: func(d *Deps) { d.Labels = lab }})
	raw, _ := json.Marshal(champResult("Kaelith", "decrease_def"))
	entry := memory.CacheEntry{Key: "k1", Tool: "gcs_get_champion_details", Parameters: json.RawMessage(`{"champion_name":"Kaelith"}`), Result: raw, CachedAt: 1}
	in := blockInput{cached: []memory.CacheEntry{entry}, locale: "fr"}
	share := blockShare{screen: 10000, other: 10000}
	lab.n.Store(0)
	first := e.svc.contextBlock(in, visible{}, share)
	second := e.svc.contextBlock(in, visible{}, share)
	if first.text != second.text || !strings.Contains(first.text, "Baisse de DEF") {
		t.Fatalf("blocks differ or lack the French name:\n%s\n%s", first.text, second.text)
	}
	if n := lab.n.Load(); n != 1 {
		t.Errorf("the payload was rendered %d times, want once", n)
	}
}
