package memory

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// sameHistory fails unless the memo's read of raw is decodeHistory's.
func sameHistory(t *testing.T, z zcodec, memo *histMemo, id string, raw []string, keep, summary int) []Message {
	t.Helper()
	want, wc, err := z.decodeHistory(raw, keep, summary)
	if err != nil {
		t.Fatal(err)
	}
	got, gc, _, err := z.turnHistory(memo, id, raw, keep, summary)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if !bytes.Equal(a, b) {
		t.Fatalf("%d elements, summary %d: memo read differs:\n%s\nwant\n%s", len(raw), summary, a, b)
	}
	if gc.n != wc.n || !bytes.Equal(gc.dict, wc.dict) || gc.last != wc.last {
		t.Fatalf("%d elements, summary %d: chain n %d last %s, want n %d last %s (dict equal %v)", len(raw), summary, gc.n, gc.last, wc.n, wc.last, bytes.Equal(gc.dict, wc.dict))
	}
	return got
}

// TestHistMemo: turn after turn (two messages appended, the oldest
// trimmed, the summary moving on), a session's history read with the memo
// is the one read without it, chain included, and the messages it had
// decoded are reused, not decoded again; a read whose elements changed,
// that needs whole messages it had decoded summarized, or of another
// session, is decoded afresh and still the same.
func TestHistMemo(t *testing.T) {
	z, err := newZcodec()
	if err != nil {
		t.Fatal(err)
	}
	raw := longHistory(t, 140, 0)
	for i := range raw {
		// the newer player messages' prompts used the summary through
		// exchange i/2 - 8
		var m Message
		_ = json.Unmarshal([]byte(raw[i]), &m)
		if m.Role == "user" {
			m.SummaryThrough = max(0, m.Exchange-8)
			b, _ := json.Marshal(m)
			raw[i] = string(b)
		}
	}
	stored, _ := storedHistory(t, z, raw)
	var memo histMemo
	const window = 70
	var before []Message
	for end := window; end <= len(stored); end += 2 {
		read := stored[max(0, end-window):end]
		summary := max(0, end/2-10)
		got := sameHistory(t, z, &memo, "s1", read, 60, summary)
		// The turn gets the memo's messages themselves, clipped: no copy
		// of the window per turn, and an append cannot write into them.
		r := memo.get("s1")
		if len(got) == 0 || cap(got) != len(got) || &got[len(got)-1] != &r.msgs[len(r.msgs)-1] {
			t.Fatalf("read ending at %d: the window is a copy of the memo's messages (len %d cap %d)", end, len(got), cap(got))
		}
		if before != nil {
			// The newest message of the last read is reused as decoded.
			last := before[len(before)-1]
			reused := false
			for _, m := range got {
				if m.Exchange == last.Exchange && m.Role == last.Role && m.Shown != nil && m.Shown == last.Shown {
					reused = true
				}
				if m.Exchange == last.Exchange && m.Role == last.Role && m.Shown == nil && last.Shown == nil && len(m.About) > 0 && &m.About[0] == &last.About[0] {
					reused = true
				}
			}
			if !reused {
				t.Fatalf("read ending at %d: the message decoded before was decoded again", end)
			}
		}
		before = got
	}

	// The list rewritten from a message in the middle on.
	end := len(stored)
	read := stored[end-window : end]
	sameHistory(t, z, &memo, "s2", read, 60, 30)
	changed := append([]string{}, raw...)
	var m Message
	_ = json.Unmarshal([]byte(changed[end-20]), &m)
	m.Content = "rewritten"
	b, _ := json.Marshal(m)
	changed[end-20] = string(b)
	restored, _ := storedHistory(t, z, changed)
	if restored[end-21] != read[window-21] || restored[end-20] == read[window-20] {
		t.Fatal("the rewritten list is not the same up to the change")
	}
	read = restored[end-window : end]
	sameHistory(t, z, &memo, "s2", read, 60, 30)

	// The summary moves back: messages read summarized are needed whole.
	for _, summary := range []int{60, 2, 62, 2} {
		sameHistory(t, z, &memo, "s4", stored[end-window-2:end-2], 60, summary)
		if r := memo.get("s4"); summary == 60 && r.summarized <= r.skip {
			t.Fatal("no message read summarized")
		}
	}
	sameHistory(t, z, &memo, "s4", stored[end-window:end], 60, 2)

	// Another session's read of other elements.
	sameHistory(t, z, &memo, "s3", stored[:window], 60, 5)
	sameHistory(t, z, &memo, "s1", stored[:window], 60, 5)
}

// TestHistMemoBounded: the memo keeps at most maxHistMemo bytes.
func TestHistMemoBounded(t *testing.T) {
	var memo histMemo
	for i := range 100 {
		memo.set(string(rune('a'+i)), &histRead{size: maxHistMemo / 10})
		if memo.bytes > maxHistMemo {
			t.Fatalf("after %d reads: %d bytes", i+1, memo.bytes)
		}
	}
	memo.set("big", &histRead{size: maxHistMemo + 1})
	if memo.get("big") != nil || memo.bytes > maxHistMemo {
		t.Errorf("a read over the bound was kept (%d bytes)", memo.bytes)
	}
}

// TestHistMemoAppended: a turn's own messages, remembered after its write
// (appended), make the next read of the list they ended: it reads as
// decodeHistory does, chain included, decodes nothing and shares the
// remembered messages; so does a read of the same list trimmed. A read
// that is not the last to have grown its array of messages gets the
// turn's messages in a copy, never over another read's.
func TestHistMemoAppended(t *testing.T) {
	z, err := newZcodec()
	if err != nil {
		t.Fatal(err)
	}
	raw := longHistory(t, 48, 0)
	stored, _ := storedHistory(t, z, raw[:40])
	var memo histMemo
	sameHistory(t, z, &memo, "s", stored, 60, 0)
	turn := func(r *histRead, from int) (*histRead, []string) {
		t.Helper()
		var msgs []Message
		for _, js := range raw[from : from+2] {
			var m Message
			if err := json.Unmarshal([]byte(js), &m); err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, m)
		}
		e, err := z.encodeMessages(msgs, r.c)
		if err != nil || e.after == nil {
			t.Fatalf("encode: %v (after forms %d)", err, len(e.after))
		}
		memo.appended("s", r, e.after, msgs, e.texts, e.next)
		nr := memo.get("s")
		if nr == r {
			t.Fatal("the turn's messages were not remembered")
		}
		return nr, append(append([]string{}, r.raw...), e.after...)
	}
	r, list := turn(memo.get("s"), 40)
	got := sameHistory(t, z, &memo, "s", list, 60, 0)
	if &got[len(got)-1] != &r.msgs[len(r.msgs)-1] {
		t.Fatal("the read after the turn decoded its messages again")
	}
	// The list trimmed by the next write's two elements.
	r, list = turn(memo.get("s"), 42)
	got = sameHistory(t, z, &memo, "s", list[2:], 60, 0)
	if &got[len(got)-1] != &r.msgs[len(r.msgs)-1] {
		t.Fatal("the trimmed read decoded the turn's messages again")
	}

	// Two reads share an array: the later grows it, then the earlier one
	// is remembered again (a load that raced the write) and grows too.
	shared := memo.get("s")
	grown, _ := turn(shared, 44)
	last := grown.msgs[len(grown.msgs)-1].Content
	memo.set("s", shared)
	again, _ := turn(shared, 46)
	if got := grown.msgs[len(grown.msgs)-1].Content; got != last {
		t.Fatalf("growing an earlier read overwrote a later one's message: %q, want %q", got, last)
	}
	if again.msgs[len(again.msgs)-1].Content != "Answer 47: bring Kaelith." {
		t.Fatalf("the earlier read's turn: %q", again.msgs[len(again.msgs)-1].Content)
	}
}

// TestAsLoadedFields: asLoaded copies a message field by field, so a new
// field of Message (or of what it holds) must be added to it, and to the
// values TestHistoryMemoAsLoaded compares with a fresh load.
func TestAsLoadedFields(t *testing.T) {
	for _, tt := range []struct {
		typ  reflect.Type
		want int
	}{
		{reflect.TypeFor[Message](), 12},
		{reflect.TypeFor[Shown](), 5},
		{reflect.TypeFor[ShownResult](), 5},
		{reflect.TypeFor[Subject](), 3},
	} {
		if got := tt.typ.NumField(); got != tt.want {
			t.Errorf("%s has %d fields, asLoaded copies %d: update asLoaded and TestHistoryMemoAsLoaded", tt.typ, got, tt.want)
		}
	}
}
