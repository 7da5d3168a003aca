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
