package memory

import (
	"bytes"
	"crypto/sha1" //nolint:gosec // the test recomputes the chain's tag.
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// storedHistory stores the messages of raw as turns append them, two at a
// time after the chain of the ones before: whole messages and deltas, with
// chains restarting at chainMax. It returns the stored list and the chain
// a writer holds after the last message.
func storedHistory(t *testing.T, z zcodec, raw []string) ([]string, chain) {
	t.Helper()
	var stored []string
	var c chain
	for i := 0; i < len(raw); i += 2 {
		var msgs []Message
		for _, r := range raw[i:min(i+2, len(raw))] {
			var m Message
			if err := json.Unmarshal([]byte(r), &m); err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, m)
		}
		e, err := z.encodeMessages(msgs, c)
		if err != nil {
			t.Fatal(err)
		}
		whole, after := e.whole, e.after
		if after == nil {
			after = whole
		}
		for j, m := range msgs {
			js, _ := json.Marshal(m)
			c = c.push(js, after[j][0] != deltaMark)
		}
		stored = append(stored, after...)
	}
	return stored, c
}

// TestDecodeHistoryChains: a stored history of whole messages and deltas
// (chains restarting at chainMax) decodes to its messages and to the chain
// its writer held, dictionary byte for byte; a read that starts inside a
// chain leaves that chain's deltas out; a delta read after another
// dictionary is refused by its position.
func TestDecodeHistoryChains(t *testing.T) {
	z, err := newZcodec()
	if err != nil {
		t.Fatal(err)
	}
	raw := longHistory(t, 90, 0)
	stored, want := storedHistory(t, z, raw)
	deltas := 0
	for _, s := range stored {
		if s[0] == deltaMark {
			deltas++
		}
	}
	if deltas < len(stored)/2 {
		t.Fatalf("only %d of %d messages stored as deltas", deltas, len(stored))
	}
	got, c, err := z.decodeHistory(stored, 200, 0)
	if err != nil {
		t.Fatal(err)
	}
	full, _ := parseHistory(raw)
	if len(got) != len(full) {
		t.Fatalf("%d messages, want %d", len(got), len(full))
	}
	for i := range got {
		a, _ := json.Marshal(got[i])
		b, _ := json.Marshal(full[i])
		if !bytes.Equal(a, b) {
			t.Fatalf("message %d:\n%s\nwant\n%s", i, a, b)
		}
	}
	sum := sha1.Sum([]byte(stored[len(stored)-1])) //nolint:gosec // the chain's tag.
	if c.n != want.n || !bytes.Equal(c.dict, want.dict) || c.last != hex.EncodeToString(sum[:]) {
		t.Errorf("chain n %d (want %d), dict equal %v, last %q", c.n, want.n, bytes.Equal(c.dict, want.dict), c.last)
	}

	// Read from inside the first chain: its deltas are older than the window.
	first := 1
	for stored[first][0] == deltaMark {
		first++
	}
	got, _, err = z.decodeHistory(stored[1:], 200, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(stored)-first {
		t.Errorf("read from message 1: %d messages, want %d (from the next whole one, %d)", len(got), len(stored)-first, first)
	}

	// A delta after a message it was not written after.
	bad := append([]string{}, stored...)
	bad[first+1], bad[first+2] = bad[first+2], bad[first+1]
	if bad[first+1][0] != deltaMark {
		t.Fatalf("message %d is not a delta", first+2)
	}
	if _, _, err := z.decodeHistory(bad, 200, 0); !errors.Is(err, errChain) || !strings.Contains(err.Error(), fmt.Sprintf("stored message %d:", first+1)) {
		t.Errorf("swapped deltas: %v", err)
	}
}

// TestEncodeClearDeltaOnce: a message that repeats the chain before it is
// stored as a delta and not compressed whole as well: its whole form (for
// a list that changed since the load) is the plain JSON, which decodes to
// the same message. A message the chain does not help is compressed whole
// to compare, as before.
func TestEncodeClearDeltaOnce(t *testing.T) {
	z, err := newZcodec()
	if err != nil {
		t.Fatal(err)
	}
	block := strings.Repeat("Kaelith: Legendary Magic attacker, counters burn teams. ", 40)
	first := Message{Role: "user", Content: "q1", Context: block, Exchange: 1}
	js, _ := json.Marshal(first)
	c := chain{}.push(js, true)
	again := Message{Role: "user", Content: "q2", Context: block, Exchange: 2}
	e, err := z.encodeMessages([]Message{again}, c)
	if err != nil {
		t.Fatal(err)
	}
	whole, after := e.whole, e.after
	want, _ := json.Marshal(again)
	if after[0][0] != deltaMark {
		t.Fatalf("after = %q…, want a delta", after[0][:8])
	}
	if whole[0] != string(want) {
		t.Errorf("whole form %q…, want the plain JSON (not compressed a second time)", whole[0][:8])
	}
	for _, raw := range [][]string{{string(js), after[0]}, {string(js), whole[0]}} {
		got, _, err := z.decodeHistory(raw, 10, 0)
		if err != nil || len(got) != 2 || got[1].Content != "q2" || got[1].Context != block {
			t.Fatalf("decoded %+v, %v", got, err)
		}
	}
	// Text neither the chain nor itself helps much (hex digits): no clear
	// delta, so the whole form is compressed to compare.
	var hexText strings.Builder
	for i := range 60 {
		sum := sha1.Sum([]byte(fmt.Sprint(i))) //nolint:gosec // test text
		hexText.WriteString(hex.EncodeToString(sum[:]))
	}
	other := Message{Role: "assistant", Content: hexText.String(), Exchange: 2}
	e, err = z.encodeMessages([]Message{other}, c)
	if err != nil {
		t.Fatal(err)
	}
	whole, after = e.whole, e.after
	if whole[0][0] != zstdMark {
		t.Errorf("whole form %q…, want it compressed", whole[0][:8])
	}
	if after[0][0] != deltaMark && after[0] != whole[0] {
		t.Errorf("after form neither a delta nor the whole form")
	}
}

// TestDeltaRun: a turn's consecutive deltas are written by one DEFLATE
// writer (a short message ended by a sync flush and an empty final
// block, the next one's stream starting after it), and every one still
// decodes alone after the chain before it, as the reader of whole-stream
// deltas reads them: after chains short and full (16 KB of dictionary),
// with messages around runMax and maxDict, two or three to a turn, and
// runs broken by a message stored whole.
func TestDeltaRun(t *testing.T) {
	z, err := newZcodec()
	if err != nil {
		t.Fatal(err)
	}
	text := func(seed, n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			// Lines the chain repeats, and a few it has never seen.
			if i%7 == 3 {
				sum := sha1.Sum([]byte(fmt.Sprint(seed, i))) //nolint:gosec // test text
				b.WriteString(hex.EncodeToString(sum[:]))
			} else {
				fmt.Fprintf(&b, "- gcs_get_boss_details {\"boss_id\":%d} → weak to Magic, phase %d\n", 5000+i%5, (seed+i)%3)
			}
		}
		return b.String()[:n]
	}
	flushed := []byte{0x00, 0x00, 0xff, 0xff, 0x03, 0x00}
	for _, tt := range []struct {
		name    string
		before  int   // messages stored before the turn, 3 KB each
		sizes   []int // the turn's messages' Context lengths
		flushes int   // deltas that end a run's flushed message; -1: as many as the chain has room to follow
	}{
		{"short chain, two short messages", 1, []int{500, 300}, 1},
		{"full dictionary, two short messages", 8, []int{900, 400}, 1},
		{"full dictionary, a message over runMax then a short one", 8, []int{runMax + 500, 400}, 0},
		{"full dictionary, three short messages", 8, []int{2000, 2500, 300}, 2},
		{"full dictionary, messages near maxDict", 8, []int{runMax - 400, maxDict - 100, 300}, 1},
		{"up to a full chain (chainMax)", chainMax - 2, []int{300, 300, 300, 300}, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var raw []string
			for i := range tt.before {
				js, _ := json.Marshal(Message{Role: "user", Content: fmt.Sprint("q", i), Context: text(i, 3000), Exchange: i + 1})
				raw = append(raw, string(js))
			}
			stored, c := storedHistory(t, z, raw)
			var msgs []Message
			for i, n := range tt.sizes {
				msgs = append(msgs, Message{Role: "user", Content: fmt.Sprint("turn ", i), Context: text(100+i, n), Exchange: tt.before + 1})
			}
			e, err := z.encodeMessages(msgs, c)
			if err != nil {
				t.Fatal(err)
			}
			flushes := 0
			for _, a := range e.after {
				if a[0] == deltaMark && strings.HasSuffix(a, string(flushed)) {
					flushes++
				}
			}
			want := tt.flushes
			if want < 0 {
				want = chainMax - 1 - c.n
			}
			if flushes != want {
				t.Errorf("%d deltas end a flushed run message, want %d (chain of %d)", flushes, want, c.n)
			}
			all := append(append([]string(nil), stored...), e.after...)
			texts, skip, got, err := z.decodeTexts(all, 0, chain{}, false)
			if err != nil {
				t.Fatal(err)
			}
			for i, js := range e.texts {
				if !bytes.Equal(texts[len(stored)+i], js) {
					t.Fatalf("message %d decodes to %.80q…, want %.80q…", i, texts[len(stored)+i], js)
				}
			}
			if skip != 0 || got.n != e.next.n || !bytes.Equal(got.dict, e.next.dict) || got.last != e.next.last {
				t.Errorf("chain after the turn: n %d last %s, want the writer's n %d last %s", got.n, got.last, e.next.n, e.next.last)
			}
			// Each delta also decodes with the reader's chain alone: no
			// back-reference reaches past its dictionary.
			for i := range e.after {
				prefix := all[:len(stored)+i]
				_, _, pc, err := z.decodeTexts(prefix, 0, chain{}, false)
				if err != nil {
					t.Fatal(err)
				}
				if e.after[i][0] != deltaMark {
					continue
				}
				out, err := z.undelta(nil, e.after[i], pc.dict, new(strings.Reader))
				if err != nil || !bytes.Equal(out, e.texts[i]) {
					t.Fatalf("message %d alone: %v", i, err)
				}
			}
		})
	}
}
