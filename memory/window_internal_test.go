package memory

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// longHistory is n stored messages, two per exchange, each player message
// with a data block of about 2 KB as a long session's are, and sent with a
// summary through used.
func longHistory(tb testing.TB, n, used int) []string {
	tb.Helper()
	screen := "Boss screen"
	raw := make([]string, n)
	for i := range raw {
		m := Message{Role: "assistant", Content: fmt.Sprintf("Answer %d: bring Kaelith.", i), Exchange: i/2 + 1, Tools: []string{"gcs_find_counters_for_boss"}, Tokens: 9}
		if i%2 == 0 {
			m = Message{Role: "user", Content: fmt.Sprintf("question %d", i), Exchange: i/2 + 1, Tokens: 500, SummaryThrough: used,
				Context: "<context>\n" + strings.Repeat("- gcs_get_boss_details {\"name\":\"Fire Knight\"} → {\"hp\":120000,\"skills\":[\"Burn\",\"Shield\"]}\n", 25) + "</context>\n\n",
				Shown:   &Shown{Screen: &screen, Results: []ShownResult{{Key: "k", CachedAt: 1, Tool: "t", Parameters: json.RawMessage(`{"a":1}`)}}}}
		}
		m.At = time.Date(2026, 1, 2, 3, 4, 5, 6789+i, time.UTC)
		m.About = []Subject{{Kind: "boss", ID: fmt.Sprint(i)}}
		b, err := json.Marshal(m)
		if err != nil {
			tb.Fatal(err)
		}
		raw[i] = string(b)
	}
	return raw
}

// TestParseTurnHistory: the messages after the summarized exchanges
// decode in full, the older ones all but their data block and Shown; a
// damaged message is reported by its position wherever it is.
func TestParseTurnHistory(t *testing.T) {
	raw := longHistory(t, 40, 0)
	full, err := parseHistory(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ summary, used, through int }{
		{0, 0, 0}, {7, 0, 0}, {7, 7, 7}, {19, 7, 7}, {20, 20, 20}, {25, 19, 19}, {1, 1, 1},
	} {
		raw := longHistory(t, 40, c.used)
		got, err := parseTurnHistory(raw, c.summary)
		if err != nil {
			t.Fatal(err)
		}
		if n := SummarizedThrough(Meta{Summary: &Summary{Through: c.summary}}, got); c.summary > 0 && n != c.through {
			t.Errorf("summary %d, used %d: SummarizedThrough %d, want %d", c.summary, c.used, n, c.through)
		}
		for i, m := range got {
			want := full[i]
			want.SummaryThrough = m.SummaryThrough
			if m.Exchange <= c.through {
				want.Context, want.Shown = "", nil
			}
			a, _ := json.Marshal(m)
			b, _ := json.Marshal(want)
			if string(a) != string(b) {
				t.Fatalf("summary %d, used %d, message %d:\n%s\nwant\n%s", c.summary, c.used, i, a, b)
			}
		}
	}
	for _, bad := range []int{3, 38} {
		damaged := longHistory(t, 40, 10)
		damaged[bad] = damaged[bad][:20]
		if _, err := parseTurnHistory(damaged, 10); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("stored message %d:", bad)) {
			t.Errorf("damaged message %d: %v", bad, err)
		}
	}
}

// BenchmarkParseHistory decodes a full history window (200 messages) of
// which the last 20 exchanges are after the summary: all of it, and as a
// turn does.
func BenchmarkParseHistory(b *testing.B) {
	raw := longHistory(b, 200, 80)
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseHistory(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("turn", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseTurnHistory(raw, 80); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// parseHistory decodes stored message JSON in full: the reference the
// window decoding is compared with.
func parseHistory(raw []string) ([]Message, error) {
	out := make([]Message, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal([]byte(r), &out[i]); err != nil {
			return nil, fmt.Errorf("stored message %d: %w", i, err)
		}
	}
	return out, nil
}
