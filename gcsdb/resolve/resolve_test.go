package resolve_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/gcsdb/resolve"
)

func cands() []resolve.Candidate {
	return []resolve.Candidate{
		{Kind: "champion", ID: 1001, Name: "Kaelith", Aliases: []string{"kaelith", "Kaëlith la Lame"}},
		{Kind: "champion", ID: 1002, Name: "Brannoc", Aliases: []string{"brannoc"}},
		{Kind: "champion", ID: 1003, Name: "Fire Knight", Aliases: []string{"fire_knight", "Chevalier de Feu"}},
		{Kind: "champion", ID: 1004, Name: "Frost Knight"},
		{Kind: "champion", ID: 1005, Name: "Straße"},
		{Kind: "boss", ID: 5001, Name: "Gorath the Devourer", Aliases: []string{"Gorath le Dévoreur"}},
		{Kind: "boss", ID: 5002, Name: "Kaelith"}, // same name, other kind
		{Kind: "faction", ID: 101, Name: "Emberguard Legion"},
	}
}

func TestLookup(t *testing.T) {
	r := resolve.New(cands())
	tests := []struct {
		name   string
		kind   string
		query  string
		wantID int64
		how    resolve.How
	}{
		{name: "exact", kind: "champion", query: "Kaelith", wantID: 1001, how: resolve.Exact},
		{name: "exact other kind", kind: "boss", query: "Kaelith", wantID: 5002, how: resolve.Exact},
		{name: "case folded", kind: "champion", query: "KAELITH", wantID: 1001, how: resolve.Folded},
		{name: "unicode fold", kind: "champion", query: "STRASSE", wantID: 1005, how: resolve.Folded},
		{name: "accent dropped", kind: "champion", query: "kaelith la lame", wantID: 1001, how: resolve.Folded},
		{name: "localized", kind: "champion", query: "chevalier de feu", wantID: 1003, how: resolve.Folded},
		{name: "key", kind: "champion", query: "fire_knight", wantID: 1003, how: resolve.Folded},
		{name: "localized boss with accent", kind: "boss", query: "Gorath le Devoreur", wantID: 5001, how: resolve.Folded},
		{name: "partial word", kind: "boss", query: "gorath", wantID: 5001, how: resolve.Partial},
		{name: "prefix", kind: "champion", query: "bran", wantID: 1002, how: resolve.Partial},
		{name: "name inside a longer query", kind: "faction", query: "the Emberguard Legion faction", wantID: 101, how: resolve.Partial},
		{name: "adjacent transposition", kind: "champion", query: "Kealith", wantID: 1001, how: resolve.Typo},
		{name: "dropped letter", kind: "champion", query: "Branoc", wantID: 1002, how: resolve.Typo},
		{name: "doubled letter", kind: "champion", query: "Kaelitth", wantID: 1001, how: resolve.Typo},
		{name: "typo in two words", kind: "champion", query: "Fire Kinght", wantID: 1003, how: resolve.Typo},
		{name: "typo in a word of a long name", kind: "boss", query: "Gorat", wantID: 5001, how: resolve.Partial},
		{name: "word typo of a long name", kind: "boss", query: "Goraht", wantID: 5001, how: resolve.Typo},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := r.Lookup(tt.kind, tt.query)
			if !ok {
				t.Fatalf("Lookup(%q, %q) found nothing", tt.kind, tt.query)
			}
			if m.ID != tt.wantID || m.How != tt.how {
				t.Fatalf("Lookup(%q, %q) = %d by %s, want %d by %s", tt.kind, tt.query, m.ID, m.How, tt.wantID, tt.how)
			}
		})
	}
}

func TestLookupRefuses(t *testing.T) {
	r := resolve.New(cands())
	tests := []struct{ name, kind, query string }{
		{name: "empty", kind: "champion", query: "  "},
		{name: "punctuation only", kind: "champion", query: "?!"},
		{name: "ambiguous word", kind: "champion", query: "knight"},
		{name: "ambiguous across kinds", kind: "", query: "kaelith"},
		{name: "too far", kind: "champion", query: "Zzyzx"},
		{name: "short typo not tolerated", kind: "champion", query: "Kae1"},
		{name: "filler word", kind: "boss", query: "the"},
		{name: "injection shaped", kind: "champion", query: "' OR 1=1 --"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if m, ok := r.Lookup(tt.kind, tt.query); ok {
				t.Fatalf("Lookup(%q, %q) = %q (%s), want no match", tt.kind, tt.query, m.Name, m.How)
			}
		})
	}
}

func TestSuggest(t *testing.T) {
	r := resolve.New(cands())
	got := r.Suggest("champion", "Knigt", 2)
	if len(got) != 2 || got[0] != "Fire Knight" && got[0] != "Frost Knight" {
		t.Fatalf("Suggest = %v, want the two knights", got)
	}
	if got := r.Suggest("champion", "", 3); got != nil {
		t.Fatalf("Suggest of empty = %v", got)
	}
}

func TestFindAll(t *testing.T) {
	r := resolve.New(cands())
	tests := []struct {
		name string
		kind string
		text string
		want []int64
	}{
		{name: "two champions", kind: "champion", text: "Is Kaelith better than brannoc?", want: []int64{1001, 1002}},
		{name: "longest wins", kind: "", text: "can Fire Knight beat Gorath?", want: []int64{1003, 5001}},
		{name: "typo in sentence", kind: "champion", text: "how do I build Kealith and Branoc", want: []int64{1001, 1002}},
		{name: "localized multiword", kind: "", text: "le Chevalier de Feu contre Gorath le Dévoreur", want: []int64{1003, 5001}},
		{name: "once per entity", kind: "champion", text: "Kaelith, kaelith, KAELITH", want: []int64{1001}},
		{name: "nothing", kind: "", text: "what is the best team for the arena", want: nil},
		{name: "ambiguous word alone", kind: "champion", text: "which knight is best", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := r.FindAll(tt.kind, tt.text)
			var got []int64
			for _, m := range ms {
				got = append(got, m.ID)
				if tt.text[m.Start:m.Start+len(m.Text)] != m.Text {
					t.Errorf("match %q does not sit at offset %d", m.Text, m.Start)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("FindAll(%q) = %v, want %v", tt.text, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("FindAll(%q) = %v, want %v", tt.text, got, tt.want)
				}
			}
		})
	}
}

func FuzzLookup(f *testing.F) {
	for _, s := range []string{"Kaelith", "fire knight", "Σίσυφος", "\xff\xfe", "a b c d e f", "' OR 1=1"} {
		f.Add(s)
	}
	r := resolve.New(cands())
	f.Fuzz(func(t *testing.T, q string) {
		if m, ok := r.Lookup("", q); ok && m.Name == "" {
			t.Fatalf("match without a name for %q", q)
		}
		for _, m := range r.FindAll("", q) {
			if m.Start < 0 || m.Start+len(m.Text) > len(q) || q[m.Start:m.Start+len(m.Text)] != m.Text {
				t.Fatalf("bad span %+v in %q", m, q)
			}
		}
	})
}

func TestLookupUpTo(t *testing.T) {
	r := resolve.New(cands())
	if _, ok := r.LookupUpTo("champion", "Kealith", resolve.Folded); ok {
		t.Fatal("a typo resolved under the folded rule")
	}
	if _, ok := r.LookupUpTo("boss", "gorath", resolve.Folded); ok {
		t.Fatal("a partial name resolved under the folded rule")
	}
	if m, ok := r.LookupUpTo("champion", "KAELITH", resolve.Folded); !ok || m.ID != 1001 {
		t.Fatalf("folded lookup = %+v, %v", m, ok)
	}
	if m, ok := r.LookupUpTo("boss", "gorath", resolve.Partial); !ok || m.ID != 5001 {
		t.Fatalf("partial lookup = %+v, %v", m, ok)
	}
}

func TestHostileInputIsBounded(t *testing.T) {
	r := resolve.New(cands())
	long := strings.Repeat("Kaelith ", 50_000)
	if ms := r.FindAll("", long); len(ms) != 1 {
		t.Fatalf("FindAll over a long text = %d matches, want Kaelith once", len(ms))
	}
	if _, ok := r.Lookup("champion", strings.Repeat("x", 1<<20)); ok {
		t.Fatal("a megabyte of x resolved")
	}
	if got := r.Suggest("champion", strings.Repeat("kaelith", 1<<16), 1); len(got) != 1 {
		t.Fatalf("Suggest = %v", got)
	}
}

func BenchmarkFindAll(b *testing.B) {
	var cs []resolve.Candidate
	for i := range 600 {
		cs = append(cs, resolve.Candidate{Kind: "champion", ID: int64(i), Name: fmt.Sprintf("Champion%c%c%c Name%d", 'a'+i%26, 'a'+i/26%26, 'a'+i%7, i)})
	}
	r := resolve.New(cs)
	text := strings.Repeat("which team should I build against the boss with these champions today ", 6)
	b.ReportAllocs()
	for b.Loop() {
		r.FindAll("", text)
	}
}

// TestTypoTieBreak checks names one edit from two entities: a dropped,
// doubled or swapped letter wins over a wrong letter, and two wrong letters
// stay a tie that resolves to nothing.
func TestTypoTieBreak(t *testing.T) {
	r := resolve.New([]resolve.Candidate{
		{Kind: "champion", ID: 1, Name: "Malrieth"},
		{Kind: "champion", ID: 2, Name: "Maldeith"},
		{Kind: "champion", ID: 3, Name: "Aerenara"},
		{Kind: "champion", ID: 4, Name: "Aeroara"},
		{Kind: "champion", ID: 5, Name: "Sylvane"},
		{Kind: "champion", ID: 6, Name: "Sylvine"},
	})
	tests := []struct {
		name   string
		query  string
		wantID int64 // 0: no match
	}{
		{name: "swap beats wrong letter", query: "Malreith", wantID: 1},
		{name: "dropped letter beats wrong letter", query: "Aereara", wantID: 3},
		{name: "two wrong letters tie", query: "Sylvone", wantID: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := r.Lookup("champion", tt.query)
			if got := map[bool]int64{true: m.ID}[ok]; got != tt.wantID {
				t.Fatalf("Lookup(%q) = %d (%v), want %d", tt.query, m.ID, ok, tt.wantID)
			}
			ms := r.FindAll("", "tell me about "+tt.query)
			var got int64
			if len(ms) == 1 {
				got = ms[0].ID
			}
			if got != tt.wantID || len(ms) > 1 {
				t.Fatalf("FindAll(%q) = %v, want id %d", tt.query, ms, tt.wantID)
			}
		})
	}
}
